"""What `agents status`, `agents connect` and `agents disconnect` print (CLI contract, fourth
wave, "External agents"), and what the window's Settings ▸ Agents shows."""

from __future__ import annotations

from typing import NotRequired, TypedDict

AGENT_NAMES = ("claude-code", "codex", "gemini")
"""The coding agents BriefDesk can connect its hook into, in the order `agents status` lists."""


class AgentStatusView(TypedDict):
    name: str
    """`claude-code`, `codex` or `gemini`."""
    connected: bool
    """Every hook BriefDesk adds is in the agent's settings file."""
    settings_path: str
    """The settings file the agent reads (absolute), whether or not it exists yet."""
    version: str | None
    """The agent CLI's version when it is on PATH, else null."""
    trust: NotRequired[str]
    """Where the agent runs only trusted hooks or folders (Codex, Gemini CLI): whether BriefDesk's
    hooks will run, or what the person must do once so that they do."""


class AgentChangeView(TypedDict):
    """One `agents connect` / `disconnect` (or its preview): the change to the settings file."""

    agent: AgentStatusView
    """The agent as it stands after the change (or, for a preview, as it would)."""
    changed: bool
    """False when the file already was as asked (connect twice adds once)."""
    written: bool
    """False for a preview (`--dry-run`) and for no change."""
    diff: str
    """The change as a unified diff of the settings file ("" when nothing changes)."""
    backup_path: str | None
    """The copy of the file as it was, kept beside it (connect only; null when the file did not
    exist yet or nothing was written)."""
