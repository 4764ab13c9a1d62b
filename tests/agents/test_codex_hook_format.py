"""Codex's hook protocol and tools, on payloads captured from the real CLI
(tests/agents/payloads/codex/): what a call is, and what BriefDesk prints back for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.external_agents.formats import format_for
from agent_core.external_agents.hook_call import HookAnswer, HookCall, HookEvent, Verdict
from agent_core.tools.agent_calls.kinds import CallKind, FileChange
from agent_core.tools.agent_calls.registry import tools_for

PAYLOADS = Path(__file__).parent / "payloads" / "codex"


def payload(name: str, cwd: Path) -> JsonObject:
    text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
    found: JsonObject = json.loads(text.replace("{cwd}", str(cwd)).replace("{home}", "/h"))
    return found


def call(name: str, cwd: Path) -> HookCall:
    return format_for("codex").parse(payload(name, cwd))


def test_captured_calls_read_as_their_events(tmp_path: Path) -> None:
    shell = call("pre_tool_use_bash", tmp_path)
    assert (shell.event, shell.tool_name, shell.tool_input) == (
        HookEvent.PRE_TOOL,
        "Bash",
        {"command": "cat notes.txt"},
    )
    assert shell.tool_use_id == "call_0" and shell.cwd == str(tmp_path) and shell.session_id
    after = call("post_tool_use_bash", tmp_path)
    assert after.event is HookEvent.POST_TOOL and after.tool_response == "alpha\nbeta\n"
    assert call("stop", tmp_path).event is HookEvent.SESSION_END
    assert call("session_start", tmp_path).event is HookEvent.OTHER


def test_tools_by_kind_a_read_through_the_shell_is_a_shell_command(tmp_path: Path) -> None:
    tools = tools_for("codex")
    shell = call("pre_tool_use_bash", tmp_path)
    assert tools.kind("Bash", shell.tool_input or {}) is CallKind.SHELL
    assert tools.kind("apply_patch", {"command": ""}) is CallKind.FILE_WRITE
    assert tools.kind("mcp__fs__write_file", {}) is CallKind.MCP
    assert tools.mcp_server("mcp__fs__write_file", {}) == "fs"
    assert tools.kind("view_image", {}) is CallKind.READ
    assert tools.kind("something_new", {}) is CallKind.OTHER


def test_a_captured_patch_is_the_file_after_it(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    patch = call("pre_tool_use_apply_patch_update", tmp_path)
    added = call("pre_tool_use_apply_patch_add", tmp_path)

    def read(path: str) -> str | None:
        file = Path(path)
        return file.read_text(encoding="utf-8") if file.exists() else None

    tools = tools_for("codex")
    notes, hello = str(tmp_path / "notes.txt"), str(tmp_path / "hello.txt")
    got = tools.file_changes("apply_patch", patch.tool_input or {}, str(tmp_path), read)
    assert got == [FileChange(notes, "alpha\ngamma\n")]
    new = tools.file_changes("apply_patch", added.tool_input or {}, str(tmp_path), read)
    assert new == [FileChange(hello, "hello\n")]


def test_answers_in_codex_own_words(tmp_path: Path) -> None:
    codex = format_for("codex")
    pre = call("pre_tool_use_apply_patch_add", tmp_path)
    allowed = codex.reply(pre, HookAnswer(Verdict.ALLOW, "approved by alice"))
    assert (allowed.stdout, allowed.exit_code) == ("", 0)  # nothing printed: the patch runs
    edit: JsonObject = {
        "command": "*** Begin Patch\n*** Add File: hello.txt\n+edited\n*** End Patch\n"
    }
    rewritten = json.loads(codex.reply(pre, HookAnswer(Verdict.ALLOW, None, edit)).stdout)
    assert rewritten["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "updatedInput": edit,
    }
    denied = json.loads(codex.reply(pre, HookAnswer(Verdict.DENY, "Rejected by alice")).stdout)
    assert denied["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert denied["hookSpecificOutput"]["permissionDecisionReason"] == "Rejected by alice"


def test_a_permission_request_allows_or_denies_and_never_runs_an_unapplied_edit(
    tmp_path: Path,
) -> None:
    codex = format_for("codex")
    asked = codex.parse(
        {**payload("pre_tool_use_bash", tmp_path), "hook_event_name": "PermissionRequest"}
    )
    assert asked.event is HookEvent.PERMISSION
    allowed = json.loads(codex.reply(asked, HookAnswer(Verdict.ALLOW)).stdout)
    assert allowed["hookSpecificOutput"]["decision"] == {"behavior": "allow"}
    edited = HookAnswer(Verdict.ALLOW, None, {"command": "cat other.txt"})
    refused = json.loads(codex.reply(asked, edited).stdout)
    assert refused["hookSpecificOutput"]["decision"]["behavior"] == "deny"


def test_what_cannot_be_read_is_refused_with_exit_2_before_a_tool_only(tmp_path: Path) -> None:
    codex = format_for("codex")
    broken_calls: list[JsonObject] = [
        {"hook_event_name": "PreToolUse"},
        {**payload("pre_tool_use_bash", tmp_path), "tool_input": "x"},
    ]
    for broken in broken_calls:
        with pytest.raises(BriefDeskError) as refused:
            codex.parse(broken)
        assert refused.value.code == ErrorCode.INVALID_ARGUMENTS
    for event in ("PreToolUse", "PermissionRequest", None):
        reply = codex.refuse(event, "store unreachable")
        assert reply.exit_code == 2 and "store unreachable" in reply.stderr
        assert "deny" in reply.stdout
    after = codex.refuse("PostToolUse", "store unreachable")  # nothing left to block
    assert (after.stdout, after.exit_code) == ("", 0)
