"""Keeps the Corpus tab current while the app runs: one reindex at start-up, then one after each
quiet burst of changes in the corpus folder, never two at once.

The folder is the corpus folder of Settings (`corpus.folder`, else the home's `corpus/`), or the
selected run's when it read another one (`use_folder`); saving another folder in Settings
(`default_changed`) lists that one. A switch stops the reindex of the folder left at its next
file and drops what it answers: the tab never shows one folder's documents under another's name.

Everything goes through the bridge. The watcher (agent_core/facade/corpus_watch.py) is started
and stopped by bridge jobs, so it lives on the bridge's side; it tells of a change from its own
thread through a queued signal. A reindex runs in a worker thread of the bridge's loop
(`asyncio.to_thread`), so the window's other jobs are served meanwhile; its progress crosses to
the GUI thread through a queued signal too, and only there touches the panel. A change that
arrives during a reindex is coalesced into one more reindex after it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal

from agent_core.contract.documents import CorpusStatusView, DocumentView, ReindexProgress
from desktop.models.plain_errors import plain_exception
from desktop.widgets.corpus_panel import CorpusPanel

if TYPE_CHECKING:
    from collections.abc import Callable

    from agent_core.facade.workspace import Workspace
    from desktop.bridge import Bridge

log = logging.getLogger(__name__)

PROGRESS_EVERY_S = 0.05  # a reindex of 10,000 small files sends the bar ~20 updates a second


class ReindexStopped(Exception):
    """The window is closing: the reindex stops at its next file (what it wrote stays)."""


class CorpusKeeper(QObject):
    """Feeds `panel` from the bridge: reindexes, the watcher's changes, the documents list."""

    reindexed = Signal(object)  # CorpusStatusView, after each reindex (and its documents list)
    progressed = Signal(object)  # ReindexProgress, emitted on the reindex's worker thread
    _folder_changed = Signal(object)  # frozenset[str], from the watcher's thread

    def __init__(self, bridge: Bridge, panel: CorpusPanel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge, self.panel = bridge, panel
        self.reindexes = 0  # started so far (what a person would see as bar runs)
        self.watching = False
        self.asked: str | None = None  # the selected run's corpus folder; None: no run
        self.default_root: str | None = None  # Settings' folder, once a status said which
        self.folder: str | None = None  # the folder shown; None: Settings' (see `_target`)
        self._generation = 0  # a switch of folder: a reindex of an older one is stale
        self._started = False
        self._running = False
        self._again = False  # a change came during the reindex: one more after it
        self._closing = threading.Event()  # read by the bridge's and the reindex's threads
        self._stop_watching: list[Callable[[], None]] = []  # touched on the bridge thread only
        queued = Qt.ConnectionType.QueuedConnection
        self.progressed.connect(self._on_progress, queued)
        self._folder_changed.connect(self._on_folder_changed, queued)
        panel.reindex_requested.connect(self.reindex)

    @property
    def busy(self) -> bool:
        """A reindex runs (or its documents list is being read)."""
        return self._running

    def start(self) -> None:
        """Watch the corpus folder, then reindex it once (a change meanwhile is seen)."""
        if self._started:
            return
        self._started = True
        self._show_target()

    def use_folder(self, corpus: str | None) -> None:
        """Show the selected run's corpus folder (None: no run selected). A run on Settings'
        folder shows Settings' folder: nothing changes then."""
        self.asked = corpus
        if self._target() != self.folder:
            self._show_target()

    def default_changed(self) -> None:
        """Settings saved another corpus folder: list it, unless a run on another folder is
        selected (a run on the folder Settings had is on another one now)."""
        self.default_root = None  # the next status of the default says where it is
        if self._target() is None or self._target() != self.folder:
            self._show_target()

    def _target(self) -> str | None:
        asked = self.asked
        return None if asked is None or asked == self.default_root else asked

    def _show_target(self) -> None:
        self.folder = self._target()
        self._generation += 1
        self.panel.show_folder(self.folder or "", run=self.folder is not None)
        self.panel.show_note("")
        if self._started:
            self._name_default()
            self._watch(self.folder)
            self.reindex()

    def _name_default(self) -> None:
        """Where Settings' folder is: in the header at once, not after a reindex that may take
        minutes; and a run's folder that turns out to be it shows as Settings' folder."""
        generation = self._generation

        def named(root: str) -> None:
            if generation != self._generation:
                return
            self.default_root = root
            if self.folder is None:
                self.panel.name_folder(root)
            elif self._target() != self.folder:
                self._show_target()

        self.bridge.submit(
            lambda ws: str(ws.default_corpus()),
            on_done=named,
            on_error=lambda exc: log.info("corpus folder: %s", exc),
        )

    def _watch(self, folder: str | None) -> None:
        """Stop watching the folder left, then watch `folder` (bridge jobs run in order)."""
        closing, stoppers, changed = self._closing, self._stop_watching, self._folder_changed
        self.watching = False

        def watch(ws: Workspace) -> None:
            from agent_core.facade.corpus_watch import watch_corpus

            while stoppers:
                stoppers.pop()()
            if not closing.is_set():
                stoppers.append(watch_corpus(ws, changed.emit, folder))

        generation = self._generation
        self.bridge.submit(
            watch,
            on_done=lambda _none: self._on_watching(generation),
            on_error=lambda exc: self._not_watching(exc, generation),
        )

    def stop(self) -> None:
        """The window closes: stop a running reindex at its next file and the watcher (a bridge
        job, queued before the bridge's own shutdown)."""
        self._closing.set()
        stoppers = self._stop_watching

        def unwatch(_ws: Workspace) -> None:
            while stoppers:
                stoppers.pop()()

        if self._started:
            self.bridge.submit(unwatch, on_error=lambda exc: log.info("unwatch: %s", exc))

    def reindex(self) -> None:
        """Reindex now, or once more right after the one that runs (never two at once)."""
        if self._closing.is_set():
            return
        if self._running:
            self._again = True
            return
        self._running, self._again = True, False
        self.reindexes += 1
        self.panel.show_reindexing()
        folder, generation = self.folder, self._generation
        progress = self._relay(generation)
        self.bridge.submit_async(
            lambda ws: asyncio.to_thread(ws.reindex_corpus, folder, progress),
            on_done=lambda status: self._on_reindexed(status, generation),
            on_error=lambda exc: self._on_failed(exc, generation),
        )

    def _relay(self, generation: int) -> Callable[[ReindexProgress], None]:
        """The progress callback, on the reindex's worker thread: emit (queued), throttled; the
        start of a scanned page's OCR always (it takes seconds). It stops the reindex when the
        window closes or shows another folder."""
        closing, progressed = self._closing, self.progressed
        last = [0.0]

        def progress(step: ReindexProgress) -> None:
            if closing.is_set() or generation != self._generation:  # an int read: atomic
                raise ReindexStopped
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY_S or step.done >= step.total or step.ocr_page:
                last[0] = now
                progressed.emit(step)

        return progress

    # -- on the GUI thread ------------------------------------------------------------------

    def _on_progress(self, step: ReindexProgress) -> None:
        if self._running and not self._closing.is_set():
            self.panel.show_progress(step)

    def _on_folder_changed(self, _paths: frozenset[str]) -> None:
        self.reindex()

    def _on_watching(self, generation: int) -> None:
        if generation == self._generation:
            self.watching = bool(self._stop_watching)

    def _not_watching(self, exc: Exception, generation: int) -> None:
        # e.g. the inotify watch limit: the tab still works, Reindex reads the changes
        if generation != self._generation:
            return
        self.panel.show_note(
            self.tr(
                "Changes to the corpus folder are not followed: {why} Press Reindex after "
                "changing files."
            ).format(why=plain_exception(exc))
        )

    def _on_reindexed(self, status: CorpusStatusView, generation: int) -> None:
        if self._closing.is_set():
            return
        if generation != self._generation:  # another folder is shown now: reindex that one
            self._finished()
            return
        if self.folder is None:
            self.default_root = status["root"]
        self.panel.show_status(status)
        root = status["root"]
        self.bridge.submit_async(
            lambda ws: asyncio.to_thread(ws.corpus_documents, root),
            on_done=lambda documents: self._on_documents(status, documents, generation),
            on_error=lambda exc: self._on_failed(exc, generation),
        )

    def _on_documents(
        self, status: CorpusStatusView, documents: list[DocumentView], generation: int
    ) -> None:
        if self._closing.is_set():
            return
        if generation == self._generation:
            self.panel.set_documents(documents)
        self._finished()
        if generation == self._generation:
            self.reindexed.emit(status)

    def _on_failed(self, exc: Exception, generation: int) -> None:
        if self._closing.is_set():
            return
        if generation != self._generation or isinstance(exc, ReindexStopped):
            self._finished()
            return
        self.panel.show_error(
            self.tr("The corpus could not be indexed. {why}").format(why=plain_exception(exc))
        )
        self._finished()

    def _finished(self) -> None:
        self._running = False
        if self._again:
            self.reindex()
