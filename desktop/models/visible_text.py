"""Untrusted text (a proposal's content, a model's words, a document's path) as the window shows
it: control characters and bidi overrides escaped visibly, never raw.

A carriage return, an ANSI sequence or a right-to-left override can hide or reorder what a
reviewer reads (issue 18: a `curl ... | sh` line erased from view). The rules are the core's
(`agent_core.contract.terminal_text`, pure vocabulary: one regex, no I/O), so the window and
`briefdesk-cli` escape alike.
"""

from __future__ import annotations

from agent_core.contract.terminal_text import terminal_block, terminal_line


def visible_block(text: str) -> str:
    """Several lines: newlines and tabs kept, every other control character escaped."""
    return terminal_block(text)


def visible_line(text: str) -> str:
    """One line (a table cell, a summary): newlines and tabs escaped too."""
    return terminal_line(text)
