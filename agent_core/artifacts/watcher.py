"""The artifact watcher: confirm that every approved write happened, and happened once.

A watchdog observer watches an artifacts root. Each file event is settled briefly (a plain
write arrives as created + modified + closed; an atomic replace as one moved event whose
`dest_path` is the artifact), then the file is *sighted*: its path, the sha256 of its content
and `inode_key = f"{st_ino}:{st_mtime_ns}"` (one physical write). Temp files of
`atomic_write_nofollow` are skipped, and so are symlinks, folders and special files. What a
sighting means (confirmed, duplicate, unexpected) and where it is recorded is
agent_core/artifacts/sightings.py; the scan of what was written while nothing watched is
agent_core/artifacts/first_scan.py.

A watcher started for a run holds its sightings until that run's `run_started`/`run_resumed`
commits (it follows the store's events): nothing is ever recorded on a run no process has
claimed yet. Symlinks are never followed, special files (fifos, sockets, devices) are never
opened, and pseudo file systems (agent_core/home/mounts.py) are never entered.

API: `ArtifactWatcher(store, root, run_id=None)` with `start()` (observe, then scan in the
background; `scanned` is set when that scan ended), `stop()` and `scan()`; `watching(store,
root, run_id=None)` (a context manager). No Qt here.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from agent_core.artifacts.files import iter_artifact_files
from agent_core.artifacts.first_scan import scan_folder
from agent_core.artifacts.sightings import Sighting, observe_file
from agent_core.contract.events import Event, EventKind
from agent_core.contract.statuses import RunStatus
from agent_core.home.clock import monotonic
from agent_core.home.mounts import system_folder_reason
from agent_core.home.sandbox import is_temp_artifact
from agent_core.storage.store import Store
from agent_core.storage.tables.sightings import run_status

log = logging.getLogger(__name__)

SETTLE_SECONDS = 0.15  # let a burst of created/modified/closed events become one sighting
SCAN_STOP_WAIT = 30.0  # stop() lets a running start-up scan finish for this long, then cuts it
_CLAIM_KINDS = frozenset({str(EventKind.RUN_STARTED), str(EventKind.RUN_RESUMED)})
_WRITE_EVENTS = frozenset({"created", "modified", "closed", "moved"})


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: ArtifactWatcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in _WRITE_EVENTS:
            return
        raw = event.dest_path if event.event_type == "moved" else event.src_path
        path = Path(os.fsdecode(raw))
        if event.is_directory:
            # A folder created or moved in brings files without events of their own. A folder
            # "modified" is only a file coming or going inside it, which has its own event:
            # rescanning the folder for it made each write re-sight every file beside it and
            # pushed their settle time out while a run kept writing.
            if event.event_type in ("created", "moved"):
                self.watcher.schedule_tree(path)
        else:
            self.watcher.schedule(path)


class ArtifactWatcher:
    """Watches `root` and records sightings (agent_core/artifacts/sightings.py: the verdicts).

    `run_id`: the run this watcher was started for (the CLI's `run`/`resume`); unexpected
    writes are then recorded on that run, once it is claimed. Thread-safe; `stop()` records
    pending sightings and lets a running start-up scan finish (SCAN_STOP_WAIT at most).
    """

    def __init__(
        self,
        store: Store,
        root: Path,
        *,
        run_id: str | None = None,
        settle: float = SETTLE_SECONDS,
        desk: str | None = None,
    ) -> None:
        self.store, self.run_id, self.settle, self.desk = store, run_id, settle, desk
        self.root = Path(root).expanduser().resolve()
        self.scanned = threading.Event()
        """Set once the start-up scan has ended (or was skipped)."""
        self._pending: dict[Path, float] = {}  # path -> when it is due, on the core's clock
        self._cond = threading.Condition()
        self._stopping = False
        self._claimed = threading.Event()  # the watcher's run has its run_started/run_resumed
        self._cut_scan = threading.Event()
        self._unfollow: Callable[[], None] | None = None
        self._observer: BaseObserver | None = None
        self._worker: threading.Thread | None = None
        self._scanner: threading.Thread | None = None

    def start(self) -> ArtifactWatcher:
        """Observe the root and scan it in the background; returns at once."""
        reason = system_folder_reason(self.root)
        if reason is not None:  # a run is refused such a folder; an old one is not watched
            log.warning("not watching artifacts: %s", reason)
            self.scanned.set()
            return self
        self.root.mkdir(parents=True, exist_ok=True)
        self._stopping = False
        self.scanned.clear()
        self._cut_scan.clear()
        self._wait_for_claim()
        self._worker = threading.Thread(target=self._work, name="artifact-watcher", daemon=True)
        self._worker.start()
        observer = Observer()
        observer.schedule(_Handler(self), str(self.root), recursive=True)
        observer.daemon = True
        observer.start()  # before the scan, so nothing written during the scan is missed
        self._observer = observer
        self._scanner = threading.Thread(
            target=self._start_up_scan, name="artifact-scan", daemon=True
        )
        self._scanner.start()
        return self

    def stop(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
            self._observer = None
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._scanner is not None:
            self._scanner.join(timeout=SCAN_STOP_WAIT)
            self._cut_scan.set()  # past the wait: record what was read, leave the rest
            self._scanner.join(timeout=30)
            self._scanner = None
        if self._worker is not None:
            self._worker.join(timeout=30)
            self._worker = None
        if self._unfollow is not None:
            self._unfollow()
            self._unfollow = None

    def scan(self) -> list[Sighting]:
        """Sight every file under the root now; returns what was newly recorded."""
        return scan_folder(
            self.store, self.root, watcher_run_id=self.run_id, desk=self.desk, cut=self._cut_scan
        )

    def _start_up_scan(self) -> None:
        try:
            with self._cond:  # a run's sightings wait for its claim (or for stop)
                while not self._claimed.is_set() and not self._stopping:
                    self._cond.wait()
            if self._claimed.is_set():  # never claimed: the next watcher's scan sees the files
                self.scan()
        except Exception:  # a watcher must outlive a bad file or a locked database
            log.exception("artifact watcher could not scan %s", self.root)
        finally:
            self.scanned.set()

    def _wait_for_claim(self) -> None:
        """Open the gate now (no run, or a run already claimed), or when its claim commits."""
        if self.run_id is None:
            self._claimed.set()
            return
        self._unfollow = self.store.follow_events(self._on_events)  # first: no claim is missed
        with self.store.read() as conn:
            status = run_status(conn, self.run_id)
        if status is not None and status != RunStatus.CREATED:
            self._open_gate()

    def _on_events(self, committed: list[Event]) -> None:
        if any(e.run_id == self.run_id and e.kind in _CLAIM_KINDS for e in committed):
            self._open_gate()

    def _open_gate(self) -> None:
        with self._cond:
            self._claimed.set()
            self._cond.notify_all()

    def schedule(self, path: Path) -> None:
        if is_temp_artifact(path.name) or not path.is_relative_to(self.root):
            return
        with self._cond:
            self._pending[path] = monotonic() + self.settle
            self._cond.notify_all()

    def schedule_tree(self, folder: Path) -> None:
        if folder.is_dir() and not folder.is_symlink():
            for path in iter_artifact_files(folder):
                self.schedule(path)

    def _work(self) -> None:
        while True:
            with self._cond:
                due = self._take_due()
                while not due and not self._stopping:
                    wake = min(self._pending.values(), default=None)
                    if not self._claimed.is_set():
                        wake = None  # held until the run is claimed: its claim notifies
                    # A real wait, re-checked on the core's clock (a test's clock may move).
                    self._cond.wait(None if wake is None else max(0.0, wake - monotonic()))
                    due = self._take_due()
                if self._stopping:
                    due += list(self._pending)  # flush: a CLI exiting right after its write
                    self._pending.clear()
            for path in due:
                self._observe(path)
            if self._stopping:
                return

    def _take_due(self) -> list[Path]:
        if not self._claimed.is_set():
            return []
        now = monotonic()
        due = [p for p, at in self._pending.items() if at <= now]
        for path in due:
            del self._pending[path]
        return due

    def _observe(self, path: Path) -> Sighting | None:
        try:
            return observe_file(self.store, path, watcher_run_id=self.run_id, desk=self.desk)
        except Exception:  # a watcher must outlive one bad file or a locked database
            log.exception("artifact watcher could not record %s", path)
            return None


@contextmanager
def watching(
    store: Store, root: Path, *, run_id: str | None = None, desk: str | None = None
) -> Iterator[ArtifactWatcher]:
    """`with watching(ws.store, artifacts_dir, run_id=rid): ws.drive(rid)`."""
    watcher = ArtifactWatcher(store, root, run_id=run_id, desk=desk).start()
    try:
        yield watcher
    finally:
        watcher.stop()
