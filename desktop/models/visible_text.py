"""Untrusted text (a proposal's content, a model's words, a document's path) as the window shows
it: control characters and bidi overrides escaped visibly, never raw.

A carriage return, an ANSI sequence or a right-to-left override can hide or reorder what a
reviewer reads (issue 18: a `curl ... | sh` line erased from view). The rules are the core's, so
the window and `briefdesk-cli` escape alike; they come through the facade (the desktop's one way
into agent_core). Called only once events or proposals have arrived, so the bridge thread has
already imported the facade: the import here is a lookup, and the first paint never pays it.
"""

from __future__ import annotations


def visible_block(text: str) -> str:
    """Several lines: newlines and tabs kept, every other control character escaped."""
    from agent_core.facade.workspace import visible_block as escape

    return escape(text)


def visible_line(text: str) -> str:
    """One line (a table cell, a summary): newlines and tabs escaped too."""
    from agent_core.facade.workspace import visible_line as escape

    return escape(text)
