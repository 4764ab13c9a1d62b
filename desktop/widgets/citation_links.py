"""A brief as it reads, with its citations as links to the documents they cite.

`CitationBrowser` renders a brief's Markdown (or a plain text) and turns each citation
(`[paper.pdf p. 3]`, `[notes.md]`; agent_core/facade/citations.py finds them) into a link.
Activating one looks the document up on the bridge thread, then: a page citation opens the
in-app page viewer (the indexed text of that page: exact, where a system PDF viewer rarely
honours `#page=N`), with "Open in system viewer" beside it; a citation without a page opens the
document with the system's program, or the page viewer when there is none. A citation of a file
outside the corpus, or of one that is not there, is marked "not found" and never opened.

The brief is untrusted text: it is rendered without HTML, nothing it names is loaded (no
images, no files), and its own links are not followed from here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QCoreApplication, QUrl, Signal
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QTabWidget, QTextBrowser, QWidget

from agent_core.facade.citations import (
    Citation,
    CitationTargetView,
    citation_target,
    find_citations,
    known_sources,
)
from desktop.i18n import QT_TRANSLATE_NOOP
from desktop.models.plain_errors import plain_exception
from desktop.models.visible_text import visible_block
from desktop.widgets.markdown_highlighter import code_states
from desktop.widgets.system_open import no_viewer_text, open_with_system

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace
    from desktop.bridge import Bridge
    from desktop.widgets.diff_view import DiffView

SCHEME = "citation"
NOT_FOUND = QT_TRANSLATE_NOOP("CitationLinks", "not found")
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]{}()<>#+\-.!|~&])")
_FEATURES = (
    QTextDocument.MarkdownFeature.MarkdownDialectGitHub
    | QTextDocument.MarkdownFeature.MarkdownNoHTML
)


def _not_found() -> str:
    return QCoreApplication.translate("CitationLinks", NOT_FOUND)


def _escaped(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


@dataclass(frozen=True)
class _Form:
    """How a rendering writes the text between citations, a link, and a citation not found."""

    text: Callable[[str], str]
    link: Callable[[str, str], str]  # (label, href)
    missing: Callable[[str], str]


_MARKDOWN = _Form(
    text=lambda text: text,
    link=lambda label, href: f"[{_escaped(label)}]({href})",
    missing=lambda label: f"{_escaped(label)} *({_not_found()})*",
)
_HTML = _Form(
    text=escape,
    link=lambda label, href: f"<a href='{href}'>{escape(label)}</a>",
    missing=lambda label: f"{escape(label)} <i>({_not_found()})</i>",
)


def _linked(segment: str, citations: list[Citation], known: dict[str, bool], form: _Form) -> str:
    """`segment` with its citations as links (appended to `citations`; the link is its index)."""
    out, pos = [], 0
    for found in find_citations(segment):
        out.append(form.text(segment[pos : found.start]))
        label = segment[found.start : found.end]
        if known.get(found.source_id, True):  # not looked up yet: a link until it is
            out.append(form.link(label, f"{SCHEME}:{len(citations)}"))
            citations.append(found)
        else:
            out.append(form.missing(label))
        pos = found.end
    out.append(form.text(segment[pos:]))
    return "".join(out)


def cited_markdown(text: str, known: dict[str, bool]) -> tuple[str, list[Citation]]:
    """The Markdown with each citation outside code as a link `citation:N` (N: its index in
    the list returned); a citation whose source `known` says is not in the corpus is marked."""
    citations: list[Citation] = []
    lines = text.split("\n")
    out = []
    for line, in_code in zip(lines, code_states(lines), strict=True):
        if in_code or line.lstrip().startswith(("```", "~~~")):
            out.append(line)
            continue
        pieces, pos = [], 0
        for code in _INLINE_CODE.finditer(line):
            pieces.append(_linked(line[pos : code.start()], citations, known, _MARKDOWN))
            pieces.append(code.group(0))
            pos = code.end()
        pieces.append(_linked(line[pos:], citations, known, _MARKDOWN))
        out.append("".join(pieces))
    return "\n".join(out), citations


def cited_html(text: str, known: dict[str, bool]) -> tuple[str, list[Citation]]:
    """A plain text as HTML (its lines kept) with each citation as a link `citation:N`."""
    citations: list[Citation] = []
    body = _linked(text, citations, known, _HTML)
    return f"<pre style='white-space: pre-wrap'>{body}</pre>", citations


class CitationBrowser(QTextBrowser):
    """A read-only brief whose citations open what they cite (see the module's docstring)."""

    opened = Signal(object)  # the PageViewer shown for a citation

    def __init__(self, bridge: Bridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.corpus: str | None = None
        self.citations: list[Citation] = []
        self.viewer: QWidget | None = None  # the last page viewer this browser opened
        self._text, self._markdown = "", True
        self._known: dict[str, bool] = {}  # source id -> a document of the corpus (looked up)
        self._shown = 0  # bumped per text: a late lookup of an older text is dropped
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._activated)

    def loadResource(self, kind: int, name: QUrl | str) -> object:
        """Nothing a brief names is loaded: no image, no file (and no I/O on this thread)."""
        return None

    def set_brief(self, text: str, corpus: str | None = None, *, markdown: bool = True) -> None:
        """Show `text` (Markdown, or plain when not `markdown`); citations of `corpus` (None:
        the home's corpus folder) become links, then those not in it are marked."""
        self._text, self._markdown, self.corpus = visible_block(text), markdown, corpus
        self._known = {}
        self._shown += 1
        self._render()
        sources = sorted({c.source_id for c in find_citations(self._text)})
        if not sources:
            return
        shown = self._shown

        def look_up(ws: Workspace) -> dict[str, bool]:
            return known_sources(ws, sources, corpus)

        def looked_up(known: dict[str, bool]) -> None:
            if shiboken6.isValid(self) and shown == self._shown:
                self._known = known
                self._render()

        self.bridge.submit(look_up, on_done=looked_up, on_error=lambda _exc: None)

    def _render(self) -> None:
        bar = self.verticalScrollBar()
        where = bar.value()
        if self._markdown:
            text, self.citations = cited_markdown(self._text, self._known)
            self.document().setMarkdown(text, _FEATURES)
        else:
            html, self.citations = cited_html(self._text, self._known)
            self.setHtml(html)
        bar.setValue(where)  # marking the unknown ones does not move the reader

    def citation_links(self) -> list[tuple[str, str]]:
        """(href, anchor text) of every link, in order: what a person can click."""
        links: list[tuple[str, str]] = []
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                href = fragment.charFormat().anchorHref()
                if href:
                    links.append((href, fragment.text()))
                it += 1
            block = block.next()
        return links

    def _activated(self, url: QUrl) -> None:
        if url.scheme() != SCHEME:
            return  # the brief's own links are not followed from the window
        try:
            found = self.citations[int(url.path())]
        except (ValueError, IndexError):
            return
        self.open_citation(found)

    def open_citation(self, found: Citation) -> None:
        """Look the cited document up (bridge thread), then show or open it."""
        corpus, source, page = self.corpus, found.source_id, found.page

        def look_up(ws: Workspace) -> CitationTargetView:
            return citation_target(ws, source, page, corpus)

        def failed(exc: Exception) -> None:
            self._show(
                CitationTargetView(
                    source_id=source, page=page, path=None, text=None, message=plain_exception(exc)
                )
            )

        self.bridge.submit(look_up, on_done=self._show_target, on_error=failed)

    def _show_target(self, target: CitationTargetView) -> None:
        path = target["path"]
        # No page: the system's program shows the whole document; a page: ours is exact.
        if path is None or target["page"] is not None:
            self._show(target)
        else:  # no program for it here: its indexed text, and why it is not the document

            def no_viewer(why: str) -> None:
                from desktop.widgets.page_viewer import PageViewer

                self._show(target)
                if isinstance(self.viewer, PageViewer):
                    self.viewer.say(no_viewer_text(why))

            open_with_system(path, self, no_viewer)

    def _show(self, target: CitationTargetView) -> None:
        if not shiboken6.isValid(self):
            return
        from desktop.widgets.page_viewer import PageViewer

        viewer = PageViewer(target, self.window())
        viewer.show()
        self.viewer = viewer
        self.opened.emit(viewer)


class BriefTabs(QTabWidget):
    """The approval dialog's view of a proposed brief: the diff (as it is) and the brief as it
    reads, with its citations as links."""

    def __init__(self, diff: DiffView, bridge: Bridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.diff = diff
        self.brief = CitationBrowser(bridge)
        self.addTab(diff, self.tr("Changes"))
        self.addTab(self.brief, self.tr("Brief, with links to its sources"))
        self.setDocumentMode(True)
        self._corpus: str | None = None

    def show_brief(
        self, content: str, corpus: str | None = None, *, keep_corpus: bool = False
    ) -> None:
        if not keep_corpus:
            self._corpus = corpus
        self.brief.set_brief(content, self._corpus)
