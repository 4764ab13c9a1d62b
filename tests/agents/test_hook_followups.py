"""The hook, finished (issue 42 items 2-3): calls without an id, patches of several files,
MCP servers named by the payload, files changed before the decision, remembered rules.

Each hook call is a real `briefdesk-cli hook NAME` process fed the agent's payload shape (as
captured in tests/agents/payloads/); a person decides from this process through the facade on
the same home while the hook waits. Everything is read from outside: stdout, the home's
proposals, timeline and audit, and the files in the session's folder.
"""

from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

import pytest

from agent_core.contract.canonical import sha256_hex
from agent_core.contract.json_types import JsonObject
from agent_core.facade.workspace import Workspace
from tests.support.cli import CliRunner, cli_command, cli_env
from tests.support.waiting import wait_until

REVIEWER = "alice"
PATCH = (
    "*** Begin Patch\n*** Add File: added.txt\n+new file\n"
    "*** Update File: notes.txt\n@@\n alpha\n-beta\n+gamma\n*** End Patch\n"
)


class Agent:
    """One session of one agent on a home: each hook call a real subprocess."""

    def __init__(self, home: Path, cwd: Path, agent: str) -> None:
        self.home, self.cwd, self.agent = home, cwd, agent
        self.session_id = str(uuid.uuid4())

    def payload(self, event: str, tool: str, tool_input: JsonObject, **extra: object) -> JsonObject:
        payload: JsonObject = {
            "session_id": self.session_id,
            "cwd": str(self.cwd),
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": tool_input,
        }
        payload.update(extra)  # type: ignore[arg-type]
        return payload

    def start(self, payload: JsonObject) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            cli_command("--home", str(self.home), "hook", self.agent),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(),
        )
        assert process.stdin is not None
        process.stdin.write(json.dumps(payload))
        process.stdin.close()
        process.stdin = None
        return process

    def call(self, payload: JsonObject) -> JsonObject:
        return finish(self.start(payload))


def finish(process: subprocess.Popen[str]) -> JsonObject:
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 0 and "Traceback" not in stderr, stderr
    body: JsonObject = json.loads(stdout) if stdout.strip() else {}
    return body


def pending(ws: Workspace, tool: str) -> str:
    found = [a for a in ws.list_approvals(status="pending") if a["tool"] == tool]
    return str(found[-1]["id"]) if found else ""


def events(ws: Workspace, kind: str) -> list[dict[str, object]]:
    """The data of the session run's events of `kind`, in order."""
    (run,) = ws.list_runs()
    return [e["data"] for e in ws.timeline(run["run_id"]) if e["kind"] == kind]


def claude_decision(body: JsonObject) -> JsonObject:
    specific = body["hookSpecificOutput"]
    assert isinstance(specific, dict)
    return specific


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    return folder


def test_codex_permission_request_answers_from_its_proposal_and_a_patch_is_confirmed_per_file(
    ws: Workspace, home: Path, project: Path
) -> None:
    codex = Agent(home, project, "codex")
    patch: JsonObject = {"command": PATCH}
    pre = codex.start(codex.payload("PreToolUse", "apply_patch", patch, tool_use_id="call_1"))
    ws.approve(wait_until(lambda: pending(ws, "apply_patch")), reviewer=REVIEWER)
    assert finish(pre) == {}  # allowed: Codex's PreToolUse prints nothing for a plain allow

    # PermissionRequest names no call: it is the approved one, not a second question.
    body = codex.call(codex.payload("PermissionRequest", "apply_patch", patch))
    assert body["hookSpecificOutput"] == {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow", "message": f"approved by {REVIEWER}"},
    }
    assert len(ws.list_approvals()) == 1

    (project / "added.txt").write_text("new file\n", encoding="utf-8")  # the patch ran
    (project / "notes.txt").write_text("alpha\ngamma\n", encoding="utf-8")
    codex.call(codex.payload("PostToolUse", "apply_patch", patch, tool_use_id="call_1"))
    confirmed = sorted(str(d["path"]) for d in events(ws, "artifact_confirmed"))
    assert confirmed == [str(project / "added.txt"), str(project / "notes.txt")]
    assert not events(ws, "artifact_unexpected")

    # A rejected call's PermissionRequest is denied with the person's reason.
    shell: JsonObject = {"command": "rm -rf build"}
    pre = codex.start(codex.payload("PreToolUse", "Bash", shell, tool_use_id="call_2"))
    ws.reject(wait_until(lambda: pending(ws, "Bash")), reviewer=REVIEWER, reason="keep build")
    finish(pre)
    body = codex.call(codex.payload("PermissionRequest", "Bash", shell))
    decision = body["hookSpecificOutput"]
    assert isinstance(decision, dict) and decision["decision"] == {
        "behavior": "deny",
        "message": f"Rejected by {REVIEWER}: keep build",
    }
    assert len(ws.list_approvals()) == 2


def test_gemini_edited_write_is_confirmed_and_its_mcp_server_is_the_payloads(
    ws: Workspace, home: Path, project: Path
) -> None:
    gemini = Agent(home, project, "gemini")
    write: JsonObject = {"file_path": str(project / "hello.txt"), "content": "hello\n"}
    hook = gemini.start(gemini.payload("BeforeTool", "write_file", write))
    first = wait_until(lambda: pending(ws, "write_file"))
    edited: JsonObject = {**write, "content": "edited\n"}
    ws.edit(first, reviewer=REVIEWER, args=edited)
    ws.approve(wait_until(lambda: pending(ws, "write_file")), reviewer=REVIEWER)
    assert finish(hook) == {
        "decision": "allow",
        "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": edited},
    }
    (project / "hello.txt").write_text("edited\n", encoding="utf-8")
    gemini.call(gemini.payload("AfterTool", "write_file", edited, tool_response={"ok": 1}))
    confirmed = events(ws, "artifact_confirmed")
    assert [c["path"] for c in confirmed] == [str(project / "hello.txt")]

    mcp_call = gemini.payload(
        "BeforeTool",
        "mcp_my_server_lookup",
        {"q": "x"},
        mcp_context={"server_name": "my_server", "tool_name": "lookup"},
    )
    hook = gemini.start(mcp_call)
    asked = wait_until(lambda: pending(ws, "mcp_my_server_lookup"))
    assert ws.get_approval(asked)["target"] == "mcp:my_server"
    ws.reject(asked, reviewer=REVIEWER, reason="not now")
    assert finish(hook)["decision"] == "deny"


def test_a_file_changed_before_the_decision_is_proposed_again_and_that_is_waited_for(
    ws: Workspace, home: Path, project: Path
) -> None:
    """The patch targets the file it adds; the file it updates changes before the person
    approves (so the approval itself passes): the hook wakes to an approval for files that are
    no longer there, lets nothing through, and waits for a new proposal against them."""
    codex = Agent(home, project, "codex")
    notes = project / "notes.txt"
    patch: JsonObject = {"command": PATCH}
    hook = codex.start(codex.payload("PreToolUse", "apply_patch", patch, tool_use_id="call_1"))
    first = wait_until(lambda: pending(ws, "apply_patch"))
    notes.write_text("alpha\nbeta\nchanged meanwhile\n", encoding="utf-8")
    ws.approve(first, reviewer=REVIEWER)

    again = wait_until(lambda: pending(ws, "apply_patch"), message="no new proposal")
    assert again != first and hook.poll() is None  # the same hook call still waits
    assert "target_changed" in str(ws.get_approval(again)["reason"])
    requested = events(ws, "approval_requested")
    assert requested[-1]["approval_id"] == again and requested[-1]["target_changed"] is True
    bases = requested[-1]["bases"]
    assert isinstance(bases, dict) and bases[str(notes)] == sha256_hex(notes.read_bytes())
    denied = events(ws, "tool_result")
    assert denied[-1]["executed"] is False and "target_changed" in str(denied[-1]["reason"])
    ws.approve(again, reviewer=REVIEWER)
    assert finish(hook) == {}  # allowed (Codex: nothing printed)


def test_remembered_rules_decide_an_agents_next_calls_never_wider_than_shown(
    ws: Workspace, home: Path, project: Path
) -> None:
    claude = Agent(home, project, "claude-code")
    (project / "docs").mkdir()

    def asked(tool: str, tool_input: JsonObject, *, remember: bool = False) -> None:
        payload = claude.payload("PreToolUse", tool, tool_input, tool_use_id=uuid.uuid4().hex)
        hook = claude.start(payload)
        found = wait_until(lambda: pending(ws, tool))
        ws.approve(found, reviewer=REVIEWER, remember="home" if remember else None)
        assert claude_decision(finish(hook))["permissionDecision"] == "allow"

    def by_rule(tool: str, tool_input: JsonObject, agent: Agent = claude) -> bool:
        """Answered at once by a rule (True), or it waits for a person (then rejected)."""
        payload = agent.payload("PreToolUse", tool, tool_input, tool_use_id=uuid.uuid4().hex)
        hook = agent.start(payload)
        waiting = wait_until(
            lambda: pending(ws, tool) or ("ruled" if hook.poll() is not None else "")
        )
        if waiting != "ruled":
            ws.reject(waiting, reviewer=REVIEWER, reason="ask me")
        body = finish(hook)
        if agent is not claude:
            return body == {}  # Codex allows by printing nothing
        return str(claude_decision(body)["permissionDecisionReason"]).startswith("remembered:")

    test: JsonObject = {"command": "make test", "description": "run the tests"}
    asked("Bash", test, remember=True)
    assert by_rule("Bash", {**test, "description": "again"})
    assert not by_rule("Bash", {"command": "make test && curl x | sh"})
    assert not by_rule("Bash", {"command": "make test"}, Agent(home, project, "codex"))

    docs = project / "docs"
    asked("Write", {"file_path": str(docs / "a.md"), "content": "a\n"}, remember=True)
    assert by_rule("Write", {"file_path": str(docs / "b.md"), "content": "b\n"})
    assert not by_rule("Write", {"file_path": str(project / "c.md"), "content": "c\n"})

    mcp: JsonObject = {"path": "x"}
    asked("mcp__fs__read_text", mcp, remember=True)
    assert by_rule("mcp__fs__read_text", {"path": "y"})
    assert not by_rule("mcp__other__read_text", mcp)

    ruled = [e for e in ws.audit_entries() if str(e["principal"]).startswith("rule:")]
    assert {e["tool"] for e in ruled} == {"Bash", "Write", "mcp__fs__read_text"}
    assert all(e["decision"] == "approved" for e in ruled)


def test_a_patch_of_several_files_shows_one_diff_per_file_the_target_first(
    ws: Workspace, home: Path, project: Path, cli: CliRunner
) -> None:
    """Contract: `approvals show` of an `apply_patch` shows one diff per file and targets the
    first; the window's dialog reads the same `files`."""
    codex = Agent(home, project, "codex")
    patch: JsonObject = {"command": PATCH}
    pre = codex.start(codex.payload("PreToolUse", "apply_patch", patch, tool_use_id="call_1"))
    approval_id = wait_until(lambda: pending(ws, "apply_patch"))
    shown = cli("approvals", "show", approval_id, "--json").body
    added, notes = str(project / "added.txt"), str(project / "notes.txt")
    assert shown["approval"]["target"] == added
    assert [d["path"] for d in shown["diffs"]] == [added, notes]
    assert shown["diffs"][0]["diff"] == shown["diff"]
    assert "--- /dev/null" in shown["diffs"][0]["diff"] and "+new file" in shown["diffs"][0]["diff"]
    assert "-beta\n+gamma" in shown["diffs"][1]["diff"]  # notes.txt as it is, not added.txt's
    ws.reject(approval_id, reviewer=REVIEWER, reason="not now")
    assert finish(pre) != {}
