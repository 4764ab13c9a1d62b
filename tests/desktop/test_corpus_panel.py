"""The Corpus tab, offscreen, over a real home: a real bridge thread reindexes, a real watchdog
observer watches the corpus folder, and the documents are made by real tools (LibreOffice
makes the PDFs; a broken one is a real PDF cut in half)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from agent_core.contract.documents import ReindexProgress
from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.corpus_keeper import CorpusKeeper
from desktop.widgets.corpus_panel import CorpusPanel
from tests.support.desktop import MakeWindow, open_workspace, started_bridge

# The PDF extractor is another module's; until it is in, every PDF fails (unreadable) here.
PAGES = (
    "Durable runs save a checkpoint at every tool boundary.",
    "The side-effect ledger records each approved write exactly once.",
    "A resumed run never repeats a confirmed side effect.",
)


DOCUMENTS = Path(__file__).resolve().parents[1] / "fixtures" / "documents"


@pytest.fixture(name="made_pdfs", scope="session")
def fixture_made_pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`paper.pdf` (three pages of PAGES, made by LibreOffice from fixtures/documents/
    paper.html) and `broken.pdf` (the same file cut in half)."""
    folder = tmp_path_factory.mktemp("pdfs")
    paper = folder / "paper.pdf"
    shutil.copy(DOCUMENTS / "paper.pdf", paper)
    broken = folder / "broken.pdf"
    data = paper.read_bytes()
    broken.write_bytes(data[: len(data) // 2])
    return {"paper.pdf": paper, "broken.pdf": broken}


@pytest.fixture
def ws(home: Path) -> Iterator[Workspace]:
    with open_workspace(home) as workspace:  # makes the home, with its demo corpus
        yield workspace


@pytest.fixture
def bridge(qtbot: QtBot, ws: Workspace, home: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, home) as started:
        yield started


@pytest.fixture
def kept(qtbot: QtBot, bridge: Bridge) -> Iterator[tuple[CorpusPanel, CorpusKeeper]]:
    """A Corpus tab kept current (watching and reindexed once), as the window starts it."""
    panel = CorpusPanel()
    qtbot.addWidget(panel)
    panel.resize(340, 600)
    panel.show()
    keeper = CorpusKeeper(bridge, panel)
    with qtbot.waitSignal(keeper.reindexed, timeout=60_000):
        keeper.start()
    qtbot.waitUntil(lambda: keeper.watching, timeout=10_000)
    yield panel, keeper
    keeper.stop()


def test_the_tab_counts_by_type_and_lists_documents_and_failures(
    qtbot: QtBot, ws: Workspace, bridge: Bridge, made_pdfs: dict[str, Path]
) -> None:
    corpus = ws.home.corpus
    for name, made in made_pdfs.items():
        shutil.copy(made, corpus / name)
    panel = CorpusPanel()
    qtbot.addWidget(panel)
    keeper = CorpusKeeper(bridge, panel)
    with qtbot.waitSignal(keeper.reindexed, timeout=60_000) as reindexed:
        keeper.start()
    status = reindexed.args[0]
    try:
        markdown = sum(1 for p in corpus.iterdir() if p.suffix == ".md")
        assert status["by_type"]["pdf"] == 2 and status["by_type"]["md"] == markdown
        assert status["failed"] == 1
        assert f"{status['failed']} failed" in panel.summary_label.text()
        assert f"md {markdown}" in panel.types_label.text() and "pdf 2" in panel.types_label.text()
        assert {"paper.pdf", "broken.pdf"} <= set(panel.document_paths())
        # The broken PDF's code and plain message are there to read, not only in a tooltip.
        broken = next(d for d in panel.documents if d["path"] == "broken.pdf")
        assert broken["error"] is not None
        assert broken["error"]["code"] == "document_unreadable"
        failed = panel.failed_text()
        assert "broken.pdf" in failed and "document_unreadable" in failed
        assert broken["error"]["message"] in failed
        # every other document is indexed, with its pages
        assert "paper.pdf" not in failed
        paper = next(d for d in panel.documents if d["path"] == "paper.pdf")
        assert paper["status"] == "indexed" and paper["pages"] == len(PAGES)
    finally:
        keeper.stop()


def test_a_new_file_is_reindexed_within_seconds_and_shown(
    qtbot: QtBot, ws: Workspace, kept: tuple[CorpusPanel, CorpusKeeper]
) -> None:
    panel, keeper = kept
    before = keeper.reindexes
    assert "fresh-notes.md" not in panel.document_paths()
    (ws.home.corpus / "fresh-notes.md").write_text("# Fresh notes\n\nWritten while it runs.\n")
    qtbot.waitUntil(lambda: "fresh-notes.md" in panel.document_paths(), timeout=15_000)
    assert keeper.reindexes > before
    row = next(d for d in panel.documents if d["path"] == "fresh-notes.md")
    assert row["status"] == "indexed"


def test_a_burst_of_twenty_files_is_a_few_reindexes(
    qtbot: QtBot, ws: Workspace, kept: tuple[CorpusPanel, CorpusKeeper]
) -> None:
    panel, keeper = kept
    before = keeper.reindexes
    names = [f"burst-{n:02}.txt" for n in range(20)]
    for number, name in enumerate(names):
        (ws.home.corpus / name).write_text(f"Burst document {number}.\n")
    qtbot.waitUntil(lambda: set(names) <= set(panel.document_paths()), timeout=30_000)
    # A sentinel after the burst: once it shows, every reindex the burst caused has run.
    (ws.home.corpus / "sentinel.md").write_text("# Sentinel\n")
    qtbot.waitUntil(lambda: "sentinel.md" in panel.document_paths(), timeout=15_000)
    assert keeper.reindexes - before <= 4


def test_hidden_files_start_no_reindex(
    qtbot: QtBot, ws: Workspace, kept: tuple[CorpusPanel, CorpusKeeper]
) -> None:
    panel, keeper = kept
    corpus = ws.home.corpus
    before = keeper.reindexes
    (corpus / ".draft.md").write_text("# Hidden draft\n")
    (corpus / ".git").mkdir()
    (corpus / ".git" / "HEAD.md").write_text("# In a hidden folder\n")
    (corpus / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0")
    # Then a real change: its reindex is the only one (the hidden ones would come first).
    with qtbot.waitSignal(keeper.reindexed, timeout=15_000):
        (corpus / "visible.md").write_text("# Visible\n")
    qtbot.waitUntil(lambda: "visible.md" in panel.document_paths(), timeout=15_000)
    assert keeper.reindexes - before == 1
    assert not any(p.startswith(".") or "/." in p for p in panel.document_paths())


def test_reindexes_asked_for_while_one_runs_become_one_more(
    qtbot: QtBot, kept: tuple[CorpusPanel, CorpusKeeper]
) -> None:
    _panel, keeper = kept
    before = keeper.reindexes
    done: list[object] = []
    keeper.reindexed.connect(done.append)
    for _ in range(3):
        keeper.reindex()
    assert keeper.busy
    qtbot.waitUntil(lambda: len(done) == 2 and not keeper.busy, timeout=30_000)
    assert keeper.reindexes == before + 2  # never two at once, none lost


def test_reindex_button_reads_the_folder_again(
    qtbot: QtBot, ws: Workspace, kept: tuple[CorpusPanel, CorpusKeeper]
) -> None:
    panel, keeper = kept
    before = keeper.reindexes
    with qtbot.waitSignal(keeper.reindexed, timeout=30_000):
        panel.reindex_button.click()
    assert keeper.reindexes == before + 1
    assert panel.reindex_button.isEnabled() and not panel.progress_bar.isVisible()


def test_progress_is_relayed_from_the_reindex_thread(
    qtbot: QtBot, ws: Workspace, kept: tuple[CorpusPanel, CorpusKeeper]
) -> None:
    panel, keeper = kept
    steps: list[ReindexProgress] = []  # list.append is atomic: safe from the worker thread
    keeper.progressed.connect(steps.append, Qt.ConnectionType.DirectConnection)
    for number in range(30):
        (ws.home.corpus / f"progress-{number:02}.md").write_text(f"# Doc {number}\n")
    qtbot.waitUntil(lambda: "progress-29.md" in panel.document_paths(), timeout=30_000)
    assert steps and all(0 < s.done <= s.total for s in steps)
    assert any(s.current.startswith("progress-") for s in steps)
    assert not panel.progress_bar.isVisible() and panel.reindex_button.isEnabled()


def test_the_bar_shows_done_of_total_and_the_file_read(qtbot: QtBot) -> None:
    panel = CorpusPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.show_reindexing()
    assert panel.progress_bar.isVisible() and not panel.reindex_button.isEnabled()
    panel.show_progress(ReindexProgress(done=3, total=10, current="papers/paper.pdf"))
    assert (panel.progress_bar.value(), panel.progress_bar.maximum()) == (3, 10)
    assert panel.progress_bar.text() == "3 of 10"
    assert panel.progress_label.text() == "Read papers/paper.pdf"


def test_the_window_has_the_corpus_tab_kept_current(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    window = make_window(home)
    panel = window.corpus_panel
    assert window.side_tabs.indexOf(panel) >= 0
    assert window.side_tabs.tabText(window.side_tabs.indexOf(panel)) == "Corpus"
    copied = sorted(p.name for p in (home / "corpus").iterdir() if p.suffix == ".md")
    qtbot.waitUntil(lambda: set(copied) <= set(panel.document_paths()), timeout=60_000)
    qtbot.waitUntil(lambda: window.corpus_keeper.watching, timeout=10_000)
    (home / "corpus" / "added-later.md").write_text("# Added later\n")
    qtbot.waitUntil(lambda: "added-later.md" in panel.document_paths(), timeout=15_000)


def test_the_tab_never_shows_what_a_symlink_points_outside(
    qtbot: QtBot, ws: Workspace, bridge: Bridge
) -> None:
    outside = ws.home.root / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# TOP SECRET first line\n")
    (ws.home.corpus / "leak.md").symlink_to(outside / "secret.md")
    (ws.home.corpus / "leaks").symlink_to(outside, target_is_directory=True)
    panel = CorpusPanel()
    qtbot.addWidget(panel)
    keeper = CorpusKeeper(bridge, panel)
    with qtbot.waitSignal(keeper.reindexed, timeout=60_000):
        keeper.start()
    keeper.stop()
    paths = panel.document_paths()
    assert paths and not any(p.startswith(("leak.md", "leaks/")) for p in paths)
    assert "TOP SECRET" not in panel.summary_label.text() + panel.failed_text()
