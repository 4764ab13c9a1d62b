"""Markdown highlighting shared by the brief editor and the diff view, and the content summary.

`markdown_spans` is pure (no Qt objects): the editor's `MarkdownHighlighter` and the diff's HTML
renderer both colour the same spans, so a reviewer reads a brief the same way in both places.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

# A citation is a source id in brackets: a corpus-relative file path such as
# [durable-agent-execution.md] or [notes/ledgers.txt]; a Markdown link [text](url) is not one.
# `[notes.md]`, and `[paper.pdf p. 3]` for a page of a paged document (group 1: the source).
CITATION_RE = re.compile(r"\[([A-Za-z0-9_][\w./-]*\.[A-Za-z0-9]+)(?: p\. \d{1,6})?\](?!\()")
_HEADING_RE = re.compile(r"^#{1,6}\s.*$")
_BULLET_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_QUOTE_RE = re.compile(r"^\s*>.*$")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")
_INLINE_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("code", re.compile(r"`[^`]+`")),
    ("link", re.compile(r"\[[^\]]+\]\([^)\s]+\)")),
    ("citation", CITATION_RE),
    ("strong", re.compile(r"\*\*[^*]+\*\*|__[^_]+__")),
    ("emphasis", re.compile(r"(?<![*\w])\*[^*\s][^*]*\*(?!\*)|(?<![_\w])_[^_\s][^_]*_(?![_\w])")),
)


@dataclass(frozen=True)
class Style:
    color: str
    bold: bool = False
    italic: bool = False


STYLES: dict[str, Style] = {
    "heading": Style("#1f3b8c", bold=True),
    "bullet": Style("#8a5a00", bold=True),
    "quote": Style("#5d6470", italic=True),
    "fence": Style("#6b4fa0"),
    "code": Style("#6b4fa0"),
    "link": Style("#0b62c4"),
    "citation": Style("#0f7a5a", bold=True),
    "strong": Style("#202020", bold=True),
    "emphasis": Style("#202020", italic=True),
}


@dataclass(frozen=True)
class Span:
    start: int
    length: int
    style: str


def is_fence(line: str) -> bool:
    return bool(_FENCE_RE.match(line))


def markdown_spans(line: str, *, in_code: bool = False) -> list[Span]:
    """Styled, non-overlapping spans of one line, sorted by start (first rule wins a clash)."""
    if is_fence(line) or in_code:
        return [Span(0, len(line), "fence" if is_fence(line) else "code")] if line else []
    if _HEADING_RE.match(line):
        return [Span(0, len(line), "heading")]
    if _QUOTE_RE.match(line):
        return [Span(0, len(line), "quote")]
    spans: list[Span] = []
    bullet = _BULLET_RE.match(line)
    if bullet:
        spans.append(Span(0, bullet.end(), "bullet"))
    for style, pattern in _INLINE_RULES:
        for match in pattern.finditer(line):
            start, end = match.span()
            if all(end <= s.start or start >= s.start + s.length for s in spans):
                spans.append(Span(start, end - start, style))
    return sorted(spans, key=lambda s: s.start)


def markdown_html(line: str, *, in_code: bool = False) -> str:
    """One line as escaped HTML with its Markdown spans coloured (for the diff view)."""
    out: list[str] = []
    pos = 0
    for span in markdown_spans(line, in_code=in_code):
        out.append(html.escape(line[pos : span.start]))
        style = STYLES[span.style]
        css = f"color:{style.color};" + ("font-weight:bold;" if style.bold else "")
        css += "font-style:italic;" if style.italic else ""
        out.append(
            f'<span style="{css}">{html.escape(line[span.start : span.start + span.length])}</span>'
        )
        pos = span.start + span.length
    out.append(html.escape(line[pos:]))
    return "".join(out)


def code_states(lines: list[str]) -> list[bool]:
    """For each line: is it inside a fenced code block (fence lines themselves count as not)."""
    states, inside = [], False
    for line in lines:
        if is_fence(line):
            states.append(False)
            inside = not inside
        else:
            states.append(inside)
    return states


def cited_sources(text: str) -> list[str]:
    """Distinct [source-id] citations in order of first appearance."""
    return list(dict.fromkeys(m.group(1) for m in CITATION_RE.finditer(text)))


def content_summary(text: str) -> dict[str, int]:
    """What a reviewer checks first: size, lines and how many distinct sources are cited."""
    return {
        "bytes": len(text.encode("utf-8")),
        "lines": len(text.splitlines()),
        "sources": len(cited_sources(text)),
    }


def _char_format(style: Style) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(style.color))
    if style.bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setFontItalic(style.italic)
    return fmt


class MarkdownHighlighter(QSyntaxHighlighter):
    """Colours headings, bullets, citations, links, code and emphasis in a QTextDocument."""

    _IN_CODE = 1

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._formats = {name: _char_format(style) for name, style in STYLES.items()}

    def highlightBlock(self, text: str) -> None:
        in_code = self.previousBlockState() == self._IN_CODE
        for span in markdown_spans(text, in_code=in_code):
            self.setFormat(span.start, span.length, self._formats[span.style])
        fence = is_fence(text)
        self.setCurrentBlockState(self._IN_CODE if (in_code != fence) else 0)
