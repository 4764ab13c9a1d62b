"""Where each coding agent keeps its settings, and the hooks BriefDesk adds to them.

Measured on Claude Code 2.1.337, Codex 0.171.0 and Gemini CLI 0.61.0 (their bundles, their docs,
and `codex app-server`'s `hooks/list`). Each agent honours a variable that moves its folder
(CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME): BriefDesk writes where the agent will read.
"""

from __future__ import annotations

import itertools
import os
import shlex
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode

HOOK_TIMEOUT_S = 600
"""Above `agents.decision_timeout` (at most 590 s): the hook answers before the agent gives up."""
CODEX_SESSION_END_TIMEOUT_S = 3
"""Codex clamps a SessionEnd hook to 3 s and warns at every start about a longer one; that hook
decides nothing, so it gets what Codex allows."""


class SettingsFormat(StrEnum):
    JSON = "json"
    TOML = "toml"


@dataclass(frozen=True)
class HookSlot:
    """One hook BriefDesk adds: a matcher group of one command handler under `event`."""

    event: str
    """The agent's own event name (`PreToolUse`, `BeforeTool`, ...)."""
    matcher: str | None
    """`*` (every tool) for tool events; None where the event has no tool to match."""
    timeout: int
    """In the agent's unit: seconds, or milliseconds for Gemini CLI."""


@dataclass(frozen=True)
class AgentSpec:
    name: str
    program: str
    """Its command on PATH."""
    package: str
    """Its npm package: the version is read from the package.json beside the program."""
    format: SettingsFormat
    slots: tuple[HookSlot, ...]
    takes_project: bool
    """Whether `--project DIR` names a settings file of that folder (Claude Code only)."""

    def settings_path(self, project: Path | None = None) -> Path:
        """The file the agent reads; `project`: that folder's own settings."""
        if project is not None:
            if not self.takes_project:
                raise BriefDeskError(
                    ErrorCode.INVALID_ARGUMENTS,
                    f"{self.name} keeps its hooks in the user's settings only: leave out "
                    "--project.",
                )
            return project / ".claude" / "settings.json"
        if self.name == "claude-code":
            return _agent_folder("CLAUDE_CONFIG_DIR", ".claude") / "settings.json"
        if self.name == "codex":
            # Codex keys its hook trust by this path with symlinks resolved (measured).
            return _agent_folder("CODEX_HOME", ".codex") / "config.toml"
        base = os.environ.get("GEMINI_CLI_HOME") or str(Path.home())
        return Path(base).expanduser().absolute() / ".gemini" / "settings.json"


def _agent_folder(variable: str, default: str) -> Path:
    moved = os.environ.get(variable)
    return Path(moved).expanduser().absolute() if moved else Path.home() / default


def _tool_slots(events: tuple[str, ...], timeout: int) -> tuple[HookSlot, ...]:
    return tuple(HookSlot(event, "*", timeout) for event in events)


AGENTS: dict[str, AgentSpec] = {
    "claude-code": AgentSpec(
        name="claude-code",
        program="claude",
        package="@anthropic-ai/claude-code",
        format=SettingsFormat.JSON,
        slots=(
            *_tool_slots(("PreToolUse", "PostToolUse"), HOOK_TIMEOUT_S),
            HookSlot("SessionEnd", None, HOOK_TIMEOUT_S),
        ),
        takes_project=True,
    ),
    "codex": AgentSpec(
        name="codex",
        program="codex",
        package="@openai/codex",
        format=SettingsFormat.TOML,
        slots=(
            # PermissionRequest decides MCP calls (and, interactively, patches); PreToolUse
            # sees a patch inside the folder that never asks.
            *_tool_slots(("PreToolUse", "PermissionRequest", "PostToolUse"), HOOK_TIMEOUT_S),
            HookSlot("SessionEnd", None, CODEX_SESSION_END_TIMEOUT_S),
        ),
        takes_project=False,
    ),
    "gemini": AgentSpec(
        name="gemini",
        program="gemini",
        package="@google/gemini-cli",
        format=SettingsFormat.JSON,
        slots=(
            *_tool_slots(("BeforeTool", "AfterTool"), HOOK_TIMEOUT_S * 1000),
            HookSlot("SessionEnd", None, HOOK_TIMEOUT_S * 1000),
        ),
        takes_project=False,
    ),
}


def agent_spec(name: str) -> AgentSpec:
    spec = AGENTS.get(name)
    if spec is None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"Unknown agent {name!r}: name one of {', '.join(AGENTS)}.",
        )
    return spec


def hook_command(cli: Path, agent: str, home: Path | None) -> str:
    """The shell command the agent runs: this briefdesk-cli, on this home when not the default.

    `|| exit 2`: the three agents run a hook through a shell and read only exit 2 as "block";
    a briefdesk-cli that is gone or cannot start (127, 126, 1) would let Codex and Gemini CLI run
    the tool unseen. The hook itself answers with 0 or 2, so nothing else changes."""
    home_option = [] if home is None else ["--home", str(home)]
    return f"{shlex.join([str(cli), *home_option, 'hook', agent])} || exit 2"


def is_briefdesk_hook(command: object, agent: str) -> bool:
    """Whether a handler's command is BriefDesk's hook for `agent`, whichever briefdesk-cli and
    home it names: a connect from a moved install or another home still finds its own."""
    if not isinstance(command, str):
        return False
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    if not argv or not Path(argv[0]).name.startswith("briefdesk-cli"):
        return False
    return any(a == "hook" and b == agent for a, b in itertools.pairwise(argv[1:]))
