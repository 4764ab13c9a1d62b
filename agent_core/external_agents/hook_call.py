"""One hook call of a coding agent, and BriefDesk's answer to it, whatever the agent.

Each agent's format module (`formats/`) reads the agent's own stdin JSON into a `HookCall` and
writes a `HookAnswer` back the way that agent reads it (stdout JSON and an exit code). The flow
in between (`hook.py`) knows no agent's format.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from agent_core.contract.json_types import JsonObject, JsonValue


class HookEvent(StrEnum):
    PRE_TOOL = "pre_tool"
    """Before a tool runs (Claude Code/Codex `PreToolUse`, Gemini `BeforeTool`)."""
    PERMISSION = "permission"
    """The agent would ask its user (Codex `PermissionRequest`)."""
    POST_TOOL = "post_tool"
    """After a tool ran (`PostToolUse`, `AfterTool`): its outcome."""
    SESSION_END = "session_end"
    """The session ended (`SessionEnd`, `Stop`)."""
    OTHER = "other"
    """An event BriefDesk has no opinion on: answered with no decision."""


@dataclass(frozen=True)
class HookCall:
    agent: str
    """`claude-code`, `codex` or `gemini`."""
    event: HookEvent
    agent_event: str
    """The agent's own name for the event (`PreToolUse`, `BeforeTool`, ...)."""
    session_id: str
    cwd: str
    tool_name: str | None = None
    """As the agent names it (`Write`, `apply_patch`, `run_shell_command`, `mcp__fs__write`)."""
    tool_input: JsonObject | None = None
    """The tool's input as the agent sent it."""
    tool_use_id: str | None = None
    tool_response: JsonValue = None
    """POST_TOOL: what the tool returned, as the agent reports it."""
    mcp_server: str | None = None
    """The MCP server the payload itself names (Gemini's `mcp_context.server_name`), exact
    where the tool's name is not (`mcp_my_server_tool`); None: read it from the tool's name."""


class Verdict(StrEnum):
    ALLOW = "allow"
    DENY = "deny"
    NO_OPINION = "no_opinion"
    """For events that decide nothing (post-tool, session end)."""


@dataclass(frozen=True)
class HookAnswer:
    verdict: Verdict
    reason: str | None = None
    """DENY: what the agent's model receives; ALLOW: recorded as why."""
    updated_input: JsonObject | None = None
    """ALLOW with a person's edit: the tool input to run instead."""


@dataclass(frozen=True)
class HookReply:
    """What the hook process prints and exits with."""

    stdout: str
    exit_code: int = 0
    stderr: str = ""


class HookFormat(Protocol):
    """One agent's hook protocol."""

    agent: str

    def parse(self, payload: JsonObject) -> HookCall:
        """The agent's stdin JSON as a HookCall; BriefDeskError(invalid_arguments) when it is
        not that agent's hook JSON."""
        ...

    def reply(self, call: HookCall, answer: HookAnswer) -> HookReply:
        """The answer in the agent's own format, for that event."""
        ...

    def refuse(self, agent_event: str | None, reason: str) -> HookReply:
        """A denial when the call could not even be read or decided (never fail open)."""
        ...
