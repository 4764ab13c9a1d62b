"""The diff of a proposed write against the file on disk, as the approval dialog shows it.

`DiffView` offers side by side or unified, with counts and a fold toggle; it says so plainly
when the proposal is identical to the file. The diff itself is plain data
(`desktop.models.diff_model`), the HTML with its word marks and palette colours is
`desktop.widgets.diff_render`; both are re-exported here.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop import theme
from desktop.models.diff_model import (  # re-exported: the view's callers name them here
    ADDED,
    CHANGED,
    EQUAL,
    FOLD,
    MAX_ROWS,
    REMOVED,
    DiffModel,
    SideRow,
    UnifiedRow,
    build_diff,
)
from desktop.widgets.diff_render import (
    DARK,
    IDENTICAL_TEXT,
    LIGHT,
    DiffColours,
    changed_words,
    identical_html,
    render_side_by_side,
    render_unified,
)

__all__ = [
    "ADDED",
    "CHANGED",
    "DARK",
    "EQUAL",
    "FOLD",
    "LIGHT",
    "MAX_ROWS",
    "REMOVED",
    "DiffModel",
    "DiffView",
    "SideRow",
    "UnifiedRow",
    "build_diff",
    "changed_words",
]


class DiffView(QWidget):
    """Side-by-side or unified diff with line numbers, counts and a fold toggle.

    A new file opens in the unified layout (there is nothing to show on the left) until the
    person picks a layout; from then on their choice holds.
    """

    SIDE_BY_SIDE, UNIFIED = "side_by_side", "unified"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = build_diff("", "")
        self._labels = (self.tr("current file"), self.tr("proposed"))
        self._mode_chosen = False
        self.counts_label = QLabel()
        self.counts_label.setTextFormat(Qt.TextFormat.RichText)
        self.side_button = QRadioButton(self.tr("Side by side"))
        self.unified_button = QRadioButton(self.tr("Unified"))
        self.side_button.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.side_button)
        group.addButton(self.unified_button)
        self.all_lines = QCheckBox(self.tr("Show all unchanged lines"))
        self.columns_label = QLabel()
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        bar = QHBoxLayout()
        for widget in (
            self.counts_label,
            None,
            self.side_button,
            self.unified_button,
            self.all_lines,
        ):
            bar.addWidget(widget) if widget is not None else bar.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.columns_label)
        layout.addWidget(self.browser, 1)
        self.side_button.clicked.connect(self._on_mode_clicked)
        self.unified_button.clicked.connect(self._on_mode_clicked)
        self.side_button.toggled.connect(self._render)
        self.all_lines.toggled.connect(self._render)

    @property
    def model(self) -> DiffModel:
        return self._model

    @property
    def mode(self) -> str:
        return self.SIDE_BY_SIDE if self.side_button.isChecked() else self.UNIFIED

    def _on_mode_clicked(self) -> None:
        self._mode_chosen = True

    def set_texts(self, old: str | None, new: str, *, old_label: str, new_label: str) -> None:
        self._model = build_diff(old, new)
        self._labels = (old_label, new_label)
        if not self._mode_chosen:
            button = self.unified_button if self._model.is_new_file else self.side_button
            button.blockSignals(True)
            button.setChecked(True)
            button.blockSignals(False)
        self._render()

    @property
    def colours(self) -> DiffColours:
        return DARK if theme.is_dark(self.palette()) else LIGHT

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # light <-> dark: colours follow
            self._render()

    def _render(self) -> None:
        model, colours = self._model, self.colours
        identical = model.unchanged and not model.is_new_file
        note = (
            self.tr("new file: every line is added")
            if model.is_new_file
            else self.tr(IDENTICAL_TEXT)
            if identical
            else ""
        )
        added, removed = colours.count[ADDED], colours.count[REMOVED]
        self.counts_label.setText(
            self.tr("{added} added &nbsp;{removed} removed &nbsp;<i>{note}</i>").format(
                added=f'<b style="color:{added};">+{model.added}</b>',
                removed=f'<b style="color:{removed};">−{model.removed}</b>',
                note=note,
            )
        )
        old_label, new_label = (html.escape(label) for label in self._labels)
        context = None if self.all_lines.isChecked() else 3
        if self.mode == self.SIDE_BY_SIDE:
            self.columns_label.setText(
                self.tr("<b>Left:</b> {old} &nbsp;&nbsp; <b>Right:</b> {new}").format(
                    old=old_label, new=new_label
                )
            )
            body = render_side_by_side(model, context, colours)
        else:
            self.columns_label.setText(f"<b>−</b> {old_label} &nbsp;&nbsp; <b>+</b> {new_label}")
            body = render_unified(model, context, colours)
        if identical:  # not an empty grid: a sentence that says what approving would do
            body = identical_html(model, colours)
        scroll = self.browser.verticalScrollBar().value()
        self.browser.setHtml(body)
        self.browser.verticalScrollBar().setValue(scroll)
