"""Long-term memory: selected stable facts only, namespaced, with provenance and a TTL.

Three places hold a memory: the table, its FTS index and an in-process cache. Deleting a user's
data clears all three.
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, delete, insert, select, text

from agent_core.canonical import iso, now_iso, utcnow
from agent_core.storage.schema import memories

POLICY_VERSION = 1
_cache: dict[tuple[str, str, str], list[dict[str, Any]]] = {}


def cache_snapshot() -> dict[tuple[str, str, str], list[dict[str, Any]]]:
    return {k: list(v) for k, v in _cache.items()}


def remember(
    conn: Connection,
    *,
    tenant: str,
    user: str,
    purpose: str,
    key: str,
    value: str,
    provenance: dict[str, Any],
    ttl_days: float,
) -> dict[str, Any]:
    # One current fact per key: a new audience replaces the old one.
    old_ids = [
        r[0]
        for r in conn.execute(
            select(memories.c.id).where(
                memories.c.tenant == tenant,
                memories.c.user == user,
                memories.c.purpose == purpose,
                memories.c.key == key,
            )
        )
    ]
    for old in old_ids:
        conn.execute(delete(memories).where(memories.c.id == old))
        conn.execute(text("DELETE FROM memories_fts WHERE memory_id = :i"), {"i": old})
    row = {
        "id": "mem-" + uuid.uuid4().hex[:12],
        "tenant": tenant,
        "user": user,
        "purpose": purpose,
        "key": key,
        "value": value,
        "provenance_json": json.dumps(provenance),
        "created_at": now_iso(),
        "expires_at": iso(utcnow() + timedelta(days=ttl_days)),
        "policy_version": POLICY_VERSION,
    }
    conn.execute(insert(memories).values(**row))
    conn.execute(
        text("INSERT INTO memories_fts(memory_id, value) VALUES (:i, :v)"),
        {"i": row["id"], "v": value},
    )
    _cache.pop((tenant, user, purpose), None)
    return _public(row)


def _public(row: Any) -> dict[str, Any]:
    data = dict(row)
    data["provenance"] = json.loads(data.pop("provenance_json"))
    return data


def recall(conn: Connection, *, tenant: str, user: str, purpose: str) -> list[dict[str, Any]]:
    """Unexpired memories of one namespace (cached; expired entries are never returned)."""
    now = now_iso()
    cached = _cache.get((tenant, user, purpose))
    if cached is None:
        rows = conn.execute(
            select(memories).where(
                memories.c.tenant == tenant, memories.c.user == user, memories.c.purpose == purpose
            )
        )
        cached = [_public(r._mapping) for r in rows]
        _cache[(tenant, user, purpose)] = cached
    return [m for m in cached if m["expires_at"] > now]


def list_all(conn: Connection) -> list[dict[str, Any]]:
    now = now_iso()
    rows = conn.execute(
        select(memories).where(memories.c.expires_at > now).order_by(memories.c.created_at)
    )
    return [_public(r._mapping) for r in rows]


def search(conn: Connection, query: str) -> list[str]:
    rows = conn.execute(
        text("SELECT memory_id FROM memories_fts WHERE memories_fts MATCH :q"), {"q": query}
    )
    return [r[0] for r in rows]


def delete_user(conn: Connection, user: str) -> int:
    ids = [r[0] for r in conn.execute(select(memories.c.id).where(memories.c.user == user))]
    for memory_id in ids:
        conn.execute(text("DELETE FROM memories_fts WHERE memory_id = :i"), {"i": memory_id})
    conn.execute(delete(memories).where(memories.c.user == user))
    for key in [k for k in _cache if k[1] == user]:
        del _cache[key]
    return len(ids)
