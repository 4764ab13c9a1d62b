"""Each model call of a run: budgets, the model's door, the turn's record, and its replay.

`RecordingModel` wraps the provider. Every response is masked (a key the model echoes never
goes further), screened (fan-out, repeated call ids) and recorded as the run's next turn in one
commit. For a model that does not replay exactly (a remote endpoint, asked twice, proposes
other calls) that commit also keeps the response with a digest of the input it answered
(`turn_responses`): a resume after a kill in the middle of the turn sends the same input (the
stored conversation's bounded view) and is given the same response, not a new one, so the
calls are the ones the ledger already answered and the turn is neither asked for nor counted
twice. That is what lets a remote model's reads run without a pause, as the embedded models'
do.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator

from agents import Agent, Tool
from agents.agent_output import AgentOutputSchemaBase
from agents.handoffs import Handoff
from agents.items import (
    ModelResponse,
    TResponseInputItem,
    TResponseOutputItem,
    TResponseStreamEvent,
)
from agents.model_settings import ModelSettings
from agents.models.interface import Model, ModelTracing
from agents.usage import Usage
from openai.types.responses.response_prompt_param import ResponsePromptParam
from pydantic import TypeAdapter

from agent_core.contract.events import EventKind
from agent_core.home.door import mask_model_response
from agent_core.models.endpoint import RetryNotice, TextDelta
from agent_core.runs.context import RunContext
from agent_core.runs.gate import ToolGate
from agent_core.runs.model_bounds import TurnScreen, within_budget
from agent_core.storage.tables.timeline import append_event
from agent_core.storage.tables.turn_responses import recorded_response

_OUTPUT_ITEMS: TypeAdapter[list[TResponseOutputItem]] = TypeAdapter(list[TResponseOutputItem])


def input_digest(system_instructions: str | None, input: str | list[TResponseInputItem]) -> str:
    """Of everything a turn's answer depends on that changes within a run: the same stored
    conversation gives the same view, so a resume computes the live run's digest."""
    text = json.dumps([system_instructions, input], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def response_json(response: ModelResponse) -> str:
    """The response as kept: its output items and id (its usage is counted once, when it
    arrived, so a replay carries none)."""
    items = _OUTPUT_ITEMS.dump_python(response.output, mode="json", by_alias=True)
    return json.dumps({"output": items, "response_id": response.response_id})


def response_from_json(text: str) -> ModelResponse:
    kept = json.loads(text)
    output = _OUTPUT_ITEMS.validate_python(kept["output"])
    return ModelResponse(output=output, usage=Usage(), response_id=kept.get("response_id"))


class RecordingModel(Model):
    """Wraps the provider: enforces budgets and records each model turn as it happens."""

    def __init__(
        self,
        inner: Model,
        ctx: RunContext,
        gate: ToolGate,
        screen: TurnScreen,
        *,
        replays_exactly: bool,
    ) -> None:
        self.inner = inner
        self.ctx = ctx
        self.gate = gate
        self.screen = screen
        self.replays_exactly = replays_exactly

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff[None, Agent[None]]],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
    ) -> ModelResponse:
        digest = None if self.replays_exactly else input_digest(system_instructions, input)
        if digest is not None:
            with self.ctx.store.read() as conn:
                kept = recorded_response(conn, self.ctx.run_id, digest)
            if kept is not None:
                # The turn a kill interrupted: recorded (and counted) already, given again.
                return self.screen.screen(response_from_json(kept)).response
        self.ctx.check_budgets(next_turn=True)
        async with within_budget(self.ctx):  # a stream that never ends is cut at the budget
            response = await self.inner.get_response(
                system_instructions,
                input,
                model_settings,
                tools,
                output_schema,
                handoffs,
                tracing,
                previous_response_id=previous_response_id,
                conversation_id=conversation_id,
                prompt=prompt,
            )
        # The model's door: a key it echoes is masked before its text and calls are recorded,
        # run, stored or sent back to it with the conversation.
        response = mask_model_response(response)
        screened = self.screen.screen(response)  # too many calls, a repeated call id
        kept_as = None if digest is None else (digest, response_json(response))
        self.gate.record_model_turn(screened.response, screened, kept_as=kept_as)
        return screened.response

    def stream_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff[None, Agent[None]]],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
    ) -> AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError("BriefDesk drives runs with Runner.run, not streamed")


class ModelCallRecorder:
    """Puts what a model call reports on the run's timeline, each in its own transaction so a
    person sees it at once: `model_retry` (why the run is slow) and `model_delta` (the text the
    model is writing). A wait before a retry stops early when the run is cancelled."""

    POLL_S = 1.0

    def __init__(self, ctx: RunContext) -> None:
        self.ctx = ctx

    def _turn(self) -> int:
        return self.ctx.record.progress.turns + 1

    def retrying(self, notice: RetryNotice) -> None:
        data = {
            "turn": self._turn(),
            "attempt": notice.attempt,
            "wait_s": notice.wait_s,
            "reason": notice.reason,
            "status": notice.status,
        }
        with self.ctx.write() as conn:
            append_event(conn, self.ctx.run_id, EventKind.MODEL_RETRY, data=data)

    def streamed(self, delta: TextDelta) -> None:
        data = {"turn": self._turn(), "text": delta.text, "attempt": delta.attempt}
        with self.ctx.write() as conn:
            append_event(conn, self.ctx.run_id, EventKind.MODEL_DELTA, data=data)

    async def wait(self, seconds: float) -> None:
        # Counted in the sleeps themselves, not read from a clock: a test's manual clock
        # stands still while the loop really waits.
        left = seconds
        while left > 0:
            step = min(left, self.POLL_S)
            await asyncio.sleep(step)
            left -= step
            self.ctx.check_budgets()  # a cancel request (or the wall-time budget) ends it here
