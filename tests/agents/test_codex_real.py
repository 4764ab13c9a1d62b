"""Codex asks BriefDesk (issue 42, "Done when", for Codex).

The real `codex exec` from npm runs headless against a fake Responses endpoint on 127.0.0.1
(tests/support/fake_responses.py, the only fake: the remote model), with BriefDesk's hook
`briefdesk-cli --home H hook codex` for PreToolUse, PermissionRequest, PostToolUse and Stop.
One session walks through a shell read (Codex reads through its shell, so it waits like any
command), a patch approved with a person's edit, a rejected patch and an undecided one;
everything is checked from outside: the files, the home through `briefdesk-cli`, and what the
model received in the endpoint's recorded requests.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli import CliRunner
from tests.support.codex_session import CodexSession
from tests.support.fake_responses import CallTool, Step

AGENT = "codex"
REVIEWER = "alice"
REJECTION = "Not this file: the notes stay in notes.txt"


def briefdesk_hook(home: Path) -> list[str]:
    """This venv's console script, as a person's installed `briefdesk-cli` is called."""
    return [
        str(Path(sys.executable).with_name("briefdesk-cli")),
        "--home",
        str(home),
        "hook",
        AGENT,
    ]


def waiting_for(cli: CliRunner, target: str) -> str:
    """The id of the inbox's approval for `target`; empty until it is there."""
    for item in cli("inbox", check=True).body["inbox"]:
        if item["kind"] == "approval" and item["target"] == target:
            return str(item["id"])
    return ""


def patch(*lines: str) -> str:
    return "\n".join(["*** Begin Patch", *lines, "*** End Patch", ""])


def test_codex_runs_only_what_a_person_approved(
    tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = CliRunner(home, capsys)
    cli("settings", "get", check=True)  # the home exists before the agent's first call
    codex = CodexSession(tmp_path / "codex", hook=briefdesk_hook(home))
    notes = codex.cwd / "notes.txt"
    rejected, late = codex.cwd / "rejected.txt", codex.cwd / "late.txt"
    notes.write_text("alpha\nbeta\n", encoding="utf-8")
    proposed = patch("*** Update File: notes.txt", "@@", " alpha", "-beta", "+gamma")
    steps: list[Step] = [
        CallTool("exec_command", {"cmd": "cat notes.txt"}),  # turn 1: a read, through the shell
        CallTool("apply_patch", text=proposed),  # turn 2: approved with a person's edit
        CallTool("apply_patch", text=patch("*** Add File: rejected.txt", "+unwanted")),
        CallTool("apply_patch", text=patch("*** Add File: late.txt", "+nobody decides")),
    ]
    session, fake = codex.start(steps)
    with session:
        late_turn = fake.hold(4)

        shell_id = session.while_running(lambda: waiting_for(cli, f"shell:{codex.cwd}"))
        shown = cli("approvals", "show", shell_id, check=True).body["approval"]
        assert (shown["tool"], shown["args"]) == ("Bash", {"command": "cat notes.txt"})
        cli("approvals", "approve", shell_id, "--reviewer", REVIEWER, check=True)

        patch_id = session.while_running(lambda: waiting_for(cli, str(notes)))
        proposal_seen = time.monotonic()
        assert "alpha\nbeta" in fake.tool_outputs()["call_0"]  # the approved read ran
        detail = cli("approvals", "show", patch_id, check=True).body
        assert detail["approval"]["tool"] == "apply_patch"
        assert detail["approval"]["args"] == {"command": proposed}  # as the agent sent it
        assert detail["approval"]["base_hash"]
        assert "-beta\n+gamma\n" in detail["diff"]
        assert notes.read_text(encoding="utf-8") == "alpha\nbeta\n"  # waiting: untouched
        edited = json.dumps({"command": proposed.replace("+gamma", "+delta")})
        edit = ("approvals", "edit", patch_id, "--reviewer", REVIEWER, "--args", edited)
        revised = cli(*edit, check=True).body["approval"]
        cli("approvals", "approve", revised["id"], "--reviewer", REVIEWER, check=True)

        rejected_id = session.while_running(lambda: waiting_for(cli, str(rejected)))
        assert notes.read_text(encoding="utf-8") == "alpha\ndelta\n"  # the edited patch ran
        reject = ("approvals", "reject", rejected_id, "--reviewer", REVIEWER, "--reason", REJECTION)
        cli(*reject, check=True)
        session.while_running(lambda: fake.arrived_at(4))
        assert REJECTION in fake.tool_outputs()["call_2"]  # the reason reached the model
        cli("settings", "set", "agents.decision_timeout", "2", check=True)
        late_turn.set()
        result = session.wait()

    served = fake.served_at(2)
    assert served is not None
    with capsys.disabled():
        print(
            f"\ncodex: hook call -> proposal in the inbox: {proposal_seen - served:.2f} s (bound)"
        )
    assert result.exit_code == 0, result.stderr
    assert "no decision in time" in fake.tool_outputs()["call_3"]
    assert not rejected.exists() and not late.exists()
    assert notes.read_text(encoding="utf-8") == "alpha\ndelta\n"

    session_id = re.search(r"session id: (\S+)", result.stderr + result.stdout)
    assert session_id is not None
    runs = [r for r in cli("runs", check=True).body["runs"] if r["agent"] == AGENT]
    assert [(r["session_id"], r["cwd"]) for r in runs] == [(session_id[1], str(codex.cwd))]
    events = cli("timeline", runs[0]["run_id"], check=True).body["events"]
    executed = [e for e in events if e["kind"] == "tool_result" and e["data"].get("executed")]
    assert sorted(e["tool"] for e in executed) == ["Bash", "apply_patch"]  # each ran once
    confirmed = [e["data"]["path"] for e in events if e["kind"] == "artifact_confirmed"]
    assert confirmed == [str(notes)]
