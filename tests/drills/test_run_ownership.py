"""A run's owner (host, pid, process start time): a live owner keeps the run (`run_in_progress`),
a dead one is seen at once (`interrupted`) and `resume` takes over; two resumes never both drive."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_core.facade.workspace import Workspace
from agent_core.models.offline import slug
from agent_core.runs import lifecycle
from agent_core.storage.owner import Owner
from tests.drills.drill_support import (
    CLAIMER,
    DEMO_QUESTION,
    double_execution_problems,
    turn_problems,
)
from tests.support.cli import REPO_ROOT, CliRunner, cli_env

pytestmark = pytest.mark.slow


# Imports the CLI and the Agents SDK first, then waits for the start line, so two racers reach
# `resume` within milliseconds of each other instead of seconds of import apart.
RACER = """
import sys
from agent_core.cli import main as cli  # noqa: F401
import agent_core.runs.driver  # noqa: F401  (the SDK import happens before the start line)
print("ready", flush=True)
sys.stdin.readline()
sys.exit(cli.main(sys.argv[1:]))
"""


def _spawn(code: str, *args: str, stdin: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        cwd=REPO_ROOT,
    )


def _wait_for(proc: subprocess.Popen[str], line: str) -> None:
    assert proc.stdout is not None
    got = proc.stdout.readline().strip()
    if got != line:
        proc.kill()
        raise AssertionError(f"expected {line!r}, got {got!r}: {proc.communicate(timeout=30)[1]}")


def _kill(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL


def _status(cli: CliRunner, run_id: str) -> str:
    (run,) = [r for r in cli("runs", check=True).body["runs"] if r["run_id"] == run_id]
    return str(run["status"])


def test_live_owner_answers_run_in_progress_and_dead_owner_is_taken_over(
    cli: CliRunner, ws: Workspace, home: Path
) -> None:
    run_id = ws.create_run(DEMO_QUESTION)
    owner = _spawn(CLAIMER, str(home), run_id)
    try:
        _wait_for(owner, "claimed")
        assert _status(cli, run_id) == "running"
        events_before = ws.timeline(run_id)

        refused = cli("resume", run_id)
        assert refused.code != 0
        assert refused.body["error"]["code"] == "run_in_progress", refused.body
        assert str(owner.pid) in refused.body["error"]["message"]
        assert ws.timeline(run_id) == events_before  # the refusal changed nothing
        assert _status(cli, run_id) == "running"
        # A driver that stopped must not hand back a run another process owns by now.
        with ws.store.write() as conn:
            assert not lifecycle.release(conn, run_id, Owner.current())
        assert _status(cli, run_id) == "running"
    finally:
        _kill(owner)

    assert _status(cli, run_id) == "interrupted"  # right after the kill, no timeout involved
    resumed = cli("resume", run_id)
    assert resumed.code == 0, resumed.stdout + resumed.stderr
    assert resumed.body["status"] == "waiting_approval"
    ends = [e for e in ws.timeline(run_id) if e["kind"].startswith("run_")]
    assert [e["kind"] for e in ends] == ["run_started", "run_interrupted", "run_resumed"]
    assert ends[1]["data"]["previous_owner_pid"] == owner.pid
    # The dead owner died before any checkpoint: the run started again from its question.
    assert (
        resumed.body["approvals"][0]["args"]["relative_path"] == f"briefs/{slug(DEMO_QUESTION)}.md"
    )
    assert ws.run_state(run_id).sources_found


def test_two_resumes_of_an_interrupted_run_never_both_drive(
    cli: CliRunner, ws: Workspace, home: Path
) -> None:
    waiting = ws.start_run(DEMO_QUESTION)
    run_id, approval = waiting["run_id"], waiting["approvals"][0]
    ws.approve(approval["id"], reviewer="drill")
    dead = _spawn(CLAIMER, str(home), run_id)
    _wait_for(dead, "claimed")
    _kill(dead)
    assert _status(cli, run_id) == "interrupted"
    last_seq = ws.timeline(run_id)[-1]["seq"]

    racers = [
        _spawn(RACER, "--home", str(home), "--json", "resume", run_id, stdin=subprocess.PIPE)
        for _ in range(2)
    ]
    for racer in racers:
        _wait_for(racer, "ready")
    for racer in racers:
        assert racer.stdin is not None
        racer.stdin.write("go\n")
        racer.stdin.flush()
    answers: list[tuple[int, dict[str, Any]]] = []
    for racer in racers:
        out, err = racer.communicate(timeout=120)
        assert out.strip(), err
        answers.append((racer.returncode, json.loads(out.strip().splitlines()[-1])))

    after = ws.timeline(run_id, since=last_seq)
    assert [e["kind"] for e in after if e["kind"].startswith("run_")] == [
        "run_interrupted",
        "run_resumed",
        "run_finished",
    ], "more than one process drove the run"
    winners = [body for code, body in answers if code == 0 and body.get("status") == "succeeded"]
    refused = [
        body
        for code, body in answers
        if code != 0 and body.get("error", {}).get("code") == "run_in_progress"
    ]
    assert len(winners) + len(refused) == 2 and len(winners) >= 1, answers
    events = ws.timeline(run_id)
    assert double_execution_problems(events) == [] and turn_problems(events) == []
    saves = [e for e in events if e["kind"] == "tool_result" and e["tool"] == "save_brief"]
    assert [e["data"]["executed"] for e in saves].count(True) == 1
    brief = Path(str(approval["target"]))
    assert brief.read_text(encoding="utf-8") == approval["args"]["content"]
    print(f"\nrace outcome: {len(refused)} run_in_progress, {len(winners)} saw the run succeed")
