"""The edges the third break-in found in the desks' fence (issue 39, item 8), on a real PostgreSQL.

As a desk role, with forged SQL: deleting another desk's timeline, deleting or rewriting the
blobs its run reads (its run then read `storage_corrupt`), expiring its pending proposal before
its time. The database refuses each (SQLSTATE 42501, migration 0015) and the other desk's run
is unharmed: its rows are as they were and it still resumes. What a desk may do stays open:
deleting its own ended run, expiring another desk's proposal once its time has passed by the
server's clock.

One team and one waiting run for the whole module: every check is a SQL statement.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.pg import PgServer
from tests.team.test_desk_forgery import LONG, REAL, _login, _rows, _waiting_write
from tests.team.test_grants import Team, _propose


@pytest.fixture(scope="module")
def desks(pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Team]:
    """An owner and two desk roles given a desk's privileges, on a database of their own."""
    root = tmp_path_factory.mktemp("edges")
    tag = uuid.uuid4().hex[:8]
    database = f"edges_{tag}"
    owner = _login(pg_server, f"bd_owner_{tag}", database, root / "owner")
    desk_a = _login(pg_server, f"bd_desk_a_{tag}", database, root / "desk-a")
    desk_b = _login(pg_server, f"bd_desk_b_{tag}", database, root / "desk-b")
    with pg_server.admin() as conn:
        conn.execute(f"CREATE DATABASE {database} OWNER {owner.role}")
    admin = pg_server.admin(database)
    try:
        ws = owner.workspace()
        try:
            for desk in (desk_a, desk_b):
                ws.grant_desk_role(desk.role)
        finally:
            ws.close()
        yield Team(database, owner, desk_a, desk_b, admin)
    finally:
        admin.close()
        with pg_server.admin() as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
            for login in (desk_a, desk_b, owner):
                conn.execute(f"DROP ROLE IF EXISTS {login.role}")


@pytest.fixture(scope="module")
def waiting(desks: Team, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Desk A's run, waiting at its proposal to save REAL (its approval lives for an hour)."""
    run, artifacts = _waiting_write(desks, tmp_path_factory.mktemp("a"), ttl="3600")
    approval = run.body["approvals"][0]["id"]
    return {"run_id": run.body["run_id"], "approval": approval, "artifacts": artifacts}


def _snapshot(desks: Team, run_id: str) -> dict[str, Any]:
    """Desk A's rows a forgery would touch, as the owner of the database sees them."""
    return {
        "events": _rows(desks, "SELECT * FROM events WHERE run_id = %s ORDER BY seq", run_id),
        "blobs": _rows(desks, "SELECT digest, data FROM blobs ORDER BY digest"),
        "approvals": _rows(desks, "SELECT id, status FROM approvals WHERE run_id = %s", run_id),
    }


def test_a_desk_cannot_delete_or_rewrite_another_desks_timeline(
    desks: Team, waiting: dict[str, Any]
) -> None:
    b, run_id = desks.desk_b, waiting["run_id"]
    before = _snapshot(desks, run_id)
    assert before["events"], "desk A's run has a timeline"
    desks.refused(b, "DELETE FROM events WHERE run_id = %s", run_id)
    desks.refused(b, "DELETE FROM events")
    desks.refused(b, "UPDATE events SET data_json = '{}' WHERE run_id = %s", run_id)
    assert _snapshot(desks, run_id) == before


def test_a_desk_cannot_delete_or_rewrite_the_blobs_another_desks_run_reads(
    desks: Team, waiting: dict[str, Any]
) -> None:
    b, run_id = desks.desk_b, waiting["run_id"]
    (state,) = _rows(desks, "SELECT state_digest FROM runs WHERE run_id = %s", run_id)
    digest = state["state_digest"]
    assert digest, "desk A's waiting run keeps its RunState in a blob"
    desks.refused(b, "DELETE FROM blobs WHERE digest = %s", digest)
    desks.refused(b, "DELETE FROM blobs")
    desks.refused(b, "UPDATE blobs SET data = 'x'::bytea WHERE digest = %s", digest)

    # Bodies are shared by digest: bytes desk B's run wrote first may be what desk A's run
    # reads. Desk B still may not delete them while desk A uses them.
    b_run = "run-ap-b-shared"
    _propose(desks, b, "ap-b-shared", "/team/b.md")  # a run of desk B's own
    desks.admin.execute("UPDATE blobs SET run_id = %s WHERE digest = %s", (b_run, digest))
    desks.refused(b, "DELETE FROM blobs WHERE digest = %s", digest)
    desks.admin.execute("UPDATE blobs SET run_id = %s WHERE digest = %s", (run_id, digest))
    assert _rows(desks, "SELECT count(*) AS n FROM blobs WHERE digest = %s", digest) == [{"n": 1}]


def test_a_desk_cannot_expire_another_desks_proposal_before_its_time(
    desks: Team, waiting: dict[str, Any]
) -> None:
    b, approval = desks.desk_b, waiting["approval"]
    message = desks.refused(b, "UPDATE approvals SET status = 'expired' WHERE id = %s", approval)
    assert "before its time" in message
    assert desks.approval(approval)[0] == "pending"


def test_the_other_desks_run_is_unharmed_and_a_due_proposal_still_expires(
    desks: Team, waiting: dict[str, Any]
) -> None:
    a, b = desks.desk_a, desks.desk_b
    # Desk A's run goes on: approved by a reviewer on desk B, resumed, its brief written.
    ok = b.cli("approvals", "approve", waiting["approval"], "--reviewer", "bea")
    assert ok.code == 0, ok.stdout + ok.stderr
    done = a.cli("resume", waiting["run_id"], **LONG)
    assert done.body.get("status") == "succeeded", done.stdout + done.stderr
    assert (waiting["artifacts"] / "brief.md").read_text() == REAL["content"]
    # Desk A still deletes its own ended run: its timeline and the blobs only it used go too.
    deleted = a.cli("runs", "delete", waiting["run_id"])
    assert deleted.code == 0, deleted.stdout + deleted.stderr
    for table in ("events", "blobs", "runs"):
        sql = f"SELECT count(*) AS n FROM {table} WHERE run_id = %s"
        assert _rows(desks, sql, waiting["run_id"]) == [{"n": 0}], table

    # A proposal whose time has passed by the server's clock: another desk may expire it.
    _propose(desks, a, "ap-a-due", "/team/a.md", expires_at="2000-01-01T00:00:00.000+00:00")
    with b.sql() as conn:
        conn.execute("UPDATE approvals SET status = 'expired' WHERE id = 'ap-a-due'")
    assert desks.approval("ap-a-due")[0] == "expired"


def test_a_desk_role_applies_its_mcp_rule_and_supersedes_only_its_own_approved_call(
    desks: Team,
) -> None:
    """What issue 39 added, under a desk role: a remembered MCP rule (scope `mcp:S/T`, not a
    folder above the target) approves that tool's call, no other tool's; a desk makes a new
    version of its own run's approved call (a target changed since approval), not another's."""
    a, b = desks.desk_a, desks.desk_b
    desks.admin.execute(
        "INSERT INTO rules (id, tool, folder, scope, run_id, created_by, created_at, "
        "server_digest) VALUES ('rule-mcp-fs', 'mcp__fs__write_file', 'mcp:fs/write_file', "
        "'home', NULL, 'ann', '2026-01-01T00:00:00.000+00:00', 'digest')"
    )
    by_rule = {"tool": "mcp__fs__write_file", "status": "approved", "reviewer": None}
    _propose(desks, a, "ap-a-mcp", "/srv/notes.txt", decided_by_rule="rule-mcp-fs", **by_rule)
    assert desks.approval("ap-a-mcp")[0] == "approved"
    with pytest.raises(Exception, match="may propose"):  # the rule is for write_file only
        _propose(
            desks,
            a,
            "ap-a-edit",
            "/srv/notes.txt",
            decided_by_rule="rule-mcp-fs",
            **{**by_rule, "tool": "mcp__fs__edit_file"},
        )
    desks.refused(b, "UPDATE approvals SET status = 'superseded' WHERE id = 'ap-a-mcp'")
    with a.sql() as conn:
        conn.execute("UPDATE approvals SET status = 'superseded' WHERE id = 'ap-a-mcp'")
    assert desks.approval("ap-a-mcp")[0] == "superseded"
