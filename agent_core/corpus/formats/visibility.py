"""When a reader cannot see text: its colour against what is behind it, and its size.

One rule for every format, so a DOCX, an ODT, an RTF and a web page hide or show alike.

Colour: text is unseen when its WCAG contrast ratio against the colour behind it is under 1.2
AND no RGB channel differs by more than 0.2 (51 of 255). WCAG asks 4.5:1 for body text and 3:1
for large text; near 1:1 letters vanish: #f0f0f0 on white is 1.14:1, while light grey #c8c8c8
on white (1.7:1) or #ddd (1.36:1) stays faint but readable, and stays indexed. The channel
bound keeps colours of equal luminance but different hue (red on green: ratio near 1, yet
plain to see) as visible: luminance alone would call them hidden.

Size: under 2 pt (the contract's bound); 8 pt footnotes stay.
"""

from __future__ import annotations

from typing import NamedTuple

MIN_CONTRAST = 1.2
"""A contrast ratio under this (with colours this close) is text nobody reads."""
MAX_CHANNEL_GAP = 0.2
MIN_POINTS = 2.0
"""Text smaller than this (in points) is not read."""
MIN_ALPHA = 0.1
"""A colour, or an opacity, under this alpha is see-through."""


class Rgb(NamedTuple):
    """A colour, each channel in 0..1."""

    red: float
    green: float
    blue: float


WHITE = Rgb(1.0, 1.0, 1.0)
BLACK = Rgb(0.0, 0.0, 0.0)


def hex_colour(value: str) -> Rgb | None:
    """`RRGGBB` or `#RRGGBB` (or `#RGB`); None for anything else ("auto", a name...)."""
    text = value.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    if len(text) != 6:
        return None
    try:
        number = int(text, 16)
    except ValueError:
        return None
    return Rgb(((number >> 16) & 255) / 255, ((number >> 8) & 255) / 255, (number & 255) / 255)


def blend(colour: Rgb, alpha: float, behind: Rgb) -> Rgb:
    """A colour of this alpha painted over another."""
    alpha = min(max(alpha, 0.0), 1.0)
    return Rgb(*(c * alpha + b * (1 - alpha) for c, b in zip(colour, behind, strict=True)))


def _luminance(colour: Rgb) -> float:
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: Rgb, second: Rgb) -> float:
    """The WCAG 2 contrast ratio, 1 (same) to 21 (black on white)."""
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def unseen_colour(text: Rgb, behind: Rgb) -> bool:
    """Text of this colour cannot be told from what is behind it."""
    gap = max(abs(a - b) for a, b in zip(text, behind, strict=True))
    return gap <= MAX_CHANNEL_GAP and contrast(text, behind) < MIN_CONTRAST


def unseen_size(points: float) -> bool:
    return points < MIN_POINTS
