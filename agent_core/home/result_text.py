"""What a tool returned, as it may be kept on record and shown: masked, escaped, bounded.

A tool's answer (an MCP server's, a built-in tool's, an external agent's post-tool result) is
untrusted text of any size: it may quote a key BriefDesk holds, carry escape sequences that
rewrite a terminal or a widget, or run to megabytes. The timeline keeps at most `RESULT_BYTES`
of it, so every event stays small and a reviewer reads exactly what is stored.
"""

from __future__ import annotations

from agent_core.contract.terminal_text import terminal_block
from agent_core.home.door import mask_incoming

RESULT_BYTES = 4096  # the contract's bound: at most 4 KiB of UTF-8 per recorded result


def bounded_masked_text(text: str | None, limit: int = RESULT_BYTES) -> str | None:
    """`text` with every known secret masked, control characters escaped (newlines and tabs
    stay), cut to at most `limit` UTF-8 bytes with a note of the whole size; None stays None
    (the call did not run). Masked before it is cut, so a key split by the cut never shows."""
    if text is None:
        return None
    shown = terminal_block(mask_incoming(text))
    encoded = shown.encode("utf-8")
    if len(encoded) <= limit:
        return shown
    note = f"… ({len(encoded):,} bytes in all)"
    room = limit - len(note.encode("utf-8"))
    # errors="ignore" drops a character the byte cut split in two
    return encoded[:room].decode("utf-8", errors="ignore") + note
