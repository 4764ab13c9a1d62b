"""A read-only table of records (rules, audit entries): each column a title and a function
from the record to its text. The whole text is the cell and its tooltip: nothing is cut."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

Index = QModelIndex | QPersistentModelIndex
Column = tuple[str, Callable[[Mapping[str, object]], str]]
RECORD_ROLE = Qt.ItemDataRole.UserRole + 1


class RecordsModel(QAbstractTableModel):
    def __init__(self, columns: Sequence[Column], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._columns = list(columns)
        self._records: list[Mapping[str, object]] = []

    def set_records(self, records: Sequence[Mapping[str, object]]) -> None:
        self.beginResetModel()
        self._records = list(records)
        self.endResetModel()

    def records(self) -> list[Mapping[str, object]]:
        return list(self._records)

    def record(self, row: int) -> Mapping[str, object] | None:
        return self._records[row] if 0 <= row < len(self._records) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        record = self._records[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self._columns[index.column()][1](record)
        if role == RECORD_ROLE:
            return record
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("Records", self._columns[section][0])
        return None
