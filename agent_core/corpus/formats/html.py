"""HTML: what a browser shows of the page's main text, with light Markdown structure.

The text of `<main>` or `<article>` when the page has one, else `<body>`; without scripts,
styles, navigation, headers, footers, forms, comments, and text a browser does not show, as its
stylesheets and `style=` attributes make it (html_hidden.py). A list of three or more short
items that are all links is a menu (many sites write theirs without <nav>). Shared with epub.py
through `html_to_text`, which is given a loader for the stylesheets a chapter links.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, replace
from pathlib import Path

import lxml.html
from lxml import etree

from agent_core.contract.documents import DocumentError, DocumentErrorCode, ExtractedDocument
from agent_core.corpus.formats import ExtractLimits
from agent_core.corpus.formats.common import join_blocks, single_section
from agent_core.corpus.formats.css import Loader, StyleSheets, media_applies
from agent_core.corpus.formats.html_hidden import remove_hidden

_DROPPED_TAGS = {
    "script", "style", "noscript", "template", "head", "nav", "header", "footer", "aside",
    "form", "button", "select", "svg", "iframe", "object", "embed", "canvas", "dialog",
}  # fmt: skip
_BOILERPLATE_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search"}
_MENU_MIN_ITEMS = 3
_MENU_ITEM_CHARS = 40
_BLOCK_TAGS = {
    "p", "div", "section", "article", "main", "body", "dl", "dt", "dd", "figure", "figcaption",
    "address", "center", "hr", "details", "summary", "caption", "ul", "ol", "menu", "hgroup",
}  # fmt: skip
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.S)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f]")


def extract(path: Path, limits: ExtractLimits) -> ExtractedDocument:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The file cannot be read ({error})."
        ) from error
    page = html_to_text(data)  # a linked stylesheet beside the page is not read: no network
    document = single_section(page.title, page.text, limits.max_chars)
    return replace(document, hidden_removed=page.hidden_removed)


@dataclass(frozen=True)
class HtmlText:
    title: str
    text: str
    hidden_removed: int
    """Runs of text left out because a browser would not show them."""


def html_to_text(data: bytes, load: Loader | None = None) -> HtmlText:
    """The title and text of an HTML or XHTML document; DocumentError(UNREADABLE) for binary
    junk. `load` reads the stylesheets it links (None: only its `<style>` elements apply)."""
    source = _decode(data)
    if not source.strip():
        return HtmlText("", "", 0)
    try:
        root = lxml.html.document_fromstring(_XML_DECLARATION.sub("", source, count=1))
    except (etree.LxmlError, ValueError) as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The file is not readable HTML ({error})."
        ) from error
    title = _first_text(root, "title")
    hidden = remove_hidden(root, _stylesheets(root, load))
    _drop_unseen(root)
    container = _main(root)
    writer = _Writer()
    writer.walk(container)
    writer.flush()
    return HtmlText(title or _first_text(container, "h1"), join_blocks(writer.blocks), hidden)


def _stylesheets(root: etree._Element, load: Loader | None) -> StyleSheets:
    """The page's author stylesheets in document order: `<style>` and, with a loader, linked."""
    sheets = StyleSheets((), load)
    for element in root.iter("style", "link"):
        if not media_applies(element.get("media", "")):
            continue
        if element.tag == "style":
            sheets.add(element.text_content())
        elif load is not None and "stylesheet" in element.get("rel", "").lower().split():
            text = load(element.get("href", ""))
            if text:
                sheets.add(text)
    return sheets


def _decode(data: bytes) -> str:
    for bom, encoding in (
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace")
    head = data[:4096]
    if b"\x00" in head:
        raise DocumentError(DocumentErrorCode.UNREADABLE, "The file is binary, not HTML.")
    declared = _XML_ENCODING.match(head) or _META_CHARSET.search(head)
    candidates = [declared.group(1).decode("ascii")] if declared else []
    for encoding in [*candidates, "utf-8"]:
        try:
            text = data.decode(encoding)
            break
        except (LookupError, UnicodeDecodeError):
            continue
    else:
        text = data.decode("cp1252", errors="replace")
    if len(_CONTROL.findall(text[:4096])) > 8:
        raise DocumentError(DocumentErrorCode.UNREADABLE, "The file is binary, not HTML.")
    return text


def _first_text(root: etree._Element, tag: str) -> str:
    for element in root.iter(tag):
        text = " ".join(element.text_content().split())
        if text:
            return text
    return ""


def _is_unseen(element: etree._Element) -> bool:
    tag = element.tag
    if tag in _DROPPED_TAGS:
        return True
    if tag == "input" and element.get("type", "").lower() == "hidden":
        return True
    if element.get("role", "").lower() in _BOILERPLATE_ROLES:
        return True
    return tag in ("ul", "ol", "menu") and _is_link_menu(element)


def _is_link_menu(element: etree._Element) -> bool:
    """A list of short items that are all links: a site's menu written without <nav>."""
    items = [child for child in element if child.tag == "li"]
    if len(items) < _MENU_MIN_ITEMS:
        return False
    text = "".join(element.text_content().split())  # letters only: spaces between items vary
    linked = sum(len("".join(link.text_content().split())) for link in element.iter("a"))
    return linked >= 0.9 * len(text) and len(text) / len(items) < _MENU_ITEM_CHARS


def _drop_unseen(root: etree._Element) -> None:
    doomed = [
        element
        for element in root.iter()
        if not isinstance(element.tag, str) or _is_unseen(element)  # comments too
    ]
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()  # keeps the tail: the text after it is shown


def _main(root: etree._Element) -> etree._Element:
    for tag in ("main", "article"):
        found = next(root.iter(tag), None)
        if found is not None:
            return found
    body = root.find("body")
    return root if body is None else body


class _Writer:
    """Blocks of Markdown-ish text from an element tree, in document order."""

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self._inline: list[str] = []

    def flush(self) -> None:
        text = " ".join("".join(self._inline).split())
        if text:
            self.blocks.append(text)
        self._inline.clear()

    def walk(self, element: etree._Element) -> None:
        if element.text:
            self._inline.append(element.text)
        for child in element:
            self._child(child)
            if child.tail:
                self._inline.append(child.tail)

    def _child(self, child: etree._Element) -> None:
        tag = child.tag if isinstance(child.tag, str) else ""
        if len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            self.flush()
            text = " ".join(child.text_content().split())
            if text:
                self.blocks.append("#" * int(tag[1]) + " " + text)
        elif tag == "li":
            self._nested(child, first="- ", rest="  ")
        elif tag == "blockquote":
            self._nested(child, first="> ", rest="> ")
        elif tag == "pre":
            self.flush()
            code = child.text_content().strip("\n")
            if code.strip():
                self.blocks.append(f"```\n{code}\n```")
        elif tag == "table":
            self.flush()
            self.blocks.append("\n".join(_table_rows(child)))
        elif tag == "br":
            self._inline.append(" ")
        elif tag in _BLOCK_TAGS:
            self.flush()
            self.walk(child)
            self.flush()
        else:
            self.walk(child)

    def _nested(self, element: etree._Element, first: str, rest: str) -> None:
        self.flush()
        inner = _Writer()
        inner.walk(element)
        inner.flush()
        for index, block in enumerate(inner.blocks):
            prefix = first if index == 0 or first == rest else rest
            self.blocks.append(prefix + block.replace("\n", "\n" + rest))


def _table_rows(table: etree._Element) -> list[str]:
    rows = []
    for row in table.iter("tr"):
        cells = [
            " ".join(cell.text_content().split()).replace("|", "/")
            for cell in row
            if cell.tag in ("td", "th")
        ]
        if any(cells):
            rows.append("| " + " | ".join(cells) + " |")
    return rows
