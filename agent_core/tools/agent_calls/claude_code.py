"""Claude Code's tools: which only read, which write files (and the file after the change),
which run a shell, fetch, or call an MCP server (`mcp__SERVER__TOOL`)."""

from __future__ import annotations

import os
from typing import Final

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject, JsonValue
from agent_core.tools.agent_calls.edits import replaced
from agent_core.tools.agent_calls.kinds import CallKind, FileChange, ReadFile, kind_by_name

_READS: Final = frozenset(
    {"Read", "Glob", "Grep", "LS", "NotebookRead", "TodoWrite", "TodoRead", "ExitPlanMode"}
)
"""Read, list or search files, or only keep the agent's own to-do list or plan."""
_WRITES: Final = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
_SHELLS: Final = frozenset({"Bash", "BashOutput", "KillShell", "KillBash"})
_FETCHES: Final = frozenset({"WebFetch", "WebSearch"})
MCP_PREFIX: Final = "mcp__"

_KINDS: Final = {
    **dict.fromkeys(_READS, CallKind.READ),
    **dict.fromkeys(_WRITES, CallKind.FILE_WRITE),
    **dict.fromkeys(_SHELLS, CallKind.SHELL),
    **dict.fromkeys(_FETCHES, CallKind.FETCH),
}


class ClaudeCodeTools:
    agent = "claude-code"

    def kind(self, tool_name: str, tool_input: JsonObject) -> CallKind:
        return kind_by_name(_KINDS, tool_name, self.mcp_server(tool_name, tool_input))

    def mcp_server(self, tool_name: str, tool_input: JsonObject) -> str | None:
        if not tool_name.startswith(MCP_PREFIX):
            return None
        server, _, tool = tool_name[len(MCP_PREFIX) :].partition("__")
        return server if server and tool else None

    def file_changes(
        self, tool_name: str, tool_input: JsonObject, cwd: str, read: ReadFile
    ) -> list[FileChange]:
        key = "notebook_path" if tool_name == "NotebookEdit" else "file_path"
        path = os.path.normpath(os.path.join(cwd, _text(tool_input, key)))
        if tool_name == "Write":
            return [FileChange(path, _text(tool_input, "content"))]
        current = read(path) or ""
        if tool_name == "Edit":
            return [FileChange(path, _edited(current, tool_input, path))]
        if tool_name == "MultiEdit":
            edits = tool_input.get("edits")
            if not isinstance(edits, list) or not edits:
                raise _bad("MultiEdit needs a non-empty list `edits`.")
            for edit in edits:
                if not isinstance(edit, dict):
                    raise _bad("Each of MultiEdit's `edits` is an object.")
                current = _edited(current, edit, path)
            return [FileChange(path, current)]
        if tool_name == "NotebookEdit":
            return [FileChange(path, None if read(path) is None else current)]
        raise _bad(f"{tool_name} is not a file write of Claude Code.")


def _edited(text: str, edit: dict[str, JsonValue], path: str) -> str:
    return replaced(
        text,
        _text(edit, "old_string"),
        _text(edit, "new_string"),
        replace_all=edit.get("replace_all") is True,
        path=path,
    )


def _text(values: dict[str, JsonValue], key: str) -> str:
    value = values.get(key)
    if not isinstance(value, str):
        raise _bad(f"The tool input has no text `{key}`.")
    return value


def _bad(message: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.INVALID_ARGUMENTS, message)
