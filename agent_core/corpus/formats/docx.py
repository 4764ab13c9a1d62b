"""DOCX: the body in reading order (python-docx opens the package and resolves the styles).

Kept: paragraphs, headings (`#` per level: a "Heading N"/"Title" style or an outline level),
list items, table rows, text inside content controls, insertions and hyperlinks. Dropped:
deleted text, field instructions, comments (they live outside the body), and runs a reader does
not see, their styles resolved as Word does (docx_looks.py): hidden (w:vanish, w:specVanish),
under 2 pt, or the colour of what is behind them.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from dataclasses import dataclass, replace
from pathlib import Path

import docx
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.opc.exceptions import PackageNotFoundError
from lxml import etree

from agent_core.contract.documents import DocumentError, DocumentErrorCode, ExtractedDocument
from agent_core.corpus.formats import ExtractLimits
from agent_core.corpus.formats.common import (
    join_blocks,
    open_zip,
    read_member,
    single_section,
    squash_spaces,
)
from agent_core.corpus.formats.docx_looks import Looks, RunProps
from agent_core.corpus.formats.package_xml import dc_title, parse_xml
from agent_core.corpus.formats.visibility import Rgb

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTION_INFO = "EncryptionInfo".encode("utf-16-le")  # a stream name in the OLE directory
_HEADING_NAME = re.compile(r"heading\s*([1-9])$", re.I)
# Containers whose runs are read as part of the paragraph (a content control, an insertion...).
_RUN_CONTAINERS = {
    f"{_W}ins",
    f"{_W}hyperlink",
    f"{_W}smartTag",
    f"{_W}customXml",
    f"{_W}fldSimple",
    f"{_W}sdt",
    f"{_W}sdtContent",
    f"{_W}moveTo",
}
_BLOCK_CONTAINERS = {f"{_W}sdt", f"{_W}sdtContent", f"{_W}customXml", f"{_W}ins", f"{_W}moveTo"}


class _Styles:
    """Per paragraph style id: its heading level (0: none) and whether it numbers (a list)."""

    def __init__(self, document: docx.document.Document) -> None:
        self.level: dict[str, int] = {}
        self.listed: dict[str, bool] = {}
        for style in document.styles:
            style_id = style.style_id
            if style_id is None:
                continue
            self.level[style_id] = _style_level(style)
            self.listed[style_id] = _style_listed(style)


def _style_level(style: docx.styles.style.BaseStyle) -> int:
    current: docx.styles.style.BaseStyle | None = style
    for _ in range(10):  # the based-on chain, bounded (a loop in a hostile file)
        if current is None:
            return 0
        name = (current.name or "").strip()
        if name.lower() == "title":
            return 1
        found = _HEADING_NAME.match(name)
        if found:
            return int(found.group(1))
        outline = current.element.find(f"{_W}pPr/{_W}outlineLvl")
        if outline is not None:
            return _outline_level(outline)
        current = getattr(current, "base_style", None)
    return 0


def _style_listed(style: docx.styles.style.BaseStyle) -> bool:
    current: docx.styles.style.BaseStyle | None = style
    for _ in range(10):
        if current is None:
            return False
        if current.element.find(f"{_W}pPr/{_W}numPr") is not None:
            return True
        current = getattr(current, "base_style", None)
    return False


def _outline_level(element: etree._Element) -> int:
    value = element.get(f"{_W}val", "9")
    level = int(value) + 1 if value.isdigit() else 0
    return level if 1 <= level <= 6 else 0  # 9 (10 here) is body text


def extract(path: Path, limits: ExtractLimits) -> ExtractedDocument:
    with path.open("rb") as stream:
        if stream.read(8) == _OLE_MAGIC:
            # An OLE compound file: Word's encryption wraps the package in one (with an
            # EncryptionInfo stream), and so is a Word 97-2003 file misnamed .docx.
            if _ENCRYPTION_INFO in stream.read():
                raise DocumentError(DocumentErrorCode.ENCRYPTED, "The document needs a password.")
            raise DocumentError(
                DocumentErrorCode.UNREADABLE, "The file is a Word 97-2003 document, not DOCX."
            )
    with open_zip(path, limits.max_unpacked_bytes, "DOCX") as archive:
        # python-docx falls back to a made-up title ("Word Document") when it misses the part.
        core = "docProps/core.xml" in archive.namelist()
        title = (
            dc_title(parse_xml(read_member(archive, "docProps/core.xml", "DOCX"), "DOCX"))
            if core
            else ""
        )
    try:
        document = docx.Document(str(path))
        reader = _Reader(_Styles(document), _looks(document))
        blocks: list[str] = []
        headings: list[str] = []
        reader.blocks(document.element.body, blocks, headings, reader.looks.page)
    except DocumentError:
        raise
    except (PackageNotFoundError, KeyError, ValueError, etree.LxmlError, OSError) as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The file is not a readable DOCX document ({error})."
        ) from error
    except (
        zipfile.BadZipFile, zlib.error, EOFError, AttributeError, TypeError, IndexError,
        NotImplementedError,
    ) as error:  # fmt: skip
        # python-docx assumes a well-formed package; a damaged one fails anywhere inside it.
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The file is not a readable DOCX document ({error})."
        ) from error
    if not title.strip() and headings:
        title = headings[0]
    extracted = single_section(" ".join(title.split()), join_blocks(blocks), limits.max_chars)
    return replace(extracted, hidden_removed=reader.hidden)


def _looks(document: docx.document.Document) -> Looks:
    theme = None
    for relationship in document.part.rels.values():
        if relationship.reltype == RELATIONSHIP_TYPE.THEME and not relationship.is_external:
            theme = parse_xml(relationship.target_part.blob, "DOCX")
            break
    return Looks(document.styles.element, theme, document.settings.element, document.element.body)


@dataclass
class _Reader:
    """Reads the body in order, leaving out (and counting) the runs a reader cannot see."""

    styles: _Styles
    looks: Looks
    hidden: int = 0

    def blocks(
        self, container: etree._Element, blocks: list[str], headings: list[str], behind: Rgb
    ) -> None:
        for child in container:
            tag = child.tag
            if tag == f"{_W}p":
                block, level = self._paragraph(child, behind)
                if level and block:
                    headings.append(block)
                    block = "#" * level + " " + block
                elif block and _is_listed(child, self.styles):
                    block = "- " + block
                blocks.append(block)
            elif tag == f"{_W}tbl":
                blocks.append("\n".join(self._table_rows(child, behind)))
            elif tag in _BLOCK_CONTAINERS:
                self.blocks(child, blocks, headings, behind)

    def _paragraph(self, paragraph: etree._Element, behind: Rgb) -> tuple[str, int]:
        base, shading = self.looks.paragraph(paragraph)
        parts: list[str] = []
        self._runs(paragraph, parts, base, shading or behind)
        text = squash_spaces("".join(parts)).strip()
        outline = paragraph.find(f"{_W}pPr/{_W}outlineLvl")
        level = _outline_level(outline) if outline is not None else 0
        if not level:
            level = self.styles.level.get(_style_id(paragraph), 0)
        return (" ".join(text.split()) if level else text), level

    def _runs(
        self, container: etree._Element, parts: list[str], base: RunProps, behind: Rgb
    ) -> None:
        for child in container:
            tag = child.tag
            if tag == f"{_W}r":
                if not self.looks.run_hidden(child, base, behind):
                    _run_text(child, parts)
                else:
                    skipped: list[str] = []
                    _run_text(child, skipped)
                    self.hidden += bool("".join(skipped).strip())
            elif tag in _RUN_CONTAINERS:
                self._runs(child, parts, base, behind)
            # w:del, w:moveFrom (deleted text), w:pPr, bookmarks, comment ranges: nothing to read

    def _table_rows(self, table: etree._Element, behind: Rgb) -> list[str]:
        rows: list[str] = []
        for row in table.iter(f"{_W}tr"):
            if row.getparent() is not None and _nearest_table(row) is not table:
                continue  # a nested table's row is read inside its cell
            cells = []
            for cell in row.iter(f"{_W}tc"):
                if cell.getparent() is not row and _nearest_row(cell) is not row:
                    continue
                inner: list[str] = []
                self.blocks(cell, inner, [], self.looks.cell_shading(cell) or behind)
                cells.append(" ".join(" ".join(inner).split()).replace("|", "/"))
            if any(cells):
                rows.append("| " + " | ".join(cells) + " |")
        return rows


def _style_id(paragraph: etree._Element) -> str:
    found = paragraph.find(f"{_W}pPr/{_W}pStyle")
    return "" if found is None else str(found.get(f"{_W}val", ""))


def _is_listed(paragraph: etree._Element, styles: _Styles) -> bool:
    if paragraph.find(f"{_W}pPr/{_W}numPr") is not None:
        return True
    return styles.listed.get(_style_id(paragraph), False)


def _run_text(run: etree._Element, parts: list[str]) -> None:
    for child in run:
        tag = child.tag
        if tag == f"{_W}t":
            parts.append(child.text or "")
        elif tag in (f"{_W}tab", f"{_W}ptab"):
            parts.append(" ")
        elif tag in (f"{_W}br", f"{_W}cr"):
            parts.append("\n")
        elif tag == f"{_W}noBreakHyphen":
            parts.append("-")
        # w:instrText (field code), w:delText, w:commentReference, drawings: not text


def _nearest_table(element: etree._Element) -> etree._Element | None:
    parent = element.getparent()
    while parent is not None and parent.tag != f"{_W}tbl":
        parent = parent.getparent()
    return parent


def _nearest_row(element: etree._Element) -> etree._Element | None:
    parent = element.getparent()
    while parent is not None and parent.tag != f"{_W}tr":
        parent = parent.getparent()
    return parent
