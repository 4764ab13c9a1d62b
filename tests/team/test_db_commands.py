"""`db status` and `db copy` on a real PostgreSQL server, run as people run them (real processes).

`db copy` is proven from the rows on both sides and by carrying on: a run that waited for a
decision in the SQLite home is decided and finished from the PostgreSQL side, and its brief is
written exactly once.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from agent_core.facade.workspace import Workspace
from agent_core.models.offline import slug
from agent_core.storage.owner import Owner
from agent_core.storage.schema import metadata
from tests.support.cli import REPO_ROOT, CliRunner, cli_env
from tests.support.pg import PgServer
from tests.team.conftest import make_desk

FINISHED_Q = "How do checkpoints make agent runs durable?"
WAITING_Q = "What is an idempotency key?"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _head() -> str:
    from agent_core.storage.migrate.revisions import head_revision

    return head_revision()


# -- db status ---------------------------------------------------------------------------------


def test_db_status_of_a_home_names_its_sqlite_file_revision_and_desk(cli: CliRunner) -> None:
    from agent_core.facade.workspace import Workspace

    Workspace(cli.home).close()  # the home exists, migrated as any command leaves it
    result = cli("db", "status", env={"BRIEFDESK_DESK": "desk-x"})
    assert result.code == 0, result.stdout + result.stderr
    assert result.body["store"] == {
        "kind": "sqlite",
        "revision": _head(),
        "reachable": True,
        "url": f"sqlite:///{cli.home / 'state.db'}",
        "desk": "desk-x",
        "message": None,
    }


def test_db_status_names_the_team_database_of_the_setting_and_its_revision(
    tmp_path: Path, pg_url: str
) -> None:
    desk = make_desk("desk-a", tmp_path / "desk-a", pg_url)  # db.url set, as a newcomer does
    result = desk("db", "status")
    assert result.code == 0, result.stdout + result.stderr
    assert result.body["store"] == {
        "kind": "postgresql",
        "revision": _head(),
        "reachable": True,
        "url": pg_url,
        "desk": "desk-a",
        "message": None,
    }


def test_db_status_answers_while_the_server_is_away_without_the_agents_sdk(
    tmp_path: Path, pg_url: str
) -> None:
    """Every other command refuses with storage_unavailable; the status says so, exit 0."""
    away = pg_url.replace(pg_url.split("@", 1)[1].split("/", 1)[0], f"127.0.0.1:{_free_port()}")
    desk = make_desk("desk-a", tmp_path / "desk-a", away)
    refused = desk("runs")
    assert refused.code == 2 and refused.body["error"]["code"] == "storage_unavailable"
    # In one process: the answer, and proof that the SDK was never imported for it.
    probe = (
        "import sys; from agent_core.cli.main import main; code = main(sys.argv[1:]); "
        "print('SDK' if 'agents' in sys.modules else 'NO-SDK', file=sys.stderr); sys.exit(code)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, "--home", str(desk.home), "--json", "db", "status"],
        capture_output=True,
        text=True,
        env=cli_env(BRIEFDESK_DESK="desk-a"),
        cwd=REPO_ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    store = json.loads(proc.stdout)["store"]
    assert (store["kind"], store["reachable"], store["revision"]) == ("postgresql", False, None)
    assert store["url"] == away and away.split("@", 1)[1].split("/", 1)[0] in store["message"]
    assert proc.stderr.strip().endswith("NO-SDK")


def test_db_status_of_a_refused_login_never_prints_the_typed_password(
    cli: CliRunner, pg_url: str
) -> None:
    with_password = pg_url.replace("://bdadmin@", "://bdadmin:not-the-password@")
    result = cli("db", "status", "--db", with_password)
    assert result.code == 0, result.stdout + result.stderr
    store = result.body["store"]
    assert store["reachable"] is False
    assert store["url"] == pg_url.replace("://bdadmin@", "://bdadmin:***@")
    assert "not-the-password" not in result.stdout + result.stderr
    assert "password" in store["message"]  # what to check


def test_db_status_of_an_empty_database_initialises_nothing(
    cli: CliRunner, pg_server: PgServer
) -> None:
    url = pg_server.create_database(empty=True)
    result = cli("db", "status", "--db", url)
    assert result.code == 0, result.stdout + result.stderr
    store = result.body["store"]
    assert (store["reachable"], store["revision"]) == (True, None)
    assert "first use" in store["message"]
    with pg_server.admin(url.rsplit("/", 1)[1]) as conn:
        assert conn.execute("SELECT to_regclass('alembic_version')").fetchone() == (None,)


# -- db copy -----------------------------------------------------------------------------------


def test_every_table_is_either_copied_or_kept_on_the_desk() -> None:
    """A new table must be classified: copied to the team, or the desk's own."""
    from agent_core.storage.team.store_copy import DESK_TABLES, NOT_COPIED, TEAM_TABLES

    named = [t.name for t in (*TEAM_TABLES, *DESK_TABLES, *NOT_COPIED)]
    assert sorted(named) == sorted(metadata.tables) and len(set(named)) == len(named)


def _rows(store: Any, table: Any, *, desk: str | None = None) -> list[tuple[Any, ...]]:
    """Every row of `table`, in one order whatever the backend's collation; with `desk`, a row
    without a desk shows it (as `db copy` stamps rows older than desks)."""
    keys = list(table.c.keys())
    with store.read() as conn:
        rows = [dict(row._mapping) for row in conn.execute(select(table))]
    if desk is not None and "desk" in keys:
        rows = [{**r, "desk": r["desk"] or desk} for r in rows]
    return sorted((tuple(r[k] for k in keys) for r in rows), key=repr)


def _admin_password(pg_server: PgServer) -> str:
    """The admin's password from the session's passfile (host:port:db:user:password)."""
    return str(pg_server.passfile.read_text().splitlines()[0].rsplit(":", 1)[1])


@pytest.fixture
def moved_home(tmp_path: Path) -> dict[str, Any]:
    """A SQLite home with a finished run (its brief written; its rows older than desks, with no
    desk) and a run waiting for approval of an overwrite (its base kept as a blob)."""
    from sqlalchemy import update

    from agent_core.facade.workspace import Workspace
    from agent_core.storage.schema import approvals, runs

    ws = Workspace(tmp_path / "home")
    try:
        done = ws.start_run(FINISHED_Q)
        ws.approve(done["approvals"][0]["id"], reviewer="ann")
        assert ws.resume(done["run_id"])["status"] == "succeeded"
        with ws.store.write() as conn:  # as a home written before revision 0006 holds it
            for table in (runs, approvals):
                conn.execute(
                    update(table).where(table.c.run_id == done["run_id"]).values(desk=None)
                )
        target = ws.home.artifacts / "briefs" / f"{slug(WAITING_Q)}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("An older brief.\n")
        waiting = ws.start_run(WAITING_Q)
        assert waiting["status"] == "waiting_approval"
    finally:
        ws.close()
    return {"home": ws.home.root, "waiting": waiting, "target": target}


def test_db_copy_moves_a_home_into_postgresql_and_its_waiting_run_finishes_there(
    moved_home: dict[str, Any], pg_server: PgServer
) -> None:
    from agent_core.facade.workspace import Workspace
    from agent_core.storage.location import parse_db_url
    from agent_core.storage.migrate.home import open_store
    from agent_core.storage.schema import approvals, blobs, events
    from agent_core.storage.team.desks import machine_desk_id
    from agent_core.storage.team.store_copy import TEAM_TABLES

    home, waiting, target = moved_home["home"], moved_home["waiting"], moved_home["target"]
    cli = CliRunner(home)
    url = pg_server.create_database(empty=True)  # as an administrator hands it over
    secret = _admin_password(pg_server)
    copied = cli("db", "copy", "--to", url.replace("://bdadmin@", f"://bdadmin:{secret}@"))
    assert copied.code == 0, copied.stdout + copied.stderr
    assert copied.body["verified"] is True
    assert copied.body["to"] == url.replace("://bdadmin@", "://bdadmin:***@")
    assert secret not in copied.stdout + copied.stderr

    source = open_store(home / "state.db")
    team = open_store(parse_db_url(url))
    try:
        for table in TEAM_TABLES:  # every row, every column, read on both sides
            mine = _rows(source, table, desk=machine_desk_id())
            assert copied.body["copied"][table.name] == len(mine), table.name
            assert _rows(team, table) == mine, table.name
        assert {r.desk for r in _rows_of(team, approvals)} == {machine_desk_id()}
        pending = [r for r in _rows_of(team, approvals) if r.status == "pending"]
        kept = [r for r in _rows_of(team, blobs) if r.digest == pending[0].base_digest]
        assert kept and bytes(kept[0].data) == b"An older brief.\n"  # the base blob came along
        copied_seq = max(r.seq for r in _rows_of(team, events))
    finally:
        source.dispose()
        team.dispose()

    # Carry on from the PostgreSQL side: decide, resume; the brief is written once.
    approval = waiting["approvals"][0]
    shown = cli("--db", url, "approvals", "show", approval["id"])
    assert "-An older brief." in shown.body["diff"].splitlines()
    cli("--db", url, "approvals", "approve", approval["id"], "--reviewer", "bob", check=True)
    resumed = cli("--db", url, "resume", waiting["run_id"])
    assert resumed.body.get("status") == "succeeded", resumed.stdout + resumed.stderr
    assert target.read_text() == approval["args"]["content"]
    ws = Workspace(home, db=url)
    try:
        events_now = ws.timeline(waiting["run_id"])
        still_here = Workspace(home)  # the home's own store, as it was left
        try:
            assert still_here.get_run(waiting["run_id"])["status"] == "waiting_approval"
        finally:
            still_here.close()
    finally:
        ws.close()
    written = [
        e for e in events_now
        if e["kind"] == "tool_result" and e["tool"] == "save_brief" and e["data"].get("executed")
    ]  # fmt: skip
    assert len(written) == 1
    assert [e["kind"] for e in events_now].count("artifact_confirmed") == 1
    new = [e["seq"] for e in events_now if e["seq"] > copied_seq]
    assert new and min(new) == copied_seq + 1  # the sequence continues past the copied ids


def _rows_of(store: Any, table: Any) -> list[Any]:
    with store.read() as conn:
        return list(conn.execute(select(table)))


def test_db_copy_refuses_a_database_that_already_holds_data(tmp_path: Path, pg_url: str) -> None:
    """A team's database is never overwritten or mixed with a home's runs."""
    from agent_core.facade.workspace import Workspace

    team = Workspace(tmp_path / "team-desk", db=pg_url)
    try:
        run_id = team.create_run(FINISHED_Q)  # the team already has a run
    finally:
        team.close()
    refused = CliRunner(tmp_path / "home")("db", "copy", "--to", pg_url)
    assert refused.code == 2 and refused.body["error"]["code"] == "database_not_empty"
    team = Workspace(tmp_path / "team-desk", db=pg_url)
    try:
        assert [r["run_id"] for r in team.list_runs()] == [run_id]
    finally:
        team.close()


def test_db_copy_refuses_while_a_run_is_being_driven(ws: Workspace, pg_server: PgServer) -> None:
    from agent_core.contract.errors import BriefDeskError
    from agent_core.runs import lifecycle

    run_id = ws.create_run(WAITING_Q)
    with ws.store.write() as conn:  # this very process drives it: a live owner
        lifecycle.claim(conn, run_id, Owner.current())
    url = pg_server.create_database(empty=True)
    with pytest.raises(BriefDeskError) as refused:
        ws.copy_store(url)
    assert refused.value.code == "run_in_progress" and run_id in refused.value.message
    with pg_server.admin(url.rsplit("/", 1)[1]) as conn:
        assert conn.execute("SELECT count(*) FROM runs").fetchone() == (0,)
