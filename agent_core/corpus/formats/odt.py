"""OpenDocument text: content.xml in reading order (zipfile + lxml, no entities, no network).

Kept: headings (`#` per outline level), paragraphs, list items, table rows, links, sections.
Dropped: comments (office:annotation), notes, hidden text, paragraphs and sections, tracked
deletions, text boxes (a frame may sit off the page), and text its styles hide, resolved through
automatic, common, parent and default styles (odt_looks.py): display none, under 2 pt, or the
colour of what is behind it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

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
from agent_core.corpus.formats.odt_looks import Context, OdtLooks
from agent_core.corpus.formats.package_xml import dc_title, parse_xml
from agent_core.corpus.formats.visibility import Rgb

_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_FO = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
_MANIFEST = "{urn:oasis:names:tc:opendocument:xmlns:manifest:1.0}"
_KIND = "ODT"

# Inline elements whose content is not shown (or not the text: a comment, a note, a frame).
_SKIPPED_INLINE = {
    f"{_OFFICE}annotation",
    f"{_OFFICE}annotation-end",
    f"{_TEXT}note",
    f"{_TEXT}hidden-text",
    f"{_TEXT}hidden-paragraph",
    f"{_TEXT}tracked-changes",
    f"{_TEXT}change",
    f"{_TEXT}change-start",
    f"{_TEXT}change-end",
    "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}frame",
}
# Block containers read through: their children are the blocks.
_THROUGH = {f"{_TEXT}section", f"{_TEXT}index-body", f"{_TEXT}soft-page-break"}
_SKIPPED_BLOCKS = {f"{_TEXT}tracked-changes", f"{_TEXT}sequence-decls", f"{_OFFICE}forms"}


def extract(path: Path, limits: ExtractLimits) -> ExtractedDocument:
    with open_zip(path, limits.max_unpacked_bytes, _KIND) as archive:
        names = set(archive.namelist())
        if "META-INF/manifest.xml" in names:
            manifest = parse_xml(read_member(archive, "META-INF/manifest.xml", _KIND), _KIND)
            if manifest.find(f".//{_MANIFEST}encryption-data") is not None:
                raise DocumentError(
                    DocumentErrorCode.ENCRYPTED, "The document is saved with a password."
                )
        content = parse_xml(read_member(archive, "content.xml", _KIND), _KIND)
        styles = None
        if "styles.xml" in names:
            styles = parse_xml(read_member(archive, "styles.xml", _KIND), _KIND)
        title = ""
        if "meta.xml" in names:
            title = dc_title(parse_xml(read_member(archive, "meta.xml", _KIND), _KIND))
    body = content.find(f"{_OFFICE}body/{_OFFICE}text")
    if body is None:
        raise DocumentError(DocumentErrorCode.UNREADABLE, "The file is not an OpenDocument text.")
    reader = _Reader(OdtLooks(content, styles))
    blocks: list[str] = []
    headings: list[str] = []
    reader.blocks(body, blocks, headings, 0, reader.looks.page)
    document = single_section(
        title or (headings[0] if headings else ""), join_blocks(blocks), limits.max_chars
    )
    return replace(document, hidden_removed=reader.hidden)


@dataclass
class _Reader:
    """Reads the body in order, leaving out (and counting) the text a reader cannot see."""

    looks: OdtLooks
    hidden: int = 0

    def blocks(
        self,
        container: etree._Element,
        blocks: list[str],
        headings: list[str],
        list_depth: int,
        behind: Rgb,
    ) -> None:
        for child in container:
            tag = child.tag
            if tag in _SKIPPED_BLOCKS:
                continue
            if tag in (f"{_TEXT}p", f"{_TEXT}h"):
                self._paragraph(child, tag, blocks, headings, list_depth, behind)
            elif tag == f"{_TEXT}list":
                for item in child:
                    self.blocks(item, blocks, headings, list_depth + 1, behind)
            elif tag == f"{_TABLE}table":
                blocks.append("\n".join(self._table_rows(child, behind)))
            elif tag == f"{_TEXT}section" and child.get(f"{_TEXT}display") == "none":
                self.hidden += bool("".join(child.itertext()).strip())
            elif tag in _THROUGH or (tag.startswith(_TEXT) and tag.endswith("-index")):
                self.blocks(child, blocks, headings, list_depth, behind)

    def _paragraph(
        self,
        paragraph: etree._Element,
        tag: str,
        blocks: list[str],
        headings: list[str],
        list_depth: int,
        behind: Rgb,
    ) -> None:
        if _hides_itself(paragraph):
            self.hidden += bool("".join(paragraph.itertext()).strip())
            return
        style = str(paragraph.get(f"{_TEXT}style-name", ""))
        behind = self.looks.background("paragraph", style, "paragraph-properties") or behind
        parts: list[str] = []
        self._collect(paragraph, (("paragraph", style),), behind, parts)
        text = squash_spaces("".join(parts)).strip()
        if not text:
            return
        if tag == f"{_TEXT}h":
            level_text = paragraph.get(f"{_TEXT}outline-level", "1")
            level = min(int(level_text), 6) if level_text.isdigit() and level_text != "0" else 1
            text = " ".join(text.split())
            headings.append(text)
            blocks.append("#" * level + " " + text)
        elif list_depth:
            blocks.append("- " + text)
        else:
            blocks.append(text)

    def _collect(
        self, element: etree._Element, context: Context, behind: Rgb, parts: list[str]
    ) -> None:
        unseen = self.looks.hidden(context, behind)
        left_out = False

        def add(text: str | None) -> None:
            nonlocal left_out
            if text and unseen:
                left_out = left_out or bool(text.strip())
            elif text:
                parts.append(text)

        add(element.text)
        for child in element:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIPPED_INLINE:
                pass  # a comment or processing instruction, or content not shown
            elif tag == f"{_TEXT}s":
                count = child.get(f"{_TEXT}c", "1")
                parts.append(" " * min(int(count) if count.isdigit() else 1, 100))
            elif tag == f"{_TEXT}tab":
                parts.append(" ")
            elif tag == f"{_TEXT}line-break":
                parts.append("\n")
            else:
                style = child.get(f"{_TEXT}style-name")
                inner = (("text", str(style)), *context) if style else context
                self._collect(child, inner, behind, parts)
            add(child.tail)
        self.hidden += left_out

    def _table_rows(self, table: etree._Element, behind: Rgb) -> list[str]:
        rows: list[str] = []
        for row in table.iter(f"{_TABLE}table-row"):
            cells = []
            for cell in row:
                if cell.tag != f"{_TABLE}table-cell":
                    continue
                style = str(cell.get(f"{_TABLE}style-name", ""))
                fill = self.looks.background("table-cell", style, "table-cell-properties")
                inner: list[str] = []
                self.blocks(cell, inner, [], 0, fill or behind)
                cells.append(" ".join(" ".join(inner).split()).replace("|", "/"))
            if any(cells):
                rows.append("| " + " | ".join(cells) + " |")
        return rows


def _hides_itself(paragraph: etree._Element) -> bool:
    field = paragraph.find(f"{_TEXT}hidden-paragraph")
    return field is not None and field.get(f"{_TEXT}is-hidden", "true") != "false"
