"""Bounds on one model call and one model turn: its time, its fan-out and its call ids.

- Time: `within_budget` runs a model call under an asyncio timeout equal to what is left of
  the run's `--max-seconds`. The budget was checked only at tool boundaries and the read
  timeout measures only silence, so an endless stream, or one byte a second, kept a call (and
  the run) alive for ever; now the call is cancelled (its connection closed) and the run ends
  `failed` with `budget_exceeded`.
- Fan-out: a turn that proposes more than `limits.max_parallel_calls` calls is refused whole:
  one `blocked` event (`too_many_calls`), no row, no checkpoint and no approval per call, and
  each call is answered with the refusal so the model is told and the run goes on. The SDK's
  approval pause is what made big turns slow (its costs grow with the square of the paused
  calls: 1,000 took minutes, and a loop without an await ignored Ctrl-C), so a refused call
  never pauses: `TurnScreen.pauses` answers the SDK's `needs_approval` and `guard` answers the
  call before the executor sees it.
- Call ids: the SDK fails the whole run when one turn reuses a call id, so the second call of
  an id is taken out of the turn before the SDK sees it and refused (`duplicate_call_id`); the
  first one goes on as usual.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from openai.types.responses import ResponseFunctionToolCall
from sqlalchemy import Connection

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.runs.call_records import refuse
from agent_core.runs.context import BudgetExceeded, RunContext
from agent_core.storage.tables import audit
from agent_core.storage.tables.timeline import append_event
from agent_core.tools.validation import printable

if TYPE_CHECKING:
    from agents.items import ModelResponse, TResponseOutputItem
    from agents.run_context import RunContextWrapper
    from agents.tool_context import ToolContext

FAN_OUT_RULE = "limits.max_parallel_calls"
CALL_ID_RULE = "tools.call_id"
Invoke = Callable[["ToolContext[None]", str], Awaitable[str]]
"""A tool's `on_invoke_tool`: the SDK's tool context and the raw arguments."""


@asynccontextmanager
async def within_budget(ctx: RunContext) -> AsyncIterator[None]:
    """Cut what runs inside when the run's wall-time budget runs out (`budget_exceeded`)."""
    budget = ctx.facts.limits.max_seconds
    spent = BudgetExceeded(f"The run used its {budget:g} s of wall time during a model call.")
    left = budget - ctx.active_seconds()
    if left <= 0:
        raise spent
    scope = asyncio.timeout(left)
    try:
        async with scope:
            yield
    except TimeoutError:
        if not scope.expired():
            raise  # a timeout of the call's own, not the budget's
        raise spent from None


@dataclass(frozen=True)
class ScreenedTurn:
    """One model response, screened: what the SDK is given and what was refused."""

    response: ModelResponse
    """What the SDK is given: each call id once."""
    proposed: int
    """The calls the model proposed, repeated ids included."""
    limit: int
    duplicates: tuple[ResponseFunctionToolCall, ...] = ()
    """Second (third...) calls of an id already used in the turn: taken out, refused."""

    @property
    def refused(self) -> bool:
        """The whole turn is refused: it proposed more calls than the limit."""
        return self.proposed > self.limit

    @property
    def refusal(self) -> str:
        return (
            f"Refused by BriefDesk ({ErrorCode.TOO_MANY_CALLS}): this turn proposed "
            f"{self.proposed} tool calls, and one turn may propose at most {self.limit} "
            f"(setting {FAN_OUT_RULE}). None of them ran. Propose at most {self.limit} at a time."
        )

    def record(self, conn: Connection, run_id: str, turn: int) -> None:
        """The refusals, in the transaction that records the turn."""
        if self.refused:
            resource = f"turn {turn}"
            append_event(
                conn,
                run_id,
                EventKind.BLOCKED,
                data={
                    "call_id": None,
                    "rule": FAN_OUT_RULE,
                    "code": str(ErrorCode.TOO_MANY_CALLS),
                    "resource": resource,
                    "message": self.refusal,
                    "calls": self.proposed,
                    "limit": self.limit,
                },
            )
            audit.record(
                conn, entry="block", principal="model", run_id=run_id, resource=resource,
                rule_id=FAN_OUT_RULE, code=str(ErrorCode.TOO_MANY_CALLS), detail=self.refusal,
            )  # fmt: skip
            return
        for call in self.duplicates:
            name = printable(call.name, 80)
            error = BriefDeskError(
                ErrorCode.DUPLICATE_CALL_ID,
                f"Another call of this turn already has the id {printable(call.call_id, 80)}: "
                "this second call was not run.",
                rule=CALL_ID_RULE,
            )
            refuse(conn, run_id, call.call_id, name, error, resource=name, mark_call=False)


class TurnScreen:
    """Screens each model response of a run, and answers the calls of refused turns."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._refusals: dict[str, str] = {}
        """Call id -> what the model is told, for every call of a refused turn."""

    def screen(self, response: ModelResponse) -> ScreenedTurn:
        seen: set[str] = set()
        kept: list[TResponseOutputItem] = []
        duplicates: list[ResponseFunctionToolCall] = []
        for item in response.output:
            if isinstance(item, ResponseFunctionToolCall):
                if item.call_id in seen:
                    duplicates.append(item)
                    continue
                seen.add(item.call_id)
            kept.append(item)
        screened = ScreenedTurn(response, len(seen) + len(duplicates), self.limit)
        if screened.refused:
            for call_id in seen:
                self._refusals[call_id] = screened.refusal
            kept = [_never_pausing(item) for item in kept]
        if duplicates or screened.refused:
            screened = replace(
                screened, response=replace(response, output=kept), duplicates=tuple(duplicates)
            )
        return screened

    async def pauses(
        self, _ctx: RunContextWrapper[None], _params: dict[str, object], call_id: str
    ) -> bool:
        """`needs_approval` of a tool that pauses: never for a call of a refused turn."""
        return call_id not in self._refusals

    def guard(self, invoke: Invoke) -> Invoke:
        """A tool's `on_invoke_tool` that answers a refused turn's call with its refusal."""

        async def guarded(tool_ctx: ToolContext[None], raw: str) -> str:
            refusal = self._refusals.get(str(tool_ctx.tool_call_id))
            if refusal is not None:
                return refusal
            return await invoke(tool_ctx, raw)

        return guarded


def _never_pausing(item: TResponseOutputItem) -> TResponseOutputItem:
    """A refused call whose arguments are not a JSON object, given `{}` instead: the SDK asks
    `needs_approval` only about arguments it can parse, and pauses for every other call."""
    if not isinstance(item, ResponseFunctionToolCall):
        return item
    try:
        parsed = json.loads(item.arguments)
    except (ValueError, RecursionError):
        parsed = None
    return item if isinstance(parsed, dict) else item.model_copy(update={"arguments": "{}"})
