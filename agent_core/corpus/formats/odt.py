"""OpenDocument text: content.xml in reading order (zipfile + lxml, no entities, no network).

Kept: headings (`#` per outline level), paragraphs, list items, table rows, links, sections.
Dropped: comments (office:annotation), notes, hidden text and paragraphs, tracked deletions, text
boxes (a frame may sit off the page), and spans whose automatic style hides them: display none,
white or under 1.5 pt.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from agent_core.contract.documents import DocumentError, DocumentErrorCode, ExtractedDocument
from agent_core.corpus.formats import ExtractLimits
from agent_core.corpus.formats.common import (
    dc_title,
    join_blocks,
    open_zip,
    parse_xml,
    read_member,
    single_section,
    squash_spaces,
)

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
        title = ""
        if "meta.xml" in names:
            title = dc_title(parse_xml(read_member(archive, "meta.xml", _KIND), _KIND))
    hidden = _hidden_styles(content)
    body = content.find(f"{_OFFICE}body/{_OFFICE}text")
    if body is None:
        raise DocumentError(DocumentErrorCode.UNREADABLE, "The file is not an OpenDocument text.")
    blocks: list[str] = []
    headings: list[str] = []
    _read_blocks(body, hidden, blocks, headings, list_depth=0)
    return single_section(
        title or (headings[0] if headings else ""), join_blocks(blocks), limits.max_chars
    )


def _hidden_styles(content: etree._Element) -> set[str]:
    """Automatic styles a reader does not see: display none, white text, under 1.5 pt."""
    hidden: set[str] = set()
    for style in content.iter(f"{_STYLE}style"):
        properties = style.find(f"{_STYLE}text-properties")
        if properties is None:
            continue
        color = (properties.get(f"{_FO}color") or "").lower()
        size = properties.get(f"{_FO}font-size") or ""
        if (
            properties.get(f"{_TEXT}display") == "none"
            or color in ("#ffffff", "#fefefe", "#fdfdfd", "#fafafa", "#f5f5f5")
            or _points(size) < 1.5
        ):
            hidden.add(style.get(f"{_STYLE}name", ""))
    return hidden


def _points(size: str) -> float:
    units = {"pt": 1.0, "px": 0.75, "mm": 2.835, "cm": 28.35, "in": 72.0}
    for unit, factor in units.items():
        if size.endswith(unit):
            try:
                return float(size[: -len(unit)]) * factor
            except ValueError:
                return 99.0
    return 99.0  # a percentage or nothing: not tiny


def _read_blocks(
    container: etree._Element,
    hidden: set[str],
    blocks: list[str],
    headings: list[str],
    list_depth: int,
) -> None:
    for child in container:
        tag = child.tag
        if tag in _SKIPPED_BLOCKS:
            continue
        if tag in (f"{_TEXT}p", f"{_TEXT}h"):
            if child.get(f"{_TEXT}style-name", "") in hidden or _hides_itself(child):
                continue
            text = _inline(child, hidden)
            if not text:
                continue
            if tag == f"{_TEXT}h":
                level_text = child.get(f"{_TEXT}outline-level", "1")
                level = min(int(level_text), 6) if level_text.isdigit() and level_text != "0" else 1
                text = " ".join(text.split())
                headings.append(text)
                blocks.append("#" * level + " " + text)
            elif list_depth:
                blocks.append("- " + text)
            else:
                blocks.append(text)
        elif tag == f"{_TEXT}list":
            for item in child:
                _read_blocks(item, hidden, blocks, headings, list_depth + 1)
        elif tag == f"{_TABLE}table":
            blocks.append("\n".join(_table_rows(child, hidden)))
        elif tag in _THROUGH or (tag.startswith(_TEXT) and tag.endswith("-index")):
            _read_blocks(child, hidden, blocks, headings, list_depth)


def _hides_itself(paragraph: etree._Element) -> bool:
    field = paragraph.find(f"{_TEXT}hidden-paragraph")
    return field is not None and field.get(f"{_TEXT}is-hidden", "true") != "false"


def _inline(element: etree._Element, hidden: set[str]) -> str:
    parts: list[str] = []
    _collect(element, hidden, parts)
    return squash_spaces("".join(parts)).strip()


def _collect(element: etree._Element, hidden: set[str], parts: list[str]) -> None:
    if element.text:
        parts.append(element.text)
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
        elif child.get(f"{_TEXT}style-name", "") not in hidden:
            _collect(child, hidden, parts)
        if child.tail:
            parts.append(child.tail)


def _table_rows(table: etree._Element, hidden: set[str]) -> list[str]:
    rows: list[str] = []
    for row in table.iter(f"{_TABLE}table-row"):
        cells = []
        for cell in row:
            if cell.tag != f"{_TABLE}table-cell":
                continue
            inner: list[str] = []
            _read_blocks(cell, hidden, inner, [], list_depth=0)
            cells.append(" ".join(" ".join(inner).split()).replace("|", "/"))
        if any(cells):
            rows.append("| " + " | ".join(cells) + " |")
    return rows
