"""Gemini CLI's hook protocol and tools, on payloads captured from the real CLI
(tests/agents/payloads/gemini/): what a call is, and what BriefDesk prints back for it."""

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

PAYLOADS = Path(__file__).parent / "payloads" / "gemini"


def payload(name: str, cwd: Path) -> JsonObject:
    text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
    found: JsonObject = json.loads(text.replace("{cwd}", str(cwd)).replace("{home}", "/h"))
    return found


def call(name: str, cwd: Path) -> HookCall:
    return format_for("gemini").parse(payload(name, cwd))


def read(path: str) -> str | None:
    file = Path(path)
    return file.read_text(encoding="utf-8") if file.exists() else None


def test_captured_calls_read_as_their_events_and_kinds(tmp_path: Path) -> None:
    tools = tools_for("gemini")
    kinds = {
        "before_tool_read_file": CallKind.READ,
        "before_tool_list_directory": CallKind.READ,
        "before_tool_write_file": CallKind.FILE_WRITE,
        "before_tool_replace": CallKind.FILE_WRITE,
        "before_tool_run_shell_command": CallKind.SHELL,
    }
    for name, kind in kinds.items():
        before = call(name, tmp_path)
        assert before.event is HookEvent.PRE_TOOL and before.tool_use_id is None
        assert tools.kind(before.tool_name or "", before.tool_input or {}) is kind, name
    after = call("after_tool_write_file", tmp_path)
    assert after.event is HookEvent.POST_TOOL and isinstance(after.tool_response, dict)
    assert call("session_end", tmp_path).event is HookEvent.SESSION_END
    assert tools.kind("web_fetch", {}) is CallKind.FETCH
    assert tools.kind("google_web_search", {}) is CallKind.FETCH
    assert tools.kind("invoke_agent", {}) is CallKind.OTHER


def test_an_mcp_call_names_its_server_from_the_payload_exactly(tmp_path: Path) -> None:
    mcp: JsonObject = {"server_name": "my_files", "tool_name": "write_file", "command": "npx"}
    raw = {**payload("before_tool_write_file", tmp_path), "tool_name": "mcp_my_files_write_file"}
    parsed = format_for("gemini").parse({**raw, "mcp_context": mcp})
    assert parsed.mcp_server == "my_files"
    assert tools_for("gemini").kind("mcp_my_files_write_file", {}) is CallKind.MCP


def test_writes_and_replacements_are_the_file_after_them(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    tools, cwd = tools_for("gemini"), str(tmp_path)
    write = call("before_tool_write_file", tmp_path).tool_input or {}
    assert tools.file_changes("write_file", write, cwd, read) == [
        FileChange(str(tmp_path / "hello.txt"), "hello\n")
    ]
    replace = call("before_tool_replace", tmp_path).tool_input or {}
    assert tools.file_changes("replace", replace, cwd, read) == [
        FileChange(str(tmp_path / "notes.txt"), "alpha\ngamma\n")
    ]
    with pytest.raises(BriefDeskError) as refused:
        tools.file_changes("replace", {**replace, "old_string": "delta"}, cwd, read)
    assert refused.value.code == ErrorCode.INVALID_ARGUMENTS


def test_answers_in_gemini_own_words(tmp_path: Path) -> None:
    gemini = format_for("gemini")
    before = call("before_tool_write_file", tmp_path)
    assert json.loads(gemini.reply(before, HookAnswer(Verdict.ALLOW)).stdout) == {
        "decision": "allow"
    }
    edit: JsonObject = {**(before.tool_input or {}), "content": "edited\n"}
    rewritten = json.loads(gemini.reply(before, HookAnswer(Verdict.ALLOW, None, edit)).stdout)
    assert rewritten["hookSpecificOutput"]["tool_input"] == edit
    denied = gemini.reply(before, HookAnswer(Verdict.DENY, "Rejected by alice"))
    assert json.loads(denied.stdout) == {"decision": "deny", "reason": "Rejected by alice"}
    after = gemini.reply(call("after_tool_write_file", tmp_path), HookAnswer(Verdict.NO_OPINION))
    assert (after.stdout, after.exit_code) == ("", 0)


def test_what_cannot_be_read_is_refused_as_json_and_exit_2(tmp_path: Path) -> None:
    gemini = format_for("gemini")
    with pytest.raises(BriefDeskError) as refused:
        gemini.parse({**payload("before_tool_read_file", tmp_path), "session_id": 7})
    assert refused.value.code == ErrorCode.INVALID_ARGUMENTS
    reply = gemini.refuse(None, "store unreachable")
    assert reply.exit_code == 2 and "store unreachable" in reply.stderr
    assert json.loads(reply.stdout) == {"decision": "deny", "reason": "store unreachable"}
