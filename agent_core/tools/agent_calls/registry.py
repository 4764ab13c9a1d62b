"""Each coding agent's tools by the agent's name (`claude-code`, `codex`, `gemini`)."""

from __future__ import annotations

import importlib
from typing import Final

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.tools.agent_calls.kinds import AgentTools

_MODULES: Final = {
    "claude-code": ("agent_core.tools.agent_calls.claude_code", "ClaudeCodeTools"),
    "codex": ("agent_core.tools.agent_calls.codex", "CodexTools"),
    "gemini": ("agent_core.tools.agent_calls.gemini", "GeminiTools"),
}
"""Imported when asked: a hook process loads only its own agent's module."""

AGENT_THREAD_PREFIX: Final = "agent:"
"""The thread of an external agent's run: `agent:NAME:SESSION` (its proposals carry it, so a
proposal tells review whose tools it calls without reading its run)."""


def agent_names() -> list[str]:
    return list(_MODULES)


def tools_for(agent: str) -> AgentTools:
    """The agent's tools; `invalid_arguments` for an agent BriefDesk does not know."""
    found = _MODULES.get(agent)
    if found is None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"Unknown agent {agent[:40]!r}: use one of {', '.join(_MODULES)}.",
        )
    module, name = found
    tools: AgentTools = getattr(importlib.import_module(module), name)()
    return tools


def agent_thread(agent: str, session_id: str) -> str:
    return f"{AGENT_THREAD_PREFIX}{agent}:{session_id}"


def agent_of_thread(thread_id: str) -> str | None:
    """The agent whose session the thread is (None: one of BriefDesk's own threads)."""
    if not thread_id.startswith(AGENT_THREAD_PREFIX):
        return None
    return thread_id[len(AGENT_THREAD_PREFIX) :].partition(":")[0] or None


def refuse_agent_thread(thread: str | None) -> None:
    """`run --thread`: an agent session's thread name is refused for BriefDesk's own runs (its
    proposals would be taken for the agent's)."""
    if thread is not None and agent_of_thread(thread) is not None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"Thread names starting with {AGENT_THREAD_PREFIX!r} belong to external agents' "
            "sessions: choose another thread name.",
        )
