"""The one mechanism for background work: a thread that owns an asyncio loop and a Workspace.

The GUI thread never does I/O. It hands the bridge a job (a callable taking the Workspace) with
a typed `on_done`, and gets the result back on the GUI thread over a queued signal, keyed by a
job id (`desktop.jobs`). A run is driven as an asyncio task on the same loop (`drive`), so jobs
submitted while it runs are served at its await points; Workspace calls are short synchronous
transactions, fine on that thread (`desktop.workspace_loop`). What the window learns without
asking (events, the runs list, the team database's absence) comes from `desktop.follower`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from desktop.follower import EventsFollower
from desktop.jobs import (
    STORAGE_UNAVAILABLE,
    AsyncJob,
    Delivery,
    ErrorCallback,
    Job,
    JobHandle,
    delivery,
    error_code,
    error_message,
    error_text,
)
from desktop.workspace_loop import OPEN_RETRY_MS, WorkspaceLoop

if TYPE_CHECKING:
    from agent_core.contract.views import RunView

log = logging.getLogger(__name__)

T = TypeVar("T")


class Bridge(QObject):
    """Background work for the GUI. All public methods are called on the GUI thread.

    Signals carry plain Python objects (`object`), never Qt containers: a list of dicts would
    otherwise be converted to QVariantMaps (slow, and their keys re-sorted) on every batch.
    """

    ready = Signal()  # the Workspace is open (on the bridge thread)
    events_arrived = Signal(object)  # list[EventView] of the whole home, oldest first
    runs_changed = Signal(object)  # list[RunView], as ws.list_runs()
    drive_started = Signal(str)  # run_id
    drive_finished = Signal(str, object)  # run_id, RunView (None when driving raised)
    busy_changed = Signal(bool)  # some run is being driven by this process
    error = Signal(str, str)  # code, message: a job failed and nobody handled it
    warmed = Signal()  # the Agents SDK is imported (warm_up finished)
    storage_lost = Signal(str, str)  # code, message: the team database cannot be used now
    storage_back = Signal()  # it answers again (after storage_lost)
    _job_done = Signal(int, object, object)  # job id, result, exception (bridge thread -> GUI)
    _noticed = Signal(object)  # a ChangeNotice from the listener thread (-> GUI)

    def __init__(
        self, home: str | Path | None, parent: QObject | None = None, *, db: str | None = None
    ) -> None:
        super().__init__(parent)
        self.home = home
        self.db = db  # `briefdesk --db URL`; None: $BRIEFDESK_DB, the db.url setting, the home
        self.current_run_id: str | None = None
        self._ids = itertools.count(1)
        self._deliveries: dict[int, Delivery] = {}
        self._drive_jobs: dict[int, str] = {}
        self._driving: set[str] = set()
        self.follower = EventsFollower(self.submit, self)
        # What the follower reads, the bridge says (signal to signal: same thread, same order).
        for heard, said in (
            (self.follower.events_arrived, self.events_arrived),
            (self.follower.runs_changed, self.runs_changed),
            (self.follower.error, self.error),
            (self.follower.storage_lost, self.storage_lost),
            (self.follower.storage_back, self.storage_back),
        ):
            heard.connect(said)
        self._loop = WorkspaceLoop(
            home,
            db,
            report=self._job_done.emit,
            on_commit=self.follower.take_committed,
            on_notice=self._noticed.emit,
        )
        self._job_done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self._noticed.connect(self.follower.on_notice, Qt.ConnectionType.QueuedConnection)

    @property
    def thread_ident(self) -> int | None:
        """The bridge thread's id, once it runs."""
        return self._loop.thread_ident

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the thread and open the Workspace there; `ready` follows."""
        self._loop.start()
        self._open()
        # Confirmations a killed `run` lost (it may hash files: a worker thread, after `ready`).
        self.submit_async(
            lambda ws: asyncio.to_thread(ws.settle_unconfirmed_writes),
            on_error=lambda exc: log.info("settling writes did not finish: %s", error_text(exc)),
        )

    def _open(self) -> None:
        self.submit(lambda ws: None, on_done=lambda _r: self.ready.emit(), on_error=self._not_open)

    def _not_open(self, exc: Exception) -> None:
        """The team database is away as the window opens: say so, and try again until it is
        back (the window stays). Any other failure is the home's (HomeGuard decides)."""
        if error_code(exc) != STORAGE_UNAVAILABLE:
            self.error.emit(error_code(exc), error_message(exc))
            return
        self.follower.note_storage_lost(error_code(exc), error_message(exc))
        QTimer.singleShot(OPEN_RETRY_MS, self, self._open)

    def stop(self, timeout_ms: int = 8000) -> None:
        """Stop following, end the loop (runs still driving become `interrupted`), join."""
        self.follower.stop()
        self._loop.stop(timeout_ms)

    # -- jobs -----------------------------------------------------------------------------------

    def submit(
        self,
        job: Job[T],
        on_done: Callable[[T], None] | None = None,
        on_error: ErrorCallback | None = None,
        *,
        run_id: str | None = None,
    ) -> JobHandle[T]:
        """Run `job(workspace)` on the bridge thread; callbacks run on the GUI thread.

        With `run_id`, the result is stale (dropped, no callback) unless that run is still
        `current_run_id` on delivery. Without `on_error`, a failure is reported through the
        `error` signal.
        """
        handle: JobHandle[T] = JobHandle(next(self._ids), run_id)
        self._deliveries[handle.id] = delivery(on_done, on_error, run_id)
        self._loop.run_job(handle.id, job)
        return handle

    def submit_async(
        self,
        job: AsyncJob[T],
        on_done: Callable[[T], None] | None = None,
        on_error: ErrorCallback | None = None,
        *,
        run_id: str | None = None,
    ) -> JobHandle[T]:
        """As `submit`, for a job that returns an awaitable: it is awaited on the loop (other
        jobs are served meanwhile, at its await points)."""
        handle: JobHandle[T] = JobHandle(next(self._ids), run_id)
        self._deliveries[handle.id] = delivery(on_done, on_error, run_id)
        self._loop.run_job(handle.id, job)
        return handle

    def drive(
        self,
        run_id: str,
        on_done: Callable[[RunView], None] | None = None,
        on_error: ErrorCallback | None = None,
    ) -> JobHandle[RunView]:
        """Drive (start or resume) `run_id` to its next stop with `ws.drive_async` as a task."""
        handle = self.submit_async(lambda ws: ws.drive_async(run_id), on_done, on_error)
        self._drive_jobs[handle.id] = run_id
        was_busy = bool(self._driving)
        self._driving.add(run_id)
        self.drive_started.emit(run_id)
        if not was_busy:
            self.busy_changed.emit(True)
        return handle

    def is_driving(self, run_id: str | None = None) -> bool:
        return bool(self._driving) if run_id is None else run_id in self._driving

    def set_current_run(self, run_id: str | None) -> None:
        self.current_run_id = run_id

    def warm_up(self) -> None:
        """Import the Agents SDK now, behind the first paint, so the first Run click does not
        pay for it (the import holds the GIL for a moment, not for seconds). On a daemon thread
        of its own, not the bridge's: the bridge keeps serving meanwhile, and a quit in the
        middle of it ends the process at once instead of waiting seconds for the import."""

        def not_open(exc: Exception) -> None:
            if error_code(exc) == STORAGE_UNAVAILABLE:  # the window opened without its store
                self.ready.connect(self._warm_up_once)

        # After the Workspace opened (a job queued behind its opening, as every job is), so the
        # two threads never import the façade's modules at the same time.
        self.submit(
            lambda ws: None,
            on_done=lambda _r: self._warm_on_a_thread_of_its_own(),
            on_error=not_open,
        )

    def _warm_up_once(self) -> None:
        self.ready.disconnect(self._warm_up_once)
        self.warm_up()

    def _warm_on_a_thread_of_its_own(self, _opened: None = None) -> None:
        def warm() -> None:
            try:
                from agent_core.facade.runs import RunCommands

                RunCommands.prewarm_agent_runtime()
            except Exception as exc:  # a failed warm-up only costs the first run its import
                log.warning("SDK warm-up failed: %s", error_text(exc))
                return
            self.warmed.emit()  # queued to the GUI thread: the bridge lives there

        threading.Thread(target=warm, name="briefdesk-sdk-warm-up", daemon=True).start()

    # -- the events follower ---------------------------------------------------------------------

    def start_following(self, interval_ms: int = 300) -> None:
        self.follower.start(interval_ms)

    def refresh(self) -> None:
        """Read new events and the whole runs list now (F5)."""
        self.follower.poll(force_runs=True)

    # -- GUI side of delivery ------------------------------------------------------------------

    def _deliver(self, job_id: int, result: object, exc: BaseException | None) -> None:
        pending = self._deliveries.pop(job_id, Delivery(None, None, None))
        if exc is not None and error_code(exc) == STORAGE_UNAVAILABLE:
            self.follower.note_storage_lost(error_code(exc), error_message(exc))
        run_id = self._drive_jobs.pop(job_id, None)
        if run_id is not None:
            self._driving.discard(run_id)
            self.drive_finished.emit(run_id, result if exc is None else None)
            if not self._driving:
                self.busy_changed.emit(False)
        if pending.run_id is not None and pending.run_id != self.current_run_id:
            return
        if exc is None:
            if pending.on_done is not None:
                pending.on_done(result)
        elif pending.on_error is not None and isinstance(exc, Exception):
            pending.on_error(exc)
        elif error_code(exc) != STORAGE_UNAVAILABLE:  # that one is the banner's (above)
            if not hasattr(exc, "code"):
                log.error("background job failed", exc_info=(type(exc), exc, exc.__traceback__))
            self.error.emit(error_code(exc), error_message(exc))
