"""The Corpus tab says what `corpus list` adds (issue 41, items 1-2): per document and over the
folder, the hidden passages left out and the pages read by OCR; and while OCR reads a scan (seconds
a page) it names the document and the page, relayed through the bridge while the GUI thread
keeps serving events. Real documents: a scan made by pdftoppm + img2pdf, a DOCX and an ODT with
hidden text (fixtures/documents), read by a real bridge thread and real Tesseract workers."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QObject, Qt, Slot
from pytestqt.qtbot import QtBot

from agent_core.contract.documents import ReindexProgress
from desktop.bridge import Bridge
from desktop.corpus_keeper import CorpusKeeper
from desktop.widgets.corpus_panel import CorpusPanel
from tests.support.ci import require_or_skip
from tests.support.desktop import open_workspace, started_bridge

DOCUMENTS = Path(__file__).resolve().parents[1] / "fixtures" / "documents"


@pytest.fixture
def bridge(qtbot: QtBot, home: Path) -> Iterator[Bridge]:
    with open_workspace(home), started_bridge(qtbot, home) as started:
        yield started


class Recorder(QObject):
    """What the tab said at each progress step, read on the GUI thread (its thread)."""

    def __init__(self, panel: CorpusPanel) -> None:
        super().__init__()
        self.panel = panel
        self.said: list[tuple[ReindexProgress, str]] = []

    @Slot(object)
    def record(self, step: ReindexProgress) -> None:
        self.said.append((step, self.panel.progress_label.text()))


def _item_text(panel: CorpusPanel, path: str) -> str:
    row = panel.document_paths().index(path)
    item = panel.list.item(row)
    assert item is not None
    return item.text()


def test_hidden_passages_and_ocr_pages_are_shown_and_ocr_is_followed_page_by_page(
    qtbot: QtBot, bridge: Bridge, tmp_path: Path
) -> None:
    if shutil.which("tesseract") is None:
        require_or_skip("OCR needs tesseract (./dev.sh installs it)")
    folder = tmp_path / "scans"
    folder.mkdir()
    for name in ("scan.pdf", "hostile.docx", "hostile.odt", "paper.pdf"):
        shutil.copy(DOCUMENTS / name, folder / name)
    panel = CorpusPanel()
    qtbot.addWidget(panel)
    panel.resize(340, 700)
    panel.show()
    keeper = CorpusKeeper(bridge, panel)
    # What the tab said while the reindex ran, read on the GUI thread just after the panel had
    # it (queued after the keeper's own slot): the GUI thread served these during the reindex.
    recorder = Recorder(panel)
    keeper.progressed.connect(recorder.record, Qt.ConnectionType.QueuedConnection)
    done: list[object] = []
    keeper.reindexed.connect(done.append)
    keeper.use_folder(str(folder))
    try:
        keeper.start()
        qtbot.waitUntil(lambda: bool(done), timeout=120_000)
    finally:
        keeper.stop()
        QCoreApplication.processEvents()

    ocr = [(step, text) for step, text in recorder.said if step.ocr_page]
    assert ocr, recorder.said
    assert ocr[0][0].current == "scan.pdf" and ocr[0][0].ocr_page == 1
    assert ocr[0][1] == "Reading scan.pdf: page 1 by OCR…"
    assert ocr[0][0].done < ocr[0][0].total  # said before the scan was read, not after

    assert panel.folder_path() == str(folder.resolve())
    assert panel.left_out_label.isVisible()
    assert panel.left_out_label.text() == "6 hidden passages left out · 1 page read by OCR"
    assert _item_text(panel, "scan.pdf").splitlines() == [
        "scan.pdf",
        "pdf · 1 page · indexed",
        "1 page read by OCR",
    ]
    assert _item_text(panel, "hostile.docx").splitlines()[2] == "3 hidden passages left out"
    assert _item_text(panel, "hostile.odt").splitlines()[2] == "3 hidden passages left out"
    assert len(_item_text(panel, "paper.pdf").splitlines()) == 2  # nothing left out: no line
