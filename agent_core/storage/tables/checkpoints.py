"""Checkpoints at tool boundaries: save, latest, resume.

Storage stays linear in the length of a run: the SDK RunState string (which holds the whole
history) is kept once per run, as the latest blob; each checkpoint row holds small run state,
the idempotency keys confirmed at its own boundary (the ledger holds them all) and a reference
to the RunState blob that was current when it was saved. Older RunState blobs are pruned when a
newer one replaces them.

A checkpoint is saved at every tool boundary, so its statements are built once, at import, and
executed with parameters: building a statement per call cost more than the durable commit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from enum import StrEnum

from sqlalchemy import Connection, Row, bindparam, delete, exists, func, insert, select

from agent_core.contract.canonical import sha256_hex
from agent_core.contract.json_types import JsonObject
from agent_core.home.clock import now_iso
from agent_core.home.door import mask_json_text
from agent_core.storage.prepared import Prepared
from agent_core.storage.schema import blobs, checkpoints, runs
from agent_core.storage.store import Store
from agent_core.storage.tables.blobs import delete_blob, get_blob, put_blob

_STATE_DIGEST_OF_RUN = select(runs.c.state_digest).where(runs.c.run_id == bindparam("run_id"))
_STATE_DIGEST = Prepared(_STATE_DIGEST_OF_RUN)
_HELD = blobs.alias("held")
# The run's RunState blob rewritten in place with the new state, unless a blob with the new
# digest exists already (the same state again, or content another row holds): one statement
# at every boundary that saves a RunState, where looking first took another.
_REPLACE_CURRENT_BLOB = Prepared(
    blobs.update()
    .where(
        blobs.c.digest == _STATE_DIGEST_OF_RUN.scalar_subquery(),
        ~exists().where(_HELD.c.digest == bindparam("digest")),
    )
    .values(
        digest=bindparam("digest"),
        size=bindparam("size"),
        data=bindparam("data"),
        created_at=bindparam("at"),
    )
)
_SET_STATE_DIGEST = Prepared(
    runs.update().where(runs.c.run_id == bindparam("rid")).values(state_digest=bindparam("digest"))
)
# The run's newest checkpoint by rowid: the run_id index holds rowids in order, so this is a
# lookup, not a scan of every checkpoint of a long run (sequence grows with the rowid).
_LAST_SEQUENCE = Prepared(
    select(checkpoints.c.sequence)
    .where(checkpoints.c.run_id == bindparam("run_id"))
    .order_by(checkpoints.c.id.desc())
    .limit(1)
)
_CHECKPOINT_COLUMNS = (
    "run_id", "sequence", "boundary", "call_id", "next_step", "run_state_json",
    "budgets_json", "confirmed_json", "runtime_version", "state_digest", "created_at",
)  # fmt: skip
# Two statements, not one INSERT ... SELECT ... RETURNING: SQLite runs that one slower.
_INSERT_CHECKPOINT = Prepared(insert(checkpoints), keys=_CHECKPOINT_COLUMNS)


@dataclass(frozen=True)
class Checkpoint:
    run_id: str
    boundary: str  # "A" before a tool runs, "B" after its result is confirmed, "S" at start
    next_step: str
    run_state: JsonObject
    budgets: JsonObject
    runtime_version: str
    confirmed: list[str] = field(default_factory=list)  # keys confirmed at this boundary
    call_id: str | None = None
    state_digest: str | None = None
    sequence: int = 0
    created_at: str = ""


class ResumeStatus(StrEnum):
    READY = "ready"
    """A checkpoint of this runtime version exists; its RunState is attached."""
    NOT_FOUND = "not_found"
    """The run has no checkpoint."""
    MIGRATION_REQUIRED = "migration_required"
    """The latest checkpoint was written by another runtime version; it is not loaded."""


@dataclass(frozen=True)
class ResumePoint:
    status: ResumeStatus
    checkpoint: Checkpoint | None = None
    state_string: str | None = None


def save_state_string(conn: Connection, run_id: str, state: str, *, at: str | None = None) -> str:
    """Store the latest SDK RunState of a run, replacing the one it had.

    The previous blob's row is rewritten in place when it can be: the same row and pages, one
    statement, instead of inserting a new blob and deleting the old one (which made the
    durable commit write about a third more pages).
    """
    # The whole conversation, resumed and sent to the model again: masked as it is stored.
    data = mask_json_text(state).encode("utf-8")
    digest = sha256_hex(data)
    at = at or now_iso()
    if _REPLACE_CURRENT_BLOB(
        conn, run_id=run_id, digest=digest, size=len(data), data=data, at=at
    ).rowcount:
        _SET_STATE_DIGEST(conn, rid=run_id, digest=digest)
        return digest
    previous = state_digest(conn, run_id)
    if previous == digest:
        return digest
    put_blob(conn, data, run_id=run_id, at=at)  # the first state, or content a row holds
    if previous is not None:
        delete_blob(conn, previous)
    _SET_STATE_DIGEST(conn, rid=run_id, digest=digest)
    return digest


def state_digest(conn: Connection, run_id: str) -> str | None:
    """The digest of the run's latest RunState blob, if it has one."""
    found = _STATE_DIGEST.scalar(conn, run_id=run_id)
    return None if found is None else str(found)


# id, run_id, sequence, boundary, call_id, next_step, run_state_json, budgets_json,
# confirmed_json, runtime_version, state_digest, created_at
_CheckpointRow = Row[
    tuple[int, str, int, str, str | None, str, str, str, str, str, str | None, str]
]


def _row_to_checkpoint(row: _CheckpointRow) -> Checkpoint:
    return Checkpoint(
        run_id=row.run_id,
        boundary=row.boundary,
        next_step=row.next_step,
        run_state=json.loads(row.run_state_json),
        budgets=json.loads(row.budgets_json),
        runtime_version=row.runtime_version,
        confirmed=json.loads(row.confirmed_json),
        call_id=row.call_id,
        state_digest=row.state_digest,
        sequence=row.sequence,
        created_at=row.created_at,
    )


def last_sequence(conn: Connection, run_id: str) -> int:
    """The sequence of the run's newest checkpoint (0: it has none)."""
    last = _LAST_SEQUENCE.scalar(conn, run_id=run_id)
    return last if isinstance(last, int) else int(str(last or 0))


def insert_checkpoint(
    conn: Connection,
    *,
    run_id: str,
    boundary: str,
    call_id: str | None,
    next_step: str,
    run_state_json: str,
    budgets_json: str,
    confirmed_json: str,
    runtime_version: str,
    state_digest: str | None,
    created_at: str,
    sequence: int | None = None,
) -> int:
    """One checkpoint row, numbered after the run's last one; returns its sequence.

    `CheckpointStore.save` and the tool boundary (runs/checkpointing.py) both write through
    here; the boundary passes JSON it made (the limits' once per run), not a `Checkpoint`,
    and the `sequence` its driver knows comes next (it alone writes the run's checkpoints).
    """
    if sequence is None:
        sequence = 1 + last_sequence(conn, run_id)
    _INSERT_CHECKPOINT(
        conn,
        run_id=run_id,
        sequence=sequence,
        boundary=boundary,
        call_id=call_id,
        next_step=next_step,
        run_state_json=run_state_json,
        budgets_json=budgets_json,
        confirmed_json=confirmed_json,
        runtime_version=runtime_version,
        state_digest=state_digest,
        created_at=created_at,
    )
    return sequence


class CheckpointStore:
    """One sync API over the checkpoints table; every backend must pass tests/core/conformance."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def save(self, conn: Connection, cp: Checkpoint) -> Checkpoint:
        created = now_iso()
        sequence = insert_checkpoint(
            conn,
            run_id=cp.run_id,
            boundary=cp.boundary,
            call_id=cp.call_id,
            next_step=cp.next_step,
            run_state_json=json.dumps(cp.run_state),
            budgets_json=json.dumps(cp.budgets),
            confirmed_json=json.dumps(cp.confirmed),
            runtime_version=cp.runtime_version,
            state_digest=cp.state_digest,
            created_at=created,
        )
        return replace(cp, sequence=sequence, created_at=created)

    def latest(self, run_id: str, conn: Connection | None = None) -> Checkpoint | None:
        query = (
            select(checkpoints)
            .where(checkpoints.c.run_id == run_id)
            .order_by(checkpoints.c.id.desc())
            .limit(1)
        )
        if conn is not None:
            row = conn.execute(query).first()
        else:
            with self.store.read() as rconn:
                row = rconn.execute(query).first()
        return None if row is None else _row_to_checkpoint(row)

    def resume(self, run_id: str, runtime_version: str) -> ResumePoint:
        with self.store.read() as conn:
            cp = self.latest(run_id, conn)
            if cp is None:
                return ResumePoint(ResumeStatus.NOT_FOUND)
            if cp.runtime_version != runtime_version:
                return ResumePoint(ResumeStatus.MIGRATION_REQUIRED, cp)
            digest = state_digest(conn, run_id)
            state = get_blob(conn, digest).decode("utf-8") if digest else None
            return ResumePoint(ResumeStatus.READY, cp, state)

    def count(self, run_id: str) -> int:
        with self.store.read() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(checkpoints.c.run_id == run_id)
                ).scalar_one()
            )


def has_checkpoint(conn: Connection, run_id: str) -> bool:
    query = select(checkpoints.c.id).where(checkpoints.c.run_id == run_id).limit(1)
    return conn.execute(query).first() is not None


def prune_to_latest(conn: Connection, run_id: str) -> int:
    """Delete every checkpoint of the run but its latest one; returns how many went."""
    latest = conn.execute(
        select(func.max(checkpoints.c.sequence)).where(checkpoints.c.run_id == run_id)
    ).scalar()
    if latest is None:
        return 0
    result = conn.execute(
        delete(checkpoints).where(checkpoints.c.run_id == run_id, checkpoints.c.sequence < latest)
    )
    return int(result.rowcount or 0)


def clear_state_string(conn: Connection, run_id: str, *, previous: str | None = None) -> None:
    """Forget the run's saved RunState: the conversation moved past the pause it was saved at
    (runs/transcript.py holds the turns after it), so resuming from it would go back.
    `previous`: its digest, when the caller knows it (else it is read)."""
    previous = previous or state_digest(conn, run_id)
    if previous is None:
        return
    _SET_STATE_DIGEST(conn, rid=run_id, digest=None)
    delete_blob(conn, previous)
