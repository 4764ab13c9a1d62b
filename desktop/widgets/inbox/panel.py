"""The inbox view: a table of every decision a person owes, for keyboard triage.

Up and Down move, Enter opens the proposal in the full approval dialog (or the question in its
dialog), R or Delete rejects with a reason. There is deliberately no approve key here: a
proposal is approved only inside its dialog, after the dialog's read guard.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.views import InboxItemView
from desktop.models.inbox_model import KIND, QUESTION, TARGET, TIME_LEFT, InboxModel

TICK_MS = 1000  # the time left, repainted every second
OPEN_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
REJECT_KEYS = (Qt.Key.Key_R, Qt.Key.Key_Delete)


class MiddleElided(QStyledItemDelegate):
    """A path keeps its start and its file name: it is cut in the middle (whole in the tip)."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


class InboxTable(QTableView):
    open_pressed = Signal()
    reject_pressed = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        plain = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if plain and event.key() in OPEN_KEYS:
            self.open_pressed.emit()
            event.accept()
        elif plain and event.key() in REJECT_KEYS:
            self.reject_pressed.emit()
            event.accept()
        else:
            super().keyPressEvent(event)


class InboxPanel(QWidget):
    open_requested = Signal(object)  # InboxItemView
    reject_requested = Signal(object)  # InboxItemView (an approval)
    count_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = InboxModel(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(6)
        self.heading = QLabel(
            self.tr(
                "Every decision you owe, soonest expiry first. ↑↓ move · Enter opens · "
                "R rejects with a reason. Approve inside the dialog."
            )
        )
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        self.stack = QStackedWidget()
        self.table = InboxTable()
        self.table.setModel(self.model)
        self.table.setAccessibleName(self.tr("Inbox: decisions you owe"))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table, as everywhere else
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setItemDelegateForColumn(TARGET, MiddleElided(self.table))
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        for column in range(self.model.columnCount()):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(TARGET, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(QUESTION, QHeaderView.ResizeMode.Stretch)
        self.table.doubleClicked.connect(lambda _index: self.open_current())
        self.table.open_pressed.connect(self.open_current)
        self.table.reject_pressed.connect(self.reject_current)
        self.empty = QLabel(self.tr("Nothing waits for you: no proposal or question is pending."))
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.table)
        layout.addWidget(self.stack, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        self.open_button = QPushButton(self.tr("&Open…"))
        self.open_button.setAccessibleName(self.tr("Open the selected decision"))
        self.open_button.setToolTip(self.tr("Open it in its dialog (Enter)"))
        self.open_button.clicked.connect(self.open_current)
        self.reject_button = QPushButton(self.tr("Re&ject…"))
        self.reject_button.setAccessibleName(self.tr("Reject the selected proposal"))
        self.reject_button.setToolTip(self.tr("Reject it, with a reason (R or Delete)"))
        self.reject_button.clicked.connect(self.reject_current)
        row.addWidget(self.open_button)
        row.addWidget(self.reject_button)
        layout.addLayout(row)
        self.model.rowsInserted.connect(self._rows_changed)
        self.model.rowsRemoved.connect(self._rows_changed)
        self.table.selectionModel().currentRowChanged.connect(lambda *_a: self._update_buttons())
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.model.tick)
        self._timer.start(TICK_MS)
        self._rows_changed()

    # -- contents ---------------------------------------------------------------------------------

    def set_items(self, items: list[InboxItemView]) -> None:
        self.model.set_items(items)
        self.table.resizeColumnToContents(TIME_LEFT)
        self.table.resizeColumnToContents(KIND)

    def count(self) -> int:
        return self.model.rowCount()

    def current_item(self) -> InboxItemView | None:
        index = self.table.currentIndex()
        return self.model.item(index.row()) if index.isValid() else None

    def select_item(self, item_id: str) -> None:
        row = self.model.row_of(item_id)
        if row >= 0:
            self.table.selectRow(row)
            self.table.setCurrentIndex(self.model.index(row, 0))

    def focus_table(self) -> None:
        if self.count() and not self.table.currentIndex().isValid():
            self.table.selectRow(0)
            self.table.setCurrentIndex(self.model.index(0, 0))
        (self.table if self.count() else self.empty).setFocus()

    # -- triage -----------------------------------------------------------------------------------

    def open_current(self) -> None:
        item = self.current_item()
        if item is not None:
            self.open_requested.emit(item)

    def reject_current(self) -> None:
        item = self.current_item()
        if item is not None and item["kind"] == "approval":  # a question is answered, not refused
            self.reject_requested.emit(item)

    def _rows_changed(self, *_args: object) -> None:
        count = self.count()
        self.stack.setCurrentWidget(self.table if count else self.empty)
        if count and not self.table.currentIndex().isValid():  # keys work at once on a new list
            self.table.setCurrentIndex(self.model.index(0, 0))
            self.table.selectRow(0)
        self._update_buttons()
        self.count_changed.emit(count)

    def _update_buttons(self) -> None:
        item = self.current_item()
        self.open_button.setEnabled(item is not None)
        self.reject_button.setEnabled(item is not None and item["kind"] == "approval")
