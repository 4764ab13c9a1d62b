"""Claude Code asks BriefDesk (issue 42, "Done when", for Claude Code).

The real `claude -p` from npm runs headless against a fake Anthropic endpoint on 127.0.0.1
(tests/support/fake_anthropic.py, the only fake: the remote model), with BriefDesk's hook
`briefdesk-cli --home H hook claude-code` for PreToolUse, PostToolUse and SessionEnd, as
`agents connect` writes it. Each session costs seconds, so one session walks through a read, an
edit, a write approved with a person's edit, a rejected write and an undecided one; everything
is checked from outside: the files in the session's folder, the home through `briefdesk-cli`,
and what the model received in the endpoint's recorded requests.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from agent_core.contract.json_types import JsonObject
from tests.support.claude_session import ClaudeSession
from tests.support.cli import CliRunner
from tests.support.fake_anthropic import Say, Step, Tool, tool_result_text, tool_results

AGENT = "claude-code"
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


def model_received(requests: list[JsonObject], tool_use_id: str) -> str | None:
    """The text of a tool call's result as the model received it, in any request so far."""
    for body in requests:
        for block in tool_results(body):
            if block.get("tool_use_id") == tool_use_id:
                return tool_result_text(block)
    return None


def test_claude_code_reads_freely_and_writes_only_what_a_person_approved(
    tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = CliRunner(home, capsys)
    cli("settings", "get", check=True)  # the home exists before the agent's first call
    claude = ClaudeSession(tmp_path / "claude", hook=briefdesk_hook(home))
    notes, approved, rejected, undecided = (
        claude.cwd / name for name in ("notes.txt", "approved.txt", "rejected.txt", "late.txt")
    )
    notes.write_text("alpha\nbeta\n", encoding="utf-8")
    written = {"file_path": str(approved), "content": "as proposed\n"}
    steps: list[Step] = [
        Tool("Read", {"file_path": str(notes)}),  # turn 1: passes at once
        Tool("Edit", {"file_path": str(notes), "old_string": "beta", "new_string": "gamma"}),
        Tool("Write", written),  # turn 3: approved with a person's edit
        Tool("Write", {"file_path": str(rejected), "content": "unwanted\n"}),  # turn 4
        Tool("Write", {"file_path": str(undecided), "content": "nobody decides\n"}),  # turn 5
        Say("finished"),
    ]
    with claude.start(steps) as session:
        fake = session.fake
        late_turn = fake.hold(5)

        # A read is allowed without a proposal: the edit after it is the first thing waiting.
        edit_id = session.while_running(lambda: waiting_for(cli, notes))
        assert model_received(fake.main_requests(), "toolu_fake_1") == "1\talpha\n2\tbeta\n3\t"
        edit = cli("approvals", "show", edit_id, check=True).body
        assert edit["approval"]["tool"] == "Edit" and edit["approval"]["base_hash"]
        assert "-beta\n+gamma\n" in edit["diff"]
        assert notes.read_text(encoding="utf-8") == "alpha\nbeta\n"  # not before approval
        cli("approvals", "approve", edit_id, "--reviewer", REVIEWER, check=True)

        proposal_id = session.while_running(lambda: waiting_for(cli, approved))
        proposal_seen = time.monotonic()
        assert notes.read_text(encoding="utf-8") == "alpha\ngamma\n"
        assert not approved.exists()  # waiting: nothing written yet
        shown = cli("approvals", "show", proposal_id, check=True).body
        assert shown["approval"]["tool"] == "Write"
        assert shown["approval"]["args"] == written  # as the agent sent it
        assert shown["approval"]["target"] == str(approved)
        assert shown["approval"]["base_hash"] is None  # a new file
        assert "+as proposed\n" in shown["diff"]
        edited_args = json.dumps({**written, "content": "as edited\n"})
        edited = cli(
            "approvals",
            "edit",
            proposal_id,
            "--reviewer",
            REVIEWER,
            "--args",
            edited_args,
            check=True,
        ).body["approval"]
        cli("approvals", "approve", edited["id"], "--reviewer", REVIEWER, check=True)

        rejected_id = session.while_running(lambda: waiting_for(cli, rejected))
        assert approved.read_text(encoding="utf-8") == "as edited\n"
        reject = ("approvals", "reject", rejected_id, "--reviewer", REVIEWER, "--reason", REJECTION)
        cli(*reject, check=True)
        # The model's next request carries the reason; the next call waits for this setting.
        session.while_running(lambda: fake.arrived_at(5))
        assert REJECTION in (model_received(fake.main_requests(), "toolu_fake_4") or "")
        cli("settings", "set", "agents.decision_timeout", "2", check=True)
        late_turn.set()
        result = session.wait()

    write_called, read_called, read_done = fake.served_at(3), fake.served_at(1), fake.arrived_at(2)
    assert write_called is not None and read_called is not None and read_done is not None
    # Figures for the closing note, shown and not asserted (no timing asserts).
    with capsys.disabled():
        print(f"\nwrite call -> proposal in the inbox: {proposal_seen - write_called:.2f} s")
        print(
            f"read call -> result back to the model (both hooks): {read_done - read_called:.2f} s"
        )

    assert result.exit_code == 0, result.stderr
    assert result.output["result"] == "finished"  # the session ran to its end
    assert "no decision in time" in (result.tool_result_for("toolu_fake_5") or "")
    assert not undecided.exists() and not rejected.exists()
    assert approved.read_text(encoding="utf-8") == "as edited\n"

    runs = [r for r in cli("runs", check=True).body["runs"] if r["agent"] == AGENT]
    assert len(runs) == 1, runs  # one run per session
    run = runs[0]
    assert run["session_id"] == result.output["session_id"]
    assert run["cwd"] == str(claude.cwd)
    assert run["status"] == "succeeded"  # ended with the session (SessionEnd)
    events = cli("timeline", run["run_id"], check=True).body["events"]
    assert any(e["kind"] == "tool_called" and e["tool"] == "Read" for e in events)
    proposals = cli("approvals", "list", "--run", run["run_id"], check=True).body["approvals"]
    assert "Read" not in {p["tool"] for p in proposals}
    executed = [e for e in events if e["kind"] == "tool_result" and e["data"].get("executed")]
    assert sorted(e["tool"] for e in executed) == ["Edit", "Read", "Write"]  # each once
    confirmed = [e["data"]["path"] for e in events if e["kind"] == "artifact_confirmed"]
    assert str(approved) in confirmed
    assert not [e for e in events if e["kind"] == "artifact_unexpected"]
