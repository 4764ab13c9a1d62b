"""Citations in a brief, for the window: where they are in the text and what they point at.

A brief cites `[file.pdf p. 3]` for a point from page 3 of a paged document and `[notes.md]`
otherwise (agent_core/corpus/pages.py spells the form). `find_citations` is pure (the window
calls it on its own thread to turn citations into links); `citation_target` and
`known_sources` read the disk and the index, so they run on the bridge thread. A citation is
followed only to a document of the corpus: a path out of the folder (`..`, absolute, a symlink
out), a hidden file or a file of a type the corpus does not read is "not found", never opened.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from agent_core.contract.documents import INDEXED_TYPES
from agent_core.contract.errors import BriefDeskError
from agent_core.corpus.pages import parse_citation
from agent_core.home.sandbox import resolve_inside

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace

# A bracketed run of text that is not a Markdown link's text (`[text](url)`); whether it is a
# citation is parse_citation's call (the one grammar), and its source must be a corpus type.
_BRACKETED = re.compile(r"\[[^\[\]\n]{1,400}\](?!\()")


@dataclass(frozen=True)
class Citation:
    """One citation in a text: `text[start:end]` is `[source_id p. page]` or `[source_id]`."""

    start: int
    end: int
    source_id: str
    page: int | None

    @property
    def label(self) -> str:
        return f"{self.source_id} p. {self.page}" if self.page else self.source_id


class CitationTargetView(TypedDict):
    """What a citation points at, as the window's page viewer shows it."""

    source_id: str
    page: int | None
    path: str | None
    """The document's absolute path inside the corpus folder; None: not a document there."""
    text: str | None
    """The indexed text of that page (of the whole document when not paged); None: none."""
    message: str
    """Why there is no path or no text, in plain words ("" when both are there)."""


def find_citations(text: str) -> list[Citation]:
    """Every citation of `text`, in order (a bracket whose source is no corpus type is not)."""
    found: list[Citation] = []
    for match in _BRACKETED.finditer(text):
        parsed = parse_citation(match.group(0))
        if parsed is None:
            continue
        source_id, page = parsed
        if INDEXED_TYPES.get(Path(source_id).suffix.lower()) is None:
            continue
        found.append(Citation(match.start(), match.end(), source_id, page))
    return found


def _document_path(root: Path, source_id: str) -> Path | None:
    """The file a source id names inside `root`, or None (outside, hidden, missing, no type)."""
    if INDEXED_TYPES.get(Path(source_id).suffix.lower()) is None:
        return None
    if any(part.startswith(".") for part in source_id.split("/")):
        return None  # the index skips hidden files: a citation of one is not of the corpus
    try:
        path = resolve_inside(root, source_id, must_exist=True)
    except BriefDeskError:
        return None
    return path if path.is_file() else None


def known_sources(
    ws: Workspace, sources: Iterable[str], corpus: str | Path | None = None
) -> dict[str, bool]:
    """Bridge thread: for each source id, is it a document of the corpus folder?"""
    root = ws.corpus_root(corpus)
    return {source: _document_path(root, source) is not None for source in sources}


def citation_target(
    ws: Workspace, source_id: str, page: int | None, corpus: str | Path | None = None
) -> CitationTargetView:
    """Bridge thread: the document a citation names and the indexed text of its page."""
    root = ws.corpus_root(corpus)
    path = _document_path(root, source_id)
    view = CitationTargetView(source_id=source_id, page=page, path=None, text=None, message="")
    if path is None:
        view["message"] = f"{source_id} is not a document of the corpus folder {root}."
        return view
    view["path"] = str(path)
    try:
        view["text"] = ws.document_page_text(source_id, page, corpus)
    except BriefDeskError:
        view["message"] = (
            f"The index has no text for page {page} of {source_id}: the page may be past its"
            " end, or the document is not indexed yet (see the Corpus tab)."
            if page
            else f"The index has no text for {source_id} as a whole: a PDF is read page by"
            " page, or the document is not indexed yet (see the Corpus tab)."
        )
    return view
