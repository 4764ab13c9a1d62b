"""Answers from the endpoint, checked on the wire: a stream is complete only when it says so.

The checks sit in the run's HTTP client (bounded_http.py), between the socket and the openai
client, so the Agents SDK is used through its public models as it comes:

- `CheckedEvents` reads a streamed (SSE) answer as it passes and raises before handing on the
  bytes of a bad event. A Chat Completions stream that ends (or sends `[DONE]`) without a
  finish reason raises `StreamIncomplete`, and an event that is not valid JSON `StreamCorrupt`,
  so the call is retried instead of half an answer being taken as the whole (the SDK treats a
  stream that simply stops as a finished answer). Token counts are checked (`check_usage`)
  before the SDK copies them into its `Usage`.
- `as_events` lets a server that ignores `stream: true` and answers with one JSON object be
  read as the stream it should have sent: a completion becomes its one chunk, a Responses
  object the one terminal event that says the same.
- `check_json_answer` checks the counts of an answer that was not streamed.

Only events that can carry what is checked (`_tokens"`, a finish reason) are parsed: the SDK
parses every event again anyway. `DeltaBatcher` joins streamed text into a few `TextDelta`s
per second at most.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator

import httpx2

from agent_core.contract.presets import OpenAIApi
from agent_core.models.answer_checks import check_usage
from agent_core.models.endpoint import CallObserver, TextDelta
from agent_core.models.failures import StreamCorrupt, StreamIncomplete

FLUSH_INTERVAL_S = 0.25
"""At most four `model_delta` events a second."""

_EOL = re.compile(rb"\r\n|\r|\n")
_COUNTS = b'_tokens"'
"""In every usage member's name: an event without it reports no token counts."""
_FINISHED = re.compile(rb'"finish_reason"\s*:\s*"')
"""A finish reason given as a string (never inside a JSON string: its quotes are escaped)."""


def model_api_of(request: httpx2.Request) -> OpenAIApi | None:
    """Which model API `request` calls, or None for any other request."""
    if request.method != "POST":
        return None
    path = request.url.path.rstrip("/")
    if path.endswith("/chat/completions"):
        return "chat"
    if path.endswith("/responses"):
        return "responses"
    return None


def is_json(headers: httpx2.Headers) -> bool:
    content_type = str(headers.get("content-type", ""))
    return "json" in content_type and "event-stream" not in content_type


def check_json_answer(body: bytes) -> None:
    """The token counts of a whole (not streamed) answer; a body that is not JSON is left to
    the client, which says so in its own words."""
    if _COUNTS not in body:
        return
    try:
        answer = json.loads(body)
    except json.JSONDecodeError:
        return
    check_usage(_usage_of(answer))


class EventChecks:
    """Reads an SSE body piece by piece, as the client's decoder will: lines, then events."""

    def __init__(self, api: OpenAIApi) -> None:
        self._api = api
        self._line: list[bytes] = []
        self._data: list[bytes] = []
        self._after_cr = False
        self.finished = api != "chat"
        """Chat Completions: a choice gave its finish reason (the Responses API's stream
        ends with its terminal event, which the model checks for)."""

    def feed(self, piece: bytes) -> None:
        if self._after_cr and piece.startswith(b"\n"):  # a CRLF split between two pieces
            piece = piece[1:]
        start = 0
        for end in _EOL.finditer(piece):
            self._line.append(piece[start : end.start()])
            self._end_line()
            start = end.end()
        if start < len(piece):
            self._line.append(piece[start:])
        self._after_cr = piece.endswith(b"\r")

    def end(self) -> None:
        if self._line:
            self._end_line()
        self._dispatch()
        if not self.finished:
            raise StreamIncomplete()

    def _end_line(self) -> None:
        line = b"".join(self._line)
        self._line.clear()
        if not line:
            self._dispatch()
        elif line.startswith(b"data:"):
            value = line[5:]
            self._data.append(value[1:] if value.startswith(b" ") else value)

    def _dispatch(self) -> None:
        if not self._data:
            return
        data = b"\n".join(self._data)
        self._data.clear()
        if data.startswith(b"[DONE]"):  # the client stops reading here
            if not self.finished:
                raise StreamIncomplete()
            return
        counts = _COUNTS in data
        finishes = not self.finished and _FINISHED.search(data) is not None
        if not (counts or finishes):
            return
        try:
            event = json.loads(data)
        except json.JSONDecodeError:
            raise StreamCorrupt() from None
        if counts:
            check_usage(_usage_of(event))
        if finishes:
            self.finished = _finish_reason_given(event)


class CheckedEvents(httpx2.AsyncByteStream, httpx2.SyncByteStream):
    """A streamed answer's body, each piece checked (`EventChecks`) before it is handed on."""

    def __init__(self, raw: httpx2.AsyncByteStream | httpx2.SyncByteStream, api: OpenAIApi) -> None:
        self._raw = raw
        self._checks = EventChecks(api)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        assert isinstance(self._raw, httpx2.AsyncByteStream)
        async for piece in self._raw:
            self._checks.feed(piece)
            yield piece
        self._checks.end()

    def __iter__(self) -> Iterator[bytes]:
        assert isinstance(self._raw, httpx2.SyncByteStream)
        for piece in self._raw:
            self._checks.feed(piece)
            yield piece
        self._checks.end()

    def close(self) -> None:
        if isinstance(self._raw, httpx2.SyncByteStream):
            self._raw.close()

    async def aclose(self) -> None:
        if isinstance(self._raw, httpx2.AsyncByteStream):
            await self._raw.aclose()


def as_events(api: OpenAIApi, body: bytes) -> bytes:
    """One JSON answer to a streamed request, as the SSE stream that says the same."""
    try:
        answer = json.loads(body)
    except json.JSONDecodeError:
        raise StreamCorrupt() from None
    if not isinstance(answer, dict):
        raise StreamCorrupt()
    check_usage(_usage_of(answer))
    if api == "chat":
        return b"data: " + _dumps(_as_chunk(answer)) + b"\n\ndata: [DONE]\n\n"
    if not isinstance(answer.get("output"), list):
        raise StreamCorrupt()
    # The client builds the event leniently, as it builds a response that was not streamed:
    # servers leave out fields that strict validation would ask for.
    kind = {"failed": "response.failed", "incomplete": "response.incomplete"}.get(
        str(answer.get("status")), "response.completed"
    )
    event = {"type": kind, "response": answer, "sequence_number": 0}
    return b"event: " + kind.encode() + b"\ndata: " + _dumps(event) + b"\n\n"


def _as_chunk(completion: dict[str, object]) -> dict[str, object]:
    """One `chat.completion` object as the one chunk of a stream that says the same."""
    choices = completion.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise StreamCorrupt()
    choice = choices[0]
    message = choice.get("message")
    message = message if isinstance(message, dict) else {}
    delta: dict[str, object] = {"role": "assistant", "content": message.get("content")}
    calls = message.get("tool_calls")
    if isinstance(calls, list) and calls:
        delta["tool_calls"] = [
            {"index": i, **call} for i, call in enumerate(calls) if isinstance(call, dict)
        ]
    return {
        "id": completion.get("id") or "chatcmpl-json",
        "object": "chat.completion.chunk",
        "created": completion.get("created") or 0,
        "model": completion.get("model") or "",
        "choices": [{"index": 0, "delta": delta, "finish_reason": choice.get("finish_reason")}],
        "usage": completion.get("usage"),
    }


def _usage_of(answer: object) -> object:
    """The usage member of a chunk or completion, or of the response an event carries."""
    if not isinstance(answer, dict):
        return None
    response = answer.get("response")
    if isinstance(response, dict) and "usage" in response:
        return response.get("usage")
    return answer.get("usage")


def _finish_reason_given(chunk: object) -> bool:
    choices = chunk.get("choices") if isinstance(chunk, dict) else None
    return isinstance(choices, list) and any(
        isinstance(c, dict) and c.get("finish_reason") for c in choices
    )


def _dumps(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


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
