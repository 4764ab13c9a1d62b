"""Long-term memory: namespaced facts with provenance and a TTL; expired ones never come back;
deleting a user's data clears the table, the FTS index (memories_fts) and the cache."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import text

from agent_core.contract.views import MemoryView
from agent_core.facade.workspace import Workspace
from agent_core.home.clock import ManualClock
from agent_core.storage.tables import memory
from tests.support.cli import CliRunner

PROVENANCE = {"run_id": "run-m1", "tool": "remember_audience"}


def _remember(
    ws: Workspace, user: str, value: str, *, purpose: str = "brief_audience", ttl_days: float = 90
) -> MemoryView:
    with ws.store.write() as conn:
        return memory.remember(
            conn,
            tenant="local",
            user=user,
            purpose=purpose,
            key="audience",
            value=value,
            provenance=PROVENANCE,
            ttl_days=ttl_days,
        )


def _recall(ws: Workspace, user: str, purpose: str = "brief_audience") -> list[str]:
    with ws.store.read() as conn:
        return [m["value"] for m in memory.recall(conn, tenant="local", user=user, purpose=purpose)]


def _search(ws: Workspace, query: str) -> list[str]:
    with ws.store.read() as conn:
        return memory.search(conn, query)


def _table(home: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(home / "state.db")
    try:
        return list(conn.execute(sql, params))
    finally:
        conn.close()


def _cached_users(ws: Workspace) -> set[str]:
    """Users with a cached namespace of this home (the cache is keyed by database file)."""
    return {key[2] for key in memory.cache_snapshot() if key[0] == str(ws.store.db_path)}


def test_a_memory_records_namespace_provenance_times_and_policy(ws: Workspace, home: Path) -> None:
    saved = _remember(ws, "alice", "executives", ttl_days=30)
    ((tenant, user, purpose, value, provenance, created, expires, policy),) = _table(
        home,
        "SELECT tenant, user, purpose, value, provenance_json, created_at, expires_at, "
        "policy_version FROM memories",
    )
    assert (tenant, user, purpose, value) == ("local", "alice", "brief_audience", "executives")
    assert '"run_id": "run-m1"' in provenance
    assert policy == memory.POLICY_VERSION
    lifetime = datetime.fromisoformat(expires) - datetime.fromisoformat(created)
    assert abs(lifetime - timedelta(days=30)) < timedelta(seconds=5)
    assert [m["id"] for m in ws.memories()] == [saved["id"]]
    assert ws.memories()[0]["provenance"] == PROVENANCE
    assert _recall(ws, "alice") == ["executives"]
    assert _search(ws, "executives") == [saved["id"]]


def test_a_new_fact_replaces_the_old_one_in_table_index_and_cache(
    ws: Workspace, home: Path
) -> None:
    _remember(ws, "alice", "executives")
    assert _recall(ws, "alice") == ["executives"]  # now cached
    newer = _remember(ws, "alice", "engineers")
    assert _recall(ws, "alice") == ["engineers"]
    assert _table(home, "SELECT id FROM memories") == [(newer["id"],)]
    assert _table(home, "SELECT memory_id FROM memories_fts") == [(newer["id"],)]


def test_expired_memories_are_never_returned(
    ws: Workspace, home: Path, manual_clock: ManualClock
) -> None:
    _remember(ws, "alice", "executives", ttl_days=-1)
    with ws.store.write() as conn:  # written long ago by raw SQL, long expired
        conn.execute(
            text(
                "INSERT INTO memories VALUES ('mem-old', 'local', 'bob', 'brief_audience', "
                "'audience', 'auditors', '{}', '2020-01-01T00:00:00.000+00:00', "
                "'2020-04-01T00:00:00.000+00:00', 1)"
            )
        )
        conn.execute(
            text("INSERT INTO memories_fts(memory_id, value) VALUES ('mem-old', 'auditors')")
        )
    assert _recall(ws, "alice") == [] and _recall(ws, "bob") == []
    assert ws.memories() == []
    assert _search(ws, "executives") == [] and _search(ws, "auditors") == []

    # Fresh when cached, expired a moment later: the cache must not hand it out.
    _remember(ws, "carol", "students", ttl_days=0.6 / 86400)
    assert _recall(ws, "carol") == ["students"]
    manual_clock.advance(0.7)
    assert _recall(ws, "carol") == []
    assert ws.memories() == []

    _remember(ws, "dave", "lawyers")  # the next write purges every expired entry
    assert _table(home, "SELECT user FROM memories") == [("dave",)]
    assert _table(home, "SELECT value FROM memories_fts") == [("lawyers",)]
    assert _cached_users(ws) & {"alice", "bob", "carol"} == set()


def test_deleting_a_users_data_clears_table_index_and_cache(ws: Workspace, home: Path) -> None:
    alice = [
        _remember(ws, "alice", "executives")["id"],
        _remember(ws, "alice", "board members", purpose="brief_tone")["id"],
    ]
    bob = _remember(ws, "bob", "engineers")["id"]
    _recall(ws, "alice")
    _recall(ws, "alice", "brief_tone")
    _recall(ws, "bob")
    assert {"alice", "bob"} <= _cached_users(ws)
    assert _search(ws, "board") == [alice[1]]

    assert ws.delete_user_memory("alice") == 2

    assert _table(home, "SELECT user FROM memories") == [("bob",)]
    marks = ",".join("?" * len(alice))
    assert _table(home, f"SELECT * FROM memories_fts WHERE memory_id IN ({marks})", *alice) == []
    assert _table(home, "SELECT memory_id FROM memories_fts WHERE memories_fts MATCH 'board'") == []
    assert "alice" not in _cached_users(ws)
    assert _recall(ws, "alice") == [] and _recall(ws, "alice", "brief_tone") == []
    # Bob's data is untouched in all three places.
    assert _search(ws, "engineers") == [bob] and _recall(ws, "bob") == ["engineers"]
    assert "bob" in _cached_users(ws)


def test_a_deletion_by_another_process_is_not_hidden_by_the_cache(
    ws: Workspace, home: Path, cli: CliRunner
) -> None:
    _remember(ws, "alice", "executives")
    assert _recall(ws, "alice") == ["executives"]  # cached in this process
    result = cli("memory", "delete", "--user", "alice")
    assert result.body == {"api": 1, "deleted": 1}
    assert _recall(ws, "alice") == []
    assert cli("memory", "list").body == {"api": 1, "memories": []}


def test_the_cache_never_mixes_two_homes(tmp_path: Path) -> None:
    first, second = Workspace(tmp_path / "one"), Workspace(tmp_path / "two")
    try:
        _remember(first, "alice", "executives")
        assert _recall(first, "alice") == ["executives"]
        assert _recall(second, "alice") == []
    finally:
        first.close()
        second.close()
