"""PDF: one section per page, through pdfium (pypdfium2), without the text a reader cannot see.

A hostile PDF can carry instructions in white, tiny or off-page text. Before a page's text is
read, such text objects are removed from the page (pdfium's text page is built from the page's
objects as they are then). Invisible render mode (the OCR layer of a scan) counts as hidden only
on a page with no image, where there is nothing for it to describe.
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from agent_core.contract.documents import DocumentError, DocumentErrorCode, ExtractedDocument
from agent_core.corpus.formats import ExtractLimits
from agent_core.corpus.formats.common import cap

_TINY_PT = 1.5
_WHITE_FROM = 245
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

Box = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


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
        sections = _pages(document, limits.max_chars)
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
    return ExtractedDocument(title=title, sections=tuple(sections), paged=True)


def _title(document: pdfium.PdfDocument) -> str:
    try:
        value = document.get_metadata_value("Title")
    except (pdfium.PdfiumError, UnicodeDecodeError):
        return ""
    return " ".join(str(value).split())


def _pages(document: pdfium.PdfDocument, max_chars: int) -> list[str]:
    sections: list[str] = []
    budget = max_chars
    for index in range(len(document)):
        if budget <= 0:
            sections.append("")  # past the cap: the page stays counted, its text is cut
            continue
        page = document[index]
        try:
            drop_hidden_text(page)
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
    return sections


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


# -- hidden text ---------------------------------------------------------------------------


def drop_hidden_text(page: pdfium.PdfPage) -> int:
    """Remove the page's text objects a reader cannot see; how many were removed."""
    raw_page = page.raw
    left, bottom, right, top = page.get_bbox()
    page_box: Box = (float(left), float(bottom), float(right), float(top))
    objects = _walk(raw_page)
    has_image = any(kind == pdfium_c.FPDF_PAGEOBJ_IMAGE for _, _, kind, _ in objects)
    hidden = [
        (parent, obj)
        for parent, obj, kind, matrix in objects
        if kind == pdfium_c.FPDF_PAGEOBJ_TEXT and _is_hidden(obj, matrix, page_box, has_image)
    ]
    for parent, obj in reversed(hidden):
        removed = (
            pdfium_c.FPDFPage_RemoveObject(raw_page, obj)
            if parent is None
            else pdfium_c.FPDFFormObj_RemoveObject(parent, obj)
        )
        if removed:
            pdfium_c.FPDFPageObj_Destroy(obj)
    return len(hidden)


# (the form object holding it or None for the page, the object, its type, form-to-page matrix)
_Entry = tuple[object | None, object, int, Matrix]


def _walk(raw_page: object) -> list[_Entry]:
    entries: list[_Entry] = []
    for index in range(pdfium_c.FPDFPage_CountObjects(raw_page)):
        obj = pdfium_c.FPDFPage_GetObject(raw_page, index)
        _visit(None, obj, _IDENTITY, entries, depth=0)
    return entries


def _visit(
    parent: object | None, obj: object, matrix: Matrix, out: list[_Entry], depth: int
) -> None:
    kind = int(pdfium_c.FPDFPageObj_GetType(obj))
    out.append((parent, obj, kind, matrix))
    if kind != pdfium_c.FPDF_PAGEOBJ_FORM or depth > 16:
        return
    inner = _multiply(_matrix(obj), matrix)  # objects of a form are in the form's space
    for index in range(pdfium_c.FPDFFormObj_CountObjects(obj)):
        _visit(obj, pdfium_c.FPDFFormObj_GetObject(obj, index), inner, out, depth + 1)


def _is_hidden(obj: object, matrix: Matrix, page_box: Box, has_image: bool) -> bool:
    box = _bounds(obj, matrix)
    if box is not None:
        left, bottom, right, top = box
        page_left, page_bottom, page_right, page_top = page_box
        if right <= page_left or left >= page_right or top <= page_bottom or bottom >= page_top:
            return True
        if min(right - left, top - bottom) < _TINY_PT:
            return True
    red, green, blue, alpha = (ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint())
    if pdfium_c.FPDFPageObj_GetFillColor(obj, red, green, blue, alpha) and (
        alpha.value == 0 or min(red.value, green.value, blue.value) >= _WHITE_FROM
    ):
        return True
    mode = pdfium_c.FPDFTextObj_GetTextRenderMode(obj)
    return bool(mode == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE and not has_image)


def _bounds(obj: object, matrix: Matrix) -> Box | None:
    left, bottom, right, top = (
        ctypes.c_float(),
        ctypes.c_float(),
        ctypes.c_float(),
        ctypes.c_float(),
    )
    if not pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
        return None
    if matrix == _IDENTITY:
        return (left.value, bottom.value, right.value, top.value)
    a, b, c, d, e, f = matrix
    xs, ys = [], []
    for x in (left.value, right.value):
        for y in (bottom.value, top.value):
            xs.append(a * x + c * y + e)
            ys.append(b * x + d * y + f)
    return (min(xs), min(ys), max(xs), max(ys))


def _matrix(obj: object) -> Matrix:
    found = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, found):
        return _IDENTITY
    return (found.a, found.b, found.c, found.d, found.e, found.f)


def _multiply(first: Matrix, then: Matrix) -> Matrix:
    """The matrix applying `first`, then `then` (PDF row-vector convention)."""
    a1, b1, c1, d1, e1, f1 = first
    a2, b2, c2, d2, e2, f2 = then
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )
