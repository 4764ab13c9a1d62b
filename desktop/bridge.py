"""The one mechanism for background work: a QThread that owns an asyncio loop and a Workspace.

The GUI thread never does I/O. It hands the bridge a job (a callable taking the Workspace) and
gets the result back on the GUI thread over a queued signal, keyed by a job id. A run is driven
as an asyncio task on the same loop (`drive`), so jobs submitted while it runs are served at its
await points; Workspace calls are short synchronous SQLite transactions, fine on this thread.

A timer on the GUI thread polls the events table by sequence (`timeline(since=...)`) every
~300 ms, so runs started by `briefdesk-cli` in another process appear and update live.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal

if TYPE_CHECKING:
    from agent_core.views import EventView, RunView
    from agent_core.workspace import Workspace

log = logging.getLogger(__name__)

Job = Callable[["Workspace"], Any]
DoneCallback = Callable[[Any], None]
ErrorCallback = Callable[[Exception], None]

EVENTS_PER_POLL = 5000  # a large backlog arrives in a few batches instead of one huge one
RUNS_EVERY_N_POLLS = 5  # a dead owner shows as `interrupted` without any event: look now and then


def error_code(exc: BaseException) -> str:
    return str(getattr(exc, "code", None) or "internal_error")


def error_text(exc: BaseException) -> str:
    """`code: message` for a core error; the type and message (never a traceback) otherwise."""
    message = getattr(exc, "message", None)
    if message is not None and getattr(exc, "code", None):
        return f"{exc.code}: {message}"  # type: ignore[attr-defined]
    return f"{type(exc).__name__}: {exc}"


class _LoopThread(QThread):
    """Runs the asyncio loop; everything in it (Workspace, SQLite, SDK) happens on this thread."""

    def __init__(self, bridge: Bridge) -> None:
        super().__init__()
        self.setObjectName("briefdesk-bridge")
        self._bridge = bridge

    def run(self) -> None:
        self._bridge._serve()


class Bridge(QObject):
    """Background work for the GUI. All public methods are called on the GUI thread.

    Signals carry plain Python objects (`object`), never Qt containers: a list of dicts would
    otherwise be converted to QVariantMaps (slow, and their keys re-sorted) on every batch.
    """

    ready = Signal()  # the Workspace is open (on the bridge thread)
    events_arrived = Signal(object)  # list of new EVENT dicts of the whole home, oldest first
    runs_changed = Signal(object)  # list of RUN dicts, as ws.list_runs()
    drive_started = Signal(str)  # run_id
    drive_finished = Signal(str, object)  # run_id, RUN dict (None when driving raised)
    busy_changed = Signal(bool)  # some run is being driven by this process
    error = Signal(str, str)  # code, message: a job failed and nobody handled it
    warmed = Signal()  # the Agents SDK is imported (warm_up finished)
    _job_done = Signal(int, object, object)  # job id, result, exception (bridge thread -> GUI)

    def __init__(self, home: str | Path | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.home = home
        self.current_run_id: str | None = None
        self.thread_ident: int | None = None
        self._ids = itertools.count(1)
        self._callbacks: dict[
            int, tuple[DoneCallback | None, ErrorCallback | None, str | None]
        ] = {}
        self._drive_jobs: dict[int, str] = {}
        self._driving: set[str] = set()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: list[Callable[[], None]] = []
        self._ws: Workspace | None = None  # touched on the bridge thread only
        self._watcher: Any = None  # the artifacts watcher, started with the workspace
        self._tasks: set[asyncio.Task[Any]] = set()  # bridge thread only
        self._closing: asyncio.Task[None] | None = None
        self._thread = _LoopThread(self)
        self._job_done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        # The events follower (GUI-thread state).
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._poll)
        self._last_seq: int | None = None
        self._poll_inflight = False
        self._poll_again = False
        self._polls = 0
        self._last_poll_error: str | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the thread and open the Workspace there; `ready` follows."""
        self._thread.start()
        self.submit(lambda ws: None, on_done=lambda _r: self.ready.emit())

    def stop(self, timeout_ms: int = 8000) -> None:
        """Stop following, end the loop (runs still driving become `interrupted`), join."""
        self._timer.stop()
        if not self._thread.isRunning():
            return
        self._schedule(self._shutdown)
        self._thread.wait(timeout_ms)

    # -- jobs -----------------------------------------------------------------------------------

    def submit(
        self,
        fn: Job,
        on_done: DoneCallback | None = None,
        on_error: ErrorCallback | None = None,
        *,
        run_id: str | None = None,
    ) -> int:
        """Run `fn(workspace)` on the bridge thread; callbacks run on the GUI thread.

        `fn` may return an awaitable: it is awaited on the loop. With `run_id`, the result is
        stale (dropped, no callback) unless that run is still `current_run_id` on delivery.
        Without `on_error`, a failure is reported through the `error` signal.
        """
        job_id = next(self._ids)
        self._callbacks[job_id] = (on_done, on_error, run_id)
        self._schedule(lambda: self._run_job(job_id, fn))
        return job_id

    def drive(
        self,
        run_id: str,
        on_done: DoneCallback | None = None,
        on_error: ErrorCallback | None = None,
    ) -> int:
        """Drive (start or resume) `run_id` to its next stop with `ws.drive_async` as a task."""
        job_id = self.submit(lambda ws: ws.drive_async(run_id), on_done, on_error)
        self._drive_jobs[job_id] = run_id
        was_busy = bool(self._driving)
        self._driving.add(run_id)
        self.drive_started.emit(run_id)
        if not was_busy:
            self.busy_changed.emit(True)
        return job_id

    def is_driving(self, run_id: str | None = None) -> bool:
        return bool(self._driving) if run_id is None else run_id in self._driving

    def set_current_run(self, run_id: str | None) -> None:
        self.current_run_id = run_id

    def warm_up(self) -> None:
        """Import the Agents SDK on the bridge thread now, behind the first paint, so the first
        Run click does not pay for it (the import holds the GIL for a moment, not for seconds)."""

        self.submit(
            lambda ws: ws.prewarm_agent_runtime(),
            on_done=lambda _r: self.warmed.emit(),
            on_error=lambda exc: log.warning("SDK warm-up failed: %s", error_text(exc)),
        )

    # -- the events follower ---------------------------------------------------------------------

    def start_following(self, interval_ms: int = 300) -> None:
        self._timer.start(interval_ms)
        self._poll(force_runs=True)

    def refresh(self) -> None:
        """Read new events and the runs list now (F5)."""
        self._poll(force_runs=True)

    def _poll(self, force_runs: bool = False) -> None:
        if self._poll_inflight:
            self._poll_again = self._poll_again or force_runs
            return
        self._poll_inflight = True
        self._polls += 1
        since = self._last_seq
        want_runs = force_runs or self._polls % RUNS_EVERY_N_POLLS == 0
        self.submit(
            lambda ws: _read_changes(ws, since, want_runs),
            on_done=self._on_changes,
            on_error=self._on_poll_error,
        )

    def _on_changes(
        self, result: tuple[int, list[dict[str, Any]], list[dict[str, Any]] | None]
    ) -> None:
        self._poll_inflight = False
        self._last_poll_error = None
        last_seq, events, runs = result
        self._last_seq = last_seq
        if events:
            self.events_arrived.emit(events)
        if runs is not None:
            self.runs_changed.emit(runs)
        if self._poll_again or len(events) >= EVENTS_PER_POLL:
            self._poll_again = False
            self._poll(force_runs=True)

    def _on_poll_error(self, exc: Exception) -> None:
        self._poll_inflight = False
        text = error_text(exc)
        if text != self._last_poll_error:  # report a lasting problem once, not every 300 ms
            self._last_poll_error = text
            self.error.emit(error_code(exc), getattr(exc, "message", None) or str(exc))

    # -- GUI side of delivery ------------------------------------------------------------------

    def _deliver(self, job_id: int, result: Any, exc: BaseException | None) -> None:
        on_done, on_error, stale_key = self._callbacks.pop(job_id, (None, None, None))
        run_id = self._drive_jobs.pop(job_id, None)
        if run_id is not None:
            self._driving.discard(run_id)
            self.drive_finished.emit(run_id, result if exc is None else None)
            if not self._driving:
                self.busy_changed.emit(False)
        if stale_key is not None and stale_key != self.current_run_id:
            return
        if exc is None:
            if on_done is not None:
                on_done(result)
        elif on_error is not None:
            on_error(exc)  # type: ignore[arg-type]
        else:
            if not hasattr(exc, "code"):
                log.error("background job failed", exc_info=(type(exc), exc, exc.__traceback__))
            self.error.emit(error_code(exc), getattr(exc, "message", None) or str(exc))

    # -- bridge thread ----------------------------------------------------------------------------

    def _schedule(self, callback: Callable[[], None]) -> None:
        with self._lock:
            loop = self._loop
            if loop is None:
                self._pending.append(callback)
                return
        loop.call_soon_threadsafe(callback)

    def _serve(self) -> None:
        self.thread_ident = threading.get_ident()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        with self._lock:
            self._loop = loop
            pending, self._pending = self._pending, []
        for callback in pending:
            loop.call_soon(callback)
        try:
            loop.run_forever()
        finally:
            with self._lock:
                self._loop = None
            loop.close()

    def _workspace(self) -> Workspace:
        if self._ws is None:
            from agent_core.workspace import Workspace  # lazily, on this thread

            self._ws = Workspace(self.home)
            self._start_watcher(self._ws)
        return self._ws

    def _start_watcher(self, ws: Workspace) -> None:
        """Watch the home's artifacts folder while the app lives (confirms or flags writes)."""
        try:
            self._watcher = ws.watch_artifacts()
        except Exception as exc:  # the app works without it; say so instead of failing
            self._watcher = None
            self._job_done.emit(-1, None, exc)

    def _run_job(self, job_id: int, fn: Job) -> None:
        try:
            result = fn(self._workspace())
        except Exception as exc:
            self._job_done.emit(job_id, None, exc)
            return
        if not inspect.isawaitable(result):
            self._job_done.emit(job_id, result, None)
            return
        task = asyncio.ensure_future(result)
        self._tasks.add(task)
        task.add_done_callback(lambda t: self._task_done(job_id, t))

    def _task_done(self, job_id: int, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            self._job_done.emit(job_id, None, RuntimeError("The app closed while this ran."))
        elif task.exception() is not None:
            self._job_done.emit(job_id, None, task.exception())
        else:
            self._job_done.emit(job_id, task.result(), None)

    def _shutdown(self) -> None:
        loop = asyncio.get_running_loop()

        async def finish() -> None:
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            if self._watcher is not None:
                self._watcher.stop()
                self._watcher = None
            if self._ws is not None:
                self._ws.close()
                self._ws = None
            loop.stop()

        self._closing = loop.create_task(finish())


def _read_changes(
    ws: Workspace, since: int | None, want_runs: bool
) -> tuple[int, list[EventView], list[RunView] | None]:
    """Bridge thread: events after `since` (first call: start at the newest) and maybe runs."""
    if since is None:
        since = ws.last_event_seq()
        events: list[EventView] = []
    else:
        events = ws.timeline(since=since, limit=EVENTS_PER_POLL)
    runs = ws.list_runs() if (want_runs or events) else None
    return (events[-1]["seq"] if events else since), events, runs
