"""The Corpus tab: which folder, what the agent can read there, how far a reindex is, and what
could not be read.

It shows typed views only (contract/documents.py): the folder in use (the corpus folder of
Settings, or the selected run's when it read another), the status's counts (by type; indexed,
pending, failed), a progress bar while a reindex runs (`ReindexProgress`: done of total, the
file read, the page OCR is reading), the failed documents with their code's plain reason and
message as a list one can read (and copy), what was left out as hidden and read by OCR, and
every document with its type, pages and status. It holds no logic: the Reindex button only asks
(`reindex_requested`); desktop/corpus_keeper.py reindexes through the bridge and feeds this panel.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QResizeEvent, QTextDocumentFragment
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.documents import (
    CorpusStatusView,
    DocumentErrorCode,
    DocumentStatus,
    DocumentView,
    ReindexProgress,
)
from desktop.i18n import QT_TRANSLATE_NOOP
from desktop.models.visible_text import visible_line
from desktop.widgets.folder_line import FolderLine
from desktop.widgets.whole_label import WholeLabel

PATH_ROLE = Qt.ItemDataRole.UserRole
FAILED_COLOUR = "#c0392b"
PENDING_COLOUR = "#8a6d00"
# What each code means, in a few words (the message beside it says why for that file).
CODE_TEXT = {
    DocumentErrorCode.ENCRYPTED.value: QT_TRANSLATE_NOOP("CorpusPanel", "needs a password"),
    DocumentErrorCode.UNREADABLE.value: QT_TRANSLATE_NOOP("CorpusPanel", "cannot be read"),
    DocumentErrorCode.NO_TEXT.value: QT_TRANSLATE_NOOP("CorpusPanel", "has no text"),
    DocumentErrorCode.TOO_LARGE.value: QT_TRANSLATE_NOOP("CorpusPanel", "too large"),
    DocumentErrorCode.NAME_REFUSED.value: QT_TRANSLATE_NOOP(
        "CorpusPanel", "name has hidden characters"
    ),
}
STATUS_TEXT = {
    DocumentStatus.INDEXED.value: (QT_TRANSLATE_NOOP("CorpusPanel", "indexed"), ""),
    DocumentStatus.PENDING.value: (
        QT_TRANSLATE_NOOP("CorpusPanel", "not indexed yet"),
        PENDING_COLOUR,
    ),
    DocumentStatus.FAILED.value: (QT_TRANSLATE_NOOP("CorpusPanel", "failed"), FAILED_COLOUR),
}
translate = QCoreApplication.translate


def _words(source: str) -> str:
    return translate("CorpusPanel", source)


def _label(*, wrap: bool = True, rich: bool = False) -> QLabel:
    label = QLabel()
    label.setWordWrap(wrap)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def status_text(status: CorpusStatusView) -> str:
    """`12 documents: 10 indexed, 1 not indexed yet, 1 failed`."""
    count = status["documents"]
    if count == 0:
        return translate(
            "CorpusPanel",
            "The corpus folder has no documents yet: put PDF, Word, OpenDocument, HTML, EPUB,"
            " RTF, Markdown or text files in it.",
        )
    parts = [translate("CorpusPanel", "{n} indexed").format(n=status["indexed"])]
    if status["pending"]:
        parts.append(translate("CorpusPanel", "{n} not indexed yet").format(n=status["pending"]))
    if status["failed"]:
        parts.append(translate("CorpusPanel", "{n} failed").format(n=status["failed"]))
    head = (
        translate("CorpusPanel", "{n} document: {counts}")
        if count == 1
        else translate("CorpusPanel", "{n} documents: {counts}")
    )
    return head.format(n=count, counts=translate("CorpusPanel", ", ").join(parts))


def types_text(status: CorpusStatusView) -> str:
    """`pdf 3 · md 5 · docx 1`, most first."""
    ordered = sorted(status["by_type"].items(), key=lambda item: (-item[1], item[0]))
    return " · ".join(f"{doc_type} {count}" for doc_type, count in ordered)


def failed_html(documents: list[DocumentView]) -> str:
    """Each failed document: its path, what the code means and the code, then the message."""
    rows = []
    for doc in documents:
        error = doc["error"]
        code = error["code"] if error else "unknown"
        meaning = _words(CODE_TEXT[code]) if code in CODE_TEXT else code
        message = error["message"] if error else translate("CorpusPanel", "No reason was recorded.")
        rows.append(
            f"<p style='margin:0 0 6px 0'><b>{escape(visible_line(doc['path']))}</b>"
            f" — <span style='color:{FAILED_COLOUR}'>{escape(meaning)}</span>"
            f" ({escape(code)})<br>{escape(visible_line(message))}</p>"
        )
    return "".join(rows)


def hidden_text(count: int) -> str:
    return (
        translate("CorpusPanel", "{n} hidden passage left out")
        if count == 1
        else translate("CorpusPanel", "{n} hidden passages left out")
    ).format(n=count)


def ocr_text(count: int) -> str:
    return (
        translate("CorpusPanel", "{n} page read by OCR")
        if count == 1
        else translate("CorpusPanel", "{n} pages read by OCR")
    ).format(n=count)


def left_out_text(documents: list[DocumentView]) -> str:
    """`3 hidden passages left out · 2 pages read by OCR`, over the whole folder ("" if none)."""
    hidden = sum(d["hidden_removed"] for d in documents)
    ocr = sum(d["ocr_pages"] for d in documents)
    return " · ".join(
        [*([hidden_text(hidden)] if hidden else []), *([ocr_text(ocr)] if ocr else [])]
    )


def document_line(doc: DocumentView) -> str:
    """`pdf · 12 pages · indexed`: the second line of a document in the list."""
    known = STATUS_TEXT.get(doc["status"])
    status = _words(known[0]) if known else doc["status"]
    pages = doc["pages"]
    counted = (
        translate("CorpusPanel", "{n} page")
        if pages == 1
        else translate("CorpusPanel", "{n} pages")
    ).format(n=pages)
    parts = [doc["type"]] + ([counted] if pages else [])
    return " · ".join([*parts, status])


def _document_item(doc: DocumentView) -> QListWidgetItem:
    path = visible_line(doc["path"])
    left_out = left_out_text([doc])  # a third line, only for a document it concerns
    item = QListWidgetItem("\n".join([path, document_line(doc), *([left_out] if left_out else [])]))
    item.setData(PATH_ROLE, doc["path"])
    error = doc["error"]
    item.setToolTip(f"{path}\n{error['code']}: {error['message']}" if error else path)
    colour = STATUS_TEXT.get(doc["status"], ("", ""))[1]
    if colour:
        item.setForeground(QBrush(QColor(colour)))
    return item


class CorpusPanel(QWidget):
    reindex_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status: CorpusStatusView | None = None
        self.documents: list[DocumentView] = []
        self.folder_caption = _label(rich=True)
        self.folder_line = FolderLine()
        self.summary_label = _label()
        self.summary_label.setText(self.tr("Reading the corpus…"))
        self.types_label = _label()
        self.types_label.hide()
        self.left_out_label = _label()  # hidden passages left out, pages read by OCR
        self.left_out_label.hide()
        self.reindex_button = QPushButton(self.tr("Reindex"))
        self.reindex_button.setToolTip(
            self.tr("Read the corpus folder again for new and changed files")
        )
        self.reindex_button.clicked.connect(lambda _checked=False: self.reindex_requested.emit())
        self.progress_bar = QProgressBar()
        self.progress_bar.setTextVisible(True)
        self.progress_bar.hide()
        # whole on as many lines as it needs: a scan's page by OCR names a long file
        self.progress_label = WholeLabel()
        self.progress_label.setTextFormat(Qt.TextFormat.PlainText)
        self.progress_label.hide()
        self.note_label = _label()
        self.note_label.hide()
        self.failed_caption = _label(rich=True)
        # A list to read and copy, not tooltips: a wrapped label that scrolls (a text view
        # would scroll itself to its cursor when the splitter first gives it room).
        self.failed_label = _label(rich=True)
        self.failed_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.failed_label.setContentsMargins(4, 4, 4, 4)
        self.failed_view = QScrollArea()
        self.failed_view.setWidgetResizable(True)
        self.failed_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.failed_view.setWidget(self.failed_label)
        self.failed_box = QWidget()
        self.failed_box.hide()
        self.list = QListWidget()  # two lines a document: fits the narrow side tab
        self.list.setAlternatingRowColors(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # keep the file's name
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # a third line for a document with hidden text left out or pages read by OCR; batched,
        # so 10,000 documents of several heights still list at once
        self.list.setLayoutMode(QListView.LayoutMode.Batched)
        self.show_folder("", run=False)
        self._build()

    def _build(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.summary_label, 1)
        top.addWidget(self.reindex_button, 0, Qt.AlignmentFlag.AlignTop)
        failed_layout = QVBoxLayout(self.failed_box)
        failed_layout.setContentsMargins(0, 0, 0, 0)
        failed_layout.addWidget(self.failed_caption)
        failed_layout.addWidget(self.failed_view, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.folder_caption)
        layout.addWidget(self.folder_line)
        layout.addLayout(top)
        layout.addWidget(self.types_label)
        layout.addWidget(self.left_out_label)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.note_label)
        layout.addWidget(self.failed_box)
        layout.addWidget(self.list, 1)

    # -- what the keeper tells it -----------------------------------------------------------

    def show_folder(self, path: str, *, run: bool) -> None:
        """Another folder is shown from now on ("" until its first status says where it is):
        the corpus folder of Settings, or (`run`) the selected run's other folder. What the tab
        showed of the folder before goes."""
        caption = (
            self.tr("Folder of the selected run") if run else self.tr("Corpus folder (Settings)")
        )
        self.folder_caption.setText(f"<b>{escape(caption)}</b>")
        self.folder_line.set_path(path)
        self.status, self.documents = None, []
        self.summary_label.setText(self.tr("Reading the corpus…"))
        self.types_label.hide()
        self.left_out_label.hide()
        self.failed_box.hide()
        self.list.clear()

    def name_folder(self, path: str) -> None:
        """Where the folder shown is, once known (its documents stay)."""
        self.folder_line.set_path(path)

    def folder_path(self) -> str:
        """The folder's whole path as shown ("" while it is not known yet)."""
        return self.folder_line.path

    def show_reindexing(self) -> None:
        """A reindex started: a busy bar until the first file is read (nothing may change)."""
        self.progress_bar.setRange(0, 0)
        self.progress_bar.show()
        self.progress_label.setText(self.tr("Looking for new and changed files…"))
        self.progress_label.show()
        self.reindex_button.setEnabled(False)

    def show_progress(self, progress: ReindexProgress) -> None:
        self.progress_bar.setRange(0, max(progress.total, 1))
        self.progress_bar.setValue(progress.done)
        self.progress_bar.setFormat(
            self.tr("{done} of {total}").format(done=progress.done, total=progress.total)
        )
        self.progress_bar.show()
        current = visible_line(progress.current)
        if progress.ocr_page:  # seconds a page: say which document, and which page
            said = self.tr("Reading {file}: page {page} by OCR…").format(
                file=current, page=progress.ocr_page
            )
        else:
            said = self.tr("Read {file}").format(file=current) if current else self.tr("Finishing…")
        self.progress_label.setText(said)
        self.progress_label.setToolTip(current)
        self.progress_label.show()

    def show_status(self, status: CorpusStatusView) -> None:
        """A reindex ended (or the status was read): the counts; the bar goes."""
        self.status = status
        self.name_folder(status["root"])
        self.summary_label.setText(status_text(status))
        self.summary_label.setToolTip(status["root"])
        self.types_label.setText(types_text(status))
        self.types_label.setVisible(bool(status["by_type"]))
        self.progress_bar.hide()
        self.progress_label.hide()
        self.reindex_button.setEnabled(True)

    def show_note(self, text: str) -> None:
        """Something a person should know that is not a count (changes are not followed)."""
        self.note_label.setText(text)
        self.note_label.setVisible(bool(text))

    def show_error(self, text: str) -> None:
        self.summary_label.setText(text)
        self.progress_bar.hide()
        self.progress_label.hide()
        self.reindex_button.setEnabled(True)

    def set_documents(self, documents: list[DocumentView]) -> None:
        self.documents = documents
        failed = [d for d in documents if d["status"] == DocumentStatus.FAILED.value]
        self.failed_caption.setText(
            self.tr("{failed} — the other documents are not affected").format(
                failed=f"<b style='color:{FAILED_COLOUR}'>"
                + escape(self.tr("Could not be read ({n})").format(n=len(failed)))
                + "</b>"
            )
        )
        self.failed_box.setVisible(bool(failed))
        self.failed_label.setText(failed_html(failed))
        self._fit_failed()
        left_out = left_out_text(documents)
        self.left_out_label.setText(left_out)
        self.left_out_label.setVisible(bool(left_out))
        self.list.clear()
        for doc in sorted(documents, key=lambda d: d["path"].lower()):
            self.list.addItem(_document_item(doc))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_failed()

    def _fit_failed(self) -> None:
        """The failed list as tall as its text, up to a third of the tab (then it scrolls)."""
        frame = 2 * self.failed_view.frameWidth()
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        width = max(self.failed_view.width() - frame - bar, 80)
        wanted = self.failed_label.heightForWidth(width) + frame
        self.failed_view.setFixedHeight(max(min(wanted, self.height() // 3), 60))

    def document_paths(self) -> list[str]:
        """The documents listed, top to bottom."""
        items = (self.list.item(i) for i in range(self.list.count()))
        return [str(item.data(PATH_ROLE)) for item in items if item is not None]

    def failed_text(self) -> str:
        """The failed list as plain text (what a person reads there)."""
        if not self.failed_box.isVisibleTo(self):
            return ""
        return QTextDocumentFragment.fromHtml(self.failed_label.text()).toPlainText()
