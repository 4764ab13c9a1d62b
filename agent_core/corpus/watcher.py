"""The corpus watcher: say "the corpus changed" once a burst of file changes has gone quiet.

A watchdog observer watches the corpus root (recursively). Events on hidden files or inside
hidden folders, and on files of a type the corpus does not read (contract INDEXED_TYPES), are
ignored: an editor's swap file or a `.git` folder never starts a reindex. A relevant event
(created, modified, closed, deleted, moved; a folder created, deleted or moved, since it brings
or takes files that have no events of their own) arms a timer; the callback runs once the
folder has been quiet for `quiet` seconds, or at the latest `max_delay` seconds after the first
event of a burst that never pauses (a long copy still shows progress). The callback runs on the
watcher's own thread with the paths (relative to the root, with `/`) the burst touched; the
reindex still finds for itself what changed (an event may be missed, a path may be a folder).

API: `CorpusWatcher(root, on_change, quiet=QUIET_SECONDS).start()` and `stop()` (joins the
observer and the timer thread; a change still pending is dropped). No Qt here.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from agent_core.contract.documents import INDEXED_TYPES
from agent_core.home.clock import monotonic
from agent_core.home.mounts import system_folder_reason

log = logging.getLogger(__name__)

QUIET_SECONDS = 1.0  # a burst (a copy of many files, an editor's save) becomes one reindex
MAX_DELAY_SECONDS = 10.0  # a burst that never pauses still reindexes this often
_FILE_EVENTS = frozenset({"created", "modified", "closed", "deleted", "moved"})
_FOLDER_EVENTS = frozenset({"created", "deleted", "moved"})  # "modified" is a file's own event


def is_relevant(root: Path, path: Path, *, is_directory: bool) -> bool:
    """Does a change at `path` (under `root`) concern the index? Pure: no file is touched."""
    if not path.is_relative_to(root) or path == root:
        return False
    parts = path.relative_to(root).parts
    if any(part.startswith(".") for part in parts):
        return False
    return is_directory or INDEXED_TYPES.get(path.suffix.lower()) is not None


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: CorpusWatcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        kinds = _FOLDER_EVENTS if event.is_directory else _FILE_EVENTS
        if event.event_type not in kinds:
            return
        raws = [event.src_path] + ([event.dest_path] if event.event_type == "moved" else [])
        paths = [Path(os.fsdecode(raw)) for raw in raws if raw]
        relevant = [
            p for p in paths if is_relevant(self.watcher.root, p, is_directory=event.is_directory)
        ]
        if relevant:
            self.watcher.changed(*relevant)


class CorpusWatcher:
    """Watches `root`; calls `on_change(paths)` (on its own thread) after each quiet burst."""

    def __init__(
        self,
        root: Path,
        on_change: Callable[[frozenset[str]], None],
        *,
        quiet: float = QUIET_SECONDS,
        max_delay: float = MAX_DELAY_SECONDS,
    ) -> None:
        self.root = Path(root).expanduser().resolve()
        self.on_change, self.quiet, self.max_delay = on_change, quiet, max_delay
        self._cond = threading.Condition()
        self._first: float | None = None  # when the pending burst began (None: nothing pending)
        self._last = 0.0  # its latest event
        self._paths: set[str] = set()  # what it touched, relative to the root
        self._stopping = False
        self._observer: BaseObserver | None = None
        self._worker: threading.Thread | None = None

    def start(self) -> CorpusWatcher:
        """Observe the root (which must exist); returns at once."""
        reason = system_folder_reason(self.root)
        if reason is not None:  # /proc and friends: nothing to index, and events without end
            log.warning("not watching the corpus: %s", reason)
            return self
        self._stopping = False
        self._worker = threading.Thread(target=self._work, name="corpus-watcher", daemon=True)
        self._worker.start()
        observer = Observer()
        observer.schedule(_Handler(self), str(self.root), recursive=True)
        observer.daemon = True
        observer.start()
        self._observer = observer
        return self

    def stop(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
            self._observer = None
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._worker is not None:
            self._worker.join(timeout=5)
            self._worker = None

    def changed(self, *paths: Path) -> None:
        """`paths` (under the root) changed now (the observer's thread; any thread may call)."""
        with self._cond:
            self._paths.update(p.relative_to(self.root).as_posix() for p in paths)
            now = monotonic()
            if self._first is None:
                self._first = now
            self._last = now
            self._cond.notify_all()

    def _due(self) -> float | None:
        """When the pending burst is to be reported (None: nothing pending)."""
        if self._first is None:
            return None
        return min(self._last + self.quiet, self._first + self.max_delay)

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._stopping:
                    due = self._due()
                    if due is not None and monotonic() >= due:
                        break
                    # A real wait, re-checked on the core's clock (a test's clock may move).
                    self._cond.wait(None if due is None else max(0.0, due - monotonic()))
                if self._stopping:
                    return
                self._first = None
                burst, self._paths = frozenset(self._paths), set()
            try:
                self.on_change(burst)
            except Exception:  # a watcher must outlive a failing callback
                log.exception("corpus watcher callback failed for %s", self.root)
