"""RTF: striprtf's text, paragraphs separated by blank lines; title from the first short line.

Text a reader does not see (hidden, tiny, the colour of its background) is taken out of the
source first (rtf_hidden.py).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from striprtf.striprtf import rtf_to_text

from agent_core.contract.documents import DocumentError, DocumentErrorCode, ExtractedDocument
from agent_core.corpus.formats import ExtractLimits
from agent_core.corpus.formats.common import join_blocks, single_section, squash_spaces
from agent_core.corpus.formats.rtf_hidden import remove_hidden

_TITLE_MAX = 120


def extract(path: Path, limits: ExtractLimits) -> ExtractedDocument:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The file cannot be read ({error})."
        ) from error
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{\\rtf"):
        raise DocumentError(DocumentErrorCode.UNREADABLE, "The file is not RTF (no {\\rtf header).")
    shown, hidden = remove_hidden(data)
    # RTF is 7-bit: non-ASCII arrives as escapes that striprtf decodes itself.
    source = shown.decode("latin-1")
    try:
        text: str = rtf_to_text(source, errors="ignore")  # type: ignore[no-untyped-call]
    except (ValueError, IndexError, RecursionError, LookupError) as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The RTF cannot be read ({error})."
        ) from error
    lines = squash_spaces(text.replace("\r\n", "\n").replace("\r", "\n")).split("\n")
    paragraphs = [line for line in lines if line]
    title = next(
        (line for line in paragraphs[:1] if len(line) <= _TITLE_MAX),
        "",
    )
    document = single_section(title, join_blocks(paragraphs), limits.max_chars)
    return replace(document, hidden_removed=hidden)
