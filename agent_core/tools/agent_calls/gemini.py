"""Gemini CLI's tools (measured on gemini-cli 0.61: the function declarations it sends to the
model): which only read, which write files (and the file after the change), which run a
shell, fetch, or call an MCP server (named `mcp_SERVER_TOOL`)."""

from __future__ import annotations

import os
from typing import Final

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject, JsonValue
from agent_core.tools.agent_calls.edits import replaced
from agent_core.tools.agent_calls.kinds import CallKind, FileChange, ReadFile, kind_by_name

_READS: Final = frozenset(
    {
        "read_file",
        "read_many_files",
        "list_directory",
        "glob",
        "grep_search",
        "search_file_content",
        "list_background_processes",
        "read_background_output",
        "update_topic",
        "write_todos",
        "enter_plan_mode",
    }
)
"""Read, list or search files, or only keep the agent's own topic, to-do list or plan."""
_WRITES: Final = frozenset({"write_file", "replace"})
_SHELLS: Final = frozenset({"run_shell_command"})
_FETCHES: Final = frozenset({"web_fetch", "google_web_search"})
MCP_PREFIX: Final = "mcp_"

_KINDS: Final = {
    **dict.fromkeys(_READS, CallKind.READ),
    **dict.fromkeys(_WRITES, CallKind.FILE_WRITE),
    **dict.fromkeys(_SHELLS, CallKind.SHELL),
    **dict.fromkeys(_FETCHES, CallKind.FETCH),
}


class GeminiTools:
    agent = "gemini"

    def kind(self, tool_name: str, tool_input: JsonObject) -> CallKind:
        return kind_by_name(_KINDS, tool_name, self.mcp_server(tool_name, tool_input))

    def mcp_server(self, tool_name: str, tool_input: JsonObject) -> str | None:
        """From the name alone, up to its first `_` (a server whose own name holds `_` is named
        exactly by the payload's `mcp_context`, which the hook call carries as `mcp_server`)."""
        if not tool_name.startswith(MCP_PREFIX):
            return None
        server, _, tool = tool_name[len(MCP_PREFIX) :].partition("_")
        return server if server and tool else None

    def file_changes(
        self, tool_name: str, tool_input: JsonObject, cwd: str, read: ReadFile
    ) -> list[FileChange]:
        path = os.path.normpath(os.path.join(cwd, _text(tool_input, "file_path")))
        if tool_name == "write_file":
            return [FileChange(path, _text(tool_input, "content"))]
        if tool_name == "replace":
            return [FileChange(path, _replaced(read(path) or "", tool_input, path))]
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"{tool_name} is not a file write of Gemini CLI."
        )


def _replaced(text: str, tool_input: JsonObject, path: str) -> str:
    """Gemini's `replace`: `expected_replacements` occurrences (default 1) or
    `allow_multiple`; the count must match, as the tool itself checks."""
    old = _text(tool_input, "old_string")
    expected = tool_input.get("expected_replacements")
    every = tool_input.get("allow_multiple") is True or (isinstance(expected, int) and expected > 1)
    if isinstance(expected, int) and expected > 1 and old and text.count(old) != expected:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"The text to replace occurs {text.count(old)} times in {path}, not {expected}.",
        )
    return replaced(text, old, _text(tool_input, "new_string"), replace_all=every, path=path)


def _text(values: dict[str, JsonValue], key: str) -> str:
    value = values.get(key)
    if not isinstance(value, str):
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"The tool input has no text `{key}`.")
    return value
