"""Page furniture of paged documents: running headers, running footers and page numbers.

A line a word processor repeats on most pages ("Spec v2 — page 3", "Internal draft · 3") is not
the document's text: left in, it glues itself to the first and last sentence of every page and
reaches briefs. It is dropped when the document is indexed (index.py), where every page is known
at once, so nothing downstream (search snippets, read_document, any model's brief, a citation's
page) sees it.

Pages come as the extractor writes them: blocks separated by blank lines, a heading as `## `.
The furniture is a block at a page's start or end, or the start or end of one (glued to a
sentence that runs over the page break); page numbers vary, so digits are compared as `#`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

MAX_FURNITURE_WORDS = 16
MIN_GLUED_WORDS = 3  # a shared start of fewer words must stand alone on some page to count
_DIGITS = re.compile(r"\d+")
_HEADING = re.compile(r"^#{1,6}\s+")
# A block that is only a page number: "3", "- 3 -", "Page 3", "3 of 12", "3/12", "iv", "第 3 页".
_PAGE_NUMBER = re.compile(
    r"^(?:[-–—]\s*)?(?:page\s+|p\.\s*)?(?:\d{1,5}|[ivxlcdm]{1,6})"
    r"(?:\s*(?:of|/)\s*\d{1,5})?(?:\s*[-–—])?$|^第\s*\d{1,5}\s*页(?:\s*/?\s*共\s*\d{1,5}\s*页)?$",
    re.I,
)


def _words(block: str) -> list[str]:
    return _HEADING.sub("", block).split()


def _masked(words: Sequence[str]) -> tuple[str, ...]:
    return tuple(_DIGITS.sub("#", w).lower() for w in words)


def _blocks(page: str) -> list[str]:
    return [b.strip() for b in page.split("\n\n") if b.strip()]


def _running(edges: list[list[str]], needed: int) -> tuple[str, ...] | None:
    """The longest run of words that starts the edge block of at least `needed` pages."""
    masked = [_masked(words) for words in edges]
    found: tuple[str, ...] | None = None
    for size in range(1, MAX_FURNITURE_WORDS + 1):
        counts = Counter(m[:size] for m in masked if len(m) >= size)
        if not counts:
            break
        start, count = counts.most_common(1)[0]
        if count < needed:
            break
        if size >= MIN_GLUED_WORDS or any(m == start for m in masked):
            found = start
    return found


def _strip_edge(pages: list[list[str]], at_end: bool, needed: int) -> bool:
    """Drop one running line from the start (or end) of every page that has it."""
    index = -1 if at_end else 0
    edges = [
        list(reversed(_words(blocks[index]))) if at_end else _words(blocks[index])
        for blocks in pages
        if blocks
    ]
    running = _running(edges, needed)
    if running is None:
        return False
    size = len(running)
    for blocks in pages:
        if not blocks:
            continue
        words = _words(blocks[index])
        edge = list(reversed(words)) if at_end else words
        if _masked(edge[:size]) != running:
            continue
        rest = words[: len(words) - size] if at_end else words[size:]
        heading = _HEADING.match(blocks[index])
        if not rest:
            blocks.pop(index)
        else:
            blocks[index] = (heading.group(0) if heading else "") + " ".join(rest)
    return True


def _drop_page_numbers(blocks: list[str]) -> None:
    for index in (0, -1):
        if blocks and _PAGE_NUMBER.match(" ".join(_words(blocks[index]))):
            blocks.pop(index)


def drop_running_lines(pages: Sequence[str]) -> tuple[str, ...]:
    """`pages` without running headers, running footers and page numbers."""
    split = [_blocks(page) for page in pages]
    with_text = sum(1 for blocks in split if blocks)
    needed = max(2, (with_text + 1) // 2)  # "most pages": half of them or more, at least two
    if with_text >= 2:
        for at_end in (False, True):
            for _ in range(3):  # a header of two lines, say a title over a chapter's name
                if not _strip_edge(split, at_end, needed):
                    break
    for blocks in split:
        _drop_page_numbers(blocks)
    return tuple("\n\n".join(blocks) for blocks in split)
