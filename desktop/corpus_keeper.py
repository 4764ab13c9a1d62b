"""Keeps the Corpus tab current while the app runs: one reindex at start-up, then one after each
quiet burst of changes in the corpus folder, never two at once.

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
        """Watch the home's corpus folder, then reindex it once (a change meanwhile is seen)."""
        if self._started:
            return
        self._started = True
        closing, stoppers, changed = self._closing, self._stop_watching, self._folder_changed

        def watch(ws: Workspace) -> None:
            from agent_core.facade.corpus_watch import watch_corpus

            if not closing.is_set():
                stoppers.append(watch_corpus(ws, changed.emit))

        self.bridge.submit(watch, on_done=self._on_watching, on_error=self._not_watching)
        self.reindex()

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
        progress = self._relay()
        self.bridge.submit_async(
            lambda ws: asyncio.to_thread(ws.reindex_corpus, None, progress),
            on_done=self._on_reindexed,
            on_error=self._on_failed,
        )

    def _relay(self) -> Callable[[ReindexProgress], None]:
        """The progress callback, on the reindex's worker thread: emit (queued), throttled."""
        closing, progressed = self._closing, self.progressed
        last = [0.0]

        def progress(step: ReindexProgress) -> None:
            if closing.is_set():
                raise ReindexStopped
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY_S or step.done >= step.total:
                last[0] = now
                progressed.emit(step)

        return progress

    # -- on the GUI thread ------------------------------------------------------------------

    def _on_progress(self, step: ReindexProgress) -> None:
        if self._running and not self._closing.is_set():
            self.panel.show_progress(step)

    def _on_folder_changed(self, _paths: frozenset[str]) -> None:
        self.reindex()

    def _on_watching(self, _result: None) -> None:
        self.watching = bool(self._stop_watching)

    def _not_watching(self, exc: Exception) -> None:
        # e.g. the inotify watch limit: the tab still works, Reindex reads the changes
        self.panel.show_note(
            self.tr(
                "Changes to the corpus folder are not followed: {why} Press Reindex after "
                "changing files."
            ).format(why=plain_exception(exc))
        )

    def _on_reindexed(self, status: CorpusStatusView) -> None:
        if self._closing.is_set():
            return
        self.panel.show_status(status)
        self.bridge.submit_async(
            lambda ws: asyncio.to_thread(ws.corpus_documents),
            on_done=lambda documents: self._on_documents(status, documents),
            on_error=self._on_failed,
        )

    def _on_documents(self, status: CorpusStatusView, documents: list[DocumentView]) -> None:
        if self._closing.is_set():
            return
        self.panel.set_documents(documents)
        self._finished()
        self.reindexed.emit(status)

    def _on_failed(self, exc: Exception) -> None:
        if self._closing.is_set():
            return
        self.panel.show_error(
            self.tr("The corpus could not be indexed. {why}").format(why=plain_exception(exc))
        )
        self._finished()

    def _finished(self) -> None:
        self._running = False
        if self._again:
            self.reindex()
