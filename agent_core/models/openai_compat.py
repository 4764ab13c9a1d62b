"""The `openai` provider: OpenAI or any OpenAI-compatible endpoint, surviving its failures.

One `AsyncOpenAI` client per run (built at the first call, closed by the driver at the end)
with explicit connect and read timeouts: a response or stream that sends nothing for
`openai.read_timeout` seconds is abandoned. The client library's own retries are off; this
model retries (retries.py) what can succeed later (408, 409, 429, 5xx, timeouts, dropped
connections, broken streams), waiting at least what `Retry-After` asks, and tells its observer
about each retry and each batch of streamed text. What cannot succeed (401, 403, 404, 422, a
context overflow) fails at once, in plain words (failures.py). When the retries run out the
error says `retryable: true`, and `resume` continues the run from its latest checkpoint.

The key is read from the keyring (or its environment override) once per run and handed only
to the client, which sends it in the Authorization header; it never enters prompts, state or
logs. A server other than OpenAI's may need no key at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Literal, cast, overload

from agents.agent_output import AgentOutputSchemaBase
from agents.exceptions import ModelBehaviorError
from agents.handoffs import Handoff
from agents.items import ModelResponse, TResponseInputItem, TResponseStreamEvent
from agents.model_settings import ModelSettings
from agents.models.interface import Model, ModelTracing
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from agents.models.openai_responses import OpenAIResponsesModel
from agents.tool import Tool
from agents.tracing.span_data import GenerationSpanData
from agents.tracing.spans import Span
from agents.usage import Usage
from openai import AsyncOpenAI, AsyncStream, Timeout
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.responses import Response, ResponseOutputItem, ResponseStreamEvent
from openai.types.responses.response_prompt_param import ResponsePromptParam

from agent_core.models.answer_checks import bounded_arguments, check_usage
from agent_core.models.bounded_http import BoundedAsyncClient
from agent_core.models.endpoint import (
    KEY_NAME,
    CallObserver,
    EndpointConfig,
    RetryNotice,
    api_key_for,
    provider_error,
)
from agent_core.models.failures import (
    CallFailure,
    StreamIncomplete,
    classify,
    exhausted_message,
    unusable_answer_message,
)
from agent_core.models.retries import RetryPolicy
from agent_core.models.streams import CheckedChatStream, DeltaBatcher, accept_json_answer

__all__ = ["KEY_NAME", "OpenAICompatModel", "make_client", "provider_error"]


def make_client(endpoint: EndpointConfig, api_key: str) -> AsyncOpenAI:
    timeout = Timeout(endpoint.read_timeout_s, connect=endpoint.connect_timeout_s)
    return AsyncOpenAI(
        api_key=api_key,
        base_url=endpoint.base_url,
        timeout=timeout,
        max_retries=0,  # every attempt is ours: counted, spaced and shown on the timeline
        http_client=BoundedAsyncClient(
            max_response_bytes=endpoint.max_response_bytes, timeout=timeout
        ),
    )


class _CheckedChatModel(OpenAIChatCompletionsModel):
    """The SDK's Chat Completions model, with each stream checked for completeness."""

    @overload
    async def _fetch_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        span: Span[GenerationSpanData],
        tracing: ModelTracing,
        stream: Literal[True],
        prompt: ResponsePromptParam | None = None,
    ) -> tuple[Response, AsyncStream[ChatCompletionChunk]]: ...

    @overload
    async def _fetch_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        span: Span[GenerationSpanData],
        tracing: ModelTracing,
        stream: Literal[False],
        prompt: ResponsePromptParam | None = None,
    ) -> ChatCompletion: ...

    async def _fetch_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        span: Span[GenerationSpanData],
        tracing: ModelTracing,
        stream: bool = False,
        prompt: ResponsePromptParam | None = None,
    ) -> ChatCompletion | tuple[Response, AsyncStream[ChatCompletionChunk]]:
        call = (system_instructions, input, model_settings, tools, output_schema, handoffs)
        if not stream:
            completion = await super()._fetch_response(
                *call, span, tracing, stream=False, prompt=prompt
            )
            check_usage(completion.usage)  # before the SDK copies it into its Usage
            return completion
        response, raw = await super()._fetch_response(
            *call, span, tracing, stream=True, prompt=prompt
        )
        # The SDK only iterates the stream and reads its `response`: the checked one does both.
        return response, cast("AsyncStream[ChatCompletionChunk]", CheckedChatStream(raw))


class _CheckedResponsesModel(OpenAIResponsesModel):
    """The SDK's Responses model, accepting a streamed request answered with one JSON object."""

    @overload
    async def _fetch_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        previous_response_id: str | None,
        conversation_id: str | None,
        stream: Literal[True],
        prompt: ResponsePromptParam | None = None,
    ) -> AsyncIterator[ResponseStreamEvent]: ...

    @overload
    async def _fetch_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        previous_response_id: str | None,
        conversation_id: str | None,
        stream: Literal[False],
        prompt: ResponsePromptParam | None = None,
    ) -> Response: ...

    async def _fetch_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        previous_response_id: str | None = None,
        conversation_id: str | None = None,
        stream: Literal[True] | Literal[False] = False,
        prompt: ResponsePromptParam | None = None,
    ) -> Response | AsyncIterator[ResponseStreamEvent]:
        call = (system_instructions, input, model_settings, tools, output_schema, handoffs)
        if not stream:
            response = await super()._fetch_response(
                *call, previous_response_id, conversation_id, stream=False, prompt=prompt
            )
            check_usage(response.usage)  # before the SDK copies it into its Usage
            return response
        events = await super()._fetch_response(
            *call, previous_response_id, conversation_id, stream=True, prompt=prompt
        )
        accept_json_answer(events)
        return events


class OpenAICompatModel(Model):
    def __init__(
        self,
        endpoint: EndpointConfig,
        observer: CallObserver,
        *,
        policy: RetryPolicy | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.observer = observer
        self.policy = policy or RetryPolicy.from_environment()
        self._client: AsyncOpenAI | None = None
        self._inner: Model | None = None

    async def _model(self) -> Model:
        if self._inner is None:
            key = await asyncio.to_thread(api_key_for, self.endpoint)  # the keyring may block
            self._client = make_client(self.endpoint, key)
            self._inner = (
                _CheckedChatModel(self.endpoint.model, self._client)
                if self.endpoint.api == "chat"
                else _CheckedResponsesModel(self.endpoint.model, self._client)
            )
        return self._inner

    async def aclose(self) -> None:
        """Close the run's client (its connections); safe to call more than once."""
        client, self._client, self._inner = self._client, None, None
        if client is not None:
            await client.close()

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
    ) -> ModelResponse:
        inner = await self._model()
        if self.endpoint.stream and model_settings.include_usage is None:
            # Ask compatible servers for usage in streams too: the token budget counts it.
            model_settings = replace(model_settings, include_usage=True)
        call = (
            system_instructions,
            input,
            model_settings,
            tools,
            output_schema,
            handoffs,
            tracing,
        )
        attempt = 0
        waited = 0.0
        while True:
            attempt += 1
            try:
                if self.endpoint.stream:
                    answer = await self._streamed(inner, attempt, call, previous_response_id)
                else:
                    answer = await inner.get_response(
                        *call,
                        previous_response_id=previous_response_id,
                        conversation_id=conversation_id,
                        prompt=prompt,
                    )
                return bounded_arguments(answer)  # before the SDK parses any arguments
            except ModelBehaviorError as exc:
                raise provider_error(
                    unusable_answer_message(self.endpoint, str(exc)), retryable=False
                ) from None
            except Exception as exc:
                failure = classify(exc, self.endpoint)
                if failure is None:
                    raise
            wait = self._next_wait(failure, attempt, waited)
            self.observer.retrying(
                RetryNotice(attempt, round(wait, 3), failure.reason, failure.status)
            )
            await self.observer.wait(wait)
            waited += wait

    def _next_wait(self, failure: CallFailure, attempt: int, waited: float) -> float:
        if not failure.retryable:
            raise provider_error(failure.message, retryable=False)
        wait = self.policy.next_wait(
            attempt=attempt, waited_s=waited, retry_after_s=failure.retry_after_s
        )
        if wait is None:
            raise provider_error(
                exhausted_message(self.endpoint, failure, attempt, waited), retryable=True
            )
        return wait

    async def _streamed(
        self,
        inner: Model,
        attempt: int,
        call: tuple[
            str | None,
            str | list[TResponseInputItem],
            ModelSettings,
            list[Tool],
            AgentOutputSchemaBase | None,
            list[Handoff],
            ModelTracing,
        ],
        previous_response_id: str | None,
    ) -> ModelResponse:
        batcher = DeltaBatcher(self.observer, attempt)
        final: Response | None = None
        done_items: list[ResponseOutputItem] = []
        events = inner.stream_response(
            *call, previous_response_id=previous_response_id, conversation_id=None, prompt=None
        )
        try:
            async for event in events:
                kind: str = getattr(event, "type", "")
                if kind == "response.output_text.delta":
                    batcher.add(str(getattr(event, "delta", "")))
                elif kind == "response.output_item.done":
                    done_items.append(getattr(event, "item"))  # noqa: B009
                elif kind == "response.completed":
                    final = getattr(event, "response")  # noqa: B009
        finally:
            batcher.flush()
            await _aclose(events)
        if final is None:
            raise StreamIncomplete()
        return ModelResponse(
            output=list(final.output) or done_items,
            usage=_usage(final),
            response_id=final.id if self.endpoint.api == "responses" else None,
        )

    def stream_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
    ) -> AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError("BriefDesk streams inside get_response (see _streamed)")


async def _aclose(events: object) -> None:
    aclose = getattr(events, "aclose", None)
    if aclose is not None:
        await aclose()


def _usage(response: Response) -> Usage:
    """What the endpoint reported (the token budget counts it); zero tokens if it said nothing."""
    usage = response.usage
    if usage is None:
        return Usage(requests=1)
    return Usage(
        requests=1,
        input_tokens=usage.input_tokens or 0,
        output_tokens=usage.output_tokens or 0,
        total_tokens=usage.total_tokens or 0,
    )
