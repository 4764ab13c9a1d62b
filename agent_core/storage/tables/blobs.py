"""Content-addressed blobs (sha256), verified on every read.

Identical bodies share one row (the same document read by two runs), owned by the run that
stored it first; deleting that run hands such a blob to a run that still refers to it.
"""

from __future__ import annotations

from sqlalchemy import Connection, bindparam, delete, insert, select, update

from agent_core.contract.canonical import sha256_hex
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.home.clock import now_iso
from agent_core.storage.prepared import Prepared
from agent_core.storage.schema import approvals, blobs, checkpoints, ledger, runs

# Compiled once: a RunState blob is stored at every tool boundary (storage/checkpoints.py).
_EXISTS = Prepared(select(blobs.c.digest).where(blobs.c.digest == bindparam("digest")))
_INSERT = Prepared(insert(blobs), keys=("digest", "size", "data", "run_id", "created_at"))
_DELETE = Prepared(delete(blobs).where(blobs.c.digest == bindparam("digest")))


def put_blob(
    conn: Connection, data: bytes, *, run_id: str | None = None, at: str | None = None
) -> str:
    digest = sha256_hex(data)
    if _EXISTS.scalar(conn, digest=digest) is None:
        _INSERT(
            conn,
            digest=digest,
            size=len(data),
            data=data,
            run_id=run_id,
            created_at=at or now_iso(),
        )
    return digest


def get_blob(conn: Connection, digest: str) -> bytes:
    row = conn.execute(select(blobs.c.data).where(blobs.c.digest == digest)).first()
    if row is None:
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"No blob {digest[:12]}… in the store.")
    data = bytes(row.data)
    if sha256_hex(data) != digest:
        raise BriefDeskError(
            ErrorCode.STORAGE_CORRUPT, f"Blob {digest[:12]}… does not match its checksum."
        )
    return data


def delete_blob(conn: Connection, digest: str) -> None:
    _DELETE(conn, digest=digest)


def _other_referrer(conn: Connection, digest: str, run_id: str) -> str | None:
    """A run other than `run_id` whose rows still refer to `digest`, if any."""
    for table in (runs, checkpoints):
        found = conn.execute(
            select(table.c.run_id)
            .where(table.c.state_digest == digest, table.c.run_id != run_id)
            .limit(1)
        ).scalar()
        if found is not None:
            return str(found)
    # A proposal's base (the target's content when proposed): the same file proposed by two
    # runs is one blob, and it must outlive the run that stored it first.
    found = conn.execute(
        select(approvals.c.run_id)
        .where(approvals.c.base_digest == digest, approvals.c.run_id != run_id)
        .limit(1)
    ).scalar()
    if found is not None:
        return str(found)
    # Offloaded tool results: the ledger's result record holds {"blob": digest}.
    found = conn.execute(
        select(ledger.c.run_id)
        .where(ledger.c.result_json.contains(digest), ledger.c.run_id != run_id)
        .limit(1)
    ).scalar()
    return None if found is None else str(found)


def release_run_blobs(conn: Connection, run_id: str) -> int:
    """Delete the blobs `run_id` owns, except those another run still uses (they change owner).

    Returns how many were deleted.
    """
    owned = [r[0] for r in conn.execute(select(blobs.c.digest).where(blobs.c.run_id == run_id))]
    deleted = 0
    for digest in owned:
        heir = _other_referrer(conn, digest, run_id)
        if heir is None:
            delete_blob(conn, digest)
            deleted += 1
        else:
            conn.execute(update(blobs).where(blobs.c.digest == digest).values(run_id=heir))
    return deleted
