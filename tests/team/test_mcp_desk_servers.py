"""MCP servers are each desk's own, in team mode too: kept in the home's `state.db`, never in
the team database, so one desk's servers (and their environment) are not another's."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import sqlalchemy as sa

from tests.support.mcp_servers.real import FAULT_SERVER
from tests.team.conftest import Desk


def test_each_desk_keeps_its_own_servers_out_of_the_team_database(
    two_desks: tuple[Desk, Desk], pg_url: str
) -> None:
    a, b = two_desks
    assert a("mcp", "add", "git", "--env", "X=only-on-desk-a", "--", "mcp-server-git").code == 0
    assert [s["name"] for s in a("mcp", "list").body["servers"]] == ["git"]
    assert b("mcp", "list").body["servers"] == []
    with sqlite3.connect(a.home / "state.db") as conn:
        assert conn.execute("SELECT name FROM mcp_servers").fetchall() == [("git",)]
    ws = a.workspace()
    try:
        assert ws.team_mode
        with ws.store.read() as conn:  # the team database has the table, and nothing in it
            assert conn.execute(sa.text("SELECT count(*) FROM mcp_servers")).scalar() == 0
    finally:
        ws.close()


def test_another_desk_reviews_an_mcp_call_it_has_no_server_for_and_the_owner_runs_it_once(
    two_desks: tuple[Desk, Desk], tmp_path: Path
) -> None:
    """The run's MCP tools are recorded in the team database (`run_mcp_tools`): desk-b, which
    has no such server, shows and decides the proposal from them; desk-a's resume calls it."""
    a, b = two_desks
    added = a(
        "mcp", "add", "faults", "--root", str(tmp_path), "--", sys.executable, str(FAULT_SERVER)
    )
    assert added.code == 0, added.stdout
    out = tmp_path / "lines.txt"
    script = tmp_path / "append.json"
    call = {"path": str(out), "line": "from desk-a's run"}
    script.write_text(json.dumps([{"call": "mcp__faults__append_line", "args": call}]))
    started = a("run", "--question", "append", "--model", f"scripted:{script}")
    assert started.code == 0 and started.body["status"] == "waiting_approval", started.body
    [proposal] = b("inbox").body["inbox"]
    assert proposal["tool"] == "mcp__faults__append_line" and proposal["desk"] == "desk-a"
    shown = b("approvals", "show", proposal["id"])
    assert shown.code == 0 and shown.body["mcp"]["server"] == "faults", shown.body
    assert b("approvals", "approve", proposal["id"], "--reviewer", "bea").code == 0
    resumed = a("resume", started.body["run_id"])
    assert resumed.code == 0 and resumed.body["status"] == "succeeded", resumed.body
    assert out.read_text(encoding="utf-8").splitlines() == ["from desk-a's run"]
