"""The target's content as it was when a write was proposed, kept as a blob.

A reviewer on another desk does not have the file a proposal would overwrite: its content is
kept in the store with the proposal (`approvals.base_digest`, a blob whose digest is the
proposal's `base_hash`), so every desk shows the same diff. The owner desk still checks its
own file against `base_hash` before it writes (`target_changed` otherwise): the blob is what a
reviewer reads, never what decides a write.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection

from agent_core.contract.canonical import sha256_hex
from agent_core.home.sandbox import file_bytes
from agent_core.storage.tables.blobs import get_blob, put_blob
from agent_core.tools.specs import ToolSpec

MAX_BASE_BYTES = 4 << 20
"""A larger target is not kept (its diff would be unreadable anyway): reviewers elsewhere are
told the content when proposed is unknown to them."""


def keep_base(
    conn: Connection, spec: ToolSpec, target: str | None, base_hash: str | None, *, run_id: str
) -> str | None:
    """Store the target's current content for a proposal whose base is `base_hash`; returns
    the blob's digest (equal to `base_hash`), or None: no diff shown for this tool, a new file,
    too large, or changed again since it was hashed (the proposal then keeps its hash only)."""
    if spec.content_field is None or target is None or base_hash is None:
        return None
    data = file_bytes(Path(target), max_bytes=MAX_BASE_BYTES)
    if data is None or sha256_hex(data) != base_hash:
        return None
    return put_blob(conn, data, run_id=run_id)


def base_text(conn: Connection, base_digest: str | None) -> str | None:
    """The kept content as text (None when none was kept)."""
    if base_digest is None:
        return None
    return get_blob(conn, base_digest).decode("utf-8", errors="replace")
