"""Watching the corpus folder while the app runs (agent_core/corpus/watcher.py), for the window.

An orchestration of the façade (which folder) and the corpus watcher, so it lives above both,
as `drive_watched` does for the artifacts watcher; the window calls it on the bridge thread and
reindexes (`ws.reindex_corpus`) when the callback says the folder changed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.corpus.watcher import QUIET_SECONDS, CorpusWatcher

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace


def watch_corpus(
    ws: Workspace,
    on_change: Callable[[frozenset[str]], None],
    corpus: str | Path | None = None,
    *,
    quiet: float = QUIET_SECONDS,
) -> Callable[[], None]:
    """Watch the corpus folder (the home's when `corpus` is None; `not_found` when it does not
    exist); `on_change(paths)` runs on the watcher's thread after each quiet burst of changes
    to documents, with the paths it touched (relative, `/`). Returns the stop (it joins the
    watcher's threads)."""
    watcher = CorpusWatcher(ws.corpus_root(corpus), on_change, quiet=quiet).start()
    return watcher.stop
