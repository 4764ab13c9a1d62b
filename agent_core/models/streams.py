"""Streams from the endpoint, checked: a stream is complete only when the endpoint says so.

`CheckedChatStream` sits between the client library's Chat Completions stream and the Agents
SDK's stream handler. The SDK treats a stream that simply stops as a finished answer; here a
stream that ends without a finish reason raises `StreamIncomplete`, and a chunk that is not valid
JSON raises `StreamCorrupt`, so the call is retried instead of half an answer being taken as the
whole. A server that ignores `stream: true` and answers with one JSON completion is accepted
(its completion is replayed as a single chunk); for the Responses API, `accept_json_answer`
replays one JSON response object as the one terminal event that says the same.

`DeltaBatcher` joins streamed text into a few `TextDelta`s per second at most.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable

import httpx2
from openai import AsyncStream
from openai.types.chat import ChatCompletionChunk
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseFailedEvent,
    ResponseIncompleteEvent,
    ResponseStreamEvent,
)

from agent_core.models.answer_checks import check_usage
from agent_core.models.endpoint import CallObserver, TextDelta
from agent_core.models.failures import StreamCorrupt, StreamIncomplete

FLUSH_INTERVAL_S = 0.25
"""At most four `model_delta` events a second."""


class CheckedChatStream:
    """Iterates a Chat Completions stream; raises unless choice 0 got a finish reason."""

    def __init__(self, inner: AsyncStream[ChatCompletionChunk]) -> None:
        self._inner = inner
        self._chunks: AsyncIterator[ChatCompletionChunk] | None = None
        self.finished = False

    @property
    def response(self) -> httpx2.Response:
        """The HTTP response (the SDK reads its request id header)."""
        return self._inner.response

    def __aiter__(self) -> CheckedChatStream:
        return self

    async def __anext__(self) -> ChatCompletionChunk:
        if self._chunks is None:
            self._chunks = self._open()
        try:
            chunk = await self._chunks.__anext__()
        except StopAsyncIteration:
            if not self.finished:
                raise StreamIncomplete() from None
            raise
        except json.JSONDecodeError:
            raise StreamCorrupt() from None
        check_usage(chunk.usage)  # before the SDK's stream handler copies it
        if any(choice.finish_reason for choice in chunk.choices or []):
            self.finished = True
        return chunk

    async def _open(self) -> AsyncIterator[ChatCompletionChunk]:
        if _is_json(self._inner.response.headers):
            body = await self._inner.response.aread()
            try:
                completion = json.loads(body)
            except json.JSONDecodeError:
                raise StreamCorrupt() from None
            yield _as_chunk(completion)
            return
        async for chunk in self._inner:
            yield chunk

    async def close(self) -> None:
        await self._inner.close()


def _as_chunk(completion: object) -> ChatCompletionChunk:
    """One `chat.completion` object as the one chunk of a stream that says the same."""
    if not isinstance(completion, dict) or not completion.get("choices"):
        raise StreamCorrupt()
    choice = completion["choices"][0]
    message = choice.get("message") or {}
    delta: dict[str, object] = {"role": "assistant", "content": message.get("content")}
    if message.get("tool_calls"):
        delta["tool_calls"] = [{"index": i, **call} for i, call in enumerate(message["tool_calls"])]
    return ChatCompletionChunk.model_validate(
        {
            "id": completion.get("id") or "chatcmpl-json",
            "object": "chat.completion.chunk",
            "created": completion.get("created") or 0,
            "model": completion.get("model") or "",
            "choices": [{"index": 0, "delta": delta, "finish_reason": choice.get("finish_reason")}],
            "usage": completion.get("usage"),
        }
    )


def _is_json(headers: httpx2.Headers) -> bool:
    content_type = str(headers.get("content-type", ""))
    return "json" in content_type and "event-stream" not in content_type


def accept_json_answer(stream: object) -> None:
    """Let the SDK's Responses stream read a JSON answer to a streamed request.

    The SDK decodes the body as SSE, where one JSON object is no event at all: the call was
    refused as incomplete although the README accepts such servers. The SDK's stream wrapper
    reads its events from `_source` (the client's stream, with the HTTP response): that source
    is replaced by one that replays a JSON body as its terminal event. Another SDK shape is
    left alone (and the test of this behaviour says so).
    """
    source = getattr(stream, "_source", None)
    if source is not None and getattr(source, "response", None) is not None:
        setattr(stream, "_source", _JsonOrEvents(source))  # noqa: B010 (the SDK's private)


class _JsonOrEvents:
    def __init__(self, source: AsyncStream[ResponseStreamEvent]) -> None:
        self._source = source

    def __aiter__(self) -> AsyncIterator[ResponseStreamEvent]:
        return self._events()

    async def _events(self) -> AsyncIterator[ResponseStreamEvent]:
        response = self._source.response
        if not _is_json(response.headers):
            async for event in self._source:
                # Before the SDK reads it: it builds its Usage from the final response's.
                check_usage(getattr(getattr(event, "response", None), "usage", None))
                yield event
            return
        try:
            payload = json.loads(await response.aread())
        except json.JSONDecodeError:
            raise StreamCorrupt() from None
        if not isinstance(payload, dict) or not isinstance(payload.get("output"), list):
            raise StreamCorrupt()
        # Built leniently, as the client builds a response that was not streamed: servers
        # leave out fields that strict validation would ask for.
        answer = Response.model_construct(**payload)
        check_usage(answer.usage)
        if answer.status == "failed":
            yield ResponseFailedEvent(type="response.failed", response=answer, sequence_number=0)
        elif answer.status == "incomplete":
            yield ResponseIncompleteEvent(
                type="response.incomplete", response=answer, sequence_number=0
            )
        else:
            yield ResponseCompletedEvent(
                type="response.completed", response=answer, sequence_number=0
            )

    async def aclose(self) -> None:
        await self._source.close()


class DeltaBatcher:
    """Collects streamed text; hands it on at most every FLUSH_INTERVAL_S (and at the end)."""

    def __init__(
        self,
        observer: CallObserver,
        attempt: int,
        *,
        interval_s: float = FLUSH_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._observer = observer
        self._attempt = attempt
        self._interval_s = interval_s
        self._clock = clock
        self._parts: list[str] = []
        self._last: float | None = None  # the first text is shown at once

    def add(self, text: str) -> None:
        if not text:
            return
        self._parts.append(text)
        now = self._clock()
        if self._last is None or now - self._last >= self._interval_s:
            self.flush()

    def flush(self) -> None:
        if not self._parts:
            return
        text = "".join(self._parts)
        self._parts.clear()
        self._last = self._clock()
        self._observer.streamed(TextDelta(self._attempt, text))
