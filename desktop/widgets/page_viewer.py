"""The in-app viewer of a cited page: the text the index holds of that page of the document.

Opened from a citation link (desktop/widgets/citation_links.py) with what the bridge looked up
(`CitationTargetView`); it reads nothing itself. Titled with the file and the page, it offers
the system's program for the document ("Open in system viewer") and its folder. A citation of
something that is not a document of the corpus is shown as not found, with nothing to open.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from agent_core.facade.citations import CitationTargetView
from desktop import theme
from desktop.models.visible_text import visible_block, visible_line
from desktop.widgets.system_open import no_viewer_text, open_with_system


def page_title(target: CitationTargetView) -> str:
    source = visible_line(target["source_id"])
    if not target["page"]:
        return source
    return QCoreApplication.translate("PageViewer", "{source}, page {page}").format(
        source=source, page=target["page"]
    )


class PageViewer(QDialog):
    def __init__(self, target: CitationTargetView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.target = target
        found = target["path"] is not None
        self.setWindowTitle(
            f"{page_title(target)} — BriefDesk"
            if found
            else self.tr("Not found — {title}").format(title=page_title(target))
        )
        self.resize(720, 560)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.text = QPlainTextEdit(readOnly=True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        self.open_button = QPushButton(self.tr("Open in system viewer"))
        self.folder_button = QPushButton(self.tr("Show in folder"))
        for button in (self.open_button, self.folder_button):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
            button.setAutoDefault(False)
        self.open_button.clicked.connect(self.open_in_system_viewer)
        self.folder_button.clicked.connect(self.show_in_folder)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.note)
        layout.addWidget(buttons)
        self._show()

    def _show(self) -> None:
        target, title = self.target, page_title(self.target)
        path = target["path"]
        self.open_button.setVisible(path is not None)
        self.folder_button.setVisible(path is not None)
        if path is None:
            self.heading.setText(
                "<b>" + self.tr("{title}: not found").format(title=_html(title)) + "</b>"
            )
            self.text.hide()
            self.note.setText(visible_line(target["message"]))
            return
        if target["text"] is None:
            self.heading.setText(f"<b>{_html(title)}</b>")
            self.text.hide()
            self.note.setText(visible_line(target["message"]))
            return
        holds = (
            self.tr("The text the index holds of this page; the document itself is in {folder}.")
            if target["page"]
            else self.tr(
                "The text the index holds of this document; the document itself is in {folder}."
            )
        )
        folder = _html(str(Path(path).parent))
        self.heading.setText(f"<b>{_html(title)}</b><br>" + holds.format(folder=folder))
        self.text.setPlainText(visible_block(target["text"]))
        self.note.hide()

    def page_text(self) -> str:
        """What the viewer shows of the page ("" when it has none)."""
        return self.text.toPlainText() if self.text.isVisibleTo(self) else ""

    def open_in_system_viewer(self) -> None:
        # A plain file URL: PDF viewers rarely honour `#page=N`, and some fail on the fragment.
        path = self.target["path"]
        if path is not None:
            open_with_system(path, self, lambda why: self.say(no_viewer_text(why)))

    def show_in_folder(self) -> None:
        path = self.target["path"]
        if path is not None:
            folder = str(Path(path).parent)
            open_with_system(folder, self, lambda why: self.say(self._no_folder(folder, why)))

    def _no_folder(self, folder: str, why: str) -> str:
        said = self.tr("No file manager opened the folder {path}: open it yourself.")
        return said.format(path=visible_line(folder)) + (f" ({why})" if why else "")

    def say(self, text: str) -> None:
        self.note.setText(visible_line(text))
        self.note.setStyleSheet(f"color: {theme.text_colour('#b42318')}; font-weight: bold;")
        self.note.show()


def _html(text: str) -> str:
    return escape(visible_line(text))
