"""The `openai` provider: OpenAI or any OpenAI-compatible endpoint, surviving its failures.

One `AsyncOpenAI` client per run (built at the first call, closed by the driver at the end)
with explicit connect and read timeouts: a response or stream that sends nothing for
`openai.read_timeout` seconds is abandoned. The client library's own retries are off; this
model retries (retries.py) what can succeed later (408, 409, 429, 5xx, timeouts, dropped
connections, broken streams), waiting at least what `Retry-After` asks, and tells its observer
about each retry and each batch of streamed text. What cannot succeed (401, 403, 404, 422, a
context overflow) fails at once, in plain words (failures.py). When the retries run out the
error says `retryable: true`, and `resume` continues the run from its latest checkpoint.

The Agents SDK is reached only through its public seams: `OpenAIProvider` makes its models,
which are called through the `Model` interface; what they read is bounded and checked by the
`http_client` handed to the openai client (bounded_http.py: body size, content codings; and
streams.py: complete streams, token counts, JSON answers to streamed requests). An upgrade of
the SDK changes no file here (tests/test_house_sdk_seams.py keeps it so).

The key is read from the keyring (or its environment override) once per run and handed only
to the client, which sends it in the Authorization header; it never enters prompts, state or
logs. A server other than OpenAI's may need no key at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

from agents import OpenAIProvider
from agents.agent_output import AgentOutputSchemaBase
from agents.exceptions import ModelBehaviorError
from agents.handoffs import Handoff
from agents.items import ModelResponse, TResponseInputItem, TResponseStreamEvent
from agents.model_settings import ModelSettings
from agents.models.interface import Model, ModelTracing
from agents.tool import Tool
from agents.usage import Usage
from openai import AsyncOpenAI, Timeout
from openai.types.responses import Response, ResponseOutputItem
from openai.types.responses.response_prompt_param import ResponsePromptParam

from agent_core.models.answer_checks import bounded_arguments
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
from agent_core.models.streams import DeltaBatcher

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
            # The SDK's own models, as its public provider makes them: what they read was
            # bounded and checked by the client (bounded_http.py, streams.py).
            provider = OpenAIProvider(
                openai_client=self._client,
                use_responses=self.endpoint.api == "responses",
                use_responses_websocket=False,  # HTTP: the bounds and checks live there
            )
            self._inner = provider.get_model(self.endpoint.model)
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
