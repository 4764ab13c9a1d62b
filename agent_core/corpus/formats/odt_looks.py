"""How an OpenDocument text shows its text: styles resolved as LibreOffice resolves them.

A piece of text takes each property from the innermost span's style, then its parent styles
(style:parent-style-name), then the enclosing spans', then the paragraph's style chain, then
the paragraph default style (styles.xml). Styles are looked up by family and name in the
automatic styles of content.xml, then the common styles of styles.xml. A font size in percent
is of the size around it.

Unseen: text:display="none", under 2 pt, or a colour (fo:color; the window colour is "auto",
always shown) that cannot be told from what is behind it: the nearest text background
(fo:background-color of the text properties), else the paragraph's, else the table cell's,
else the page's (the first master page's layout), else white.
"""

from __future__ import annotations

import contextlib

from lxml import etree

from agent_core.corpus.formats.visibility import WHITE, Rgb, hex_colour, unseen_colour, unseen_size

STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_FO = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_MAX_CHAIN = 16
_DEFAULT_POINTS = 12.0
_POINTS_PER_UNIT = {"pt": 1.0, "px": 0.75, "mm": 72 / 25.4, "cm": 72 / 2.54, "in": 72.0, "pc": 12.0}

Context = tuple[tuple[str, str], ...]
"""The styles around a piece of text, innermost first: (family, name) pairs."""


class OdtLooks:
    """The styles of one document (content.xml's automatic ones, styles.xml's)."""

    def __init__(self, content: etree._Element, styles: etree._Element | None) -> None:
        self._styles: dict[tuple[str, str], etree._Element] = {}
        self._defaults: dict[str, etree._Element] = {}
        for root, sections in ((styles, ("styles",)), (content, ("automatic-styles",))):
            if root is None:
                continue
            for section in sections:
                holder = root.find(f"{_OFFICE}{section}")
                for style in holder if holder is not None else ():
                    if style.tag == f"{STYLE}style":
                        key = (
                            str(style.get(f"{STYLE}family", "")),
                            str(style.get(f"{STYLE}name", "")),
                        )
                        self._styles[key] = style
                    elif style.tag == f"{STYLE}default-style":
                        self._defaults[str(style.get(f"{STYLE}family", ""))] = style
        self.page = _page_colour(styles)
        self._hidden: dict[tuple[Context, Rgb], bool] = {}

    def background(self, family: str, name: str, properties: str) -> Rgb | None:
        """The background a paragraph or cell style paints (its chain's nearest)."""
        for style in self._chain(family, name):
            found = style.find(f"{STYLE}{properties}")
            if found is not None and found.get(f"{_FO}background-color") is not None:
                return hex_colour(str(found.get(f"{_FO}background-color")))
        return None

    def hidden(self, context: Context, behind: Rgb) -> bool:
        key = (context, behind)
        if key not in self._hidden:
            self._hidden[key] = self._resolve(context, behind)
        return self._hidden[key]

    def _resolve(self, context: Context, behind: Rgb) -> bool:
        properties: list[etree._Element] = []
        for family, name in context:
            properties += [
                found
                for style in self._chain(family, name)
                if (found := style.find(f"{STYLE}text-properties")) is not None
            ]
        default = self._defaults.get("paragraph")
        found = None if default is None else default.find(f"{STYLE}text-properties")
        if found is not None:
            properties.append(found)
        if _first(properties, f"{TEXT}display") == "none":
            return True
        if unseen_size(_points(properties)):
            return True
        colour = _colour(properties)
        if colour is None:
            return False  # automatic (the window's colour): the colour that shows
        highlight = _first(properties, f"{_FO}background-color") or ""
        return unseen_colour(colour, hex_colour(highlight) or behind)

    def _chain(self, family: str, name: str) -> list[etree._Element]:
        chain: list[etree._Element] = []
        current = name
        while current and len(chain) < _MAX_CHAIN:
            style = self._styles.get((family, current))
            if style is None or style in chain:
                break
            chain.append(style)
            current = str(style.get(f"{STYLE}parent-style-name", ""))
        return chain


def _first(properties: list[etree._Element], attribute: str) -> str | None:
    for element in properties:
        value = element.get(attribute)
        if value is not None:
            return str(value)
    return None


def _colour(properties: list[etree._Element]) -> Rgb | None:
    """The nearest colour said; None when it is the automatic one."""
    for element in properties:
        if element.get(f"{STYLE}use-window-font-color") == "true":
            return None
        value = element.get(f"{_FO}color")
        if value is not None:
            return hex_colour(str(value))
    return None


def _points(properties: list[etree._Element]) -> float:
    """The font size: the nearest absolute size, scaled by the percentages inside it."""
    scale = 1.0
    for element in properties:
        value = str(element.get(f"{_FO}font-size") or "").strip()
        if not value:
            continue
        if value.endswith("%"):
            with contextlib.suppress(ValueError):
                scale *= float(value[:-1]) / 100
            continue
        for unit, factor in _POINTS_PER_UNIT.items():
            if value.endswith(unit):
                try:
                    return float(value[: -len(unit)]) * factor * scale
                except ValueError:
                    break
    return _DEFAULT_POINTS * scale


def _page_colour(styles: etree._Element | None) -> Rgb:
    if styles is None:
        return WHITE
    master = styles.find(f"{_OFFICE}master-styles/{STYLE}master-page")
    layout_name = "" if master is None else str(master.get(f"{STYLE}page-layout-name", ""))
    for layout in styles.iter(f"{STYLE}page-layout"):
        if layout.get(f"{STYLE}name") == layout_name:
            found = layout.find(f"{STYLE}page-layout-properties")
            value = None if found is None else found.get(f"{_FO}background-color")
            return hex_colour(str(value or "")) or WHITE
    return WHITE
