"""Who may decide what, on a real PostgreSQL server: grants checked by the app and by the database.

Each test builds a team as the README says: an owner role that owns the database (it
initialises it and administers grants) and desks with their own, lesser LOGIN roles, given a
desk's privileges by `briefdesk-cli grants desk-role`. A desk role's password reaches the app
through PGPASSWORD (libpq's headless source), as a desk's would.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.support.cli import CliResult, CliRunner
from tests.support.pg import PgServer

QUESTION = "How do checkpoints make agent runs durable?"
NOW = "2026-01-01T00:00:00.000+00:00"
LATER = "2999-01-01T00:00:00.000+00:00"


@dataclass
class Login:
    """A database role with a password, and briefdesk-cli run as it on its own desk."""

    role: str
    password: str
    url: str  # without the password: the app gets it from PGPASSWORD
    home: Path

    def cli(self, *args: str, **env: str) -> CliResult:
        environment = {"PGPASSWORD": self.password, "BRIEFDESK_DESK": self.role, **env}
        return CliRunner(self.home)("--db", self.url, *args, env=environment)

    def sql(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.url, password=self.password, autocommit=True)

    def workspace(self) -> Any:
        from agent_core.facade.workspace import Workspace

        at = self.url.replace(f"{self.role}@", f"{self.role}:{self.password}@")
        return Workspace(self.home, db=at)


@dataclass
class Team:
    database: str
    owner: Login
    desk_a: Login
    desk_b: Login
    admin: Any  # the cluster's superuser, on the team database (autocommit)

    def refused(self, login: Login, sql: str, *params: object) -> str:
        """`sql` as `login` fails with SQLSTATE 42501; returns the database's message."""
        with login.sql() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege) as caught:
            conn.execute(sql, params)
        return str(caught.value)

    def approval(self, approval_id: str) -> tuple[Any, ...]:
        row = self.admin.execute(
            "SELECT status, reviewer, target FROM approvals WHERE id = %s", (approval_id,)
        ).fetchone()
        assert row is not None
        return tuple(row)


def _login(pg_server: PgServer, role: str, database: str, home: Path) -> Login:
    role, password = pg_server.create_login_role(role)
    return Login(role, password, pg_server.url(database, role), home)


@pytest.fixture
def team(pg_server: PgServer, tmp_path: Path) -> Iterator[Team]:
    """An owner role with its own (empty) database, and two desk roles not yet granted."""
    tag = uuid.uuid4().hex[:8]
    database = f"team_{tag}"
    owner = _login(pg_server, f"bd_owner_{tag}", database, tmp_path / "owner")
    desk_a = _login(pg_server, f"bd_desk_a_{tag}", database, tmp_path / "desk-a")
    desk_b = _login(pg_server, f"bd_desk_b_{tag}", database, tmp_path / "desk-b")
    with pg_server.admin() as conn:
        conn.execute(f"CREATE DATABASE {database} OWNER {owner.role}")
    admin = pg_server.admin(database)
    try:
        yield Team(database, owner, desk_a, desk_b, admin)
    finally:
        admin.close()
        with pg_server.admin() as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
            for login in (desk_a, desk_b, owner):
                conn.execute(f"DROP ROLE IF EXISTS {login.role}")


@pytest.fixture
def desks(team: Team) -> Team:
    """The team database initialised by its owner, both desk roles given a desk's privileges."""
    ws = team.owner.workspace()
    try:
        for desk in (team.desk_a, team.desk_b):
            ws.grant_desk_role(desk.role)
    finally:
        ws.close()
    return team


def _propose(team: Team, login: Login, approval_id: str, target: str, **columns: Any) -> None:
    """A run and its pending proposal, written by `login` as its desk would (INSERT): a
    run of its own desk (named like its role, as `Login.cli` names it)."""
    run_id = columns.pop("run_id", "run-" + approval_id)
    mode = columns.pop("mode", "default")
    with login.sql() as conn:
        # A desk creates a run new (status created), then drives it (revision 0008).
        conn.execute(
            "INSERT INTO runs (run_id, thread_id, status, question, model, mode, corpus_dir, "
            "artifacts_dir, limits_json, state_json, created_at, updated_at, desk) "
            "SELECT %s, 'th', 'created', 'q', 'offline', %s, '/c', '/a', '{}', '{}', %s, %s, %s "
            "WHERE NOT EXISTS (SELECT 1 FROM runs WHERE run_id = %s)",
            (run_id, mode, NOW, NOW, login.role, run_id),
        )
        conn.execute("UPDATE runs SET status = 'waiting_approval' WHERE run_id = %s", (run_id,))
        values = {
            "id": approval_id,
            "run_id": run_id,
            "thread_id": "th",
            "call_id": "call-" + approval_id,
            "tool": "save_brief",
            "args_json": "{}",
            "target": target,
            "risk": "write",
            "reason": "writes a file",
            "arg_hash": "0" * 64,
            "state_version": 1,
            "version": 1,
            "status": "pending",
            "created_at": NOW,
            "expires_at": LATER,
            **columns,
        }
        names = ", ".join(values)
        marks = ", ".join(["%s"] * len(values))
        conn.execute(f"INSERT INTO approvals ({names}) VALUES ({marks})", tuple(values.values()))


def _grant(team: Team, reviewer: str, folder: str, role: str | None) -> dict[str, Any]:
    ws = team.owner.workspace()
    try:
        return dict(ws.add_grant(reviewer=reviewer, tool="save_brief", folder=folder, role=role))
    finally:
        ws.close()


def _decided_rows(team: Team) -> tuple[int, int, int]:
    """Decisions on record: audit decisions, approval_decided events, rules."""
    audit = team.admin.execute("SELECT count(*) FROM audit WHERE entry = 'decision'").fetchone()
    events = team.admin.execute(
        "SELECT count(*) FROM events WHERE kind = 'approval_decided'"
    ).fetchone()
    rules = team.admin.execute("SELECT count(*) FROM rules").fetchone()
    return (audit[0], events[0], rules[0])


def test_a_desk_role_set_up_as_the_readme_says_proposes_and_decides_within_its_grant(
    team: Team, tmp_path: Path
) -> None:
    """The newcomer's path, all through briefdesk-cli: the owner initialises the database and
    gives the desk role its privileges; the desk runs and proposes; without grants anyone
    decides; with one, a reviewer outside it gets not_authorized and nothing changes."""
    owner, desk = team.owner, team.desk_a
    listed = owner.cli("grants", "list")  # the owner's first use initialises the database
    assert (listed.code, listed.body.get("grants")) == (0, []), listed.stdout + listed.stderr
    given = owner.cli("grants", "desk-role", desk.role)
    assert given.code == 0, given.stdout + given.stderr
    assert "approvals" in given.body["desk_role"]["read_write"]
    assert given.body["desk_role"]["read_only"] == ["alembic_version", "grants", "settings"]

    artifacts = tmp_path / "briefs"
    script = tmp_path / "script.json"
    turns = [
        {
            "calls": [
                {"call": "save_brief", "args": {"relative_path": "one.md", "content": "# 1\n"}},
                {"call": "save_brief", "args": {"relative_path": "two.md", "content": "# 2\n"}},
            ]
        },
        {"say": "done"},
    ]
    script.write_text(json.dumps(turns))
    run = desk.cli(
        "run", "--question", QUESTION, "--model", f"scripted:{script}",
        "--artifacts", str(artifacts),
    )  # fmt: skip
    assert run.code == 0 and run.body["status"] == "waiting_approval", run.stdout + run.stderr
    first, second = run.body["approvals"]
    assert first["desk"] == second["desk"] == desk.role

    # No grants (the default): any reviewer decides, through the desk's own role.
    anyone = desk.cli("approvals", "approve", first["id"], "--reviewer", "anyone")
    assert anyone.code == 0 and anyone.body["approval"]["status"] == "approved", anyone.stdout

    added = owner.cli(
        "grants", "add", "--reviewer", "alice", "--tool", "save_brief",
        "--folder", str(artifacts), "--role", desk.role,
    )  # fmt: skip
    assert added.code == 0 and added.body["grant"]["role"] == desk.role, added.stdout
    before = _decided_rows(team)
    outside = desk.cli("approvals", "approve", second["id"], "--reviewer", "bob")
    assert outside.code == 2 and outside.body["error"]["code"] == "not_authorized"
    assert team.approval(second["id"])[:2] == ("pending", None)
    assert _decided_rows(team) == before

    inside = desk.cli("approvals", "approve", second["id"], "--reviewer", "alice")
    assert inside.code == 0 and inside.body["approval"]["reviewer"] == "alice", inside.stdout
    done = desk.cli("resume", run.body["run_id"])
    assert done.body["status"] == "succeeded", done.stdout + done.stderr
    assert sorted(p.name for p in artifacts.iterdir()) == ["one.md", "two.md"]


def test_a_direct_sql_decision_outside_the_grant_is_refused_by_the_database(desks: Team) -> None:
    desk_a, desk_b = desks.desk_a, desks.desk_b
    for n in (1, 2, 3, 4):
        _propose(desks, desk_a, f"ap-{n}", f"/team/briefs/{n}.md")
    _propose(desks, desk_a, "ap-out", "/team/elsewhere/x.md")

    # No grants yet: the database lets any role decide, as the app does.
    with desk_a.sql() as conn:
        conn.execute(
            "UPDATE approvals SET status = 'approved', reviewer = 'anyone' WHERE id = 'ap-1'"
        )
    assert desks.approval("ap-1")[:2] == ("approved", "anyone")

    _grant(desks, "alice", "/team/briefs", desk_a.role)
    decide = "UPDATE approvals SET status = %s, reviewer = %s WHERE id = %s"
    message = desks.refused(desk_a, decide, "approved", "bob", "ap-2")
    assert desk_a.role in message and "no grant covers it" in message
    assert desks.approval("ap-2")[:2] == ("pending", None)
    desks.refused(desk_a, decide, "rejected", "bob", "ap-2")
    desks.refused(desk_a, decide, "approved", "alice", "ap-out")  # outside the folder
    desks.refused(desk_b, decide, "approved", "alice", "ap-3")  # the grant binds desk_a's role
    assert [desks.approval(i)[0] for i in ("ap-2", "ap-3", "ap-out")] == ["pending"] * 3

    with desk_a.sql() as conn:
        conn.execute(decide, ("approved", "alice", "ap-3"))
        conn.execute(decide, ("changes_requested", "alice", "ap-4"))
    assert desks.approval("ap-3")[:2] == ("approved", "alice")
    assert desks.approval("ap-4")[:2] == ("changes_requested", "alice")


def test_a_desk_role_cannot_approve_by_the_back_doors(desks: Team) -> None:
    """What a leaked desk credential might try instead of a plain decision."""
    desk = desks.desk_a
    _grant(desks, "alice", "/team/briefs", desk.role)
    _propose(desks, desk, "ap-1", "/team/briefs/1.md")
    _propose(desks, desk, "ap-ok", "/team/briefs/ok.md")
    with desk.sql() as conn:
        conn.execute(
            "UPDATE approvals SET status = 'approved', reviewer = 'alice' WHERE id = 'ap-ok'"
        )

    # Closing a proposal as cancelled while its run still waits (the run would go on).
    desks.refused(desk, "UPDATE approvals SET status = 'cancelled' WHERE id = 'ap-1'")
    desks.refused(desk, "UPDATE approvals SET status = 'consumed' WHERE id = 'ap-1'")
    # Moving an approved write somewhere else, or reopening a decided proposal.
    desks.refused(desk, "UPDATE approvals SET target = '/etc/x' WHERE id = 'ap-ok'")
    desks.refused(desk, "UPDATE approvals SET status = 'pending' WHERE id = 'ap-ok'")
    # A proposal inserted already approved, claiming a policy its run does not have.
    forged = {"status": "approved", "decided_by_rule": "policy:dangerouslySkipPermissions"}
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        _propose(desks, desk, "ap-forged", "/team/briefs/f.md", run_id="run-ap-1", **forged)
    # Giving its run a permission mode that approves by itself.
    desks.refused(desk, "UPDATE runs SET mode = 'dangerouslySkipPermissions'")
    desks.refused(desk, "UPDATE runs SET artifacts_dir = '/etc'")
    # A remembered "always allow" rule outside any grant, or a revoked one brought back.
    rule = (
        "INSERT INTO rules (id, tool, folder, scope, created_by, created_at, revoked_at) "
        "VALUES (%s, 'save_brief', %s, 'home', %s, %s, %s)"
    )
    desks.refused(desk, rule, "rule-bob", "/team/briefs", "bob", NOW, None)
    desks.refused(desk, rule, "rule-wide", "/team", "alice", NOW, None)
    desks.admin.execute(rule, ("rule-old", "/team", "alice", NOW, NOW))
    desks.refused(desk, "UPDATE rules SET revoked_at = NULL WHERE id = 'rule-old'")
    # Grants and the audit log.
    desks.refused(desk, "INSERT INTO grants (id, reviewer, created_by, created_at) "
                  "VALUES ('g', 'bob', 'bob', 'now')")  # fmt: skip
    desks.refused(desk, "UPDATE grants SET revoked_at = 'now'")
    desks.refused(desk, "DELETE FROM grants")
    desks.refused(desk, "UPDATE audit SET principal = 'person:alice'")
    desks.refused(desk, "DELETE FROM audit")

    assert desks.approval("ap-1")[0] == "pending"
    assert desks.approval("ap-ok")[:3] == ("approved", "alice", "/team/briefs/ok.md")
    assert desks.admin.execute("SELECT count(*) FROM approvals").fetchone() == (2,)
    assert desks.admin.execute("SELECT mode, artifacts_dir FROM runs").fetchall() == [
        ("default", "/a"),
        ("default", "/a"),
    ]
    assert desks.admin.execute("SELECT id, revoked_at FROM rules").fetchall() == [("rule-old", NOW)]
    assert desks.admin.execute("SELECT count(*) FROM grants").fetchone() == (1,)

    # What a desk does for itself stays allowed: its own bookkeeping, closing what an ended
    # run left pending, appending to the audit log.
    _propose(desks, desk, "ap-2", "/team/briefs/2.md")
    with desk.sql() as conn:
        conn.execute(
            "UPDATE approvals SET status = 'consumed', consumed_at = %s WHERE id = 'ap-ok'", (NOW,)
        )
        conn.execute("UPDATE approvals SET status = 'expired' WHERE id = 'ap-1'")
        conn.execute("UPDATE runs SET status = 'failed' WHERE run_id = 'run-ap-2'")
        conn.execute("UPDATE approvals SET status = 'cancelled', reviewer = 'x' WHERE id = 'ap-2'")
        conn.execute(
            "INSERT INTO audit (at, entry, principal) VALUES (%s, 'block', 'model')", (NOW,)
        )
    assert [desks.approval(i)[0] for i in ("ap-ok", "ap-1", "ap-2")] == [
        "consumed",
        "expired",
        "cancelled",
    ]
    # And approving by itself what its run's mode or a live rule approves.
    skip = "policy:dangerouslySkipPermissions"
    mode = "dangerouslySkipPermissions"
    _propose(desks, desk, "ap-mode", "/x/m.md", run_id="run-skip", mode=mode,
             status="approved", decided_by_rule=skip, reviewer=skip)  # fmt: skip
    desks.admin.execute(rule, ("rule-live", "/team/briefs", "alice", NOW, None))
    _propose(desks, desk, "ap-rule", "/team/briefs/r.md", run_id="run-ap-1",
             status="approved", decided_by_rule="rule-live", reviewer="rule:rule-live")  # fmt: skip
    assert [desks.approval(i)[0] for i in ("ap-mode", "ap-rule")] == ["approved", "approved"]


def test_only_the_owner_changes_grants_and_it_decides_freely_in_sql(desks: Team) -> None:
    desk = desks.desk_a
    refused = desk.cli("grants", "add", "--reviewer", "mallory")
    assert refused.code == 2 and refused.body["error"]["code"] == "not_authorized", refused.stdout
    assert desk.cli("grants", "list").body == {"api": 1, "grants": []}

    grant = _grant(desks, "alice", "/team/briefs", desk.role)
    _propose(desks, desk, "ap-1", "/team/elsewhere/1.md")
    revoked = desk.cli("grants", "revoke", grant["id"])
    assert revoked.body["error"]["code"] == "not_authorized"
    with psycopg.connect(desks.owner.url, password=desks.owner.password, autocommit=True) as conn:
        conn.execute("UPDATE approvals SET status = 'approved', reviewer = 'bob' WHERE id = 'ap-1'")
    assert desks.approval("ap-1")[:2] == ("approved", "bob")


def test_the_app_checks_grants_for_the_owner_role_too(desks: Team) -> None:
    """The owner's role passes the database's guard, so this refusal is the app's own."""
    _grant(desks, "alice", "/team/briefs", None)
    _propose(desks, desks.desk_a, "ap-1", "/team/briefs/1.md")
    refused = desks.owner.cli("approvals", "reject", "ap-1", "--reviewer", "bob")
    assert refused.code == 2 and refused.body["error"]["code"] == "not_authorized"
    assert "'bob'" in refused.body["error"]["message"]
    assert desks.approval("ap-1")[:2] == ("pending", None)
    assert _decided_rows(desks) == (0, 0, 0)


def test_grants_and_desk_roles_name_roles_that_can_work(desks: Team) -> None:
    """A grant names an existing role; the owner's own role is never made a desk's (its
    REVOKE would take the owner's rights away)."""
    from agent_core.contract.errors import BriefDeskError

    ws = desks.owner.workspace()
    try:
        with pytest.raises(BriefDeskError) as caught:
            ws.add_grant(reviewer="alice", role="no_such_role_here")
        assert caught.value.code == "not_found"
        with pytest.raises(BriefDeskError) as caught:
            ws.grant_desk_role(desks.owner.role)
        assert caught.value.code == "invalid_arguments"
        assert ws.list_grants() == []
        assert ws.list_runs() == []  # the owner's rights are intact
    finally:
        ws.close()


def test_an_upgrade_gives_desk_roles_the_new_tables(desks: Team) -> None:
    """Back to revision 0006 (no grants table), then the owner's next start upgrades: the desk
    role that held a desk's privileges can read the new table without anyone re-running
    `grants desk-role`."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from agent_core.storage.migrate.revisions import MIGRATIONS_DIR

    owner = desks.owner
    url = owner.url.replace("postgresql://", "postgresql+psycopg://")
    engine = create_engine(url.replace(f"{owner.role}@", f"{owner.role}:{owner.password}@"))
    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0006")
    engine.dispose()
    assert desks.admin.execute("SELECT to_regclass('grants')").fetchone() == (None,)

    owner.workspace().close()  # the owner's next start: upgrade to head
    listed = desks.desk_a.cli("grants", "list")
    assert listed.body == {"api": 1, "grants": []}, listed.stdout
    desks.refused(desks.desk_a, "INSERT INTO grants (id, reviewer, created_by, created_at) "
                  "VALUES ('g', 'bob', 'bob', 'now')")  # fmt: skip
