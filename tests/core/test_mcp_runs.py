"""MCP tools inside a run (contract, "MCP servers"): offered to the scripted model, governed by
the same gate, approvals and ledger as BriefDesk's own tools, on real servers.

mcp-server-time (PyPI) for a trusted read, mcp-server-git (PyPI) for a write whose effect is a
commit, @modelcontextprotocol/server-filesystem (npm) for a whole-file write with a diff, and
the tests' own fault server for a countable write (`append_line`) and a server that cannot
start. Effects are read from the outside: `git log`, the file, the database rows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.support.cli import CliRunner, db_rows
from tests.support.mcp_servers.processes import descendants_running
from tests.support.mcp_servers.real import FAULT_SERVER, filesystem_server_bin, python_server
from tests.support.waiting import wait_until


@pytest.fixture
def cli(home: Path, capsys: pytest.CaptureFixture[str]) -> CliRunner:
    return CliRunner(home, capsys)


def script(tmp_path: Path, *turns: dict[str, Any]) -> str:
    path = tmp_path / f"script-{len(list(tmp_path.glob('script-*')))}.json"
    path.write_text(json.dumps([*turns, {"say": "done"}]), encoding="utf-8")
    return f"scripted:{path}"


def run(cli: CliRunner, model: str, *extra: str, env_key: str | None = None) -> dict[str, Any]:
    env = None if env_key is None else {"BRIEFDESK_OPENAI_API_KEY": env_key}
    code, body = cli("run", "--question", "use the tool", "--model", model, *extra, env=env)
    assert code == 0, body
    return dict(body)


def events(cli: CliRunner, run_id: str, kind: str) -> list[dict[str, Any]]:
    code, body = cli("timeline", run_id)
    assert code == 0, body
    return [e for e in body["events"] if e["kind"] == kind]


def pending(cli: CliRunner, run_id: str) -> list[dict[str, Any]]:
    code, body = cli("approvals", "list", "--status", "pending", "--run", run_id)
    assert code == 0, body
    return list(body["approvals"])


def add_fault_server(cli: CliRunner, name: str = "faults", *flags: str) -> None:
    code, body = cli("mcp", "add", name, *flags, "--", sys.executable, str(FAULT_SERVER))
    assert code == 0, body


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "t@example.org")
    git(repo, "config", "user.name", "Test")
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "first")
    (repo / "b.txt").write_text("b\n", encoding="utf-8")
    git(repo, "add", "b.txt")  # staged: git_commit has something to commit
    return repo


def commits(repo: Path) -> int:
    return len(git(repo, "log", "--oneline").splitlines())


def test_a_trusted_read_runs_without_asking_and_the_timeline_names_its_server(
    cli: CliRunner, tmp_path: Path
) -> None:
    code, body = cli("mcp", "add", "time", "--trust-hints", "--", python_server("mcp-server-time"))
    assert code == 0, body
    model = script(tmp_path, {"call": "mcp__time__get_current_time", "args": {"timezone": "UTC"}})
    finished = run(cli, model)
    assert finished["status"] == "succeeded", finished
    called = events(cli, finished["run_id"], "tool_called")
    assert [(e["tool"], e["data"]["server"]) for e in called] == [
        ("mcp__time__get_current_time", "time")
    ]
    result = events(cli, finished["run_id"], "tool_result")[0]
    assert result["data"]["executed"] is True and result["data"]["outcome"] == "success"
    # What the run offered is recorded: another process builds the same spec from it.
    offered = db_rows(cli.home, "SELECT model_name, tier FROM run_mcp_tools WHERE run_id = ?",
                      finished["run_id"])  # fmt: skip
    assert ("mcp__time__get_current_time", "read") in offered


def test_the_offline_model_keeps_its_six_tools_and_starts_no_server(
    cli: CliRunner, tmp_path: Path
) -> None:
    marker = tmp_path / "started"
    code, body = cli(
        "mcp", "add", "faults", "--env", f"MARKER={marker}", "--",
        sys.executable, str(FAULT_SERVER),
    )  # fmt: skip
    assert code == 0, body
    finished = run(cli, "offline", "--mode", "dangerouslySkipPermissions")
    assert db_rows(cli.home, "SELECT * FROM run_mcp_tools") == []
    tools = {e["tool"] for e in events(cli, finished["run_id"], "tool_called")}
    assert tools and not any(t.startswith("mcp__") for t in tools)


def test_a_git_commit_asks_a_person_even_in_accept_edits_and_commits_once(
    cli: CliRunner, tmp_path: Path, repo: Path
) -> None:
    code, body = cli(
        "mcp", "add", "git", "--root", str(repo), "--", python_server("mcp-server-git")
    )
    assert code == 0, body
    call = {"repo_path": str(repo), "message": "from the agent"}
    model = script(tmp_path, {"call": "mcp__git__git_commit", "args": call})
    waiting = run(cli, model, "--mode", "acceptEdits")
    assert waiting["status"] == "waiting_approval", waiting
    [proposal] = pending(cli, waiting["run_id"])
    assert proposal["tool"] == "mcp__git__git_commit"
    assert proposal["target"] == "mcp:git"
    assert proposal["args"] == call
    assert commits(repo) == 1  # nothing ran before the person's word
    code, body = cli("approvals", "approve", proposal["id"], "--reviewer", "ana")
    assert code == 0, body
    code, body = cli("resume", waiting["run_id"])
    assert code == 0 and body["status"] == "succeeded", body
    assert commits(repo) == 2
    assert "from the agent" in git(repo, "log", "-1", "--format=%s")
    code, body = cli("resume", waiting["run_id"])  # an ended run: nothing runs again
    assert commits(repo) == 2


def test_an_undeclared_argument_is_refused_before_anyone_is_asked(
    cli: CliRunner, tmp_path: Path, repo: Path
) -> None:
    code, body = cli("mcp", "add", "git", "--", python_server("mcp-server-git"))
    assert code == 0, body
    call = {"repo_path": str(repo), "message": "m", "evil": 1}
    finished = run(cli, script(tmp_path, {"call": "mcp__git__git_commit", "args": call}))
    assert finished["status"] == "succeeded", finished
    [blocked] = events(cli, finished["run_id"], "blocked")
    assert blocked["data"]["code"] == "invalid_arguments"
    assert "undeclared argument(s) 'evil'" in blocked["data"]["message"]
    assert pending(cli, finished["run_id"]) == [] and commits(repo) == 1


def test_a_whole_file_write_shows_its_diff_binds_the_base_and_writes_once(
    cli: CliRunner, tmp_path: Path
) -> None:
    root = tmp_path / "shared"
    root.mkdir()
    note = root / "note.txt"
    note.write_text("old line\n", encoding="utf-8")
    code, body = cli("mcp", "add", "fs", "--", filesystem_server_bin(), str(root))
    assert code == 0, body
    call = {"path": str(note), "content": "new line\n"}
    waiting = run(cli, script(tmp_path, {"call": "mcp__fs__write_file", "args": call}))
    [proposal] = pending(cli, waiting["run_id"])
    assert proposal["target"] == str(note)
    assert proposal["base_hash"] is not None
    code, shown = cli("approvals", "show", proposal["id"])
    assert code == 0, shown
    assert "-old line" in shown["diff"] and "+new line" in shown["diff"]
    note.write_text("changed meanwhile\n", encoding="utf-8")  # the diff no longer holds
    assert "changed" in cli.refused("target_changed", "approvals", "approve", proposal["id"],
                                    "--reviewer", "ana")  # fmt: skip
    note.write_text("old line\n", encoding="utf-8")
    code, body = cli("approvals", "approve", proposal["id"], "--reviewer", "ana")
    assert code == 0, body
    code, body = cli("resume", waiting["run_id"])
    assert code == 0 and body["status"] == "succeeded", body
    assert note.read_text(encoding="utf-8") == "new line\n"


def test_a_server_that_cannot_start_is_refused_as_unavailable_and_the_run_goes_on(
    cli: CliRunner, tmp_path: Path
) -> None:
    code, body = cli(
        "mcp", "add", "broken", "--env", "FAULT=crash_at_start", "--",
        sys.executable, str(FAULT_SERVER),
    )  # fmt: skip
    assert code == 0, body
    finished = run(cli, script(tmp_path, {"call": "mcp__broken__echo", "args": {"text": "x"}}))
    assert finished["status"] == "succeeded", finished
    [blocked] = events(cli, finished["run_id"], "blocked")
    assert blocked["data"]["code"] == "mcp_server_unavailable", blocked
    finished = run(cli, script(tmp_path, {"call": "mcp__nobody__echo", "args": {"text": "x"}}))
    [blocked] = events(cli, finished["run_id"], "blocked")
    assert blocked["data"]["code"] == "unknown_tool", blocked


def test_a_remembered_rule_approves_that_servers_tool_in_later_runs(
    cli: CliRunner, tmp_path: Path
) -> None:
    add_fault_server(cli, "faults", "--root", str(tmp_path))  # it writes lines.txt there
    out = tmp_path / "lines.txt"
    call = {"path": str(out), "line": "one"}
    model = script(tmp_path, {"call": "mcp__faults__append_line", "args": call})
    first = run(cli, model)
    [proposal] = pending(cli, first["run_id"])
    code, body = cli(
        "approvals", "approve", proposal["id"], "--reviewer", "ana", "--remember", "home"
    )
    assert code == 0, body
    code, rules = cli("rules", "list")
    assert [(r["tool"], r["folder"]) for r in rules["rules"]] == [
        ("mcp__faults__append_line", "mcp:faults/append_line")
    ]
    cli("resume", first["run_id"])
    second = run(cli, script(tmp_path, {"call": "mcp__faults__append_line",
                                        "args": {"path": str(out), "line": "two"}}))  # fmt: skip
    assert second["status"] == "succeeded", second
    assert out.read_text(encoding="utf-8").splitlines() == ["one", "two"]


def test_the_servers_a_run_started_are_stopped_with_it(cli: CliRunner, tmp_path: Path) -> None:
    """On an event loop that lives on after the run (as the window's does): the run itself
    stops its server; nothing that ends the loop does it for the run."""
    import asyncio

    from agent_core.facade.workspace import Workspace

    add_fault_server(cli, "faults", "--trust-hints")
    model = script(tmp_path, {"call": "mcp__faults__pid", "args": {}})
    ws = Workspace(cli.home)
    loop = asyncio.new_event_loop()
    try:
        finished = loop.run_until_complete(ws.drive_async(ws.create_run("which pid?", model=model)))
        assert finished["status"] == "succeeded", finished
        # stdin closed, then its process group killed; the loop still runs nothing of it (the
        # pid it reported is its own PID namespace's: it is looked for from outside)
        wait_until(
            lambda: not descendants_running(psutil.Process(), str(FAULT_SERVER)),
            timeout=15,
            message="the server is still running",
        )
    finally:
        loop.close()
        ws.close()


def test_a_remote_model_is_offered_the_mcp_tools_and_calls_one(
    cli: CliRunner, tmp_path: Path
) -> None:
    """Through a real HTTP endpoint speaking OpenAI's protocol: the request lists the MCP
    tool (with its own schema), the model calls it, and the result comes back to it."""
    from agent_core.models.planned import History, PlannedCall, TurnPlan
    from tests.support.fake_openai import FakeOpenAI

    def planner(history: History) -> TurnPlan:
        if not history.calls:
            return TurnPlan(calls=[PlannedCall("mcp__time__get_current_time", {"timezone": "UTC"})])
        return TurnPlan(say="the time is known")

    code, body = cli("mcp", "add", "time", "--trust-hints", "--", python_server("mcp-server-time"))
    assert code == 0, body
    with FakeOpenAI(planner=planner) as server:
        assert cli("settings", "set", "openai.base_url", server.base_url).code == 0
        finished = run(cli, "openai", env_key="sk-test-mcp")
        first, second = server.requests[0].json(), server.requests[1].json()
    assert finished["status"] == "succeeded", finished
    offered = {t["function"]["name"]: t["function"] for t in first["tools"]}
    assert "mcp__time__get_current_time" in offered and "search_corpus" in offered
    schema = offered["mcp__time__get_current_time"]["parameters"]
    assert schema["additionalProperties"] is False and "timezone" in schema["properties"]
    answered = [m for m in second["messages"] if m.get("role") == "tool"]
    assert answered and "UTC" in str(answered[0]["content"])


def test_an_edited_mcp_call_is_validated_against_its_schema_and_runs_as_edited(
    cli: CliRunner, tmp_path: Path
) -> None:
    add_fault_server(cli, "faults", "--root", str(tmp_path))  # it writes lines.txt there
    out = tmp_path / "lines.txt"
    waiting = run(cli, script(tmp_path, {"call": "mcp__faults__append_line",
                                         "args": {"path": str(out), "line": "model"}}))  # fmt: skip
    [proposal] = pending(cli, waiting["run_id"])
    bad = json.dumps({"path": str(out), "line": "x", "extra": True})
    message = cli.refused("invalid_arguments", "approvals", "edit", proposal["id"],
                          "--reviewer", "ana", "--args", bad)  # fmt: skip
    assert "undeclared argument(s) 'extra'" in message
    good = json.dumps({"path": str(out), "line": "edited"})
    code, edited = cli("approvals", "edit", proposal["id"], "--reviewer", "ana", "--args", good)
    assert code == 0, edited
    assert cli("approvals", "approve", edited["approval"]["id"], "--reviewer", "ana").code == 0
    code, body = cli("resume", waiting["run_id"])
    assert code == 0 and body["status"] == "succeeded", body
    assert out.read_text(encoding="utf-8").splitlines() == ["edited"]


def test_a_tool_that_changed_since_the_run_listed_it_is_not_called(
    cli: CliRunner, tmp_path: Path
) -> None:
    add_fault_server(cli)
    out = tmp_path / "lines.txt"
    waiting = run(cli, script(tmp_path, {"call": "mcp__faults__append_line",
                                         "args": {"path": str(out), "line": "x"}}))  # fmt: skip
    [proposal] = pending(cli, waiting["run_id"])
    assert cli("approvals", "approve", proposal["id"], "--reviewer", "ana").code == 0
    assert cli("mcp", "tier", "faults", "append_line", "read").code == 0  # not what was approved
    code, body = cli("resume", waiting["run_id"])
    assert code == 0 and body["status"] == "succeeded", body
    [blocked] = events(cli, waiting["run_id"], "blocked")
    assert blocked["data"]["code"] == "not_authorized", blocked
    assert not out.exists()
