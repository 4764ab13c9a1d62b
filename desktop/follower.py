"""The events follower: the window's view of every process's events and of the runs list.

The window reads the events table by sequence (`timeline(since=...)`), so every event arrives
once and in order, whichever process wrote it. A commit of this process
(`Workspace.follow_events`) starts that read at once, without waiting for the timer, which
polls every ~300 ms for what other processes (`briefdesk-cli`, another window) write. The runs
list is kept from events: only the runs an event names are read again, plus, now and then, the
runs that are `running` (a dead owner changes no row). Expiry is a timer tick, never a read.

On a team's PostgreSQL database the same read is started by other desks' commits instead
(`Workspace.listen_changes`: LISTEN/NOTIFY, handed over by a queued signal), and the timer
slows to a tick every few seconds, kept only for what no commit announces (a desk that
vanished: its lease lapses without a write). While the database cannot be used, the bridge's
`storage_lost` asks for a banner; the first read that works again sends `storage_back`.

Everything here runs on the GUI thread except `take_committed`; the reads are bridge jobs. The
follower is handed `Bridge.submit` and says what it learns through its own signals, which the
bridge forwards as its own: it never imports the bridge that owns it (no import cycle).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from agent_core.contract.notices import NoticeKind
from agent_core.contract.statuses import RunStatus
from desktop.jobs import (
    STORAGE_UNAVAILABLE,
    ErrorCallback,
    Job,
    error_code,
    error_message,
    error_text,
)

if TYPE_CHECKING:
    from agent_core.contract.notices import ChangeNotice
    from agent_core.contract.views import EventView, RunView
    from agent_core.facade.workspace import Workspace

T = TypeVar("T")

EVENTS_PER_POLL = 5000  # a large backlog arrives in a few batches instead of one huge one
RUNS_EVERY_N_POLLS = 5  # a dead owner shows as `interrupted` without any event: look now and then
SWEEP_EVERY_MS = 2000  # expire overdue proposals (a write) on a tick of its own
LISTENING_POLL_MS = 5000  # team mode, while listening: the slow tick for lapsed leases
# Events reach the views in slices, each sized so the views' work on it takes about
# SLICE_BUDGET_S of the GUI thread's time (measured on the slice before), and a pause of
# SLICE_PAUSE_MS after each: a chain of zero-timers ran slice after slice, and paint after
# paint, before any other timer or input got its turn (the window under a flood stalled for
# two slices and two paints at a time).
SLICE_BUDGET_S = 0.005
SLICE_PAUSE_MS = 16
FIRST_SLICE, SMALLEST_SLICE, LARGEST_SLICE = 50, 5, 2000


class RunsCache:
    """The home's runs as the window knows them, newest first, updated from partial reads."""

    def __init__(self) -> None:
        self.runs: list[RunView] = []

    def replace_all(self, runs: list[RunView]) -> None:
        self.runs = list(runs)

    def merge(self, asked: list[str], found: list[RunView]) -> None:
        """`found`: the runs among `asked` that still exist, newest first."""
        fresh = {r["run_id"]: r for r in found}
        gone = set(asked) - set(fresh)
        known = {r["run_id"] for r in self.runs}
        new = [r for r in found if r["run_id"] not in known]
        kept = [fresh.get(r["run_id"], r) for r in self.runs if r["run_id"] not in gone]
        self.runs = sorted(new, key=lambda r: r["created_at"], reverse=True) + kept

    def running_ids(self) -> list[str]:
        return [r["run_id"] for r in self.runs if r["status"] == RunStatus.RUNNING]


@dataclass(frozen=True)
class Changes:
    """What one poll read."""

    last_seq: int
    """The cursor after it."""
    events: list[EventView]
    asked: list[str] | None
    """The runs read again (None: all of them)."""
    runs: list[RunView]


def read_changes(ws: Workspace, since: int | None, recheck: list[str] | None) -> Changes:
    """Bridge thread: events after `since` (first call: start at the newest), and the runs
    they name plus `recheck` (None: every run)."""
    if since is None:
        since = ws.last_event_seq()
        events: list[EventView] = []
    else:
        events = ws.timeline(since=since, limit=EVENTS_PER_POLL)
    last = events[-1]["seq"] if events else since
    if recheck is None:
        return Changes(last, events, None, ws.list_runs())
    named = (e["run_id"] for e in events if e["run_id"])
    asked = sorted({*recheck, *named})
    return Changes(last, events, asked, ws.list_runs(asked) if asked else [])


def next_slice(size: int, handed: int, spent_s: float) -> int:
    """The next slice's size: what fits SLICE_BUDGET_S at the pace of the last one (a full
    slice only: a short one says little), at most doubled or halved from one to the next."""
    if handed < size:
        return size
    fits = int(SLICE_BUDGET_S * handed / spent_s) if spent_s > 0 else LARGEST_SLICE
    return max(SMALLEST_SLICE, min(LARGEST_SLICE, size * 2, max(size // 2, fits)))


class SubmitJob(Protocol):
    """How the follower has its reads done: `Bridge.submit` (the follower never knows the
    bridge, which owns it: it says what it learns through its own signals)."""

    def __call__(
        self,
        job: Job[T],
        on_done: Callable[[T], None] | None = None,
        on_error: ErrorCallback | None = None,
    ) -> object: ...


class EventsFollower(QObject):
    """Polls, hears commits and notices, and says what it read through its signals (the
    bridge forwards them as its own)."""

    events_arrived = Signal(object)  # list[EventView] of the whole home, oldest first
    runs_changed = Signal(object)  # list[RunView], as ws.list_runs()
    error = Signal(str, str)  # code, message: a read failed (once per lasting problem)
    storage_lost = Signal(str, str)  # code, message: the team database cannot be used now
    storage_back = Signal()  # it answers again (after storage_lost)
    _committed = Signal()  # this process committed events: read them now (any thread -> GUI)

    def __init__(self, submit: SubmitJob, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self._interval_ms = 300
        self._live = False  # notices arrive (team mode, connected): the timer is slow
        self._named_runs: set[str] = set()  # runs other desks' notices named, to read again
        self._storage_down = False
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._poll)
        self._sweep_timer = QTimer(self)
        self._sweep_timer.timeout.connect(self._sweep)
        self._last_seq: int | None = None  # the poll's cursor (every process's events)
        # A burst of commits costs one queued signal, not one each.
        self._commit_lock = threading.Lock()
        self._commit_signalled = False
        self._outbox: list[EventView] = []  # handed to the views a slice at a time
        self._slice = FIRST_SLICE  # events in the next slice
        self._last_slice_at = 0.0  # time.monotonic() when the views had the last one
        self._slice_timer = QTimer(self)
        self._slice_timer.setSingleShot(True)
        self._slice_timer.setInterval(SLICE_PAUSE_MS)
        self._slice_timer.timeout.connect(self._flush_outbox)
        self.runs = RunsCache()
        self._poll_inflight = False
        self._poll_again: bool | None = None  # asked while a read ran (True: all the runs too)
        self._polls = 0
        self._last_poll_error: str | None = None
        self._committed.connect(self.on_committed, Qt.ConnectionType.QueuedConnection)

    def start(self, interval_ms: int) -> None:
        self._interval_ms = interval_ms
        self._timer.start(self._tick_ms())
        self._sweep_timer.start(SWEEP_EVERY_MS)
        self.poll(force_runs=True)

    def stop(self) -> None:
        self._timer.stop()
        self._sweep_timer.stop()

    def _sweep(self) -> None:
        self._submit(lambda ws: ws.sweep_expired(), on_error=self._on_poll_error)

    def _poll(self) -> None:
        self.poll()

    def poll(self, force_runs: bool = False) -> None:
        if self._poll_inflight:
            self._poll_again = bool(self._poll_again) or force_runs
            return
        self._poll_inflight = True
        self._polls += 1
        since = self._last_seq
        if force_runs:
            recheck: list[str] | None = None  # everything
        else:
            look = self._live or self._polls % RUNS_EVERY_N_POLLS == 0
            running = self.runs.running_ids() if look else []
            recheck = sorted({*running, *self._named_runs})
        self._named_runs.clear()
        self._submit(
            lambda ws: read_changes(ws, since, recheck),
            on_done=self._on_changes,
            on_error=self._on_poll_error,
        )

    def _on_changes(self, changes: Changes) -> None:
        self._poll_inflight = False
        self._last_poll_error = None
        self.note_storage_back()
        self._last_seq = changes.last_seq
        self._hand_out(changes.events)
        if changes.asked is None:
            self.runs.replace_all(changes.runs)
            self.runs_changed.emit(self.runs.runs)
        elif changes.asked:
            self.runs.merge(changes.asked, changes.runs)
            self.runs_changed.emit(self.runs.runs)
        again, self._poll_again = self._poll_again, None
        if again is not None or len(changes.events) >= EVENTS_PER_POLL:
            self.poll(force_runs=bool(again))

    def take_committed(self, _events: list[EventView]) -> None:
        """Any thread, right after a commit of this process: have the GUI read now."""
        with self._commit_lock:
            if self._commit_signalled:
                return
            self._commit_signalled = True
        self._committed.emit()

    def on_committed(self) -> None:
        with self._commit_lock:
            self._commit_signalled = False
        self.poll()  # in order with every other process's events, no wait for the timer

    def _hand_out(self, events: list[EventView]) -> None:
        """Give events to the views in slices, so painting and input go on between them."""
        if not events:
            return
        self._outbox.extend(events)
        if not self._slice_timer.isActive():  # a lone event goes at once, a slice after a pause
            rested_ms = (time.monotonic() - self._last_slice_at) * 1000
            self._slice_timer.start(max(0, math.ceil(SLICE_PAUSE_MS - rested_ms)))

    def _flush_outbox(self) -> None:
        chunk, self._outbox = self._outbox[: self._slice], self._outbox[self._slice :]
        if not chunk:
            return
        began = time.thread_time()  # this thread's own time: a busy machine's waits not counted
        self.events_arrived.emit(chunk)
        self._slice = next_slice(self._slice, len(chunk), time.thread_time() - began)
        self._last_slice_at = time.monotonic()
        if self._outbox:
            self._slice_timer.start(SLICE_PAUSE_MS)

    def _on_poll_error(self, exc: Exception) -> None:
        self._poll_inflight = False
        if error_code(exc) == STORAGE_UNAVAILABLE:
            self.note_storage_lost(error_code(exc), error_message(exc))  # stays until a read works
            return
        text = error_text(exc)
        if text != self._last_poll_error:  # report a lasting problem once, not every 300 ms
            self._last_poll_error = text
            self.error.emit(error_code(exc), error_message(exc))

    # -- other desks (team mode) and the database's absence ---------------------------------------

    def on_notice(self, notice: ChangeNotice) -> None:

        if notice.kind is NoticeKind.LOST:
            self._set_live(False)  # poll meanwhile: the listener alone may have failed
            error = notice.error or {"code": STORAGE_UNAVAILABLE, "message": ""}
            self.note_storage_lost(error["code"], error["message"])
        elif notice.kind is NoticeKind.RESYNC:
            self._set_live(True)
            self.poll(force_runs=True)  # what was committed while nobody listened
        elif not notice.own:  # this process's own commits are read through follow_events
            if notice.run_ids is None:
                self.poll(force_runs=True)
            else:
                self._named_runs.update(notice.run_ids)
                self.poll()

    def _set_live(self, live: bool) -> None:
        self._live = live
        if self._timer.isActive():
            self._timer.setInterval(self._tick_ms())

    def _tick_ms(self) -> int:
        return max(self._interval_ms, LISTENING_POLL_MS) if self._live else self._interval_ms

    def note_storage_lost(self, code: str, message: str) -> None:
        if not self._storage_down:  # once per outage: the banner stays until it is back
            self._storage_down = True
            self.storage_lost.emit(code, message)

    def note_storage_back(self) -> None:
        if self._storage_down:
            self._storage_down = False
            self.storage_back.emit()
