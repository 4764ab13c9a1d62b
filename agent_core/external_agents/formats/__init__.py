"""Each coding agent's hook format by the agent's name (`briefdesk-cli hook NAME`)."""

from __future__ import annotations

import importlib
from typing import Final

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.external_agents.hook_call import HookFormat

_FORMATS: Final = {
    "claude-code": ("agent_core.external_agents.formats.claude_code", "ClaudeCodeFormat"),
    "codex": ("agent_core.external_agents.formats.codex", "CodexFormat"),
    "gemini": ("agent_core.external_agents.formats.gemini", "GeminiFormat"),
}
"""Imported when asked: a hook process loads only its own agent's module."""


def format_names() -> list[str]:
    return list(_FORMATS)


def format_for(agent: str) -> HookFormat:
    """The agent's hook format; `invalid_arguments` for an agent BriefDesk does not know."""
    found = _FORMATS.get(agent)
    if found is None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"Unknown agent {agent[:40]!r}: use one of {', '.join(_FORMATS)}.",
        )
    module, name = found
    hook_format: HookFormat = getattr(importlib.import_module(module), name)()
    return hook_format
