"""Which text of an HTML page a browser does not show, from its computed styles.

A subtree is unseen when its element has display:none (or the `hidden` attribute that author
CSS did not override), is the body of a closed `<details>` (not its `<summary>`), has an
opacity under 0.1 (with its ancestors'), is pushed off the page (position absolute or fixed at
left/top/right ≤ -999px, margin or translate of as much, text-indent ≤ -999px), or is cut to
nothing (height, max-height, width or max-width of 1px or less with overflow hidden or clip,
clip: rect() of no area, clip-path: inset(50%) or a circle of radius 0).

An element's own text (and the text after its children, which is also its) is unseen when its
visibility is hidden or collapse, its font is under 2 pt, or its colour (with its alpha) cannot
be told from the colour behind it, which is the nearest ancestor's background (white at the
root, unknown under a background image). These inherit, so a child that sets visibility:
visible, a normal size or colour shows again. `aria-hidden` hides from screen readers only:
the text is on screen and stays.
"""

from __future__ import annotations

from dataclasses import dataclass

import cssselect2
import tinycss2
import tinycss2.color3
from lxml import etree

from agent_core.corpus.formats.css import (
    ROOT_FONT_PX,
    StyleSheets,
    Values,
    colour,
    first_length,
    font_size_px,
    keyword,
    length_px,
)
from agent_core.corpus.formats.visibility import (
    BLACK,
    MIN_ALPHA,
    WHITE,
    Rgb,
    blend,
    unseen_colour,
    unseen_size,
)

_NOT_RENDERED = {"head", "script", "style", "template", "title", "meta", "link", "noscript"}
_OFF_PAGE_PX = -999.0
_CUT_PX = 1.0
_PX_PER_PT = 4 / 3


@dataclass(frozen=True)
class _Context:
    """What an element inherits (or sits on) from its ancestors."""

    colour: Rgb = BLACK
    alpha: float = 1.0
    visible: bool = True
    font_px: float = ROOT_FONT_PX
    backdrop: Rgb | None = WHITE
    """The colour behind the element's text; None when an image may be there."""
    opacity: float = 1.0


def remove_hidden(root: etree._Element, sheets: StyleSheets) -> int:
    """Remove the text a browser would not show; the number of runs removed."""
    doomed: list[etree._Element] = []
    muted: list[etree._Element] = []
    stack = [(cssselect2.ElementWrapper.from_html_root(root), _Context())]
    while stack:
        wrapper, parent = stack.pop()
        element = wrapper.etree_element
        if not isinstance(element.tag, str) or wrapper.local_name.lower() in _NOT_RENDERED:
            continue
        declared = _with_hints(element, sheets.declared(wrapper))
        context = _inherit(declared, parent)
        if _hides_subtree(wrapper, declared, context):
            doomed.append(element)
            continue
        if _hides_own_text(context):
            muted.append(element)
        stack += [(child, context) for child in reversed(list(wrapper.iter_children()))]
    removed = 0
    for element in muted:
        removed += _mute(element)
    for element in doomed:
        if "".join(element.itertext()).strip():
            removed += 1
        if element.getparent() is not None:
            element.drop_tree()  # keeps its tail: the parent's text, muted or not above
        else:  # the root itself: nothing of the page shows
            element.text = None
            for child in list(element):
                element.remove(child)
    return removed


def _mute(element: etree._Element) -> int:
    """Blank the element's own text and its children's tails (shown in its style)."""
    found = bool((element.text or "").strip())
    element.text = None
    for child in element:
        found = found or bool((child.tail or "").strip())
        child.tail = None
    return int(found)


def _with_hints(element: etree._Element, declared: dict[str, Values]) -> dict[str, Values]:
    """Presentational attributes (`<font color>`, `bgcolor`) under any CSS, as browsers do."""
    for attribute, name in (("color", "color"), ("bgcolor", "background-color")):
        value = element.get(attribute)
        if value and name not in declared and (attribute != "color" or element.tag == "font"):
            declared[name] = [t for t in tinycss2.parse_component_value_list(value)]
    return declared


def _inherit(declared: dict[str, Values], parent: _Context) -> _Context:
    font_values = declared.get("font-size") or _font_shorthand_size(declared.get("font"))
    font_px = font_size_px(font_values, parent.font_px)
    text_colour, alpha = parent.colour, parent.alpha
    value = colour(declared.get("color"))
    if isinstance(value, tinycss2.color3.RGBA):
        text_colour, alpha = Rgb(value.red, value.green, value.blue), float(value.alpha)
    elif value == "initial":
        text_colour, alpha = BLACK, 1.0
    visible = parent.visible
    visibility = keyword(declared.get("visibility"))
    if visibility in ("hidden", "collapse"):
        visible = False
    elif visibility in ("visible", "initial"):
        visible = True
    return _Context(
        colour=text_colour,
        alpha=alpha,
        visible=visible,
        font_px=font_px,
        backdrop=_backdrop(declared, parent, text_colour, alpha),
        opacity=parent.opacity * _opacity(declared.get("opacity")),
    )


def _font_shorthand_size(values: Values | None) -> Values | None:
    for token in values or ():
        if token.type in ("dimension", "percentage") or (
            token.type == "number" and token.value == 0
        ):
            return [token]
    return None


def _backdrop(
    declared: dict[str, Values], parent: _Context, text_colour: Rgb, alpha: float
) -> Rgb | None:
    values = declared.get("background-color")
    shorthand = declared.get("background")
    if shorthand is not None:
        if any(t.type in ("url", "function") and _is_image(t) for t in shorthand):
            return None
        values = values or [t for t in shorthand if colour([t]) is not None] or None
    image = declared.get("background-image")
    if image and keyword(image) != "none":
        return None
    value = colour(values)
    if isinstance(value, tinycss2.color3.RGBA) and value.alpha > 0:
        behind = parent.backdrop
        if value.alpha >= 1:
            return Rgb(value.red, value.green, value.blue)
        if behind is None:
            return None
        return blend(Rgb(value.red, value.green, value.blue), float(value.alpha), behind)
    if value == "currentcolor" and alpha >= 1:
        return text_colour
    return parent.backdrop


def _is_image(token: tinycss2.ast.Node) -> bool:
    if token.type == "url":
        return True
    name = str(getattr(token, "lower_name", ""))
    return name.endswith("gradient") or name in ("url", "image", "image-set", "element")


def _opacity(values: Values | None) -> float:
    for token in values or ():
        if token.type == "number":
            return min(max(float(token.value), 0.0), 1.0)
        if token.type == "percentage":
            return min(max(float(token.value) / 100, 0.0), 1.0)
    return 1.0


def _hides_subtree(
    wrapper: cssselect2.ElementWrapper, declared: dict[str, Values], context: _Context
) -> bool:
    element = wrapper.etree_element
    display = keyword(declared.get("display"))
    if display == "none" or (not display and element.get("hidden") is not None):
        return True
    if _in_closed_details(wrapper):
        return True
    if context.opacity < MIN_ALPHA:
        return True
    return _off_page(declared, context.font_px) or _cut_away(declared, context.font_px)


def _in_closed_details(wrapper: cssselect2.ElementWrapper) -> bool:
    parent = wrapper.parent
    if parent is None or parent.local_name.lower() != "details":
        return False
    if parent.etree_element.get("open") is not None:
        return False
    summaries = [c for c in parent.iter_children() if c.local_name.lower() == "summary"]
    return not summaries or summaries[0].etree_element is not wrapper.etree_element


def _off_page(declared: dict[str, Values], font_px: float) -> bool:
    def far(name: str) -> bool:
        length = first_length(declared.get(name), font_px)
        return length is not None and length <= _OFF_PAGE_PX

    if keyword(declared.get("position")) in ("absolute", "fixed") and any(
        far(side) for side in ("left", "top", "right")
    ):
        return True
    if far("text-indent") or far("margin-left") or far("margin-top"):
        return True
    margin = declared.get("margin") or []
    lengths = [length_px(token, font_px) for token in margin]
    if len(lengths) == 4 and lengths[3] is not None and lengths[3] <= _OFF_PAGE_PX:
        return True
    if lengths and lengths[0] is not None and lengths[0] <= _OFF_PAGE_PX:
        return True
    return _translated_away(declared.get("transform"), font_px)


def _translated_away(values: Values | None, font_px: float) -> bool:
    for token in values or ():
        if token.type == "function" and token.lower_name.startswith("translate"):
            for argument in token.arguments:
                length = length_px(argument, font_px)
                if length is not None and length <= _OFF_PAGE_PX:
                    return True
    return False


def _cut_away(declared: dict[str, Values], font_px: float) -> bool:
    overflow = {keyword(declared.get(n)) for n in ("overflow", "overflow-x", "overflow-y")}
    if overflow & {"hidden", "clip"}:
        for name in ("height", "max-height", "width", "max-width"):
            length = first_length(declared.get(name), font_px)
            if length is not None and length <= _CUT_PX:
                return True
    positioned = keyword(declared.get("position")) in ("absolute", "fixed")
    if positioned and _empty_rect(declared.get("clip"), font_px):
        return True
    return _clip_path_empty(declared.get("clip-path"), font_px)


def _empty_rect(values: Values | None, font_px: float) -> bool:
    for token in values or ():
        if token.type == "function" and token.lower_name == "rect":
            sides = [
                length_px(a, font_px) for a in token.arguments if a.type in ("dimension", "number")
            ]
            if len(sides) == 4 and None not in sides:
                top, right, bottom, left = (s or 0.0 for s in sides)
                return bottom - top <= _CUT_PX or right - left <= _CUT_PX
    return False


def _clip_path_empty(values: Values | None, font_px: float) -> bool:
    for token in values or ():
        if token.type != "function":
            continue
        arguments = [a for a in token.arguments if a.type not in ("whitespace", "comment")]
        if not arguments:
            continue
        first = arguments[0]
        if token.lower_name == "inset" and first.type == "percentage":
            return float(first.value) >= 50
        if token.lower_name in ("circle", "ellipse"):
            radius = length_px(first, font_px, percent_of=100.0)
            return radius is not None and radius <= 0
    return False


def _hides_own_text(context: _Context) -> bool:
    if not context.visible or unseen_size(context.font_px / _PX_PER_PT):
        return True
    if context.alpha < MIN_ALPHA:
        return True
    if context.backdrop is None:
        return False
    shown = blend(context.colour, context.alpha, context.backdrop)
    return unseen_colour(shown, context.backdrop)
