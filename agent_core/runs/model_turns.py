"""Each model call of a run: budgets, the model's door, the turn's record, and its replay.

`RecordingModel` wraps the provider. Every response is masked (a key the model echoes never
goes further), screened (fan-out, repeated call ids) and recorded as the run's next turn. For a
model that does not replay exactly (a remote endpoint, asked twice, proposes other calls) the
record also keeps the response with a digest of the input it answered (`turn_responses`): a
resume after a kill in the middle of the turn sends the same input (the stored conversation's
bounded view) and is given the same response, not a new one, so the calls are the ones the
ledger already answered and the turn is neither asked for nor counted twice. That is what lets
a remote model's reads run without a pause, as the embedded models' do.

The record has no commit of its own (issue 43: two syncs a read call, not three). It is
written first thing in the run's next write transaction (`RunContext.write`): checkpoint A of
the turn's first call as a rule, the run's end for a final answer, or, when nothing of the
turn wrote before the next model call or a pause reads its calls, a commit of its own
(`flush_turn`). Why that keeps the durability promise, kill by kill:

- Killed before that commit: nothing of the turn is in the store. No call of it ran (a call
  runs only after its checkpoint A has committed, and the record commits with it or before
  it), no token of it is counted, no event names it. That is the very state of a kill while
  the response was still on its way, which the resume already handles: it sends the same
  input again. An embedded model answers it with the same turn; a remote model is asked once
  more, as after any kill before its answer was recorded, and whatever it answers runs once.
  Nothing is repeated (nothing ran) and nothing is lost (nothing was acted on).
- Killed after it: the turn's calls, counts, event and (for a remote model) its kept
  response committed together with the first thing done on the turn's behalf, so from then
  on everything is as it was with a commit of its own: the resume is given the kept response,
  the calls find their rows and ledger entries, and the turn is counted once.
- A write that rolls back (a cancel, a budget, a full disk) takes the record with it; the
  record is written again, from the progress before the turn, by the next write (the run's
  end), so it is never counted twice. On a full disk the end is recorded without it, like the
  pause's RunState (driver.py): none of the turn's calls ran.
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
        # Whether the next input may be one a kill interrupted (the first of a drive): later
        # inputs hold the responses before them, so none was answered already.
        self.may_replay = True

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
        self.ctx.flush_turn()  # the previous turn, if none of its calls wrote it: counted first
        digest = None if self.replays_exactly else input_digest(system_instructions, input)
        if digest is not None and self.may_replay:
            self.may_replay = False
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
            self.ctx.record.poll_cancel()  # no write of the run tells it while it waits
            self.ctx.check_budgets()  # a cancel request (or the wall-time budget) ends it here
