"""How Word shows a run: its properties resolved as Word resolves them, to tell hidden text.

A run's properties are, from lowest to highest: the document defaults (w:docDefaults), its
paragraph style and the styles that style is based on, its character style (w:rStyle) and its
bases, then its own w:rPr. Colours given as theme colours (w:themeColor, with themeTint /
themeShade) are read from the theme part through the settings' colour-scheme mapping; "auto"
is black or white, whichever shows (never hidden).

What is behind a run's text: its highlight, else its shading, else its paragraph's shading,
else its table cell's, else the page colour (w:background), else white.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

from lxml import etree

from agent_core.corpus.formats.visibility import WHITE, Rgb, blend, hex_colour, unseen_colour

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_OFF_VALUES = {"0", "false", "off"}
_MAX_CHAIN = 16  # a based-on loop in a hostile file ends here
_HIGHLIGHTS = {
    "black": "000000", "blue": "0000FF", "cyan": "00FFFF", "green": "00FF00",
    "magenta": "FF00FF", "red": "FF0000", "yellow": "FFFF00", "white": "FFFFFF",
    "darkBlue": "000080", "darkCyan": "008080", "darkGreen": "008000",
    "darkMagenta": "800080", "darkRed": "800000", "darkYellow": "808000",
    "darkGray": "808080", "lightGray": "C0C0C0",
}  # fmt: skip
# w:themeColor values -> the settings' mapping attribute (or the scheme slot directly).
_MAPPED = {"background1": "bg1", "text1": "t1", "background2": "bg2", "text2": "t2"}
_DEFAULT_MAPPING = {"bg1": "light1", "t1": "dark1", "bg2": "light2", "t2": "dark2"}
_SLOTS = {
    "dark1": "dk1", "light1": "lt1", "dark2": "dk2", "light2": "lt2",
    "accent1": "accent1", "accent2": "accent2", "accent3": "accent3", "accent4": "accent4",
    "accent5": "accent5", "accent6": "accent6", "hyperlink": "hlink",
    "followedHyperlink": "folHlink",
}  # fmt: skip
_AUTO = "auto"
_DEFAULT_HALF_POINTS = 20  # Word's size when nothing says one (10 pt)


@dataclass
class RunProps:
    """The properties that decide whether a run shows; None: not said at this level."""

    vanish: bool | None = None
    colour: Rgb | str | None = None
    """An Rgb, or "auto"."""
    half_points: int | None = None
    highlight: Rgb | str | None = None
    """An Rgb, or "none" (said: no highlight)."""
    shading: Rgb | str | None = None

    def over(self, lower: RunProps) -> RunProps:
        """These properties laid over lower ones."""
        return RunProps(
            vanish=self.vanish if self.vanish is not None else lower.vanish,
            colour=self.colour if self.colour is not None else lower.colour,
            half_points=self.half_points if self.half_points is not None else lower.half_points,
            highlight=self.highlight if self.highlight is not None else lower.highlight,
            shading=self.shading if self.shading is not None else lower.shading,
        )


def _on(element: etree._Element | None) -> bool | None:
    if element is None:
        return None
    return str(element.get(f"{W}val", "true")).lower() not in _OFF_VALUES


class Looks:
    """The styles, theme and page of one document."""

    def __init__(
        self,
        styles: etree._Element | None,
        theme: etree._Element | None,
        settings: etree._Element | None,
        body: etree._Element,
    ) -> None:
        self._scheme = _colour_scheme(theme)
        self._mapping = dict(_DEFAULT_MAPPING)
        mapping = None if settings is None else settings.find(f"{W}clrSchemeMapping")
        if mapping is not None:
            for key in _DEFAULT_MAPPING:
                value = mapping.get(f"{W}{key}")
                if value:
                    self._mapping[key] = value
        self._styles: dict[str, etree._Element] = {}
        self._defaults = RunProps()
        self._default_paragraph = ""
        if styles is not None:
            for style in styles.iter(f"{W}style"):
                style_id = style.get(f"{W}styleId")
                if style_id:
                    self._styles[style_id] = style
                is_default = str(style.get(f"{W}default", "")).lower() in ("1", "true", "on")
                if style.get(f"{W}type") == "paragraph" and is_default:
                    self._default_paragraph = str(style_id or "")
            defaults = styles.find(f"{W}docDefaults/{W}rPrDefault/{W}rPr")
            self._defaults = self._read(defaults)
        background = body.getparent()
        page = None if background is None else background.find(f"{W}background")
        self.page: Rgb = WHITE
        if page is not None:
            colour = self._colour(page)
            if isinstance(colour, Rgb):
                self.page = colour
        self._chains: dict[str, RunProps] = {}

    def paragraph(self, paragraph: etree._Element) -> tuple[RunProps, Rgb | None]:
        """A paragraph's run properties before its runs' own, and its shading (if any)."""
        properties = paragraph.find(f"{W}pPr")
        style = properties.find(f"{W}pStyle") if properties is not None else None
        style_id = str(style.get(f"{W}val", "")) if style is not None else self._default_paragraph
        base = self._chain(style_id).over(self._defaults)
        shading = None if properties is None else properties.find(f"{W}shd")
        fill = self._shading(shading) if shading is not None else self._style_shading(style_id)
        return base, fill if isinstance(fill, Rgb) else None

    def cell_shading(self, cell: etree._Element) -> Rgb | None:
        shading = cell.find(f"{W}tcPr/{W}shd")
        fill = self._shading(shading) if shading is not None else None
        return fill if isinstance(fill, Rgb) else None

    def run_hidden(self, run: etree._Element, paragraph: RunProps, behind: Rgb) -> bool:
        """Whether a reader cannot see this run: vanished, tiny, or the colour behind it."""
        direct = run.find(f"{W}rPr")
        props = self._read(direct)
        character = None if direct is None else direct.find(f"{W}rStyle")
        if character is not None:
            props = props.over(self._chain(str(character.get(f"{W}val", ""))))
        props = props.over(paragraph)
        if direct is not None and _on(direct.find(f"{W}specVanish")):
            return True
        if props.vanish:
            return True
        half_points = _DEFAULT_HALF_POINTS if props.half_points is None else props.half_points
        if half_points < 4:
            return True
        if not isinstance(props.colour, Rgb):
            return False  # auto: black or white, whichever shows
        for backdrop in (props.highlight, props.shading):
            if isinstance(backdrop, Rgb):
                behind = backdrop
                break
        return unseen_colour(props.colour, behind)

    # -- styles --------------------------------------------------------------------------

    def _chain(self, style_id: str) -> RunProps:
        """A style's run properties with those of the styles it is based on."""
        if style_id in self._chains:
            return self._chains[style_id]
        resolved = RunProps()
        seen: set[str] = set()
        current = style_id
        while current and current not in seen and len(seen) < _MAX_CHAIN:
            seen.add(current)
            style = self._styles.get(current)
            if style is None:
                break
            resolved = resolved.over(self._read(style.find(f"{W}rPr")))
            based = style.find(f"{W}basedOn")
            current = "" if based is None else str(based.get(f"{W}val", ""))
        self._chains[style_id] = resolved
        return resolved

    def _style_shading(self, style_id: str) -> Rgb | str | None:
        seen: set[str] = set()
        current = style_id
        while current and current not in seen and len(seen) < _MAX_CHAIN:
            seen.add(current)
            style = self._styles.get(current)
            if style is None:
                return None
            shading = style.find(f"{W}pPr/{W}shd")
            if shading is not None:
                return self._shading(shading)
            based = style.find(f"{W}basedOn")
            current = "" if based is None else str(based.get(f"{W}val", ""))
        return None

    def _read(self, properties: etree._Element | None) -> RunProps:
        if properties is None:
            return RunProps()
        found = RunProps(vanish=_on(properties.find(f"{W}vanish")))
        colour = properties.find(f"{W}color")
        if colour is not None:
            found.colour = self._colour(colour)
        size = properties.find(f"{W}sz")
        value = "" if size is None else str(size.get(f"{W}val", ""))
        if value.isdigit():
            found.half_points = int(value)
        highlight = properties.find(f"{W}highlight")
        if highlight is not None:
            name = str(highlight.get(f"{W}val", "none"))
            rgb = hex_colour(_HIGHLIGHTS.get(name, ""))
            found.highlight = rgb if rgb is not None else "none"
        shading = properties.find(f"{W}shd")
        if shading is not None:
            found.shading = self._shading(shading)
        return found

    def _shading(self, shading: etree._Element) -> Rgb | str:
        """The colour a w:shd paints: its fill, its pattern colour over it, or none."""
        pattern = str(shading.get(f"{W}val", "clear"))
        fill = self._colour(shading, attribute="fill", theme="themeFill")
        ink = self._colour(shading, attribute="color", theme="themeColor")
        base = fill if isinstance(fill, Rgb) else None
        if pattern == "solid" and isinstance(ink, Rgb):
            return ink
        if pattern.startswith("pct") and pattern[3:].isdigit() and isinstance(ink, Rgb):
            return blend(ink, int(pattern[3:]) / 100, base or WHITE)
        return base if base is not None else "none"

    def _colour(
        self, element: etree._Element, attribute: str = "val", theme: str = "themeColor"
    ) -> Rgb | str:
        name = element.get(f"{W}{theme}")
        if name:
            rgb = self._theme_colour(str(name))
            if rgb is not None:
                return _tinted(rgb, element, theme)
        value = str(element.get(f"{W}{attribute}", "auto"))
        rgb = hex_colour(value)
        return _AUTO if rgb is None else rgb

    def _theme_colour(self, name: str) -> Rgb | None:
        slot_name = self._mapping.get(_MAPPED[name], "") if name in _MAPPED else name
        return self._scheme.get(_SLOTS.get(slot_name, ""))


def _tinted(rgb: Rgb, element: etree._Element, theme: str) -> Rgb:
    """A theme colour with its tint (towards white) or shade (towards black), on luminance."""
    prefix = "themeFill" if theme == "themeFill" else "theme"
    tint = element.get(f"{W}{prefix}Tint")
    shade = element.get(f"{W}{prefix}Shade")
    hue, lightness, saturation = colorsys.rgb_to_hls(*rgb)
    try:
        if tint:
            factor = int(str(tint), 16) / 255
            lightness = lightness * factor + (1 - factor)
        elif shade:
            lightness *= int(str(shade), 16) / 255
    except ValueError:
        return rgb
    return Rgb(*colorsys.hls_to_rgb(hue, min(max(lightness, 0.0), 1.0), saturation))


def _colour_scheme(theme: etree._Element | None) -> dict[str, Rgb]:
    scheme: dict[str, Rgb] = {}
    found = None if theme is None else theme.find(f".//{_A}clrScheme")
    for slot in found if found is not None else ():
        if not isinstance(slot.tag, str):
            continue
        name = etree.QName(slot).localname
        for colour in slot:
            value = colour.get("val") if colour.tag == f"{_A}srgbClr" else colour.get("lastClr")
            rgb = hex_colour(str(value or ""))
            if rgb is not None:
                scheme[name] = rgb
                break
    return scheme
