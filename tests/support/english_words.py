"""Which English words a text in the Chinese window still has (issue 30).

What may stay in Latin letters: codes, paths, file names, tool names and ids (a run of letters
with a digit, `_`, `.`, `-`, `/`, `@` or `:` in it), key names, and the product, protocol and
language names of ALLOWED. A word is two or more letters alone."""

from __future__ import annotations

import re

ALLOWED = frozenset(
    {
        "BriefDesk", "MCP", "API", "URL", "JSON", "CSV", "OpenAI", "PostgreSQL", "token", "UTC",
        "SIGKILL", "PDF", "Word", "OpenDocument", "HTML", "EPUB", "RTF", "Markdown", "Chat",
        "Completions", "Responses", "Secret", "Service", "KDE", "macOS", "Windows", "Keychain",
        "Ollama", "LM", "Studio", "vLLM", "English",
        "Ctrl", "Shift", "Alt", "Esc", "Enter", "Del", "Delete", "PgUp", "PgDown", "Space",
    }
)  # fmt: skip
_LATIN_RUN = re.compile(r"[A-Za-z0-9_./\\@:=+$-]+")
_WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str) -> set[str]:
    """The English words of `text` (empty: it reads in Chinese)."""
    words = set()
    for run in _LATIN_RUN.findall(text):
        for part in run.split("+"):  # Ctrl+Shift+A: key names
            if _WORD.fullmatch(part) and part not in ALLOWED:
                words.add(part)
    return words
