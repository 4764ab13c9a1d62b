"""Text from a run, a document or a model, made safe to show on a terminal (or in a widget).

Such text is untrusted: an escape sequence (ESC[1A ESC[2K, an OSC title), a carriage return or
a bidi override can erase, overwrite or reorder what a reviewer sees, so a `curl ... | sh` line
in a proposal could vanish from view. Every such character is shown as a visible escape
instead (`\\x1b`, `\\r`, `\\u202e`), the way Python's repr would write it. Backslashes stay as
they are (paths on Windows), so an escape is a hint to look, not a reversible encoding.
"""

from __future__ import annotations

import re

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}

# C0 and C1 controls and DEL; bidi marks, embeddings, overrides and isolates (U+200E-200F,
# U+202A-202E, U+2066-2069: "Trojan Source"); invisible characters that make two names look
# alike (zero-width space, word joiner and invisible operators, byte order mark); line and
# paragraph separators; lone surrogates, which a UTF-8 terminal cannot even encode (argv
# bytes that are not UTF-8 arrive as such). Zero-width (non-)joiners join emoji and Indic
# letters inside prose, so only a line (a name, a path) escapes them.
_OTHER_UNSAFE = (
    r"\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 but tab and newline, DEL, C1
    r"\u200b\u200e\u200f\u2060-\u2064\ufeff"
    r"\u202a-\u202e\u2066-\u2069"
    r"\u2028\u2029"
    r"\ud800-\udfff"
)
_UNSAFE_IN_BLOCK = re.compile(f"[{_OTHER_UNSAFE}]")
_UNSAFE_IN_LINE = re.compile(rf"[\t\n\u200c\u200d{_OTHER_UNSAFE}]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_block(text: str) -> str:
    """Multi-line text (a diff, an answer, help): real newlines and tabs, every other control
    character and bidi override escaped visibly."""
    return _UNSAFE_IN_BLOCK.sub(_escape, text)


def terminal_line(text: str) -> str:
    """One-line text (a path, a question, a table cell): newlines and tabs escaped too, so a
    value can never start a line of its own that looks like the tool's output."""
    return _UNSAFE_IN_LINE.sub(_escape, text)
