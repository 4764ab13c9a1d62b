"""Artifact sightings, and what the watcher and the settlement ask of the ledger, the runs and
the timeline to judge one.

A sighting is one physical write (path, content hash, `inode_key`), recorded once by whichever
process saw it first (ON CONFLICT DO NOTHING). `desk`: in team mode, only that desk's
sightings and runs count (two machines may hold the same path); None on a home's own file,
where every row is this desk's. `tools`: the tools whose confirmed effects are files on disk
(`tools.registry.file_writing_tools()`, passed in: storage knows no tools).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass

from sqlalchemy import ColumnElement, Connection, func, select, true

from agent_core.contract.artifact_views import SEEN_VERDICTS, SightingVerdict
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import TERMINAL_RUN_STATUSES, SideEffectStatus
from agent_core.storage.dialect_insert import insert_for
from agent_core.storage.schema import artifact_sightings, events, ledger, runs

_APPROVED_STATUSES = (str(SideEffectStatus.STARTED), str(SideEffectStatus.CONFIRMED))
_IN_BATCH = 500  # values per IN (...): well under every backend's bound-parameter limit


@dataclass(frozen=True)
class SightingRow:
    path: str
    content_hash: str
    inode_key: str
    """f"{st_ino}:{st_mtime_ns}": one physical write."""
    run_id: str | None
    """The run it was recorded on; None for an event of the home itself."""
    verdict: SightingVerdict
    count: int
    seen_at: str
    desk: str | None


@dataclass(frozen=True)
class ApprovedWrite:
    """A ledger entry that approved writing a file (status started or confirmed)."""

    idempotency_key: str
    run_id: str
    call_id: str
    tool: str


@dataclass(frozen=True)
class RunFolder:
    run_id: str
    status: str
    artifacts_dir: str


@dataclass(frozen=True)
class PendingWrite:
    """A confirmed file write of an ended run that no watcher has recorded yet."""

    run_id: str
    call_id: str
    path: str
    expected_hash: str


def _sightings_of(desk: str | None) -> ColumnElement[bool]:
    return true() if desk is None else artifact_sightings.c.desk == desk


def _runs_of(desk: str | None) -> ColumnElement[bool]:
    return true() if desk is None else runs.c.desk == desk


def _ledger_of(desk: str | None) -> ColumnElement[bool]:
    if desk is None:
        return true()
    return ledger.c.run_id.in_(select(runs.c.run_id).where(runs.c.desk == desk))


# --- sightings ------------------------------------------------------------------------------


def is_sighted(conn: Connection, path: str, inode_key: str, desk: str | None) -> bool:
    """Whether this physical write of `path` has a sighting (a stat-only probe)."""
    seen = artifact_sightings.c
    query = select(seen.path).where(
        seen.path == path, seen.inode_key == inode_key, _sightings_of(desk)
    )
    return conn.execute(query.limit(1)).first() is not None


def sighted_writes(
    conn: Connection, paths: Sequence[str], desk: str | None
) -> set[tuple[str, str]]:
    """(path, inode_key) of every sighting of `paths`."""
    seen = artifact_sightings.c
    query = select(seen.path, seen.inode_key).where(seen.path.in_(list(paths)), _sightings_of(desk))
    return {(str(row.path), str(row.inode_key)) for row in conn.execute(query)}


def sightings_of_paths(
    conn: Connection, paths: Sequence[str], desk: str | None
) -> list[SightingRow]:
    """Every sighting of `paths`, oldest first."""
    seen = artifact_sightings.c
    query = (
        select(
            seen.path,
            seen.content_hash,
            seen.inode_key,
            seen.run_id,
            seen.verdict,
            seen["count"],  # `.count` is the Row's (and the collection's) tuple method
            seen.seen_at,
            seen.desk,
        )
        .where(seen.path.in_(list(paths)), _sightings_of(desk))
        .order_by(seen.seen_at)
    )
    return [
        SightingRow(
            path=path,
            content_hash=content_hash,
            inode_key=inode_key,
            run_id=run_id,
            verdict=SightingVerdict(verdict),
            count=int(count),
            seen_at=seen_at,
            desk=desk_of_row,
        )
        for path, content_hash, inode_key, run_id, verdict, count, seen_at, desk_of_row in (
            conn.execute(query)
        )
    ]


def count_sightings(
    conn: Connection,
    path: str,
    verdicts: Sequence[SightingVerdict],
    desk: str | None,
    *,
    run_id: str | None = None,
    content_hash: str | None = None,
) -> int:
    """Sightings of `path` with these verdicts (narrowed to a run and a content when given)."""
    seen = artifact_sightings.c
    query = (
        select(func.count())
        .select_from(artifact_sightings)
        .where(seen.path == path, seen.verdict.in_([str(v) for v in verdicts]), _sightings_of(desk))
    )
    if run_id is not None:
        query = query.where(seen.run_id == run_id)
    if content_hash is not None:
        query = query.where(seen.content_hash == content_hash)
    return int(conn.execute(query).scalar_one())


def _values(row: SightingRow) -> dict[str, object]:
    return asdict(row) | {"verdict": str(row.verdict)}


def insert_sighting(conn: Connection, row: SightingRow) -> bool:
    """Insert one sighting unless that physical write has one; True when this call recorded it."""
    inserted = conn.execute(
        insert_for(conn, artifact_sightings).values(_values(row)).on_conflict_do_nothing()
    )
    return inserted.rowcount == 1


def insert_sightings(conn: Connection, rows: Sequence[SightingRow]) -> None:
    """Insert many sightings at once; writes that already have one are left as they are."""
    if rows:
        statement = insert_for(conn, artifact_sightings).on_conflict_do_nothing()
        conn.execute(statement, [_values(row) for row in rows])


# --- the ledger, as the watcher reads it ---------------------------------------------------


def approved_writes(
    conn: Connection, path: str, content_hash: str, tools: Collection[str], desk: str | None
) -> list[ApprovedWrite]:
    """The approved entries that wrote this content to `path`, oldest first."""
    query = (
        select(ledger.c.idempotency_key, ledger.c.run_id, ledger.c.call_id, ledger.c.tool)
        .where(
            ledger.c.target == path,
            ledger.c.tool.in_(list(tools)),
            ledger.c.expected_hash == content_hash,
            ledger.c.status.in_(_APPROVED_STATUSES),
            _ledger_of(desk),
        )
        .order_by(ledger.c.started_at)
    )
    return [
        ApprovedWrite(row.idempotency_key, row.run_id, row.call_id, row.tool)
        for row in conn.execute(query)
    ]


def is_ledger_target(conn: Connection, path: str, desk: str | None) -> bool:
    """Whether any ledger entry (any tool, any status) names `path` as its target."""
    query = select(ledger.c.idempotency_key).where(ledger.c.target == path, _ledger_of(desk))
    return conn.execute(query.limit(1)).first() is not None


def ledger_targets(conn: Connection, paths: Sequence[str], desk: str | None) -> set[str]:
    """The paths of `paths` that any ledger entry names as its target."""
    targeted: set[str] = set()
    for start in range(0, len(paths), _IN_BATCH):
        batch = list(paths[start : start + _IN_BATCH])
        query = select(ledger.c.target).where(ledger.c.target.in_(batch), _ledger_of(desk))
        targeted.update(str(target) for target in conn.execute(query).scalars())
    return targeted


def confirmed_write_targets(conn: Connection, run_id: str, tools: Collection[str]) -> set[str]:
    """Targets of the run's confirmed file writes."""
    query = select(ledger.c.target).where(
        ledger.c.run_id == run_id,
        ledger.c.tool.in_(list(tools)),
        ledger.c.status == str(SideEffectStatus.CONFIRMED),
    )
    return {str(row.target) for row in conn.execute(query) if row.target}


def pending_writes(
    conn: Connection, tools: Collection[str], desk: str | None
) -> list[PendingWrite]:
    """Confirmed writes of ended runs with no confirmed sighting for that run and content,
    oldest confirmation first; with `desk` only that desk's runs."""
    seen = artifact_sightings.c
    sighted = (
        select(seen.path)
        .where(
            seen.path == ledger.c.target,
            seen.content_hash == ledger.c.expected_hash,
            seen.run_id == ledger.c.run_id,
            seen.verdict.in_([str(v) for v in SEEN_VERDICTS]),
        )
        .exists()
    )
    query = (
        select(ledger.c.run_id, ledger.c.call_id, ledger.c.target, ledger.c.expected_hash)
        .join(runs, runs.c.run_id == ledger.c.run_id)
        .where(
            ledger.c.tool.in_(list(tools)),
            ledger.c.status == str(SideEffectStatus.CONFIRMED),
            ledger.c.target.is_not(None),
            ledger.c.expected_hash.is_not(None),
            runs.c.status.in_([str(s) for s in TERMINAL_RUN_STATUSES]),
            ~sighted,
        )
        .order_by(ledger.c.confirmed_at)
    )
    if desk is not None:
        query = query.where(runs.c.desk == desk)
    return [
        PendingWrite(row.run_id, row.call_id, row.target, row.expected_hash)
        for row in conn.execute(query)
    ]


# --- runs and their timeline ----------------------------------------------------------------


def run_status(conn: Connection, run_id: str) -> str | None:
    """The run's status as stored; None when there is no such run."""
    status = conn.execute(select(runs.c.status).where(runs.c.run_id == run_id)).scalar_one_or_none()
    return None if status is None else str(status)


def run_folders(conn: Connection, desk: str | None) -> list[RunFolder]:
    """Every run (of `desk`, when given) with its artifacts folder, last updated first."""
    query = (
        select(runs.c.run_id, runs.c.status, runs.c.artifacts_dir)
        .where(_runs_of(desk))
        .order_by(runs.c.updated_at.desc())
    )
    return [RunFolder(row.run_id, row.status, row.artifacts_dir) for row in conn.execute(query)]


def confirmed_artifact_paths(conn: Connection, run_id: str) -> set[str]:
    """The paths named by the run's `artifact_confirmed` events."""
    query = select(events.c.data_json).where(
        events.c.run_id == run_id, events.c.kind == str(EventKind.ARTIFACT_CONFIRMED)
    )
    paths: set[str] = set()
    for row in conn.execute(query):
        data: object = json.loads(row.data_json)
        path = data.get("path") if isinstance(data, dict) else None
        if isinstance(path, str):
            paths.add(path)
    return paths
