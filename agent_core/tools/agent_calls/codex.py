"""Codex's tools as its hooks name them (measured on codex 0.171: `Bash` for every shell tool,
`apply_patch` with the patch as `{"command": PATCH}`, `mcp__SERVER__TOOL`). Codex has no
file-reading tool: it reads through its shell, so a read is a shell command here."""

from __future__ import annotations

from typing import Final

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.tools.agent_calls.apply_patch import patch_changes
from agent_core.tools.agent_calls.kinds import CallKind, FileChange, ReadFile, kind_by_name

PATCH_TOOL: Final = "apply_patch"
_SHELLS: Final = frozenset({"Bash", "shell", "exec_command", "local_shell", "write_stdin"})
"""`write_stdin` types into a running command: as much a shell command as the command."""
_READS: Final = frozenset({"view_image", "update_plan", "get_goal", "tool_search"})
"""Show an image of the folder to the model, or keep the agent's own plan and goal."""
_MCP_PREFIX: Final = "mcp__"

_KINDS: Final = {
    **dict.fromkeys(_READS, CallKind.READ),
    **dict.fromkeys(_SHELLS, CallKind.SHELL),  # a shell wins over a read of the same name
    PATCH_TOOL: CallKind.FILE_WRITE,
}


class CodexTools:
    agent = "codex"

    def kind(self, tool_name: str, tool_input: JsonObject) -> CallKind:
        return kind_by_name(_KINDS, tool_name, self.mcp_server(tool_name, tool_input))

    def mcp_server(self, tool_name: str, tool_input: JsonObject) -> str | None:
        if not tool_name.startswith(_MCP_PREFIX):
            return None
        server, _, tool = tool_name[len(_MCP_PREFIX) :].partition("__")
        return server if server and tool else None

    def file_changes(
        self, tool_name: str, tool_input: JsonObject, cwd: str, read: ReadFile
    ) -> list[FileChange]:
        if tool_name != PATCH_TOOL:
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS, f"{tool_name} is not a file write of Codex."
            )
        patch = tool_input.get("command", tool_input.get("input"))
        if not isinstance(patch, str):
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS, "apply_patch's input has no patch text `command`."
            )
        return patch_changes(patch, cwd, read)
