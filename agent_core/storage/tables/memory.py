"""Long-term memory: selected stable facts only, namespaced, with provenance and a TTL.

Three places hold a memory: the table, its FTS index and an in-process cache. Deleting a user's
data clears all three. Expired entries are never returned, and are purged at the next write.

The cache is keyed by database file as well as namespace (one process may open several homes),
and a cached namespace is checked against the ids in the table before use, so a write or a
deletion made by another process (`briefdesk-cli memory delete`) is never hidden by it.
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

from sqlalchemy import Connection, RowMapping, delete, insert, select, text

from agent_core.contract.canonical import iso
from agent_core.contract.json_types import JsonMapping
from agent_core.contract.views import MemoryView
from agent_core.home.clock import now_iso, utcnow
from agent_core.storage.schema import memories

POLICY_VERSION = 1
# (database file, tenant, user, purpose) -> that namespace's rows as last read.
CacheKey = tuple[str, str, str, str]
_cache: dict[CacheKey, list[MemoryView]] = {}


def cache_snapshot() -> dict[CacheKey, list[MemoryView]]:
    return {k: list(v) for k, v in _cache.items()}


def _database(conn: Connection) -> str:
    return str(conn.engine.url.database)


def _forget_from_cache(
    conn: Connection, *, user: str, tenant: str | None = None, purpose: str | None = None
) -> None:
    db = _database(conn)
    for key in [k for k in _cache if k[0] == db and k[2] == user]:
        if (tenant is None or key[1] == tenant) and (purpose is None or key[3] == purpose):
            del _cache[key]


def _delete_ids(conn: Connection, ids: list[str]) -> None:
    for memory_id in ids:
        conn.execute(text("DELETE FROM memories_fts WHERE memory_id = :i"), {"i": memory_id})
        conn.execute(delete(memories).where(memories.c.id == memory_id))


def purge_expired(conn: Connection) -> int:
    """Remove expired memories from the table, the index and the cache."""
    expired = list(
        conn.execute(
            select(memories.c.id, memories.c.user).where(memories.c.expires_at <= now_iso())
        )
    )
    _delete_ids(conn, [r.id for r in expired])
    for user in {r.user for r in expired}:
        _forget_from_cache(conn, user=user)
    return len(expired)


def remember(
    conn: Connection,
    *,
    tenant: str,
    user: str,
    purpose: str,
    key: str,
    value: str,
    provenance: JsonMapping,
    ttl_days: float,
) -> MemoryView:
    purge_expired(conn)
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
    _delete_ids(conn, old_ids)
    # Through JSON and back: what is returned is what a later read of the row returns.
    provenance_json = json.dumps(dict(provenance))
    fact = MemoryView(
        id="mem-" + uuid.uuid4().hex[:12],
        tenant=tenant,
        user=user,
        purpose=purpose,
        key=key,
        value=value,
        created_at=now_iso(),
        expires_at=iso(utcnow() + timedelta(days=ttl_days)),
        policy_version=POLICY_VERSION,
        provenance=json.loads(provenance_json),
    )
    conn.execute(
        insert(memories).values(
            id=fact["id"],
            tenant=tenant,
            user=user,
            purpose=purpose,
            key=key,
            value=value,
            provenance_json=provenance_json,
            created_at=fact["created_at"],
            expires_at=fact["expires_at"],
            policy_version=POLICY_VERSION,
        )
    )
    conn.execute(
        text("INSERT INTO memories_fts(memory_id, value) VALUES (:i, :v)"),
        {"i": fact["id"], "v": value},
    )
    _forget_from_cache(conn, user=user, tenant=tenant, purpose=purpose)
    return fact


def _public(row: RowMapping) -> MemoryView:
    provenance = json.loads(row["provenance_json"])
    return MemoryView(
        id=str(row["id"]),
        tenant=str(row["tenant"]),
        user=str(row["user"]),
        purpose=str(row["purpose"]),
        key=str(row["key"]),
        value=str(row["value"]),
        created_at=str(row["created_at"]),
        expires_at=str(row["expires_at"]),
        policy_version=int(row["policy_version"]),
        provenance=provenance if isinstance(provenance, dict) else {},
    )


def recall(conn: Connection, *, tenant: str, user: str, purpose: str) -> list[MemoryView]:
    """Unexpired memories of one namespace (cached; expired entries are never returned)."""
    now = now_iso()
    where = (memories.c.tenant == tenant, memories.c.user == user, memories.c.purpose == purpose)
    ids = [r[0] for r in conn.execute(select(memories.c.id).where(*where).order_by(memories.c.id))]
    key = (_database(conn), tenant, user, purpose)
    cached = _cache.get(key)
    if cached is None or [m["id"] for m in cached] != ids:
        rows = conn.execute(select(memories).where(*where).order_by(memories.c.id))
        cached = [_public(r._mapping) for r in rows]
        _cache[key] = cached
    return [m for m in cached if m["expires_at"] > now]


def list_all(conn: Connection) -> list[MemoryView]:
    now = now_iso()
    rows = conn.execute(
        select(memories).where(memories.c.expires_at > now).order_by(memories.c.created_at)
    )
    return [_public(r._mapping) for r in rows]


def search(conn: Connection, query: str) -> list[str]:
    """Ids of unexpired memories whose value matches an FTS5 query."""
    rows = conn.execute(
        text(
            "SELECT memory_id FROM memories_fts WHERE memories_fts MATCH :q AND memory_id IN "
            "(SELECT id FROM memories WHERE expires_at > :now)"
        ),
        {"q": query, "now": now_iso()},
    )
    return [r[0] for r in rows]


def delete_user(conn: Connection, user: str) -> int:
    ids = [r[0] for r in conn.execute(select(memories.c.id).where(memories.c.user == user))]
    _delete_ids(conn, ids)
    _forget_from_cache(conn, user=user)
    return len(ids)
