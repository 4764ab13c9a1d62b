"""Pages of paged documents (PDF): the `pages` argument of read_document, the `[page N]`
lines that mark where each page starts in what the model reads, and the citation a brief
gives a point (`[file.pdf p. N]`, or `[file.md]` for a document without pages)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent_core.contract.errors import BriefDeskError, ErrorCode

MAX_PAGES_PER_READ = 200
_SPEC = re.compile(r"\A\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?\Z")
PAGE_LINE = re.compile(r"^\[page (\d{1,6})\]$", re.M)
_CITATION = re.compile(r"\[(?P<source>[^\[\]\n]+?)(?: p\. (?P<page>\d{1,6}))?\]")


@dataclass(frozen=True)
class PageRange:
    """Pages `first` to `last`, 1-based and inclusive."""

    first: int
    last: int

    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


def parse_pages(spec: str) -> PageRange:
    """`"3"` or `"3-5"` -> PageRange; `invalid_arguments` for anything else."""
    match = _SPEC.match(spec)
    first = int(match.group(1)) if match else 0
    last = int(match.group(2) or first) if match else 0
    if not match or first < 1 or last < first:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"pages must be a page number or a range such as 3-5 (1-based), not {spec!r}",
        )
    if last - first + 1 > MAX_PAGES_PER_READ:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"Read at most {MAX_PAGES_PER_READ} pages at a time."
        )
    return PageRange(first, last)


def page_marker(number: int) -> str:
    return f"[page {number}]"


def defang_markers(text: str) -> str:
    """A document's own line that reads like our page marker is shown as `(page N)`, so a
    page cannot pretend to be another one."""
    return PAGE_LINE.sub(lambda m: f"(page {m.group(1)})", text)


def citation(source_id: str, page: int | None) -> str:
    return f"[{source_id} p. {page}]" if page else f"[{source_id}]"


def parse_citation(text: str) -> tuple[str, int | None] | None:
    """(source id, page or None) of a citation such as `[a.pdf p. 3]` or `[a.md]`."""
    match = _CITATION.fullmatch(text.strip())
    if match is None:
        return None
    page = match.group("page")
    return match.group("source"), int(page) if page else None
