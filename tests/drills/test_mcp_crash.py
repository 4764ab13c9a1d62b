"""Crash safety of MCP calls (contract, crash point `after_mcp_call_before_confirm`): real
`briefdesk-cli` processes killed with SIGKILL, resumed from fresh ones.

The write is the fault server's `append_line` (neither read-only nor idempotent: one line per
execution, counted in the file it appends to), so a call run twice shows as a line twice. A
call whose outcome is unknown is never run again on its own: the person is asked, and says
"run it again" (approve), "it did happen" (`approvals resolve --done`) or "reject".
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.drills.drill_support import KILLED_BY_SIGKILL
from tests.support.cli import CliRunner, cli_command, cli_env, db_rows
from tests.support.mcp_servers.real import FAULT_SERVER, filesystem_server_bin

pytestmark = pytest.mark.slow
CRASH = {"BRIEFDESK_CRASH_AT": "after_mcp_call_before_confirm"}


@pytest.fixture
def cli(home: Path, capsys: pytest.CaptureFixture[str]) -> CliRunner:
    """In this process (one SDK import for the file); only a command that must die runs as
    its own process (`killed`)."""
    return CliRunner(home, capsys)


def killed(cli: CliRunner, *args: str) -> None:
    """`briefdesk-cli ARGS` in a process of its own that SIGKILLs itself at the crash point."""
    done = CliRunner(cli.home)(*args, env=CRASH)
    assert done.code == KILLED_BY_SIGKILL, (done.code, done.stdout, done.stderr)


def appending_run(
    cli: CliRunner,
    tmp_path: Path,
    out: Path,
    lines: list[str],
    *extra: str,
    env: dict[str, str] | None = None,
) -> str:
    # The server writes `out`: its folder is granted (the sandbox writes nowhere else).
    code, body = cli(
        "mcp", "add", "faults", "--root", str(out.parent), "--", sys.executable, str(FAULT_SERVER)
    )
    assert code == 0, body
    turns = [
        {"call": "mcp__faults__append_line", "args": {"path": str(out), "line": line}}
        for line in lines
    ]
    script = tmp_path / "append.json"
    script.write_text(json.dumps([*turns, {"say": "done"}]), encoding="utf-8")
    command = ("run", "--question", "append", "--model", f"scripted:{script}", *extra)
    if env is not None:  # killed at its crash point: the run is the home's only one
        killed(cli, *command)
        return str(cli("runs", check=True).body["runs"][0]["run_id"])
    done = cli(*command)
    assert done.code == 0, done.body
    return str(done.body["run_id"])


def lines_in(out: Path) -> list[str]:
    return out.read_text(encoding="utf-8").splitlines() if out.exists() else []


def only_pending(cli: CliRunner, run_id: str) -> dict[str, Any]:
    code, body = cli("approvals", "list", "--status", "pending", "--run", run_id)
    assert code == 0, body
    [proposal] = body["approvals"]
    return dict(proposal)


def approve(cli: CliRunner, approval_id: str) -> None:
    code, body = cli("approvals", "approve", approval_id, "--reviewer", "ana")
    assert code == 0, body


def killed_after_the_call(cli: CliRunner, tmp_path: Path, out: Path) -> tuple[str, dict[str, Any]]:
    """A run whose one append was approved, ran, and was cut before its record; resumed, it
    asks the person again. Returns the run and that question."""
    run_id = appending_run(cli, tmp_path, out, ["one"])
    approve(cli, only_pending(cli, run_id)["id"])
    killed(cli, "resume", run_id)
    assert lines_in(out) == ["one"]  # the server did it; the ledger does not know
    code, body = cli("resume", run_id)
    assert code == 0 and body["status"] == "waiting_approval", body
    assert lines_in(out) == ["one"]  # not run again on its own
    question = only_pending(cli, run_id)
    assert question["version"] == 2 and question["reason"].startswith("outcome unknown")
    return run_id, question


def test_it_did_happen_records_the_call_without_running_it_again(
    cli: CliRunner, tmp_path: Path
) -> None:
    out = tmp_path / "lines.txt"
    run_id, question = killed_after_the_call(cli, tmp_path, out)
    code, body = cli("approvals", "resolve", question["id"], "--reviewer", "ana", "--done")
    assert code == 0 and body["approval"]["status"] == "consumed", body
    code, body = cli("resume", run_id)
    assert code == 0 and body["status"] == "succeeded", body
    assert lines_in(out) == ["one"]
    [(status, result)] = db_rows(cli.home, "SELECT status, result_json FROM ledger")
    assert status == "confirmed" and json.loads(result)["resolved_by"] == "ana"


def test_run_it_again_runs_it_once_more_on_the_persons_word(cli: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "lines.txt"
    run_id, question = killed_after_the_call(cli, tmp_path, out)
    approve(cli, question["id"])
    code, body = cli("resume", run_id)
    assert code == 0 and body["status"] == "succeeded", body
    assert lines_in(out) == ["one", "one"]  # twice: once on its own, once when asked


def test_reject_records_it_as_not_done(cli: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "lines.txt"
    run_id, question = killed_after_the_call(cli, tmp_path, out)
    code, body = cli("approvals", "reject", question["id"], "--reviewer", "ana")
    assert code == 0, body
    code, body = cli("resume", run_id)
    assert code == 0 and body["status"] == "cancelled", body
    assert lines_in(out) == ["one"]
    assert db_rows(cli.home, "SELECT status FROM ledger") == [("failed",)]


def test_resolve_refuses_a_proposal_whose_call_never_started(
    cli: CliRunner, tmp_path: Path
) -> None:
    run_id = appending_run(cli, tmp_path, tmp_path / "lines.txt", ["one"])
    proposal = only_pending(cli, run_id)
    code, body = cli("approvals", "resolve", proposal["id"], "--reviewer", "ana", "--done")
    assert code == 2 and body["error"]["code"] == "invalid_arguments", body


def test_a_trusted_idempotent_write_is_simply_run_again(cli: CliRunner, tmp_path: Path) -> None:
    root = tmp_path / "shared"
    root.mkdir()
    note = root / "note.txt"
    code, body = cli("mcp", "add", "fs", "--trust-hints", "--", filesystem_server_bin(), str(root))
    assert code == 0, body
    call = {"path": str(note), "content": "written\n"}
    script = tmp_path / "write.json"
    script.write_text(json.dumps([{"call": "mcp__fs__write_file", "args": call}, {"say": "ok"}]))
    code, body = cli("run", "--question", "write", "--model", f"scripted:{script}")
    approve(cli, only_pending(cli, body["run_id"])["id"])
    killed(cli, "resume", body["run_id"])
    code, body = cli("resume", body["run_id"])  # write_file says idempotentHint: no question
    assert code == 0 and body["status"] == "succeeded", body
    assert note.read_text(encoding="utf-8") == "written\n"


def test_a_write_past_its_timeout_asks_the_person(cli: CliRunner, tmp_path: Path) -> None:
    code, body = cli("settings", "set", "mcp.call_timeout", "1")
    assert code == 0, body
    code, body = cli("mcp", "add", "faults", "--", sys.executable, str(FAULT_SERVER))
    script = tmp_path / "slow.json"
    script.write_text(json.dumps([{"call": "mcp__faults__slow", "args": {"seconds": 30}}]))
    code, body = cli("run", "--question", "slow", "--model", f"scripted:{script}")
    run_id = body["run_id"]
    approve(cli, only_pending(cli, run_id)["id"])
    code, body = cli("resume", run_id, timeout=60)
    assert code == 0 and body["status"] == "waiting_approval", body
    question = only_pending(cli, run_id)
    assert question["version"] == 2 and "unknown" in question["reason"]
    code, timeline = cli("timeline", run_id)
    unknown = [e for e in timeline["events"] if e["kind"] == "outcome_unknown"]
    assert [e["data"]["code"] for e in unknown] == ["tool_timeout"]


def test_crash_sweep_over_mcp_writes_runs_no_call_twice_without_a_persons_word(
    cli: CliRunner, tmp_path: Path
) -> None:
    """Random SIGKILLs (and kills at the new crash point) across a run of appends decided by
    policy; after each kill the run is resumed, and a person answers every "did it happen?"
    by looking at the file. Every line is there exactly once."""
    out = tmp_path / "lines.txt"
    wanted = [f"line-{n}" for n in range(4)]
    run_id = appending_run(
        cli, tmp_path, out, wanted, "--mode", "dangerouslySkipPermissions", env=CRASH
    )
    rng = random.Random(28)
    kills = 1

    def answer_and_check_done() -> bool:
        asked = cli("approvals", "list", "--status", "pending", "--run", run_id, check=True)
        for question in asked.body["approvals"]:  # none: approved, its resume was killed
            if question["args"]["line"] in lines_in(out):  # the person sees it happened
                cli("approvals", "resolve", question["id"], "--reviewer", "ana", "--done",
                    check=True)  # fmt: skip
            else:
                approve(cli, question["id"])
        return bool(cli("runs", check=True).body["runs"][0]["status"] == "succeeded")

    for attempt in range(8):
        if answer_and_check_done():
            break
        if attempt in (1, 4):  # it may stop first at a question nobody has answered yet
            crashed = CliRunner(cli.home)("resume", run_id, env=CRASH)
            kills += crashed.code == KILLED_BY_SIGKILL
            continue
        proc = subprocess.Popen(
            cli_command("--home", str(cli.home), "--json", "resume", run_id),
            env=cli_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + rng.uniform(0.8, 3.0)
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # a kill at a random moment of the resume
        if proc.poll() is None:
            proc.kill()
            kills += 1
        proc.wait()
    for _ in range(10):  # then no more kills: the run finishes
        if answer_and_check_done():
            break
        cli("resume", run_id)
    assert cli("runs", check=True).body["runs"][0]["status"] == "succeeded"
    assert kills >= 3
    assert sorted(lines_in(out)) == sorted(wanted)  # each exactly once


def test_a_server_that_dies_mid_call_asks_for_a_write_and_refuses_a_read(
    cli: CliRunner, tmp_path: Path
) -> None:
    code, body = cli("mcp", "add", "faults", "--", sys.executable, str(FAULT_SERVER))
    assert code == 0, body
    script = tmp_path / "die.json"
    script.write_text(json.dumps([{"call": "mcp__faults__die", "args": {}}, {"say": "went on"}]))
    code, body = cli("run", "--question", "die", "--model", f"scripted:{script}")
    run_id = body["run_id"]
    approve(cli, only_pending(cli, run_id)["id"])
    code, body = cli("resume", run_id)  # a write: it may have happened, the person is asked
    assert code == 0 and body["status"] == "waiting_approval", body
    assert only_pending(cli, run_id)["version"] == 2

    assert cli("mcp", "tier", "faults", "die", "read").code == 0  # a read: simply refused
    code, body = cli("run", "--question", "die", "--model", f"scripted:{script}")
    assert code == 0 and body["status"] == "succeeded", body  # the run went on
    code, timeline = cli("timeline", body["run_id"])
    [blocked] = [e for e in timeline["events"] if e["kind"] == "blocked"]
    assert blocked["data"]["code"] == "mcp_server_unavailable", blocked
