"""`mcp add / list / tools / tier / remove` (contract, "MCP servers"), on real servers.

The registry round trip runs the CLI in this process; `mcp tools` starts the real servers
BriefDesk did not write (mcp-server-time and mcp-server-git from PyPI,
@modelcontextprotocol/server-filesystem from npm) and checks the tools and tiers they give,
against the annotations ARCHITECTURE.md records for them.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_core.tools.mcp.servers import model_name, split_model_name
from tests.support.cli import CliRunner
from tests.support.mcp_servers.real import FAULT_SERVER, filesystem_server_bin, python_server


@pytest.fixture
def here(home: Path, capsys: pytest.CaptureFixture[str]) -> CliRunner:
    return CliRunner(home, capsys)


def stored_rows(home: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(home / "state.db") as conn:
        return conn.execute("SELECT name, env_json FROM mcp_servers ORDER BY name").fetchall()


def tools_by_name(cli: CliRunner, server: str) -> dict[str, dict[str, Any]]:
    code, body = cli("mcp", "tools", server)
    assert code == 0, body
    return {t["name"]: t for t in body["tools"]}


# -- the registry ---------------------------------------------------------------------------


def test_add_list_tier_remove_round_trip_never_prints_an_env_value(
    here: CliRunner, home: Path
) -> None:
    literal = "literal-value-7f3a"
    code, added = here(
        "mcp",
        "add",
        "fs",
        "--env",
        f"ROOT_HINT={literal}",
        "--env",
        "TOKEN=keyring:fs-token",
        "--trust-hints",
        "--",
        "npx",
        "-y",
        "server",
        "--home",  # the server's own options: never read as BriefDesk's
        "/srv",
        "--json",
    )
    assert code == 0, added
    expected = {
        "name": "fs",
        "command": "npx",
        "args": ["-y", "server", "--home", "/srv", "--json"],
        "env_keys": ["ROOT_HINT", "TOKEN"],
        "trust_hints": True,
        "status": "configured",
        "roots": ["/srv"] if Path("/srv").is_dir() else [],  # a folder named: granted
        "network": False,
        "sandbox": True,
    }
    assert added["server"] == expected
    listed = here("mcp", "list")
    assert listed.body["servers"] == [expected]
    assert literal not in listed.stdout and literal not in here.text("mcp", "list").stdout
    # The literal is stored (the person typed it); the keyring entry only by its name.
    [(_name, env_json)] = stored_rows(home)
    assert json.loads(env_json) == {
        "ROOT_HINT": {"value": literal},
        "TOKEN": {"keyring": "fs-token"},
    }

    code, tier = here("mcp", "tier", "fs", "write_file", "read")
    assert (code, tier["tier"]) == (0, {"server": "fs", "tool": "write_file", "tier": "read"})
    assert "fs/x is now write-tier" in here.text("mcp", "tier", "fs", "x", "write").stdout

    code, removed = here("mcp", "remove", "fs")
    assert (code, removed["removed"]) == (0, "fs")
    assert here("mcp", "list").body["servers"] == []
    assert stored_rows(home) == []
    here.refused("not_found", "mcp", "remove", "fs")
    here.refused("not_found", "mcp", "tier", "fs", "t", "read")
    here.refused("not_found", "mcp", "tools", "fs")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["mcp", "add", "Git", "--", "x"], "server name"),
        (["mcp", "add", "a__b", "--", "x"], "server name"),
        (["mcp", "add", "git_", "--", "x"], "server name"),
        (["mcp", "add", "git"], "command after '--'"),
        (["mcp", "add", "git", "--env", "NOEQUALS", "--", "x"], "--env"),
        (["mcp", "add", "git", "--env", "1X=y", "--", "x"], "--env"),
        (["mcp", "add", "git", "--env", "A=1", "--env", "A=2", "--", "x"], "twice"),
        (["mcp", "add", "git", "--env", "A=keyring:bad name", "--", "x"], "key name"),
        (["mcp", "tier", "git", "bad tool!", "read"], "tool name"),
    ],
)
def test_a_bad_line_is_refused_before_the_home_exists(
    here: CliRunner, home: Path, argv: list[str], needle: str
) -> None:
    assert needle in here.refused("invalid_arguments", *argv)
    assert not home.exists()


def test_a_refused_add_writes_nothing_and_a_taken_name_stays_as_it_was(here: CliRunner) -> None:
    assert here("mcp", "add", "git", "--", "first").code == 0
    here.refused("invalid_arguments", "mcp", "add", "git", "--", "second")
    here.refused("invalid_arguments", "mcp", "add", "other", "--env", "=x", "--", "y")
    assert [s["command"] for s in here("mcp", "list").body["servers"]] == ["first"]
    here.refused("invalid_arguments", "mcp", "tier", "git", "t", "plan")  # not a choice


def test_options_after_the_separator_are_the_servers_own(here: CliRunner, home: Path) -> None:
    added = here.text("mcp", "add", "x", "--", "cmd", "--json", "--home", "/elsewhere")
    assert added.code == 0 and added.stdout.startswith("MCP server x registered")  # not JSON
    [server] = here("mcp", "list").body["servers"]  # in this home: --home was the server's
    assert server["args"] == ["--json", "--home", "/elsewhere"]


def test_the_model_name_splits_back_only_at_its_one_separator() -> None:
    assert model_name("my-git", "git_log") == "mcp__my-git__git_log"
    assert split_model_name("mcp__my-git__git_log") == ("my-git", "git_log")
    assert split_model_name("mcp__a_b__c__d") == ("a_b", "c__d")
    assert split_model_name("save_brief") is None
    assert model_name("git", "x" * 60) is None  # past 64 characters: left out, never renamed


def test_text_output_lists_servers_and_tools(here: CliRunner) -> None:
    here("mcp", "add", "time", "--trust-hints", "--", python_server("mcp-server-time"))
    listed = here.text("mcp", "list").stdout
    assert "time" in listed and "configured" in listed and "mcp-server-time" in listed
    tools = here.text("mcp", "tools", "time").stdout
    assert "mcp__time__get_current_time" in tools and "readOnlyHint=true" in tools


# -- real servers: what `mcp tools` shows ------------------------------------------------------


@pytest.mark.slow
def test_mcp_server_time_tiers_follow_trusted_hints_and_overrides(cli: CliRunner) -> None:
    command = python_server("mcp-server-time")
    cli("mcp", "add", "time", "--trust-hints", "--", command, "--local-timezone", "UTC")
    cli("mcp", "add", "untrusted", "--", command)
    trusted = tools_by_name(cli, "time")
    assert set(trusted) == {"get_current_time", "convert_time"}
    now = trusted["get_current_time"]
    assert now["model_name"] == "mcp__time__get_current_time"
    assert now["tier"] == "read"
    assert now["annotations"]["readOnlyHint"] is True
    schema = now["input_schema"]
    assert schema["additionalProperties"] is False and "$schema" not in schema
    assert schema["required"] == ["timezone"]
    # The same tools, hints not trusted: write; an override wins either way.
    assert {t["tier"] for t in tools_by_name(cli, "untrusted").values()} == {"write"}
    cli("mcp", "tier", "untrusted", "convert_time", "read")
    cli("mcp", "tier", "time", "get_current_time", "network")
    assert tools_by_name(cli, "untrusted")["convert_time"]["tier"] == "read"
    assert tools_by_name(cli, "time")["get_current_time"]["tier"] == "network"


@pytest.mark.slow
def test_mcp_server_git_marks_reads_and_the_destructive_reset(
    cli: CliRunner, tmp_path: Path
) -> None:
    cli("mcp", "add", "git", "--trust-hints", "--", python_server("mcp-server-git"))
    tools = tools_by_name(cli, "git")
    for read in ("git_status", "git_log", "git_diff", "git_show"):
        assert tools[read]["tier"] == "read", read
        assert tools[read]["annotations"]["idempotentHint"] is True
    assert tools["git_commit"]["tier"] == "write"
    assert tools["git_commit"]["annotations"]["readOnlyHint"] is False
    assert tools["git_reset"]["annotations"]["destructiveHint"] is True
    assert tools["git_reset"]["tier"] == "write"


@pytest.mark.slow
def test_server_filesystem_from_npm_lists_its_reads_and_destructive_writes(
    cli: CliRunner, tmp_path: Path
) -> None:
    root = tmp_path / "shared"
    root.mkdir()
    cli("mcp", "add", "fs", "--trust-hints", "--", filesystem_server_bin(), str(root))
    tools = tools_by_name(cli, "fs")
    for read in ("read_file", "list_directory", "search_files"):
        assert (tools[read]["tier"], tools[read]["annotations"]["readOnlyHint"]) == ("read", True)
    write = tools["write_file"]
    assert write["tier"] == "write"
    assert write["annotations"]["destructiveHint"] is True
    assert write["annotations"]["idempotentHint"] is True
    assert set(write["input_schema"]["properties"]) >= {"path", "content"}
    for destructive in ("edit_file", "move_file"):
        assert tools[destructive]["tier"] == "write"
        assert tools[destructive]["annotations"]["destructiveHint"] is True
    assert all("$schema" not in t["input_schema"] for t in tools.values())
    assert all(t["input_schema"]["additionalProperties"] is False for t in tools.values())


def test_a_server_that_cannot_start_is_unavailable_with_no_traceback(cli: CliRunner) -> None:
    cli("mcp", "add", "gone", "--", "/nonexistent/briefdesk-no-such-server")
    cli(
        "mcp",
        "add",
        "crash",
        "--env",
        "FAULT=crash_at_start",
        "--",
        sys.executable,
        str(FAULT_SERVER),
    )
    assert "not found" in cli.refused("mcp_server_unavailable", "mcp", "tools", "gone")
    message = cli.refused("mcp_server_unavailable", "mcp", "tools", "crash")
    assert "exited" in message and "crashing at start" in message
    text = cli.text("mcp", "tools", "crash")
    assert text.code == 2 and "Traceback" not in text.stdout + text.stderr
    assert "error [mcp_server_unavailable]" in text.stdout
