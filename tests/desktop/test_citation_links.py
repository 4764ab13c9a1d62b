"""Citations as links, offscreen, over a real home through the real bridge thread: the artifact
viewer renders a brief with its citations as links; a page citation opens the in-app page
viewer with that page's indexed text; a citation without a page opens the system's program; a
citation of something outside the corpus, or missing, is marked not found and never opened.
The approval dialog shows the proposed brief the same way beside its diff."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QTextCursor
from pytestqt.qtbot import QtBot

from agent_core.facade.citations import Citation, find_citations
from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.widgets.approval_dialog import ApprovalDialog
from desktop.widgets.artifact_viewer import ArtifactViewer
from desktop.widgets.citation_links import CitationBrowser, cited_markdown
from desktop.widgets.page_viewer import PageViewer
from tests.desktop.test_corpus_panel import (  # noqa: F401  (registers the session fixture)
    PAGES,
    fixture_made_pdfs,
)
from tests.support.desktop import open_workspace, started_bridge
from tests.support.typed import present

DEMO_DOC = "checkpoints-at-tool-boundaries.md"  # in every new home's corpus


class UrlCatcher(QObject):
    """Qt's own hook for opening file URLs, so no program is launched by a test."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


@pytest.fixture
def opened() -> Iterator[UrlCatcher]:
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("file", catcher, "open")
    yield catcher
    QDesktopServices.unsetUrlHandler("file")


@pytest.fixture
def ws(home: Path) -> Iterator[Workspace]:
    with open_workspace(home) as workspace:
        yield workspace


@pytest.fixture
def bridge(qtbot: QtBot, ws: Workspace, home: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, home) as started:
        yield started


def click_link(qtbot: QtBot, browser: CitationBrowser, text: str) -> None:
    """Click, with the mouse, the link whose anchor text is `text`."""
    document = browser.document()
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() and fragment.text() == text:
                cursor = QTextCursor(document)
                cursor.setPosition(fragment.position() + len(text) // 2)
                browser.ensureCursorVisible()
                centre = browser.cursorRect(cursor).center()
                qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=centre)
                return
            it += 1
        block = block.next()
    raise AssertionError(f"no link {text!r} in {browser.citation_links()}")


def open_viewer(qtbot: QtBot, bridge: Bridge, ws: Workspace, brief: str) -> ArtifactViewer:
    folder = ws.home.artifacts
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "brief.md").write_text(brief)
    viewer = ArtifactViewer(bridge, str(folder), "brief.md")
    qtbot.addWidget(viewer)
    viewer.show()
    qtbot.waitExposed(viewer)
    qtbot.waitUntil(lambda: "read-only" in viewer.note.text(), timeout=10_000)
    return viewer


# -- finding citations (pure) -----------------------------------------------------------------


def test_citations_are_found_with_their_pages_and_links_are_not() -> None:
    text = (
        "Checkpoints [paper.pdf p. 3] and notes [notes/ledger.md]; a link [docs](https://x.io);"
        " a footnote [1]; a box [x]; not a corpus type [photo.jpg]; [Paper One.PDF p. 12]."
    )
    assert [(c.source_id, c.page) for c in find_citations(text)] == [
        ("paper.pdf", 3),
        ("notes/ledger.md", None),
        ("Paper One.PDF", 12),
    ]
    first = find_citations(text)[0]
    assert text[first.start : first.end] == "[paper.pdf p. 3]"


def test_markdown_links_citations_outside_code_only() -> None:
    text = "# Brief\n\n- A point [a.pdf p. 2] and `[b.md]`\n\n```\n[c.md]\n```\n"
    markdown, citations = cited_markdown(text, {})
    assert [(c.source_id, c.page) for c in citations] == [("a.pdf", 2)]
    assert "(citation:0)" in markdown and "`[b.md]`" in markdown and "\n[c.md]\n" in markdown
    marked, linked = cited_markdown(text, {"a.pdf": False})
    assert linked == [] and "(not found)" in marked


# -- the artifact viewer ---------------------------------------------------------------------


def test_a_page_citation_opens_the_page_viewer_with_that_pages_text(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, made_pdfs: dict[str, Path], opened: UrlCatcher
) -> None:
    shutil.copy(made_pdfs["paper.pdf"], ws.home.corpus / "paper.pdf")
    ws.reindex_corpus()
    viewer = open_viewer(
        qtbot, bridge, ws, "# Brief\n\n- The ledger records writes once [paper.pdf p. 2].\n"
    )
    browser = viewer.text
    qtbot.waitUntil(lambda: ("citation:0", "[paper.pdf p. 2]") in browser.citation_links())
    assert "# Brief" not in browser.toPlainText()  # rendered Markdown, not its source
    click_link(qtbot, browser, "[paper.pdf p. 2]")
    qtbot.waitUntil(lambda: isinstance(browser.viewer, PageViewer), timeout=10_000)
    page = browser.viewer
    assert isinstance(page, PageViewer)
    qtbot.addWidget(page)
    assert page.windowTitle().startswith("paper.pdf, page 2")
    assert PAGES[1] in page.page_text() and PAGES[0] not in page.page_text()
    assert page.open_button.isVisibleTo(page) and page.open_button.text() == (
        "Open in system viewer"
    )
    assert opened.urls == []  # the in-app viewer is the default for a page
    page.open_button.click()
    assert [u.toLocalFile() for u in opened.urls] == [str(ws.home.corpus / "paper.pdf")]


def test_a_citation_without_a_page_opens_the_system_viewer(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, opened: UrlCatcher
) -> None:
    ws.reindex_corpus()
    viewer = open_viewer(qtbot, bridge, ws, f"A point from the notes [{DEMO_DOC}].\n")
    qtbot.waitUntil(lambda: f"[{DEMO_DOC}]" in dict(viewer.text.citation_links()).values())
    click_link(qtbot, viewer.text, f"[{DEMO_DOC}]")
    qtbot.waitUntil(lambda: bool(opened.urls), timeout=10_000)
    assert opened.urls[0].toLocalFile() == str((ws.home.corpus / DEMO_DOC).resolve())
    assert viewer.text.viewer is None


def test_an_unpaged_citation_with_a_page_number_shows_why_there_is_no_text(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, opened: UrlCatcher
) -> None:
    ws.reindex_corpus()
    viewer = open_viewer(qtbot, bridge, ws, f"A point [{DEMO_DOC} p. 2].\n")
    qtbot.waitUntil(lambda: bool(viewer.text.citation_links()))
    click_link(qtbot, viewer.text, f"[{DEMO_DOC} p. 2]")
    qtbot.waitUntil(lambda: isinstance(viewer.text.viewer, PageViewer), timeout=10_000)
    page = viewer.text.viewer
    assert isinstance(page, PageViewer)
    qtbot.addWidget(page)
    assert page.page_text() == "" and "page 2" in page.note.text()
    assert page.open_button.isVisibleTo(page)  # the document is there: the system may show it


def test_citations_outside_the_corpus_or_missing_are_not_found_and_never_opened(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, opened: UrlCatcher
) -> None:
    outside = ws.home.root / "secret.md"
    outside.write_text("# Secret\n\nNot of the corpus.\n")
    (ws.home.corpus / "link.md").symlink_to(outside)
    brief = (
        f"Real [{DEMO_DOC}]. Out [../secret.md]. Gone [missing.pdf p. 2]. Linked out [link.md]."
        " Hidden [.hidden.md]. Absolute [/etc/hosts.txt].\n"
    )
    (ws.home.corpus / ".hidden.md").write_text("# Hidden\n")
    viewer = open_viewer(qtbot, bridge, ws, brief)
    browser = viewer.text
    qtbot.waitUntil(lambda: browser.toPlainText().count("(not found)") == 5, timeout=10_000)
    assert [text for _href, text in browser.citation_links()] == [f"[{DEMO_DOC}]"]
    # Followed anyway (a stale link), it says not found and offers nothing to open.
    browser.open_citation(Citation(0, 0, "../secret.md", None))
    qtbot.waitUntil(lambda: isinstance(browser.viewer, PageViewer), timeout=10_000)
    page = browser.viewer
    assert isinstance(page, PageViewer)
    qtbot.addWidget(page)
    assert "not found" in page.heading.text() and "Not found" in page.windowTitle()
    assert not page.open_button.isVisibleTo(page) and page.page_text() == ""
    assert opened.urls == []


def test_the_brief_loads_nothing_it_names(qtbot: QtBot, bridge: Bridge) -> None:
    browser = CitationBrowser(bridge)
    qtbot.addWidget(browser)
    browser.set_brief("![x](file:///etc/passwd) <b>bold</b> [site](https://example.org)\n")
    assert "root:" not in browser.toHtml()
    assert "<b>bold</b>" in browser.toPlainText()  # raw HTML is shown as text, not obeyed
    assert browser.citation_links() == [("https://example.org", "site")]


# -- the approval dialog ----------------------------------------------------------------------


def test_the_approval_dialog_shows_the_proposed_brief_with_links(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, opened: UrlCatcher
) -> None:
    run = ws.start_run(
        "How do checkpoints make agent runs durable?", artifacts=ws.home.root / "out"
    )
    assert run["status"] == "waiting_approval"
    approval_id = ws.list_approvals(run_id=run["run_id"])[0]["id"]
    dialog = ApprovalDialog(bridge, approval_id, "alice")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)
    tabs = dialog.content_tabs
    assert tabs.currentWidget() is dialog.diff  # the diff is what is read first, as before
    tabs.setCurrentWidget(tabs.brief)
    content = str(present(dialog.info)["approval"]["args"]["content"])
    cited = {f"[{c.label}]" for c in find_citations(content)}
    assert cited
    qtbot.waitUntil(lambda: {t for _h, t in tabs.brief.citation_links()} == cited)
    first = sorted(cited)[0]
    click_link(qtbot, tabs.brief, first)
    qtbot.waitUntil(lambda: bool(opened.urls), timeout=10_000)
    assert Path(opened.urls[0].toLocalFile()).name == first.strip("[]")
