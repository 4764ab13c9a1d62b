"""PDF: one section per page, through pdfium (pypdfium2), without the text a reader cannot see.

A hostile PDF can carry instructions in text a reader cannot see. Before a page's text is read,
such text objects are removed from the page (pdf_visibility.py decides which; pdfium's text
page is built from the page's objects as they are then).
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from agent_core.contract.documents import DocumentError, DocumentErrorCode, ExtractedDocument
from agent_core.corpus.formats import ExtractLimits
from agent_core.corpus.formats.common import cap
from agent_core.corpus.formats.pdf_ocr import read_scanned_pages
from agent_core.corpus.formats.pdf_visibility import drop_hidden_text

_HEADING_MAX = 70
_CJK_HEADING_MAX = 20

# pdfium's markers: STX (a hyphen it judged soft), the soft hyphen itself, U+FFFE (a
# line-end hyphen). Removed, words left as the page shows them.
_MARKERS = str.maketrans({"\u00ad": None, "\ufffe": None, "\r": None})
_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb05": "st",
        "\ufb06": "st",
    }
)
_SENTENCE_END = tuple(".!?:。！？")
_HEADING_END = tuple(".,;:!?。！？，；：")
_CJK = re.compile(
    r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]"
)


def extract(path: Path, limits: ExtractLimits) -> ExtractedDocument:
    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as error:
        if getattr(error, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
            raise DocumentError(
                DocumentErrorCode.ENCRYPTED, "The PDF needs a password to open."
            ) from error
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The file is not a readable PDF ({error})."
        ) from error
    except OSError as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The PDF cannot be read ({error})."
        ) from error
    try:
        title = _title(document)
        sections, hidden_removed = _pages(document, limits.max_chars)
        sections, ocr_pages = read_scanned_pages(document, sections, limits, page_text)
    except pdfium.PdfiumError as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"A page of the PDF cannot be read ({error})."
        ) from error
    finally:
        document.close()
    if not any(section.strip() for section in sections):
        raise DocumentError(
            DocumentErrorCode.NO_TEXT, "The PDF has no text layer (a scan without OCR?)."
        )
    return ExtractedDocument(
        title=title,
        sections=tuple(sections),
        paged=True,
        hidden_removed=hidden_removed,
        ocr_pages=ocr_pages,
    )


def _title(document: pdfium.PdfDocument) -> str:
    try:
        value = document.get_metadata_value("Title")
    except (pdfium.PdfiumError, UnicodeDecodeError):
        return ""
    return " ".join(str(value).split())


def _pages(document: pdfium.PdfDocument, max_chars: int) -> tuple[list[str], int]:
    """Each page's text, and how many hidden text objects were left out."""
    sections: list[str] = []
    hidden = 0
    budget = max_chars
    for index in range(len(document)):
        if budget <= 0:
            sections.append("")  # past the cap: the page stays counted, its text is cut
            continue
        page = document[index]
        try:
            hidden += drop_hidden_text(page)
            textpage = page.get_textpage()
            try:
                raw = textpage.get_text_range()
            finally:
                textpage.close()
        finally:
            page.close()
        text = cap(page_text(raw), budget)
        budget -= len(text)
        sections.append(text)
    return sections, hidden


def page_text(raw: str) -> str:
    """pdfium's lines of one page as paragraphs (a blank line between) and `## ` headings."""
    # pdfium marks a hyphen at a line's end as U+0002: the hyphen the page shows, joining the
    # word's halves ("rollback-" / "journal" -> "rollback-journal"), never dropped.
    text = raw.translate(_MARKERS).replace("\x02\n", "-").replace("\x02", "-")
    text = text.translate(_LIGATURES)
    lines = [" ".join(line.split()) for line in text.split("\n")]
    lines = [line for line in lines if line]
    blocks: list[str] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            blocks.append(_join_lines(current))
            current.clear()

    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        bullet = _BULLET.match(line)
        if bullet:  # "• If another ..." starts a list item of its own
            flush()
            line = "- " + line[bullet.end() :]
        elif not current and _is_heading(line, following):
            blocks.append(f"## {line}")
            continue
        current.append(line)
        if line.endswith(_SENTENCE_END) and _starts_block(following):
            flush()
    flush()
    return "\n\n".join(blocks)


_BULLET = re.compile("^[\u2022\u25e6\u25aa\u25cf\u2023\u2043\u2219\uf0b7]\\s*")


def _is_heading(line: str, following: str) -> bool:
    # A full line of CJK is about 40 characters: shorter bounds for it than for Latin lines.
    longest = _CJK_HEADING_MAX if _CJK.match(line[-1]) else _HEADING_MAX
    return len(line) < longest and not line.endswith(_HEADING_END) and _starts_block(following)


def _starts_block(line: str) -> bool:
    if not line:
        return True
    first = line[0]
    return first.isupper() or first.isdigit() or bool(_CJK.match(first))


def _join_lines(lines: list[str]) -> str:
    """Lines of one paragraph with one space, none between two CJK characters."""
    joined = lines[0]
    for line in lines[1:]:
        if _CJK.match(joined[-1]) and _CJK.match(line[0]):
            joined += line
        else:
            joined += " " + line
    return joined
