"""The kinds of an agent's tool call, and the change a file call makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from agent_core.contract.json_types import JsonObject


class CallKind(StrEnum):
    READ = "read"
    """Reads, lists or searches files: allowed at once and recorded."""
    FILE_WRITE = "file_write"
    """Writes, edits or patches files: a proposal with a diff per file."""
    SHELL = "shell"
    """A shell command: a proposal targeting `shell:CWD`."""
    FETCH = "fetch"
    """A web fetch or search: a proposal."""
    MCP = "mcp"
    """An MCP tool: a proposal targeting `mcp:NAME`."""
    OTHER = "other"
    """Anything else, unknown tools included: a proposal (never fail open)."""


@dataclass(frozen=True)
class FileChange:
    """One file a call writes: its absolute path and its whole content after the call."""

    path: str
    after: str | None
    """None: the call deletes the file."""


class ReadFile(Protocol):
    def __call__(self, path: str) -> str | None:
        """The file's current text, None when it does not exist."""
        ...


class AgentTools(Protocol):
    """One agent's tools."""

    agent: str

    def kind(self, tool_name: str, tool_input: JsonObject) -> CallKind: ...

    def file_changes(
        self, tool_name: str, tool_input: JsonObject, cwd: str, read: ReadFile
    ) -> list[FileChange]:
        """FILE_WRITE calls: each file after the call, computed from its current text (an edit
        whose old text is not in the file: BriefDeskError invalid_arguments)."""
        ...

    def mcp_server(self, tool_name: str, tool_input: JsonObject) -> str | None:
        """MCP calls: the server's name (`mcp__fs__write_file` -> `fs`)."""
        ...


def kind_by_name(kinds: Mapping[str, CallKind], tool_name: str, mcp_server: str | None) -> CallKind:
    """An agent's call by its tool's name (`kinds`, the agent's table of its own tools), else an
    MCP call when it names a server, else OTHER: a tool BriefDesk does not know waits for a
    person (never fail open)."""
    found = kinds.get(tool_name)
    if found is not None:
        return found
    return CallKind.OTHER if mcp_server is None else CallKind.MCP
