"""What one run's parts share, handed down by the driver (no back-references, no circles)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from sqlalchemy import Connection

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.home import clock
from agent_core.home.preferences import Settings
from agent_core.runs.ownership import check_held
from agent_core.runs.progress import RunProgress
from agent_core.runs.record import RunFacts, RunRecord
from agent_core.runs.transcript import Transcript
from agent_core.storage.store import Store
from agent_core.storage.tables.checkpoints import clear_state_string, last_sequence, state_digest
from agent_core.storage.team.leases import Holder
from agent_core.tools.policy import Mode
from agent_core.tools.registry import BUILTIN, ToolSet
from agent_core.tools.specs import ToolScope


class StopRun(Exception):
    """Raised inside the SDK loop to stop the run at a boundary (a cancel was requested)."""


class BudgetExceeded(BriefDeskError):
    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BUDGET_EXCEEDED, message)


@dataclass(frozen=True)
class TurnRecord:
    """A model turn recorded in memory, until the run's next write writes it."""

    before: RunProgress
    """The run's progress before the turn: the record counts from it, however often it is
    written (a write that rolled back takes it along and the next one writes it again)."""
    write: Callable[[Connection], None]


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
    # The latest model turn's record, written first in the run's next write transaction (with
    # checkpoint A of its first call, as a rule): runs/model_turns.py says why that is safe.
    pending_turn: TurnRecord | None = None
    # The turn's calls the pending record found new (call id -> its index in the run): the gate
    # reads a new call's row from here once, not from the store.
    new_calls: dict[str, int] = field(default_factory=dict)
    stop_asked: threading.Event = field(default_factory=threading.Event)
    """Set by a cancel asked in this process (runs/stop_signals.py): seen with no read."""
    # What only the owner writes while it drives, known after its first read or write: the
    # digest of the run's saved RunState and its last checkpoint's sequence. Forgotten when a
    # write of the run rolls back (the store kept the values from before).
    _known_digest: tuple[str | None] | None = field(default=None, init=False, repr=False)
    _known_sequence: int | None = field(default=None, init=False, repr=False)
    # The write transaction (its connection) that read the cancel flag, while it lasts.
    _cancel_read_in: Connection | None = field(default=None, init=False, repr=False)

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
        (`run_owned_elsewhere`) stops here, having written nothing. The model turn recorded
        since the last write is written first, so it commits with what follows it.

        Tool bodies confirm from worker threads: what is read or set here is so under the
        store's writer lock, which serialises this process's write transactions."""
        turn: TurnRecord | None = None
        try:
            with self.store.write() as conn:
                turn = self.pending_turn
                try:
                    if self.holder is not None:
                        check_held(conn, self.run_id, self.holder)
                    if turn is not None:
                        turn.write(conn)
                        self._cancel_read_in = conn  # its progress write read the flag
                    yield conn
                except BaseException:
                    self._forget_known()  # rolled back: the store keeps the values from before
                    raise
                finally:
                    if self._cancel_read_in is conn:
                        self._cancel_read_in = None
        except BaseException:
            self._forget_known()  # or the commit itself failed
            raise
        if turn is not None and self.pending_turn is turn:
            self.pending_turn = None  # committed: written once

    def _forget_known(self) -> None:
        self._known_digest = None
        self._known_sequence = None

    def flush_turn(self) -> None:
        """Commit the pending turn's record now (a turn none of whose calls wrote anything
        before the next model call, or a pause, which reads the calls from the store)."""
        if self.pending_turn is not None:
            with self.write():
                pass

    def drop_turn(self) -> None:
        """Forget the pending turn unwritten (none of its calls ran: a full disk refused the
        write that was to take it along); the run's progress is as it was before it."""
        if self.pending_turn is not None:
            self.record.progress = self.pending_turn.before
            self.pending_turn = None

    def cancel_requested_in(self, conn: Connection) -> bool:
        """Whether a cancel is asked, as of the caller's write transaction (read once in it)."""
        if self._cancel_read_in is not conn:
            self.record.read_cancel(conn)
            self._cancel_read_in = conn
        return self.record.cancel_seen or self.stop_asked.is_set()

    def saved_digest(self, conn: Connection) -> str | None:
        """The digest of the run's saved RunState (read once, then known)."""
        if self._known_digest is None:
            self._known_digest = (state_digest(conn, self.run_id),)
        return self._known_digest[0]

    def digest_saved(self, digest: str | None) -> None:
        self._known_digest = (digest,)

    def next_sequence(self, conn: Connection) -> int:
        """The sequence of the run's next checkpoint."""
        if self._known_sequence is None:
            self._known_sequence = last_sequence(conn, self.run_id)
        self._known_sequence += 1
        return self._known_sequence

    def stage_transcript(self, conn: Connection, *, state_saved: bool) -> None:
        """The turns not stored yet; a RunState saved before them is cleared (unless this
        transaction saved a newer one): a resume must continue after them."""
        transcript = self.transcript
        if transcript is None or not transcript.stage(conn, self.run_id, state_saved=state_saved):
            return
        saved = self.saved_digest(conn)
        if saved is not None:
            clear_state_string(conn, self.run_id, previous=saved)
            self.digest_saved(None)

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
        # As seen by the run's latest write (or told in this process): no read of its own.
        if self.record.cancel_seen or self.stop_asked.is_set():
            raise StopRun()
        if next_turn and progress.turns >= limits.max_turns:
            raise BudgetExceeded(f"The run used its {limits.max_turns} model turns.")
        if next_call and progress.tool_calls >= limits.max_tool_calls:
            raise BudgetExceeded(f"The run used its {limits.max_tool_calls} tool calls.")
        if next_turn and limits.max_tokens and progress.tokens >= limits.max_tokens:
            raise BudgetExceeded(f"The run used its {limits.max_tokens} model tokens.")
        if self.active_seconds() > limits.max_seconds:
            raise BudgetExceeded(f"The run used its {limits.max_seconds:g} s of wall time.")
