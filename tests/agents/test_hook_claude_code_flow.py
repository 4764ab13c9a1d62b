"""`briefdesk-cli hook claude-code` as Claude Code calls it (issue 42, items 2 and 3).

Each hook is a real subprocess fed Claude Code's real payloads (captured from the CLI into
tests/agents/payloads/claude-code/); a person decides from this process through the facade
while the hook waits, on the same home. Everything is read from outside: the hook's stdout and
exit code, the home's runs, proposals and timeline, and the files in the session's folder.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from agent_core.contract.json_types import JsonObject
from agent_core.facade.workspace import Workspace
from tests.support.cli import cli_command, cli_env
from tests.support.waiting import wait_until

PAYLOADS = Path(__file__).parent / "payloads" / "claude-code"
REVIEWER = "alice"
AGENT = "claude-code"


class Session:
    """One Claude Code session's hook calls on a home: each a real `hook claude-code` process."""

    def __init__(self, home: Path, cwd: Path) -> None:
        self.home = home
        self.cwd = cwd
        self.session_id = str(uuid.uuid4())

    def payload(self, name: str, **changes: object) -> JsonObject:
        text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
        text = text.replace("{cwd}", str(self.cwd)).replace("{home}", str(self.home))
        payload: JsonObject = json.loads(text.replace("{project}", "p"))
        payload["session_id"] = self.session_id
        payload["tool_use_id"] = "toolu_" + uuid.uuid4().hex[:10]
        payload.update(changes)  # type: ignore[arg-type]
        return payload

    def start(self, payload: JsonObject | str) -> subprocess.Popen[str]:
        stdin = payload if isinstance(payload, str) else json.dumps(payload)
        process = subprocess.Popen(
            cli_command("--home", str(self.home), "hook", "claude-code"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(),
        )
        assert process.stdin is not None
        process.stdin.write(stdin)
        process.stdin.close()
        return process

    def call(self, payload: JsonObject | str) -> tuple[int, JsonObject, str]:
        process = self.start(payload)
        return finish(process)


def finish(process: subprocess.Popen[str]) -> tuple[int, JsonObject, str]:
    process.stdin = None  # written and closed by `start`
    stdout, stderr = process.communicate(timeout=60)
    assert "Traceback" not in stderr, stderr
    return process.returncode, json.loads(stdout), stderr


def decision(body: JsonObject) -> JsonObject:
    specific = body["hookSpecificOutput"]
    assert isinstance(specific, dict) and specific["hookEventName"] == "PreToolUse"
    return specific


def pending(ws: Workspace, tool: str) -> str:
    found = [a for a in ws.list_approvals(status="pending") if a["tool"] == tool]
    return str(found[0]["id"]) if found else ""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    return folder


def test_a_read_passes_at_once_and_an_edit_waits_shows_its_diff_and_is_confirmed(
    ws: Workspace, home: Path, project: Path
) -> None:
    session = Session(home, project)
    code, body, _ = session.call(session.payload("pre_tool_read"))
    assert code == 0 and decision(body)["permissionDecision"] == "allow"
    (run,) = ws.list_runs()
    assert (run["agent"], run["session_id"], run["cwd"]) == (
        "claude-code",
        session.session_id,
        str(project),
    )
    kinds = [(e["kind"], e["tool"]) for e in ws.timeline(run["run_id"])]
    assert ("tool_called", "Read") in kinds and ("tool_result", "Read") in kinds

    edit = session.payload("pre_tool_edit")
    hook = session.start(edit)
    approval_id = wait_until(lambda: pending(ws, "Edit"), message="no Edit proposal")
    assert hook.poll() is None  # it waits for the person
    detail = ws.describe_approval(approval_id)
    assert detail["approval"]["target"] == str(project / "notes.txt")
    assert detail["current_text"] == "alpha\nbeta\n"
    assert detail.get("after_text") == "alpha\ngamma\n"
    assert ws.get_run(run["run_id"])["status"] == "waiting_approval"
    ws.approve(approval_id, reviewer=REVIEWER)
    code, body, _ = finish(hook)
    assert code == 0 and decision(body)["permissionDecision"] == "allow"
    assert "updatedInput" not in decision(body)
    assert ws.get_run(run["run_id"])["status"] == "running"

    (project / "notes.txt").write_text("alpha\ngamma\n", encoding="utf-8")  # the tool ran
    post = session.payload("post_tool_edit", tool_use_id=edit["tool_use_id"])
    code, body, _ = session.call(post)
    assert (code, body) == (0, {})
    events = ws.timeline(run["run_id"])
    confirmed = [e for e in events if e["kind"] == "artifact_confirmed"]
    assert [e["data"]["path"] for e in confirmed] == [str(project / "notes.txt")]
    results = [e for e in events if e["kind"] == "tool_result" and e["tool"] == "Edit"]
    assert results[-1]["data"]["executed"] is True and results[-1]["data"]["result"]

    # A write approved as proposed but whose file then holds something else is flagged.
    write = session.payload("pre_tool_write")
    hook = session.start(write)
    ws.approve(wait_until(lambda: pending(ws, "Write")), reviewer=REVIEWER)
    assert decision(finish(hook)[1])["permissionDecision"] == "allow"
    (project / "new.txt").write_text("not what was approved\n", encoding="utf-8")
    session.call(session.payload("post_tool_write", tool_use_id=write["tool_use_id"]))
    flagged = [e for e in ws.timeline(run["run_id"]) if e["kind"] == "artifact_unexpected"]
    assert [e["data"]["path"] for e in flagged] == [str(project / "new.txt")]


def test_edit_reject_request_changes_and_no_decision_each_answer_the_agent(
    ws: Workspace, home: Path, project: Path
) -> None:
    session = Session(home, project)
    hook = session.start(session.payload("pre_tool_write"))
    first = wait_until(lambda: pending(ws, "Write"))
    edited = {"file_path": str(project / "new.txt"), "content": "edited by a person\n"}
    ws.edit(first, reviewer=REVIEWER, args=edited)
    ws.approve(wait_until(lambda: pending(ws, "Write")), reviewer=REVIEWER)
    code, body, _ = finish(hook)
    assert decision(body)["permissionDecision"] == "allow"
    assert decision(body)["updatedInput"] == edited

    hook = session.start(session.payload("pre_tool_bash"))
    bash = wait_until(lambda: pending(ws, "Bash"))
    assert ws.get_approval(bash)["target"] == f"shell:{project}"
    ws.reject(bash, reviewer=REVIEWER, reason="never curl into sh")
    code, body, _ = finish(hook)
    assert code == 0 and decision(body)["permissionDecision"] == "deny"
    assert "never curl into sh" in str(decision(body)["permissionDecisionReason"])

    hook = session.start(session.payload("pre_tool_write"))
    ws.reject(
        wait_until(lambda: pending(ws, "Write")), reviewer=REVIEWER, reason="use b.txt", revise=True
    )
    assert "use b.txt" in str(decision(finish(hook)[1])["permissionDecisionReason"])

    ws.set_setting("agents.decision_timeout", 1)
    code, body, _ = session.call(session.payload("pre_tool_write"))
    assert decision(body) == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "no decision in time",
    }
    assert not ws.list_approvals(status="pending")
    assert not (project / "new.txt").exists()  # nothing here ever wrote it


def test_unreadable_calls_are_denied_blocking_and_no_home_is_made(
    home: Path, project: Path
) -> None:
    session = Session(home, project)
    for garbage in ("not json", "[]", json.dumps({"hook_event_name": "PreToolUse"})):
        code, body, stderr = session.call(garbage)
        assert code == 2 and decision(body)["permissionDecision"] == "deny"
        assert "BriefDesk denied" in stderr
    assert not home.exists()
    process = subprocess.run(
        cli_command("--home", str(home), "hook", "no-such-agent"),
        input="{}",
        capture_output=True,
        text=True,
        env=cli_env(),
        check=False,
    )
    assert process.returncode == 2 and "deny" in process.stdout and not home.exists()


def test_one_run_per_session_cancel_denies_and_the_session_end_ends_it(
    ws: Workspace, home: Path, project: Path
) -> None:
    session = Session(home, project)
    racing = [session.start(session.payload("pre_tool_read")) for _ in range(2)]
    assert all(decision(finish(p)[1])["permissionDecision"] == "allow" for p in racing)
    (run,) = ws.list_runs()
    with pytest.raises(Exception, match="never through resume"):
        ws.resume(run["run_id"])

    # The hook never imports the Agents SDK, and answers a read quickly (median of 10).
    times = []
    for _ in range(10):
        started = time.monotonic()
        session.call(session.payload("pre_tool_read"))
        times.append(time.monotonic() - started)
    print(f"hook read answered in {statistics.median(times):.3f} s (median of 10)")
    traced = subprocess.run(
        [sys.executable, "-X", "importtime", *cli_command("--home", str(home), "hook", AGENT)[1:]],
        input=json.dumps(session.payload("pre_tool_read")),
        capture_output=True,
        text=True,
        env=cli_env(),
        check=True,
    )
    imported = {line.rsplit("|", 1)[-1].strip() for line in traced.stderr.splitlines()}
    assert "agent_core.external_agents.hook" in imported and "agents" not in imported

    ws.cancel(run["run_id"], reviewer="bob")
    _, body, _ = session.call(session.payload("pre_tool_write"))
    assert decision(body)["permissionDecisionReason"] == "cancelled by bob"

    other = Session(home, project)
    other.call(other.payload("pre_tool_read"))
    assert session.call(other.payload("session_end"))[:2] == (0, {})
    ended = next(r for r in ws.list_runs() if r["session_id"] == other.session_id)
    assert ended["status"] == "succeeded"
