"""The bridge's thread: an asyncio loop that owns the Workspace and everything it opens.

Everything here runs on that thread (the Workspace, SQLite, the SDK), except `schedule`, which
any thread may call. The Workspace is opened lazily by the first job, with what lives as long
as it does: this process's commit follower, the team listener (PostgreSQL LISTEN/NOTIFY, on a
thread of its own) and the artifacts watcher. Results leave through `report`, which the bridge
turns into a queued signal to the GUI thread.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QThread

from desktop.jobs import ErasedJob

if TYPE_CHECKING:
    from agent_core.contract.notices import ChangeNotice
    from agent_core.contract.views import EventView
    from agent_core.facade.workspace import Workspace

OPEN_RETRY_MS = 2000  # the team database was away when the window opened: try again this often
WATCHER_FAILED = -1  # the job id under which a watcher that would not start is reported

Report = Callable[[int, object, "BaseException | None"], None]
"""job id, result, exception: from the bridge thread to the GUI thread (a queued signal)."""


class Stoppable(Protocol):
    def stop(self) -> None: ...


class _LoopThread(QThread):
    """Runs the asyncio loop; everything in it (Workspace, SQLite, SDK) happens on this thread."""

    def __init__(self, serve: Callable[[], None]) -> None:
        super().__init__()
        self.setObjectName("briefdesk-bridge")
        self._serve = serve

    def run(self) -> None:
        self._serve()


class WorkspaceLoop:
    """The loop, the Workspace on it, and the jobs and tasks it runs."""

    def __init__(
        self,
        home: str | Path | None,
        db: str | None,
        *,
        report: Report,
        on_commit: Callable[[list[EventView]], None],
        on_notice: Callable[[ChangeNotice], None],
    ) -> None:
        self.home = home
        self.db = db
        self.thread_ident: int | None = None
        self._report = report
        self._on_commit = on_commit
        self._on_notice = on_notice
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: list[Callable[[], None]] = []
        self._ws: Workspace | None = None
        self._open_failure: tuple[float, Exception] | None = None  # when, why
        self._watcher: Stoppable | None = None  # the artifacts watcher, started with the ws
        self._unfollow: Callable[[], None] = lambda: None
        self._stop_listening: Callable[[], None] = lambda: None
        self._listening = False  # the listener may hand notices over (this thread sets it)
        self._tasks: set[asyncio.Task[object]] = set()
        self._closing: asyncio.Task[None] | None = None
        self.thread = _LoopThread(self._serve)

    # -- any thread -----------------------------------------------------------------------------

    def start(self) -> None:
        self.thread.start()

    def is_running(self) -> bool:
        return self.thread.isRunning()

    def stop(self, timeout_ms: int) -> None:
        """End the loop (tasks still running are cancelled: their runs become `interrupted`)."""
        if not self.thread.isRunning():
            return
        self.schedule(self._shutdown)
        self.thread.wait(timeout_ms)

    def schedule(self, callback: Callable[[], None]) -> None:
        with self._lock:
            loop = self._loop
            if loop is None:
                self._pending.append(callback)
                return
        loop.call_soon_threadsafe(callback)

    def run_job(self, job_id: int, job: ErasedJob) -> None:
        self.schedule(lambda: self._run_job(job_id, job))

    def _hand_notice(self, notice: ChangeNotice) -> None:
        """The listener's thread: pass the notice on while the Workspace is open."""
        if self._listening:
            self._on_notice(notice)

    # -- this thread ----------------------------------------------------------------------------

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
            self._unfollow = self._ws.follow_events(self._on_commit)
            self._listening = True
            self._stop_listening = self._ws.listen_changes(self._hand_notice)
            self._start_watcher(self._ws)
        return self._ws

    def _start_watcher(self, ws: Workspace) -> None:
        """Watch the home's artifacts folder while the app lives (confirms or flags writes)."""
        try:
            self._watcher = ws.watch_artifacts()
        except Exception as exc:  # the app works without it; say so instead of failing
            self._watcher = None
            self._report(WATCHER_FAILED, None, exc)

    def _run_job(self, job_id: int, job: ErasedJob) -> None:
        try:
            result = job(self._workspace())
        except Exception as exc:
            self._report(job_id, None, exc)
            return
        if not inspect.isawaitable(result):
            self._report(job_id, result, None)
            return
        task: asyncio.Task[object] = asyncio.ensure_future(result)
        self._tasks.add(task)
        task.add_done_callback(lambda t: self._task_done(job_id, t))

    def _task_done(self, job_id: int, task: asyncio.Task[object]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            self._report(job_id, None, RuntimeError("The app closed while this ran."))
        elif task.exception() is not None:
            self._report(job_id, None, task.exception())
        else:
            self._report(job_id, task.result(), None)

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
