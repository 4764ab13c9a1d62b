"""What one run's parts share, handed down by the driver (no back-references, no circles)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from sqlalchemy import Connection

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.home import clock
from agent_core.home.preferences import Settings
from agent_core.runs.ownership import check_held
from agent_core.runs.record import RunFacts, RunRecord
from agent_core.runs.transcript import Transcript
from agent_core.storage.store import Store
from agent_core.storage.team.leases import Holder
from agent_core.tools.policy import Mode
from agent_core.tools.registry import BUILTIN, ToolSet
from agent_core.tools.specs import ToolScope


class StopRun(Exception):
    """Raised inside the SDK loop to stop the run at a boundary (a cancel was requested)."""


class BudgetExceeded(BriefDeskError):
    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BUDGET_EXCEEDED, message)


@dataclass
class RunContext:
    store: Store
    record: RunRecord
    settings: Settings
    desk_store: Store | None = None
    """This desk's own store (corpus index, memory) when `store` is a team database."""
    holder: Holder | None = None
    """Team mode: this desk and process; every write of the run checks it still holds it."""
    started_clock: float = field(default_factory=clock.monotonic)
    tools: ToolSet = BUILTIN
    """What the run offers its model: our tools, and the MCP tools it listed when it started."""
    # The SDK RunState of the current pause, until the first write of the pause saves it (with
    # checkpoint A, in one commit).
    unsaved_state: str | None = None
    # The run's conversation (the driver sets it when it starts driving); its turns not yet
    # stored are staged with the next checkpoint, in the same commit.
    transcript: Transcript | None = None

    @property
    def run_id(self) -> str:
        return self.record.run_id

    @property
    def facts(self) -> RunFacts:
        return self.record.facts

    @property
    def mode(self) -> Mode:
        return Mode(self.facts.mode)

    def tool_scope(self, *, network_calls_used: int | None = None) -> ToolScope:
        return ToolScope(
            corpus=self.facts.corpus,
            artifacts=self.facts.artifacts,
            settings=self.settings,
            network_calls_used=network_calls_used,
        )

    @property
    def desk(self) -> str | None:
        """The desk the run belongs to (what its proposals record)."""
        return self.holder.desk if self.holder is not None else self.facts.desk

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction of the driving process. In team mode it first checks, under the
        team's writer lock, that this desk still holds the run: one taken over meanwhile
        (`run_owned_elsewhere`) stops here, having written nothing."""
        with self.store.write() as conn:
            if self.holder is not None:
                check_held(conn, self.run_id, self.holder)
            yield conn

    def stage_transcript(self, conn: Connection, *, state_saved: bool) -> None:
        if self.transcript is not None:
            self.transcript.stage(conn, self.run_id, state_saved=state_saved)

    def has_unstaged_turns(self) -> bool:
        return self.transcript is not None and self.transcript.has_unstaged()

    def take_unsaved_state(self) -> str | None:
        state, self.unsaved_state = self.unsaved_state, None
        return state

    def active_seconds(self) -> float:
        return self.record.progress.active_s + (clock.monotonic() - self.started_clock)

    def check_budgets(self, *, next_turn: bool = False, next_call: bool = False) -> None:
        """Stop at this boundary if a cancel was requested or a budget is spent."""
        limits = self.facts.limits
        progress = self.record.progress
        if self.holder is not None:  # taken over meanwhile: stop before the next model call
            with self.store.read() as conn:
                check_held(conn, self.run_id, self.holder)
        if self.record.cancel_requested():
            raise StopRun()
        if next_turn and progress.turns >= limits.max_turns:
            raise BudgetExceeded(f"The run used its {limits.max_turns} model turns.")
        if next_call and progress.tool_calls >= limits.max_tool_calls:
            raise BudgetExceeded(f"The run used its {limits.max_tool_calls} tool calls.")
        if next_turn and limits.max_tokens and progress.tokens >= limits.max_tokens:
            raise BudgetExceeded(f"The run used its {limits.max_tokens} model tokens.")
        if self.active_seconds() > limits.max_seconds:
            raise BudgetExceeded(f"The run used its {limits.max_seconds:g} s of wall time.")
