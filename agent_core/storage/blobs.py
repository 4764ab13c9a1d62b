"""Content-addressed blobs (sha256), verified on every read."""

from __future__ import annotations

from sqlalchemy import Connection, delete, insert, select

from agent_core.canonical import now_iso, sha256_hex
from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.storage.schema import blobs


def put_blob(conn: Connection, data: bytes, *, run_id: str | None = None) -> str:
    digest = sha256_hex(data)
    exists = conn.execute(select(blobs.c.digest).where(blobs.c.digest == digest)).first()
    if exists is None:
        conn.execute(
            insert(blobs).values(
                digest=digest, size=len(data), data=data, run_id=run_id, created_at=now_iso()
            )
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
    conn.execute(delete(blobs).where(blobs.c.digest == digest))
