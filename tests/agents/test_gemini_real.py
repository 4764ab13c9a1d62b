"""Gemini CLI asks BriefDesk (issue 42, "Done when", for Gemini CLI).

The real `gemini -p` from npm runs headless against a fake Gemini endpoint on 127.0.0.1
(tests/support/fake_gemini.py, the only fake: the remote model), with BriefDesk's hook
`briefdesk-cli --home H hook gemini` for BeforeTool, AfterTool and SessionEnd, in YOLO mode so
that only BriefDesk decides. One session walks through a read, a replace, a write approved with
a person's edit, a rejected write and an undecided one; everything is checked from outside: the
files, the home through `briefdesk-cli`, and what the model received.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from agent_core.contract.json_types import JsonObject
from tests.support.cli import CliRunner
from tests.support.fake_gemini import FakeGemini
from tests.support.fake_responses import CallTool, Step
from tests.support.gemini_session import GeminiSession

AGENT = "gemini"
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


def waiting_for(cli: CliRunner, target: Path) -> str:
    """The id of the inbox's approval for `target`; empty until it is there."""
    for item in cli("inbox", check=True).body["inbox"]:
        if item["kind"] == "approval" and item["target"] == str(target):
            return str(item["id"])
    return ""


def model_received(fake: FakeGemini, tool: str) -> list[str]:
    """What the model was sent back for each call of `tool`, in order."""
    return [json.dumps(r["response"]) for r in fake.tool_outputs() if r.get("name") == tool]


def test_gemini_reads_freely_and_writes_only_what_a_person_approved(
    tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = CliRunner(home, capsys)
    cli("settings", "get", check=True)  # the home exists before the agent's first call
    gemini = GeminiSession(tmp_path / "gemini", hook=briefdesk_hook(home))
    notes, approved, rejected, late = (
        gemini.cwd / name for name in ("notes.txt", "approved.txt", "rejected.txt", "late.txt")
    )
    notes.write_text("alpha\nbeta\n", encoding="utf-8")
    written: JsonObject = {"file_path": str(approved), "content": "as proposed\n"}
    replace: JsonObject = {
        "file_path": str(notes),
        "instruction": "Change beta to gamma.",
        "old_string": "beta",
        "new_string": "gamma",
    }
    steps: list[Step] = [
        CallTool("read_file", {"file_path": str(notes)}),  # turn 1: passes at once
        CallTool("replace", replace),  # turn 2: approved as proposed
        CallTool("write_file", written),  # turn 3: approved with a person's edit
        CallTool("write_file", {"file_path": str(rejected), "content": "unwanted\n"}),
        CallTool("write_file", {"file_path": str(late), "content": "nobody decides\n"}),
    ]
    session, fake = gemini.start(steps)
    with session:
        late_turn = fake.hold(5)

        # The read is allowed without a proposal: the replace after it is the first to wait.
        replace_id = session.while_running(lambda: waiting_for(cli, notes))
        assert "alpha\\nbeta" in model_received(fake, "read_file")[0]
        detail = cli("approvals", "show", replace_id, check=True).body
        assert (detail["approval"]["tool"], detail["approval"]["args"]) == ("replace", replace)
        assert detail["approval"]["base_hash"] and "-beta\n+gamma\n" in detail["diff"]
        assert notes.read_text(encoding="utf-8") == "alpha\nbeta\n"  # waiting: untouched
        cli("approvals", "approve", replace_id, "--reviewer", REVIEWER, check=True)

        write_id = session.while_running(lambda: waiting_for(cli, approved))
        proposal_seen = time.monotonic()
        assert notes.read_text(encoding="utf-8") == "alpha\ngamma\n"
        assert not approved.exists()
        shown = cli("approvals", "show", write_id, check=True).body
        assert shown["approval"]["args"] == written and "+as proposed\n" in shown["diff"]
        edited = json.dumps({**written, "content": "as edited\n"})
        edit = ("approvals", "edit", write_id, "--reviewer", REVIEWER, "--args", edited)
        revised = cli(*edit, check=True).body["approval"]
        cli("approvals", "approve", revised["id"], "--reviewer", REVIEWER, check=True)

        rejected_id = session.while_running(lambda: waiting_for(cli, rejected))
        assert approved.read_text(encoding="utf-8") == "as edited\n"
        reject = ("approvals", "reject", rejected_id, "--reviewer", REVIEWER, "--reason", REJECTION)
        cli(*reject, check=True)
        session.while_running(lambda: fake.arrived_at(5))
        assert REJECTION in model_received(fake, "write_file")[1]  # the reason reached the model
        cli("settings", "set", "agents.decision_timeout", "2", check=True)
        late_turn.set()
        result = session.wait()

    served, read_served, replace_asked = fake.served_at(3), fake.served_at(1), fake.arrived_at(2)
    assert served is not None and read_served is not None and replace_asked is not None
    with capsys.disabled():
        print(
            f"\ngemini: hook call -> proposal in the inbox: {proposal_seen - served:.2f} s (bound)"
        )
        print(
            f"gemini: a read through BeforeTool and AfterTool: {replace_asked - read_served:.2f} s"
        )
    assert result.exit_code == 0, result.stderr
    assert "no decision in time" in model_received(fake, "write_file")[2]
    assert not rejected.exists() and not late.exists()
    assert approved.read_text(encoding="utf-8") == "as edited\n"

    runs = [r for r in cli("runs", check=True).body["runs"] if r["agent"] == AGENT]
    assert len(runs) == 1 and runs[0]["cwd"] == str(gemini.cwd) and runs[0]["session_id"], runs
    assert runs[0]["status"] == "succeeded"  # SessionEnd ended it
    events = cli("timeline", runs[0]["run_id"], check=True).body["events"]
    proposals = cli("approvals", "list", "--run", runs[0]["run_id"], check=True).body["approvals"]
    assert "read_file" not in {p["tool"] for p in proposals}
    executed = [e for e in events if e["kind"] == "tool_result" and e["data"].get("executed")]
    assert sorted(e["tool"] for e in executed) == ["read_file", "replace", "write_file"]
    # AfterTool names no call: each approved write is found by the input that ran (the edit).
    confirmed = sorted(e["data"]["path"] for e in events if e["kind"] == "artifact_confirmed")
    assert confirmed == sorted([str(approved), str(notes)])
