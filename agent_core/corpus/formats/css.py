"""CSS as a browser applies it, for the properties that hide text: stylesheets parsed by
tinycss2, selectors matched by cssselect2, and the cascade (origin, !important, specificity,
order; a `style=` attribute above every rule of its importance).

What is read: `<style>` elements and, where the caller can load them (EPUB: files of the same
package), `<link rel=stylesheet>` and `@import`. `@media` blocks apply unless they are for
print or speech only or ask for a narrow screen (the window is taken as a wide desktop one);
`@supports` and `@layer` blocks apply; a dark colour scheme does not (the default is light).
Never the network: a loader returns None for a URL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import cssselect2
import tinycss2
import tinycss2.color3
from tinycss2 import ast

Loader = Callable[[str], str | None]
"""A stylesheet's text from its URL as written (relative to the document); None: not read."""

_MAX_IMPORT_DEPTH = 4
_SKIPPED_MEDIA = {"print", "speech", "aural", "braille", "embossed", "handheld", "tty", "tv"}
_NARROW_FEATURES = {"max-width", "max-device-width"}
_GROUP_RULES = {"supports", "layer", "document"}
_FONT_SIZE_KEYWORDS = {
    "xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0, "large": 18.0,
    "x-large": 24.0, "xx-large": 32.0, "xxx-large": 48.0,
}  # fmt: skip
ROOT_FONT_PX = 16.0
VIEWPORT_PX = (1280.0, 800.0)

Values = list[ast.Node]

USED = frozenset(
    {
        "display", "visibility", "color", "background", "background-color", "background-image",
        "font", "font-size", "opacity", "position", "left", "top", "right", "text-indent",
        "margin", "margin-left", "margin-top", "transform", "overflow", "overflow-x",
        "overflow-y", "height", "max-height", "width", "max-width", "clip", "clip-path",
    }
)  # fmt: skip
"""The properties that can hide text: rules that set none of them are not matched at all
(matching is the cost of a large page)."""


@dataclass(frozen=True)
class _Declaration:
    name: str
    value: Values
    important: bool


class StyleSheets:
    """The author stylesheets of one document, ready to match its elements."""

    def __init__(self, sheets: Iterable[str], load: Loader | None = None) -> None:
        self._matcher = cssselect2.Matcher()
        self._load = load
        for text in sheets:
            self._add_sheet(text, depth=0)

    def add(self, text: str) -> None:
        self._add_sheet(text, depth=0)

    def _add_sheet(self, text: str, depth: int) -> None:
        rules = tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True)
        self._add_rules(rules, depth)

    def _add_rules(self, rules: Iterable[ast.Node], depth: int) -> None:
        for rule in rules:
            if rule.type == "qualified-rule":
                self._add_rule(rule)
            elif rule.type == "at-rule":
                self._add_at_rule(rule, depth)

    def _add_at_rule(self, rule: ast.AtRule, depth: int) -> None:
        name = rule.lower_at_keyword
        if name == "import" and self._load is not None and depth < _MAX_IMPORT_DEPTH:
            url, media = _import_target(rule.prelude)
            text = self._load(url) if url and media_applies(tinycss2.serialize(media)) else None
            if text:
                self._add_sheet(text, depth + 1)
        elif rule.content is not None and (
            name in _GROUP_RULES
            or (name == "media" and media_applies(tinycss2.serialize(rule.prelude)))
        ):
            self._add_rules(
                tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True),
                depth,
            )

    def _add_rule(self, rule: ast.QualifiedRule) -> None:
        declarations = _declarations(rule.content)
        if not declarations:
            return
        try:
            selectors = cssselect2.compile_selector_list(rule.prelude)
        except cssselect2.SelectorError:
            return  # a browser drops a rule whose selector it cannot read
        for selector in selectors:
            if not selector.never_matches and selector.pseudo_element is None:
                self._matcher.add_selector(selector, declarations)

    def declared(self, element: cssselect2.ElementWrapper) -> dict[str, Values]:
        """The winning value of every property declared for the element (not inherited)."""
        ranked: list[tuple[bool, bool, tuple[int, int, int], int, _Declaration]] = []
        for specificity, order, _pseudo, payload in self._matcher.match(element):
            ranked += [(d.important, False, specificity, order, d) for d in payload]
        inline = element.etree_element.get("style")
        if inline:
            ranked += [(d.important, True, (0, 0, 0), 0, d) for d in _declarations(inline)]
        ranked.sort(key=lambda item: item[:4])
        values: dict[str, Values] = {}
        for *_rank, declaration in ranked:
            values[declaration.name] = declaration.value
        return values


def _declarations(content: str | list[ast.Node] | None) -> list[_Declaration]:
    if content is None:
        return []
    found: list[_Declaration] = []
    for item in tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True):
        if item.type == "declaration" and item.lower_name in USED:
            value = [token for token in item.value if token.type not in ("whitespace", "comment")]
            found.append(_Declaration(item.lower_name, value, item.important))
    return found


def _import_target(prelude: list[ast.Node]) -> tuple[str, list[ast.Node]]:
    tokens = [token for token in prelude if token.type not in ("whitespace", "comment")]
    if not tokens:
        return "", []
    first = tokens[0]
    if first.type in ("string", "url"):
        return str(first.value), tokens[1:]
    if first.type == "function" and first.lower_name == "url":
        args = [a for a in first.arguments if a.type == "string"]
        return (str(args[0].value) if args else ""), tokens[1:]
    return "", []


def media_applies(text: str) -> bool:
    """A media query list (an @media prelude, a `media=` attribute) applies to a wide screen:
    any of its queries does."""
    text = text.strip().lower()
    if not text:
        return True
    for query in text.split(","):
        words = query.replace("(", " ( ").replace(")", " ) ").replace(":", " : ").split()
        if not words:
            return True
        if words[0] == "not":
            continue  # "not screen": not for us, whatever it excludes
        if words[0] == "only":
            words = words[1:]
        if words and words[0] in _SKIPPED_MEDIA:
            continue
        if any(word in _NARROW_FEATURES for word in words):
            continue
        if "prefers-color-scheme" in words and "dark" in words:
            continue  # the light scheme, as a default desktop shows it
        return True
    return False


# -- values ----------------------------------------------------------------------------------


def keyword(values: Values | None) -> str:
    """The first identifier of a value, lower case ("" when none)."""
    for token in values or ():
        if token.type == "ident":
            return str(token.lower_value)
    return ""


def colour(values: Values | None) -> tinycss2.color3.RGBA | str | None:
    """An RGBA, "currentcolor", "inherit"/"initial"/"unset", or None (not a colour)."""
    if not values:
        return None
    word = keyword(values)
    if word in ("inherit", "initial", "unset", "currentcolor", "revert"):
        return word
    for token in values:
        parsed = tinycss2.color3.parse_color(token)
        if isinstance(parsed, tinycss2.color3.RGBA):
            return parsed
        if parsed == "currentColor":
            return "currentcolor"
    return None


def length_px(token: ast.Node, font_px: float, percent_of: float | None = None) -> float | None:
    """A length in CSS pixels; None for what it cannot tell (calc(), auto, a bad token)."""
    if token.type == "number" and token.value == 0:
        return 0.0
    if token.type == "percentage":
        return None if percent_of is None else float(token.value) * percent_of / 100
    if token.type != "dimension":
        return None
    value = float(token.value)
    unit = str(token.lower_unit)
    factors = {
        "px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4,
        "q": 96 / 101.6, "em": font_px, "rem": ROOT_FONT_PX, "ex": font_px / 2,
        "ch": font_px / 2, "vw": VIEWPORT_PX[0] / 100, "vh": VIEWPORT_PX[1] / 100,
        "vmin": min(VIEWPORT_PX) / 100, "vmax": max(VIEWPORT_PX) / 100,
    }  # fmt: skip
    factor = factors.get(unit)
    return None if factor is None else value * factor


def font_size_px(values: Values | None, parent_px: float) -> float:
    """The computed font size from its declared value and the parent's."""
    if not values:
        return parent_px
    word = keyword(values)
    if word in _FONT_SIZE_KEYWORDS:
        return _FONT_SIZE_KEYWORDS[word]
    if word == "smaller":
        return parent_px / 1.2
    if word == "larger":
        return parent_px * 1.2
    size = length_px(values[0], parent_px, percent_of=parent_px)
    return parent_px if size is None or size < 0 else size


def first_length(values: Values | None, font_px: float) -> float | None:
    """The first value as a length in pixels (None when it is none or unknown)."""
    if not values:
        return None
    return length_px(values[0], font_px)
