"""The first scan of an artifacts folder: writes made while nothing watched.

A process that crashed, or wrote while no watcher ran, leaves files no event will announce, so
`ArtifactWatcher.start()` scans its root too (in the background: a run starts at once, whatever
the folder holds). The scan reads each file not yet sighted, in batches, and records it as a
watcher would (agent_core/artifacts/sightings.py). More than `SUMMARY_OVER` stray files found in
it are reported as ONE `artifact_unexpected` event with `summary: true` (`path`: the folder,
`count`: how many files, `examples`: a few relative paths); every such file still gets its
sighting row (the artifacts panel shows it as unexpected). Tampered approved files
(`content_differs`) are always reported one by one.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import Connection

from agent_core.artifacts.files import FileId, identify, inode_key, iter_artifact_files
from agent_core.artifacts.sightings import Sighting, record_sighting, watching_runs
from agent_core.contract.artifact_views import SightingVerdict
from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonObject
from agent_core.home.clock import now_iso
from agent_core.storage.store import Store
from agent_core.storage.tables import sightings as table
from agent_core.storage.tables.timeline import append_event

SUMMARY_OVER = 5  # a start-up scan that finds more stray files than this reports one summary
SUMMARY_EXAMPLES = 5
SCAN_BATCH = 500  # files stat-checked per query, and sightings written per statement


def scan_folder(
    store: Store,
    root: Path,
    *,
    watcher_run_id: str | None = None,
    desk: str | None = None,
    cut: threading.Event | None = None,
) -> list[Sighting]:
    """Sight every file under `root` now; returns what was newly recorded. Once `cut` is set,
    what was read so far is recorded and the rest is left (a watcher stopping)."""
    found: list[FileId] = []
    batch: list[Path] = []
    for path in iter_artifact_files(root):
        batch.append(path)
        if len(batch) >= SCAN_BATCH:
            found += _identify_unsighted(store, batch, desk, cut)
            batch = []
        if cut is not None and cut.is_set():
            break
    found += _identify_unsighted(store, batch, desk, cut)
    return record_scan(store, root, found, watcher_run_id, desk)


def _identify_unsighted(
    store: Store, paths: Sequence[Path], desk: str | None, cut: threading.Event | None
) -> list[FileId]:
    found: list[FileId] = []
    for path in _unsighted(store, paths, desk) if paths else []:
        if cut is not None and cut.is_set():
            break
        if (fid := identify(path)) is not None:
            found.append(fid)
    return found


def _unsighted(store: Store, paths: Sequence[Path], desk: str | None) -> list[Path]:
    """The regular files of `paths` whose current write has no sighting yet (one query)."""
    current: dict[str, Path] = {}
    keys: dict[str, str] = {}
    for path in paths:
        try:
            st = os.lstat(path)
        except OSError:
            continue  # gone
        if stat.S_ISREG(st.st_mode):  # no fifo, socket, device or symlink is ever opened
            current[str(path)] = path
            keys[str(path)] = inode_key(st)
    if not current:
        return []
    with store.read() as conn:
        known = table.sighted_writes(conn, list(current), desk)
    return [p for name, p in current.items() if (name, keys[name]) not in known]


def record_scan(
    store: Store,
    root: Path,
    found: Sequence[FileId],
    watcher_run_id: str | None,
    desk: str | None = None,
) -> list[Sighting]:
    """Record what a scan of `root` found: approved, tampered and a few stray files one by one;
    more than SUMMARY_OVER plain stray files as sightings and ONE summary event."""
    if not found:
        return []
    recorded: list[Sighting] = []
    with store.write() as conn:
        # A path no ledger entry names is a plain stray file: nothing approved it, nothing of
        # a run is at stake. Approved writes and tampered ones (content_differs) matter one
        # by one, whatever their number.
        targeted = table.ledger_targets(conn, [f.path for f in found], desk)
        stray = [f for f in found if f.path not in targeted]
        summarized = set(stray) if len(stray) > SUMMARY_OVER else set()
        for fid in found:
            if fid not in summarized and (
                sighting := record_sighting(conn, fid, watcher_run_id, desk)
            ):
                recorded.append(sighting)
        if summarized:
            recorded += _record_summary(conn, root, stray, watcher_run_id, desk)
    return recorded


def _record_summary(
    conn: Connection,
    root: Path,
    stray: Sequence[FileId],
    watcher_run_id: str | None,
    desk: str | None,
) -> list[Sighting]:
    run_ids = watching_runs(conn, str(root), watcher_run_id, desk)
    recorded: list[Sighting] = []
    for start in range(0, len(stray), SCAN_BATCH):
        batch = stray[start : start + SCAN_BATCH]
        rows = table.sightings_of_paths(conn, [f.path for f in batch], desk)
        known = {(r.path, r.content_hash, r.inode_key) for r in rows}
        earlier: dict[str, int] = {}
        for r in rows:
            if r.verdict is SightingVerdict.UNEXPECTED:
                earlier[r.path] = earlier.get(r.path, 0) + 1
        new = [f for f in batch if (f.path, f.content_hash, f.inode_key) not in known]
        if not new:
            continue
        seen_at = now_iso()
        batch_sightings = [
            Sighting(
                f.path,
                f.content_hash,
                f.inode_key,
                SightingVerdict.UNEXPECTED,
                run_ids,
                earlier.get(f.path, 0) + 1,
            )
            for f in new
        ]
        table.insert_sightings(conn, [s.row(desk, seen_at) for s in batch_sightings])
        recorded += batch_sightings
    if recorded:
        data: JsonObject = {
            "path": str(root),
            "count": len(recorded),
            "summary": True,
            "reason": "present_at_start",
            "examples": [
                Path(s.path).relative_to(root).as_posix() for s in recorded[:SUMMARY_EXAMPLES]
            ],
        }
        for run_id in run_ids:
            append_event(conn, run_id, EventKind.ARTIFACT_UNEXPECTED, data=data)
    return recorded
