"""A colleague's Claude Code write decided from another desk (issue 42 item 3, team mode).

Desk A's home names the team's PostgreSQL database (`db.url`), so desk A's hook process
(`briefdesk-cli hook claude-code`, a real subprocess fed Claude Code's payload) proposes on
that database; desk B decides through its own `briefdesk-cli`. The runs, proposals and events
of an agent session live in tables migration 0017 changed: this runs them on PostgreSQL.
A file on desk A that changes before desk B approves (B cannot check A's file) is caught by
A's hook when it wakes: nothing is let through, and a new proposal shows the file as it is.
"""

from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

from tests.support.cli import cli_command, cli_env
from tests.support.waiting import wait_until
from tests.team.conftest import Desk

REVIEWER = "bob"


def pending_on(desk: Desk, tool: str) -> str:
    """The id of the team's newest pending proposal of `tool`, as `desk` lists it."""
    listed = desk("approvals", "list", "--status", "pending", check=True).body["approvals"]
    found = [a for a in listed if a["tool"] == tool]
    return str(found[-1]["id"]) if found else ""


def test_a_hook_on_one_desk_waits_for_a_person_on_another(
    two_desks: tuple[Desk, Desk], tmp_path: Path
) -> None:
    desk_a, desk_b = two_desks
    project = tmp_path / "project"
    project.mkdir()
    notes = project / "notes.txt"
    notes.write_text("alpha\n", encoding="utf-8")
    payload = {
        "session_id": str(uuid.uuid4()),
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(notes), "content": "written by claude\n"},
        "tool_use_id": "toolu_team_1",
    }
    hook = subprocess.Popen(
        cli_command("--home", str(desk_a.home), "hook", "claude-code"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**cli_env(), **desk_a.env},
    )
    assert hook.stdin is not None
    hook.stdin.write(json.dumps(payload))
    hook.stdin.close()
    hook.stdin = None

    first = wait_until(lambda: pending_on(desk_b, "Write"), message="no proposal on the team db")
    shown = desk_b("approvals", "show", first, check=True).body
    assert shown["approval"]["desk"] == "desk-a" and "+written by claude" in shown["diff"]
    notes.write_text("alpha\nchanged on desk A\n", encoding="utf-8")
    desk_b("approvals", "approve", first, "--reviewer", REVIEWER, check=True)

    again = wait_until(lambda: pending_on(desk_b, "Write"), message="not proposed again")
    assert again != first and hook.poll() is None  # A's hook let nothing through: it waits
    assert "target_changed" in str(desk_b("approvals", "show", again, check=True).body["approval"])
    desk_b("approvals", "approve", again, "--reviewer", REVIEWER, check=True)
    stdout, stderr = hook.communicate(timeout=60)
    assert hook.returncode == 0 and "Traceback" not in stderr, stderr
    decision = json.loads(stdout)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "allow"
    assert REVIEWER in decision["permissionDecisionReason"]

    runs = desk_b("runs", check=True).body["runs"]
    (run,) = [r for r in runs if r["agent"] == "claude-code"]
    assert run["session_id"] == payload["session_id"] and run["cwd"] == str(project)
    assert run["desk"] == "desk-a" and run["status"] == "running"
