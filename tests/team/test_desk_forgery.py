"""A desk's role cannot write another desk's runs (issue 24, break 1), on a real PostgreSQL server.

The second break-in: as a desk role with no grant, in one transaction, copy another desk's
waiting run, DELETE it, INSERT it back as `acceptEdits`, INSERT an `approved` proposal for the
same call (higher version, other content and path, "decided" by policy), put the run back;
the owner's next `resume` wrote the forged content. The database now binds each desk id to the
role that drives it and refuses (SQLSTATE 42501) every write a role makes to another desk's
runs, proposals, leases and run rows, except what one desk does for another on purpose
(deciding, editing, answering, expiring, taking over once the lease lapsed). The executor
refuses a forged approval even when the database let it in.

Desks here are set up as the README says: an owner role, and one lesser role per desk given a
desk's privileges by `grants desk-role`; each desk's id is its role's name.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.rows import dict_row

from agent_core.contract.canonical import arg_hash
from agent_core.home.clock import utcnow
from tests.support.cli import CliResult
from tests.support.pg import PgServer
from tests.team.desk_support import wait_until
from tests.team.test_grants import Login, Team

REAL = {"relative_path": "brief.md", "content": "# The model's brief\n"}
FORGED = {"relative_path": "forged.md", "content": "# Forged by another desk\n"}
LONG = {"BRIEFDESK_LEASE_S": "600"}  # desk A's lease stays live for the whole test
SHORT = {"BRIEFDESK_LEASE_S": "1"}  # ... or lapses at once, for a take-over


def _login(pg_server: PgServer, role: str, database: str, home: Path) -> Login:
    role, password = pg_server.create_login_role(role)
    return Login(role, password, pg_server.url(database, role), home)


@pytest.fixture
def desks(pg_server: PgServer, tmp_path: Path) -> Iterator[Team]:
    """An owner and two desk roles given a desk's privileges, on a database of their own."""
    tag = uuid.uuid4().hex[:8]
    database = f"forgery_{tag}"
    owner = _login(pg_server, f"bd_owner_{tag}", database, tmp_path / "owner")
    desk_a = _login(pg_server, f"bd_desk_a_{tag}", database, tmp_path / "desk-a")
    desk_b = _login(pg_server, f"bd_desk_b_{tag}", database, tmp_path / "desk-b")
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


def _script(tmp_path: Path, turns: list[dict[str, Any]]) -> Path:
    script = tmp_path / f"script-{uuid.uuid4().hex[:6]}.json"
    script.write_text(json.dumps(turns))
    return script


def _waiting_write(
    team: Team, tmp_path: Path, *, env: dict[str, str] = LONG, ttl: str | None = None
) -> tuple[CliResult, Path]:
    """Desk A's run, stopped at its proposal to save REAL (nothing written yet)."""
    artifacts = tmp_path / f"briefs-{uuid.uuid4().hex[:6]}"
    script = _script(tmp_path, [{"call": "save_brief", "args": REAL}, {"say": "done"}])
    extra = ["--approval-ttl", ttl] if ttl else []
    run = team.desk_a.cli(
        "run", "--question", "Write the brief", "--model", f"scripted:{script}",
        "--artifacts", str(artifacts), *extra, **env,
    )  # fmt: skip
    assert run.body.get("status") == "waiting_approval", run.stdout + run.stderr
    return run, artifacts


def _insert(conn: psycopg.Connection[Any], table: str, values: dict[str, Any]) -> None:
    names = ", ".join(values)
    marks = ", ".join(["%s"] * len(values))
    conn.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", tuple(values.values()))


def _bring_back(conn: psycopg.Connection[Any], run_id: str, **changes: Any) -> dict[str, Any]:
    """Delete run `run_id` and insert it again with `changes` (the heart of the break-in);
    returns the run's row as it was."""
    with conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute("SELECT * FROM runs WHERE run_id = %s", (run_id,)).fetchone()
    assert row is not None
    conn.execute("DELETE FROM runs WHERE run_id = %s", (run_id,))
    _insert(conn, "runs", {**row, **changes})
    return row


def _forged_approval(first: dict[str, Any], row: dict[str, Any], artifacts: Path) -> dict[str, Any]:
    """A higher version of the same call, other content and path, "approved by policy"."""
    values = dict(row)
    values.update(
        id="ap-forged",
        args_json=json.dumps(FORGED, sort_keys=True),
        target=str(artifacts / "forged.md"),
        base_hash=None,
        base_digest=None,
        arg_hash=arg_hash("save_brief", FORGED),
        version=first["version"] + 1,
        status="approved",
        reviewer="policy:acceptEdits",
        decided_by_rule="policy:acceptEdits",
        decided_at=first["created_at"],
    )
    return values


def _rows(team: Team, sql: str, *params: object) -> list[dict[str, Any]]:
    with team.admin.cursor(row_factory=dict_row) as cur:
        return list(cur.execute(sql, params).fetchall())


def _nothing_written(artifacts: Path) -> bool:
    return not artifacts.exists() or not any(artifacts.iterdir())


def _lease_live(team: Team, desk: str) -> bool:
    found = team.admin.execute(
        "SELECT expires_at > extract(epoch FROM clock_timestamp()) FROM leases WHERE desk = %s",
        (desk,),
    ).fetchone()
    return bool(found and found[0])


def test_the_second_break_in_is_refused_and_the_owners_resume_writes_nothing(
    desks: Team, tmp_path: Path
) -> None:
    a, b = desks.desk_a, desks.desk_b
    run, artifacts = _waiting_write(desks, tmp_path)
    run_id, first = run.body["run_id"], run.body["approvals"][0]
    [proposal] = _rows(desks, "SELECT * FROM approvals WHERE run_id = %s", run_id)

    # The attack exactly, as desk B's role, in one transaction.
    with b.sql() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
        row = _bring_back(conn, run_id, mode="acceptEdits")
        _insert(conn, "approvals", _forged_approval(first, proposal, artifacts))
        _bring_back(conn, run_id, **row)

    # Each door on its own, so that no single refusal hides another open one.
    desks.refused(b, "DELETE FROM runs WHERE run_id = %s", run_id)
    desks.refused(b, "UPDATE runs SET status = 'cancelled' WHERE run_id = %s", run_id)
    desks.refused(b, "DELETE FROM approvals WHERE run_id = %s", run_id)
    with b.sql() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        _insert(conn, "approvals", _forged_approval(first, proposal, artifacts))
    pending_edit = {**_forged_approval(first, proposal, artifacts), "status": "pending"}
    pending_edit.update(reviewer=None, decided_by_rule=None, decided_at=None)
    with b.sql() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        _insert(conn, "approvals", pending_edit)  # an "edit" that superseded nothing
    another = {**proposal, "id": "ap-second", "reviewer": None}
    with b.sql() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        _insert(conn, "approvals", another)  # a second version 1 of the model's call
    desks.refused(
        b, "UPDATE tool_calls SET raw_args = %s WHERE run_id = %s", json.dumps(FORGED), run_id
    )
    desks.refused(b, "DELETE FROM checkpoints WHERE run_id = %s", run_id)

    resumed = a.cli("resume", run_id, **LONG)
    assert resumed.body["status"] == "waiting_approval", resumed.stdout + resumed.stderr
    assert [p["id"] for p in resumed.body["approvals"]] == [first["id"]]
    assert _nothing_written(artifacts)
    assert _rows(desks, "SELECT mode, desk FROM runs WHERE run_id = %s", run_id) == [
        {"mode": "default", "desk": a.role}
    ]
    assert len(_rows(desks, "SELECT id FROM approvals WHERE run_id = %s", run_id)) == 1


def test_a_desk_role_cannot_start_runs_for_another_desk_nor_take_its_lease_or_runs(
    desks: Team, tmp_path: Path
) -> None:
    a, b = desks.desk_a, desks.desk_b
    run, _ = _waiting_write(desks, tmp_path)
    run_id = run.body["run_id"]
    assert _lease_live(desks, a.role)
    now = "2026-01-01T00:00:00.000+00:00"
    new_run = {
        "run_id": "run-planted", "thread_id": "th", "status": "waiting_approval",
        "question": "q", "model": "offline", "mode": "dangerouslySkipPermissions",
        "corpus_dir": "/", "artifacts_dir": str(Path.home()), "limits_json": "{}",
        "state_json": "{}", "created_at": now, "updated_at": now,
    }  # fmt: skip
    for desk in (a.role, None):  # another desk's, or no desk's (any desk would drive it)
        with b.sql() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            _insert(conn, "runs", {**new_run, "desk": desk})
    # Through the app too: desk B's role cannot pass for desk A by taking its id.
    posing = b.cli("run", "--question", "q", "--mode", "dangerouslySkipPermissions",
                   BRIEFDESK_DESK=a.role, **LONG)  # fmt: skip
    assert posing.body["error"]["code"] == "not_authorized", posing.stdout + posing.stderr
    posing = b.cli("resume", run_id, BRIEFDESK_DESK=a.role, **LONG)
    assert posing.body["error"]["code"] == "not_authorized", posing.stdout + posing.stderr

    # Desk A's lease: neither cut short nor removed, so no take-over can start early.
    desks.refused(b, "UPDATE leases SET expires_at = 0 WHERE desk = %s", a.role)
    desks.refused(b, "DELETE FROM leases WHERE desk = %s", a.role)
    # Desk A's live run: not moved to desk B, not handed to another role.
    desks.refused(b, "UPDATE runs SET desk = %s WHERE run_id = %s", b.role, run_id)
    desks.refused(b, "UPDATE desk_bindings SET db_role = %s", b.role)
    desks.refused(b, "DELETE FROM desk_bindings")
    # Rules and grants are revoked, never deleted; the audit log names who wrote each row.
    desks.admin.execute(
        "INSERT INTO rules (id, tool, folder, scope, created_by, created_at) "
        "VALUES ('rule-home', 'save_brief', '/team', 'home', 'alice', %s)",
        (now,),
    )
    desks.refused(b, "DELETE FROM rules")
    desks.refused(b, "DELETE FROM grants")
    with b.sql() as conn:
        conn.execute(
            "INSERT INTO audit (at, entry, principal, db_role) "
            "VALUES (%s, 'decision', 'person:anna', %s)",
            (now, a.role),
        )
    assert _rows(desks, "SELECT db_role FROM audit WHERE principal = 'person:anna'") == [
        {"db_role": b.role}
    ]

    # What is its own stays its own: desk B starts a run of its own desk, and deletes it.
    own = {**new_run, "run_id": "run-own", "desk": b.role, "status": "created"}
    with b.sql() as conn:
        _insert(conn, "runs", own)
        conn.execute("UPDATE runs SET status = 'cancelled' WHERE run_id = 'run-own'")
        conn.execute("DELETE FROM runs WHERE run_id = 'run-own'")
    assert _rows(desks, "SELECT run_id, desk FROM runs ORDER BY run_id") == [
        {"run_id": run_id, "desk": a.role}
    ]
    assert _rows(desks, "SELECT desk, db_role FROM desk_bindings ORDER BY desk") == sorted(
        [{"desk": a.role, "db_role": a.role}, {"desk": b.role, "db_role": b.role}],
        key=lambda r: r["desk"],
    )


def test_what_one_desk_does_for_another_still_works_and_names_its_role(
    desks: Team, tmp_path: Path
) -> None:
    """Deciding, editing, answering, expiring and taking over across desks, each desk on its
    own role: the narrow writes the database lets through; the audit log names the role."""
    a, b = desks.desk_a, desks.desk_b

    # An edit and an approval made on desk B; desk A's resume writes the edited brief.
    run, artifacts = _waiting_write(desks, tmp_path)
    first = run.body["approvals"][0]
    edited = {"relative_path": "edited.md", "content": "# Edited on desk B\n"}
    new = b.cli("approvals", "edit", first["id"], "--reviewer", "bea", "--args", json.dumps(edited))
    assert new.body.get("approval", {}).get("version") == 2, new.stdout + new.stderr
    approved = b.cli("approvals", "approve", new.body["approval"]["id"], "--reviewer", "bea")
    assert approved.body["approval"]["status"] == "approved", approved.stdout
    done = a.cli("resume", run.body["run_id"], **LONG)
    assert done.body["status"] == "succeeded", done.stdout + done.stderr
    assert (artifacts / "edited.md").read_text() == edited["content"]
    audit = "SELECT principal, db_role FROM audit WHERE run_id = %s"
    roles = {r["principal"]: r["db_role"] for r in _rows(desks, audit, run.body["run_id"])}
    assert roles["person:bea"] == b.role

    # A question answered on desk B.
    asking = _script(tmp_path, [{"call": "ask_question", "args": {"question": "For whom?"}},
                                {"say": "done"}])  # fmt: skip
    run = a.cli("run", "--question", "q", "--model", f"scripted:{asking}", **LONG)
    assert run.body["status"] == "waiting_input", run.stdout + run.stderr
    answered = b.cli("answer", run.body["run_id"], "--text", "the board")
    assert answered.code == 0, answered.stdout + answered.stderr
    done = a.cli("resume", run.body["run_id"], **LONG)
    assert done.body["status"] == "succeeded", done.stdout + done.stderr

    # A proposal expired by desk B's sweep ends desk A's run as expired.
    run, _ = _waiting_write(desks, tmp_path, ttl="1")
    due = datetime.fromisoformat(run.body["approvals"][0]["expires_at"])
    wait_until(lambda: utcnow() > due, "the proposal's expiry")
    assert b.cli("approvals", "list").code == 0  # each command sweeps what expired
    assert _rows(desks, "SELECT status FROM runs WHERE run_id = %s", run.body["run_id"]) == [
        {"status": "expired"}
    ]

    # Taken over by desk B once desk A's lease lapsed (server clock): continued, and ended.
    run, artifacts = _waiting_write(desks, tmp_path, env=SHORT)
    ended, _ = _waiting_write(desks, tmp_path, env=SHORT)
    wait_until(lambda: not _lease_live(desks, a.role), "desk A's lease to lapse")
    taken = b.cli("resume", run.body["run_id"], "--take-over")
    assert (taken.code, taken.body.get("desk")) == (0, b.role), taken.stdout + taken.stderr
    ok = b.cli("approvals", "approve", taken.body["approvals"][0]["id"], "--reviewer", "bea")
    assert ok.code == 0, ok.stdout
    done = b.cli("resume", run.body["run_id"])
    assert done.body["status"] == "succeeded", done.stdout + done.stderr
    assert (artifacts / "brief.md").read_text() == REAL["content"]
    cancelled = b.cli("cancel", ended.body["run_id"], "--take-over")
    assert cancelled.body.get("status") == "cancelled", cancelled.stdout + cancelled.stderr
    takes = _rows(desks, "SELECT db_role FROM audit WHERE entry = 'take_over'")
    assert takes == [{"db_role": b.role}, {"db_role": b.role}]


def test_the_executor_refuses_a_forged_approval_the_database_let_in(
    desks: Team, tmp_path: Path
) -> None:
    """Defence in depth: the same forgery written by a role the guards do not stop (the
    cluster's superuser stands in for a database that is wrong); desk A's resume refuses it."""
    run, artifacts = _waiting_write(desks, tmp_path)
    run_id, first = run.body["run_id"], run.body["approvals"][0]
    [proposal] = _rows(desks, "SELECT * FROM approvals WHERE run_id = %s", run_id)
    with desks.admin.transaction():
        desks.admin.execute("UPDATE runs SET mode = 'acceptEdits' WHERE run_id = %s", (run_id,))
        desks.admin.execute(
            "UPDATE approvals SET status = 'superseded' WHERE run_id = %s", (run_id,)
        )
        _insert(desks.admin, "approvals", _forged_approval(first, proposal, artifacts))

    resumed = desks.desk_a.cli("resume", run_id, **LONG)
    assert resumed.code in (0, 1), resumed.stdout + resumed.stderr
    assert _nothing_written(artifacts)
    events = desks.desk_a.cli("timeline", run_id).body["events"]
    blocked = [e["data"]["code"] for e in events if e["kind"] == "blocked"]
    assert blocked == ["not_authorized"]
    assert not any(e["data"].get("executed") for e in events if e["kind"] == "tool_result")


def test_a_leaked_desk_password_cannot_bring_its_own_waiting_run_back_in_another_mode(
    desks: Team, tmp_path: Path
) -> None:
    """The same attack on the role's own desk: a waiting run cannot be deleted, and a run id
    with rows left behind cannot be inserted again, so its proposal keeps waiting for a
    person, whatever the mode a forged row would claim."""
    a = desks.desk_a
    run, artifacts = _waiting_write(desks, tmp_path)
    run_id = run.body["run_id"]
    with a.sql() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
        _bring_back(conn, run_id, mode="acceptEdits")
    desks.refused(a, "DELETE FROM runs WHERE run_id = %s", run_id)
    # Ended, then deleted alone: its proposal and calls are left, so it cannot come back.
    cancelled = a.cli("cancel", run_id, **LONG)
    assert cancelled.body["status"] == "cancelled", cancelled.stdout + cancelled.stderr
    with a.sql() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
        _bring_back(conn, run_id, mode="acceptEdits", status="created")
    assert _rows(desks, "SELECT mode, status FROM runs WHERE run_id = %s", run_id) == [
        {"mode": "default", "status": "cancelled"}
    ]
    assert _nothing_written(artifacts)


def test_a_desk_role_cannot_insert_a_revision_already_approved_by_a_rule(
    desks: Team, tmp_path: Path
) -> None:
    """After a request for changes a person decides the next proposal: the database refuses
    a row inserted already approved, even by a live rule that covers it."""
    a = desks.desk_a
    artifacts = tmp_path / "briefs-revised"
    script = _script(
        tmp_path,
        [{"call": "save_brief", "args": REAL}, {"call": "save_brief", "args": REAL},
         {"say": "done"}],
    )  # fmt: skip
    run = a.cli(
        "run", "--question", "Write the brief", "--model", f"scripted:{script}",
        "--artifacts", str(artifacts), **LONG,
    )  # fmt: skip
    first = run.body["approvals"][0]
    asked = a.cli(
        "approvals", "reject", first["id"], "--reviewer", "anna", "--revise",
        "--reason", "shorter", **LONG,
    )  # fmt: skip
    assert asked.body["approval"]["status"] == "changes_requested", asked.stdout
    [proposal] = _rows(desks, "SELECT * FROM approvals WHERE id = %s", first["id"])
    now = utcnow().isoformat()
    with a.sql() as conn:
        conn.execute(
            "INSERT INTO rules (id, tool, folder, scope, created_by, created_at) "
            "VALUES ('rule-anna', 'save_brief', %s, 'home', 'anna', %s)",
            (str(artifacts), now),
        )
    approved = {
        **proposal, "id": "ap-revision", "call_id": "call-revision", "status": "approved",
        "reviewer": "rule:rule-anna", "decided_by_rule": "rule-anna", "decided_at": now,
        "created_at": now,
    }  # fmt: skip
    with a.sql() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        _insert(conn, "approvals", approved)
    assert _rows(desks, "SELECT id FROM approvals WHERE id = 'ap-revision'") == []
