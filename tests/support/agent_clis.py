"""The coding agents' own CLIs, from npm (pinned to the versions measured for issue 42):
Claude Code, Codex and Gemini CLI, each installed once per machine (tests/support/npm_tools.py).
"""

from __future__ import annotations

from pathlib import Path

from tests.support.npm_tools import npm_program

CLAUDE_CODE_PACKAGE = "@anthropic-ai/claude-code@2.1.337"
CODEX_PACKAGE = "@openai/codex@0.171.0"
GEMINI_PACKAGE = "@google/gemini-cli@0.61.0"


def claude_bin() -> Path:
    return npm_program(CLAUDE_CODE_PACKAGE, "claude", "agent-claude-code")


def codex_bin() -> Path:
    return npm_program(CODEX_PACKAGE, "codex", "agent-codex")


def gemini_bin() -> Path:
    return npm_program(GEMINI_PACKAGE, "gemini", "agent-gemini")
