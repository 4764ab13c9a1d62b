"""Matching one sighting to the side-effect ledger, and recording its verdict.

A sighting is matched by path and content hash to a `save_brief` entry whose status is
`started` or `confirmed` (a write that a person or a rule approved):

- the first sighting of an approved write records `artifact_confirmed` (`count` 1) on the run
  that owns the ledger entry, whichever process saw it;
- a further physical write of the same approved content (a new inode or mtime) is a
  **duplicate**: `artifact_confirmed` again on the owning run, with `count` N (N >= 2) and
  `duplicate: true`. We chose this over `artifact_unexpected` because the contract says the
  confirmed event tells "how many times" an approved write was seen;
- any other write is `artifact_unexpected` (`reason`: `no_approved_write`, or `content_differs`
  when the path has approved writes but none with this content). It is recorded on the
  watcher's own run when the watcher was started for a run (the CLI's `run`/`resume`). A watcher
  without a run (the desktop app) records it on every run in progress (started, not ended)
  whose artifacts folder holds the path; when no run is in progress there, it is an event of
  the home itself (`run_id` null; `Workspace.home_events()`), never one of an unrelated finished
  run.

Nothing is ever recorded on a run that no process has claimed yet (`created`): its first event
is the lifecycle's `run_started`.

Every sighting is inserted into `artifact_sightings` with ON CONFLICT DO NOTHING in the same
write transaction as its event, so a GUI and a CLI watching at once, or a watcher restarted
over the same files, count one physical write once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Connection

from agent_core.artifacts.files import FileId, identify, inode_key
from agent_core.contract.artifact_views import SEEN_VERDICTS, SightingVerdict
from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonObject
from agent_core.contract.statuses import TERMINAL_RUN_STATUSES, RunStatus
from agent_core.home.clock import now_iso
from agent_core.home.sandbox import is_temp_artifact
from agent_core.storage.store import Store
from agent_core.storage.tables import sightings as table
from agent_core.storage.tables.timeline import append_event
from agent_core.tools.registry import file_writing_tools


@dataclass(frozen=True)
class Sighting:
    """One physical write, as recorded by the process that saw it first."""

    path: str
    content_hash: str
    inode_key: str
    verdict: SightingVerdict
    run_ids: tuple[str | None, ...]
    """The runs it was recorded on; (None,) for an event of the home itself."""
    count: int

    def row(self, desk: str | None, seen_at: str) -> table.SightingRow:
        return table.SightingRow(
            path=self.path,
            content_hash=self.content_hash,
            inode_key=self.inode_key,
            run_id=self.run_ids[0],
            verdict=self.verdict,
            count=self.count,
            seen_at=seen_at,
            desk=desk,
        )


def observe_file(
    store: Store, path: Path, *, watcher_run_id: str | None = None, desk: str | None = None
) -> Sighting | None:
    """Record one sighting of `path` and its timeline event; None if there was nothing new.

    `desk`: in team mode, the desk whose watcher saw it: only that desk's runs and sightings
    count (two machines may hold the same path). None on a home's own file: every run is this
    desk's."""
    if is_temp_artifact(path.name) or _already_sighted(store, path, desk):
        return None
    file_id = identify(path)
    if file_id is None:
        return None
    with store.write() as conn:
        return record_sighting(conn, file_id, watcher_run_id, desk)


def _already_sighted(store: Store, path: Path, desk: str | None) -> bool:
    """A cheap check by stat alone, so a start-up scan does not hash files it already counted."""
    try:
        st = os.lstat(path)
    except OSError:
        return True  # gone: nothing to sight
    with store.read() as conn:
        return table.is_sighted(conn, str(path), inode_key(st), desk)


def record_sighting(
    conn: Connection, fid: FileId, watcher_run_id: str | None, desk: str | None = None
) -> Sighting | None:
    """Judge one physical write and record it with its event, in the caller's transaction;
    None when another process (or an earlier scan) already counted it."""
    owner = _owning_entry(conn, fid, desk)
    if owner is not None:
        count = _seen_for_run(conn, fid, owner.run_id, desk) + 1
        verdict = SightingVerdict.CONFIRMED if count == 1 else SightingVerdict.DUPLICATE
        run_ids: tuple[str | None, ...] = (owner.run_id,)
    else:
        count = table.count_sightings(conn, fid.path, (SightingVerdict.UNEXPECTED,), desk) + 1
        verdict = SightingVerdict.UNEXPECTED
        run_ids = watching_runs(conn, fid.path, watcher_run_id, desk)
    sighting = Sighting(fid.path, fid.content_hash, fid.inode_key, verdict, run_ids, count)
    if not table.insert_sighting(conn, sighting.row(desk, now_iso())):
        return None
    data: JsonObject = {"path": fid.path, "count": count, "content_hash": fid.content_hash}
    if owner is not None:
        data |= {
            "duplicate": count > 1,
            "call_id": owner.call_id,
            "idempotency_key": owner.idempotency_key,
        }
        append_event(conn, owner.run_id, EventKind.ARTIFACT_CONFIRMED, tool=owner.tool, data=data)
    else:
        approved_here = table.is_ledger_target(conn, fid.path, desk)
        data["reason"] = "content_differs" if approved_here else "no_approved_write"
        for run_id in run_ids:
            append_event(conn, run_id, EventKind.ARTIFACT_UNEXPECTED, data=data)
    return sighting


def _owning_entry(conn: Connection, fid: FileId, desk: str | None) -> table.ApprovedWrite | None:
    """The approved ledger entry this write fulfils: the oldest not yet sighted, else the newest."""
    entries = table.approved_writes(conn, fid.path, fid.content_hash, file_writing_tools(), desk)
    for entry in entries:
        if _seen_for_run(conn, fid, entry.run_id, desk) == 0:
            return entry
    return entries[-1] if entries else None


def _seen_for_run(conn: Connection, fid: FileId, run_id: str, desk: str | None) -> int:
    """Confirmed (or duplicate) sightings of this content at this path, for that run."""
    return table.count_sightings(
        conn, fid.path, SEEN_VERDICTS, desk, run_id=run_id, content_hash=fid.content_hash
    )


def watching_runs(
    conn: Connection, path: str, watcher_run_id: str | None, desk: str | None
) -> tuple[str | None, ...]:
    """Where an unexpected write is recorded: the watcher's run once it is claimed, else the runs
    in progress on that folder, else the home itself (None)."""
    if watcher_run_id is not None:
        status = table.run_status(conn, watcher_run_id)
        if status is not None and status != RunStatus.CREATED:
            return (watcher_run_id,)
    # `created`: nobody has claimed it, and its first event must be run_started.
    live = tuple(
        run.run_id
        for run in table.run_folders(conn, desk)
        if run.status not in TERMINAL_RUN_STATUSES
        and run.status != RunStatus.CREATED
        and Path(path).is_relative_to(run.artifacts_dir)
    )
    return live or (None,)
