"""The one mechanism for background work: a QThread that owns an asyncio loop and a Workspace.

The GUI thread never does I/O. It hands the bridge a job (a callable taking the Workspace) and
gets the result back on the GUI thread over a queued signal, keyed by a job id. A run is driven
as an asyncio task on the same loop (`drive`), so jobs submitted while it runs are served at its
await points; Workspace calls are short synchronous SQLite transactions, fine on this thread.

The window reads the events table by sequence (`timeline(since=...)`), so every event arrives
once and in order, whichever process wrote it. A commit of this process
(`Workspace.follow_events`) starts that read at once, without waiting for the timer, which
polls every ~300 ms for what other processes (`briefdesk-cli`, another window) write. The runs
list is kept from events: only the runs an event names are read again, plus, now and then, the
runs that are `running` (a dead owner changes no row). Expiry is a timer tick, never a read.

On a team's PostgreSQL database the same read is started by other desks' commits instead
(`Workspace.listen_changes`: LISTEN/NOTIFY, on a thread of its own, handed over by a queued
signal), and the timer slows to a tick every few seconds, kept only for what no commit
announces (a desk that vanished: its lease lapses without a write). While the database cannot
be used, `storage_lost` asks for a banner; the first read that works again sends `storage_back`.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal

from agent_core.contract.statuses import RunStatus

if TYPE_CHECKING:
    from agent_core.contract.views import EventView, RunView
    from agent_core.facade.workspace import ChangeNotice, Workspace

log = logging.getLogger(__name__)

Job = Callable[["Workspace"], Any]
DoneCallback = Callable[[Any], None]
ErrorCallback = Callable[[Exception], None]

EVENTS_PER_POLL = 5000  # a large backlog arrives in a few batches instead of one huge one
RUNS_EVERY_N_POLLS = 5  # a dead owner shows as `interrupted` without any event: look now and then
SWEEP_EVERY_MS = 2000  # expire overdue proposals (a write) on a tick of its own
LISTENING_POLL_MS = 5000  # team mode, while listening: the slow tick for lapsed leases
OPEN_RETRY_MS = 2000  # the team database was away when the window opened: try again this often
STORAGE_UNAVAILABLE = "storage_unavailable"
EVENTS_PER_SLICE = 100  # events handed to the views per turn of the GUI event loop


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
    _committed = Signal()  # this process committed events: read them now (any thread -> GUI)
    storage_lost = Signal(str, str)  # code, message: the team database cannot be used now
    storage_back = Signal()  # it answers again (after storage_lost)
    _noticed = Signal(object)  # a ChangeNotice from the listener thread (-> GUI)

    def __init__(
        self, home: str | Path | None, parent: QObject | None = None, *, db: str | None = None
    ) -> None:
        super().__init__(parent)
        self.home = home
        self.db = db  # `briefdesk --db URL`; None: $BRIEFDESK_DB, the db.url setting, the home
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
        self._open_failure: tuple[float, Exception] | None = None  # bridge thread: when, why
        self._watcher: Any = None  # the artifacts watcher, started with the workspace
        self._unfollow: Callable[[], None] = lambda: None
        self._tasks: set[asyncio.Task[Any]] = set()  # bridge thread only
        self._closing: asyncio.Task[None] | None = None
        self._thread = _LoopThread(self)
        self._job_done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self._committed.connect(self._on_committed, Qt.ConnectionType.QueuedConnection)
        self._noticed.connect(self._on_notice, Qt.ConnectionType.QueuedConnection)
        self._stop_listening: Callable[[], None] = lambda: None
        self._listening = False  # the listener may hand notices over (bridge thread sets it)
        self._live = False  # GUI: notices arrive (team mode, connected): the timer is slow
        self._interval_ms = 300
        self._named_runs: set[str] = set()  # runs other desks' notices named, to read again
        self._storage_down = False
        # The events follower (GUI-thread state).
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._poll)
        self._sweep_timer = QTimer(self)
        self._sweep_timer.timeout.connect(self._sweep)
        self._last_seq: int | None = None  # the poll's cursor (every process's events)
        # A burst of commits costs one queued signal, not one each.
        self._commit_lock = threading.Lock()
        self._commit_signalled = False
        self._outbox: list[EventView] = []  # handed to the views a slice at a time
        self._outbox_scheduled = False
        self._runs = RunsCache()
        self._poll_inflight = False
        self._poll_again: bool | None = None  # asked while a read ran (True: all the runs too)
        self._polls = 0
        self._last_poll_error: str | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the thread and open the Workspace there; `ready` follows."""
        self._thread.start()
        self._open()
        # Confirmations a killed `run` lost (it may hash files: a worker thread, after `ready`).
        self.submit(
            lambda ws: asyncio.to_thread(ws.settle_unconfirmed_writes),
            on_error=lambda exc: log.info("settling writes did not finish: %s", error_text(exc)),
        )

    def _open(self) -> None:
        self.submit(lambda ws: None, on_done=lambda _r: self.ready.emit(), on_error=self._not_open)

    def _not_open(self, exc: Exception) -> None:
        """The team database is away as the window opens: say so, and try again until it is
        back (the window stays). Any other failure is the home's (HomeGuard decides)."""
        if error_code(exc) != STORAGE_UNAVAILABLE:
            self.error.emit(error_code(exc), getattr(exc, "message", None) or str(exc))
            return
        self._lost(exc)
        QTimer.singleShot(OPEN_RETRY_MS, self, self._open)

    def stop(self, timeout_ms: int = 8000) -> None:
        """Stop following, end the loop (runs still driving become `interrupted`), join."""
        self._timer.stop()
        self._sweep_timer.stop()
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

        def failed(exc: Exception) -> None:
            if error_code(exc) == STORAGE_UNAVAILABLE:  # the window opened without its store
                self.ready.connect(self._warm_up_once)
                return
            log.warning("SDK warm-up failed: %s", error_text(exc))

        self.submit(
            lambda ws: ws.prewarm_agent_runtime(),
            on_done=lambda _r: self.warmed.emit(),
            on_error=failed,
        )

    def _warm_up_once(self) -> None:
        self.ready.disconnect(self._warm_up_once)
        self.warm_up()

    # -- the events follower ---------------------------------------------------------------------

    def start_following(self, interval_ms: int = 300) -> None:
        self._interval_ms = interval_ms
        self._timer.start(self._tick_ms())
        self._sweep_timer.start(SWEEP_EVERY_MS)
        self._poll(force_runs=True)

    def refresh(self) -> None:
        """Read new events and the whole runs list now (F5)."""
        self._poll(force_runs=True)

    def _sweep(self) -> None:
        self.submit(lambda ws: ws.sweep_expired(), on_error=self._on_poll_error)

    def _poll(self, force_runs: bool = False) -> None:
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
            running = self._runs.running_ids() if look else []
            recheck = sorted({*running, *self._named_runs})
        self._named_runs.clear()
        self.submit(
            lambda ws: _read_changes(ws, since, recheck),
            on_done=self._on_changes,
            on_error=self._on_poll_error,
        )

    def _on_changes(self, result: Changes) -> None:
        self._poll_inflight = False
        self._last_poll_error = None
        if self._storage_down:
            self._storage_down = False
            self.storage_back.emit()
        last_seq, read, asked, runs = result
        self._last_seq = last_seq
        self._hand_out(read)
        if asked is None:
            self._runs.replace_all(runs)
            self.runs_changed.emit(self._runs.runs)
        elif asked:
            self._runs.merge(asked, runs)
            self.runs_changed.emit(self._runs.runs)
        again, self._poll_again = self._poll_again, None
        if again is not None or len(read) >= EVENTS_PER_POLL:
            self._poll(force_runs=bool(again))

    def _take_committed(self, _events: list[EventView]) -> None:
        """Any thread, right after a commit of this process: have the GUI read now."""
        with self._commit_lock:
            if self._commit_signalled:
                return
            self._commit_signalled = True
        self._committed.emit()

    def _hand_out(self, events: list[EventView]) -> None:
        """Give events to the views in slices, so painting and input go on between them."""
        if not events:
            return
        self._outbox.extend(events)
        if not self._outbox_scheduled:
            self._outbox_scheduled = True
            QTimer.singleShot(0, self._flush_outbox)

    def _flush_outbox(self) -> None:
        chunk, self._outbox = self._outbox[:EVENTS_PER_SLICE], self._outbox[EVENTS_PER_SLICE:]
        self._outbox_scheduled = bool(self._outbox)
        if self._outbox:
            QTimer.singleShot(0, self._flush_outbox)
        if chunk:
            self.events_arrived.emit(chunk)

    def _on_poll_error(self, exc: Exception) -> None:
        self._poll_inflight = False
        if error_code(exc) == STORAGE_UNAVAILABLE:
            self._lost(exc)  # a banner that stays until a read works again
            return
        text = error_text(exc)
        if text != self._last_poll_error:  # report a lasting problem once, not every 300 ms
            self._last_poll_error = text
            self.error.emit(error_code(exc), getattr(exc, "message", None) or str(exc))

    def _on_committed(self) -> None:
        with self._commit_lock:
            self._commit_signalled = False
        self._poll()  # in order with every other process's events, no wait for the timer

    # -- other desks (team mode) and the database's absence ---------------------------------------

    def _take_notice(self, notice: ChangeNotice) -> None:
        """The listener's thread: hand the notice to the GUI thread (never blocks)."""
        if self._listening:
            self._noticed.emit(notice)

    def _on_notice(self, notice: ChangeNotice) -> None:
        from agent_core.facade.workspace import NoticeKind  # loaded already: the bridge opened it

        if notice.kind is NoticeKind.LOST:
            self._set_live(False)  # poll meanwhile: the listener alone may have failed
            error = notice.error or {"code": STORAGE_UNAVAILABLE, "message": ""}
            self._lost_with(error["code"], error["message"])
        elif notice.kind is NoticeKind.RESYNC:
            self._set_live(True)
            self._poll(force_runs=True)  # what was committed while nobody listened
        elif not notice.own:  # this process's own commits are read through follow_events
            if notice.run_ids is None:
                self._poll(force_runs=True)
            else:
                self._named_runs.update(notice.run_ids)
                self._poll()

    def _set_live(self, live: bool) -> None:
        self._live = live
        if self._timer.isActive():
            self._timer.setInterval(self._tick_ms())

    def _tick_ms(self) -> int:
        return max(self._interval_ms, LISTENING_POLL_MS) if self._live else self._interval_ms

    def _lost(self, exc: BaseException) -> None:
        self._lost_with(error_code(exc), getattr(exc, "message", None) or str(exc))

    def _lost_with(self, code: str, message: str) -> None:
        if not self._storage_down:  # once per outage: the banner stays until it is back
            self._storage_down = True
            self.storage_lost.emit(code, message)

    # -- GUI side of delivery ------------------------------------------------------------------

    def _deliver(self, job_id: int, result: Any, exc: BaseException | None) -> None:
        on_done, on_error, stale_key = self._callbacks.pop(job_id, (None, None, None))
        if exc is not None and error_code(exc) == STORAGE_UNAVAILABLE:
            self._lost(exc)
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
        elif error_code(exc) != STORAGE_UNAVAILABLE:  # that one is the banner's (above)
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
            from agent_core.facade.workspace import Workspace  # lazily, on this thread

            failed = self._open_failure
            if failed is not None and time.monotonic() - failed[0] < OPEN_RETRY_MS / 1000:
                raise failed[1]  # the team database was away a moment ago: do not hammer it
            try:
                self._ws = Workspace(self.home, db=self.db)
            except Exception as exc:
                self._open_failure = (time.monotonic(), exc)
                raise
            self._open_failure = None
            self._unfollow = self._ws.follow_events(self._take_committed)
            self._listening = True
            self._stop_listening = self._ws.listen_changes(self._take_notice)
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
                self._unfollow()
                self._listening = False
                self._stop_listening()
                self._ws.close()
                self._ws = None
            loop.stop()

        self._closing = loop.create_task(finish())


# What one poll read: the cursor after it, the events, which runs were read again (None: all of
# them) and those runs.
Changes = tuple[int, list["EventView"], list[str] | None, list["RunView"]]


def _read_changes(ws: Workspace, since: int | None, recheck: list[str] | None) -> Changes:
    """Bridge thread: events after `since` (first call: start at the newest), and the runs
    they name plus `recheck` (None: every run)."""
    if since is None:
        since = ws.last_event_seq()
        events: list[EventView] = []
    else:
        events = ws.timeline(since=since, limit=EVENTS_PER_POLL)
    last = events[-1]["seq"] if events else since
    if recheck is None:
        return last, events, None, ws.list_runs()
    asked = sorted({*recheck, *(e["run_id"] for e in events if e["run_id"])})
    return last, events, asked, (ws.list_runs(asked) if asked else [])
