"""The Corpus tab shows the folder in use (issue 41, item 6), in a real window offscreen: the
corpus folder of Settings, or the selected run's when it read another one, with that folder's
documents and every failure with its code's plain reason; Settings ▸ Corpus holds the folder,
checked by the façade (a refused folder is said, nothing stored) and saving another re-lists.

The documents are real: a PDF LibreOffice made (fixtures/documents/paper.pdf), a DOCX with
hidden text, a `.pdf` that is not a PDF, an empty text file and a name with a zero-width space.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pytestqt.qtbot import QtBot

from desktop.widgets.corpus_panel import CorpusPanel
from desktop.widgets.main_window import MainWindow
from tests.support.desktop import MakeWindow, open_workspace

DOCUMENTS = Path(__file__).resolve().parents[1] / "fixtures" / "documents"
REFUSED_NAME = "memo\u200b.md"


def _folder_of_papers(folder: Path) -> Path:
    folder.mkdir()
    shutil.copy(DOCUMENTS / "paper.pdf", folder / "paper.pdf")
    shutil.copy(DOCUMENTS / "hostile.docx", folder / "hostile.docx")
    (folder / "fake.pdf").write_text("This is a text file that calls itself a PDF.\n")
    (folder / "empty.txt").write_text("")
    (folder / REFUSED_NAME).write_text("# Memo\n\nA memo whose name hides a character.\n")
    return folder


def _shows(panel: CorpusPanel, folder: Path, *, run: bool) -> bool:
    """The header names `folder` (as Settings' or the run's), and every document listed is
    that folder's (a reindex of it has ended)."""
    caption = "Folder of the selected run" if run else "Corpus folder (Settings)"
    on_disk = sorted(p.name for p in folder.iterdir())
    return (
        panel.folder_path() == str(folder.resolve())
        and caption in panel.folder_caption.text()
        and sorted(panel.document_paths()) == on_disk
        and panel.reindex_button.isEnabled()
    )


def _window(make_window: MakeWindow, home: Path) -> MainWindow:
    window = make_window(home)
    window.side_tabs.setCurrentWidget(window.corpus_panel)
    return window


def test_a_run_on_another_folder_shows_that_folders_documents_and_failures(
    qtbot: QtBot, home: Path, tmp_path: Path, make_window: MakeWindow
) -> None:
    papers = _folder_of_papers(tmp_path / "papers")
    with open_workspace(home) as ws:
        on_papers = ws.create_run("What does the paper say?", corpus=str(papers))
        on_home = ws.create_run("And the demo corpus?")
    window = _window(make_window, home)
    panel = window.corpus_panel
    window.select_run(None)
    qtbot.waitUntil(lambda: _shows(panel, home / "corpus", run=False), timeout=60_000)
    assert "fake.pdf" not in panel.failed_text()

    window.select_run(on_papers)
    qtbot.waitUntil(lambda: _shows(panel, papers, run=True), timeout=60_000)
    failed = panel.failed_text()
    for name, reason, code in (
        ("fake.pdf", "cannot be read", "document_unreadable"),
        ("empty.txt", "has no text", "document_no_text"),
        ("memo\\u200b.md", "name has hidden characters", "document_name_refused"),
    ):
        assert f"{name} — {reason} ({code})" in failed, failed
    assert "paper.pdf" not in failed and "hostile.docx" not in failed
    assert "3 failed" in panel.summary_label.text()

    window.select_run(on_home)  # a run on Settings' folder: Settings' folder, as before
    qtbot.waitUntil(lambda: _shows(panel, home / "corpus", run=False), timeout=60_000)
    assert panel.failed_text() == ""


def test_settings_hold_the_corpus_folder_refuse_a_bad_one_and_relist(
    qtbot: QtBot, home: Path, tmp_path: Path, make_window: MakeWindow
) -> None:
    papers = _folder_of_papers(tmp_path / "papers")
    (tmp_path / "a-file").write_text("not a folder")
    window = _window(make_window, home)
    panel = window.corpus_panel
    qtbot.waitUntil(lambda: _shows(panel, home / "corpus", run=False), timeout=60_000)

    window.settings_action.trigger()
    dialog = window.settings_dialog
    page = dialog.corpus_page
    assert page.folder.text() == "" and page.choose_button.isEnabled()
    for refused, said in (
        (tmp_path / "missing", "does not exist"),
        (tmp_path / "a-file", "not a folder"),
        (home / "artifacts", "runs would read their own files"),
    ):
        dialog.tabs.setCurrentIndex(0)
        page.folder.setText(str(refused))
        dialog.reviewer.setText("dana")  # saved with it, or not at all
        dialog.save()
        qtbot.waitUntil(lambda: dialog.error_label.isVisible(), timeout=10_000)
        assert said in dialog.error_label.text()
        assert dialog.tabs.currentWidget() is page  # where it can be mended
        assert dialog.isVisible() and dialog.buttons.isEnabled()
        dialog.error_label.setVisible(False)
        with open_workspace(home) as ws:
            assert ws.settings()["corpus.folder"] is None and ws.settings()["reviewer"] != "dana"

    page.folder.setText(str(papers))
    with qtbot.waitSignal(dialog.accepted, timeout=10_000):
        dialog.save()
    with open_workspace(home) as ws:
        assert ws.settings()["corpus.folder"] == str(papers.resolve())
        assert ws.settings()["reviewer"] == "dana"
    qtbot.waitUntil(lambda: _shows(panel, papers, run=False), timeout=60_000)
    assert "fake.pdf — cannot be read (document_unreadable)" in panel.failed_text()
    # A new run reads it (the form's empty Corpus field is Settings' folder).
    with open_workspace(home) as ws:
        assert ws.get_run(ws.create_run("Which paper?"))["corpus"] == str(papers.resolve())

    window.settings_action.trigger()
    again = window.settings_dialog
    assert again.corpus_page.folder.text() == str(papers.resolve())
    again.corpus_page.folder.clear()  # empty: the home's corpus folder again
    with qtbot.waitSignal(again.accepted, timeout=10_000):
        again.save()
    qtbot.waitUntil(lambda: _shows(panel, home / "corpus", run=False), timeout=60_000)
