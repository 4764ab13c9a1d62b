"""PDF: one section per page, through pdfium (pypdfium2), without the text a reader cannot see.

A hostile PDF can carry instructions in text a reader cannot see. Before a page's text is read,
such text objects are removed from the page (pdf_visibility.py decides which; pdfium's text
page is built from the page's objects as they are then).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
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

# pdfium's marks: U+FFFE for a hyphen at a line's end (STX in older builds), the soft hyphen
# (U+00AD: a break a word processor may use, drawn only at a line's end), CR of its line ends.
_PDFIUM_HYPHEN = 0x02  # FPDFText_GetUnicode of a line-end hyphen
_LINE_END_HYPHEN = "\ufffe"
SOFT_HYPHEN = "\u00ad"
_ONE_CHARACTER_BYTES = 4
_MARKERS = str.maketrans({SOFT_HYPHEN: None, "\r": None})
_LETTERS = r"[^\W\d_]+"
_BROKEN_WORD = re.compile(rf"({_LETTERS})([{_LINE_END_HYPHEN}{SOFT_HYPHEN}])(?:\r?\n)?({_LETTERS})")
_WORDS = re.compile(rf"{_LETTERS}(?:-{_LETTERS})*")
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
    raws: list[str] = []
    hidden = 0
    read = 0
    for index in range(len(document)):
        if read >= max_chars:
            raws.append("")  # past the cap: the page stays counted, its text is cut
            continue
        page = document[index]
        try:
            hidden += drop_hidden_text(page)
            textpage = page.get_textpage()
            try:
                raw = _typeset_hyphens(textpage, textpage.get_text_range())
            finally:
                textpage.close()
        finally:
            page.close()
        read += len(raw)
        raws.append(raw)
    known = document_words(raws)  # words of every page: a hyphen at a line's end is read by them
    sections: list[str] = []
    budget = max_chars
    for raw in raws:
        text = cap(page_text(raw, known), budget) if budget > 0 else ""
        budget -= len(text)
        sections.append(text)
    return sections, hidden


def _typeset_hyphens(textpage: pdfium.PdfTextPage, raw: str) -> str:
    """`raw` with each line-end hyphen that the typesetter drew as a text object of its own
    (LibreOffice's hyphenation does; a hyphen the author typed is part of the line's text)
    marked as a soft hyphen. pdfium marks every hyphen at a line's end alike (U+FFFE)."""
    if _LINE_END_HYPHEN not in raw:
        return raw
    alone: list[bool] = []
    for index in range(pdfium_c.FPDFText_CountChars(textpage.raw)):
        if pdfium_c.FPDFText_GetUnicode(textpage.raw, index) != _PDFIUM_HYPHEN:
            continue
        obj = pdfium_c.FPDFText_GetTextObject(textpage.raw, index)
        # UTF-16 with its terminator: 4 bytes is one character, the hyphen alone.
        size = pdfium_c.FPDFTextObj_GetText(obj, textpage.raw, None, 0) if obj else 0
        alone.append(size == _ONE_CHARACTER_BYTES)
    parts = raw.split(_LINE_END_HYPHEN)
    if len(alone) != len(parts) - 1:
        return raw  # pdfium's marks and its characters disagree: the words decide alone
    out = [parts[0]]
    for soft, part in zip(alone, parts[1:], strict=True):
        out += [SOFT_HYPHEN if soft else _LINE_END_HYPHEN, part]
    return "".join(out)


def page_text(raw: str, known: DocumentWords | None = None) -> str:
    """pdfium's lines of one page as paragraphs (a blank line between) and `## ` headings;
    a word hyphenated at a line's end is mended by `known`, the document's words."""
    known = known or DocumentWords(frozenset(), typeset_marks=False)
    text = _BROKEN_WORD.sub(lambda m: _mend(m, known), raw.replace("\x02", _LINE_END_HYPHEN))
    text = text.replace(_LINE_END_HYPHEN, "-").translate(_MARKERS).translate(_LIGATURES)
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


@dataclass(frozen=True)
class DocumentWords:
    """What a document's pages say about its words, to mend those broken at a line's end."""

    words: frozenset[str]
    """Its words (lower case) and each part of a hyphenated one, halves of broken ones left out."""
    typeset_marks: bool
    """Its typesetter draws the hyphens it adds as text of their own (seen on some page): any
    other hyphen at a line's end is the author's."""


def document_words(raws: list[str]) -> DocumentWords:
    known: set[str] = set()
    marks = False
    for raw in raws:
        raw = raw.replace("\x02", _LINE_END_HYPHEN)
        marks = marks or any(m.group(2) == SOFT_HYPHEN for m in _BROKEN_WORD.finditer(raw))
        for word in _WORDS.findall(_BROKEN_WORD.sub(" ", raw).translate(_MARKERS).lower()):
            known.add(word)
            known.update(word.split("-"))
    return DocumentWords(frozenset(known), marks)


def _mend(match: re.Match[str], known: DocumentWords) -> str:
    """A word broken at a line's end, whole: without the hyphen when the typesetter added it
    (a soft hyphen) or the document spells it so elsewhere ("re-" / "search": "research");
    with it when the document writes it so, when its typesetter marks the hyphens it adds (this
    one it did not), or when both halves are words it uses ("well-" / "known"). Otherwise the
    halves are a word's syllables."""
    left, mark, right = match.groups()
    joined, compound = left + right, f"{left}-{right}"
    if mark == SOFT_HYPHEN:
        return joined
    if compound.lower() in known.words or right[0].isupper():
        return compound
    if joined.lower() in known.words:
        return joined
    if known.typeset_marks or {left.lower(), right.lower()} <= known.words:
        return compound
    return joined
