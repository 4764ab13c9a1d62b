"""MCP servers are each desk's own, in team mode too: kept in the home's `state.db`, never in
the team database, so one desk's servers (and their environment) are not another's."""

from __future__ import annotations

import sqlite3

import sqlalchemy as sa

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
