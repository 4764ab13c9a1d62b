"""Every run in the home, newest first, as ws.list_runs() returns them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from desktop import theme

RUN_ROLE = Qt.ItemDataRole.UserRole + 1
STATUS_ROLE = Qt.ItemDataRole.UserRole + 2
RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 3

Index = QModelIndex | QPersistentModelIndex


class RunsModel(QAbstractListModel):
    """Updates in place when only statuses change and inserts new runs at the top, so the
    selection and scroll position survive the live refresh."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._runs: list[dict[str, Any]] = []

    def set_runs(self, runs: list[dict[str, Any]]) -> None:
        old_ids = [r["run_id"] for r in self._runs]
        new_ids = [r["run_id"] for r in runs]
        if new_ids == old_ids:
            changed = [i for i, (a, b) in enumerate(zip(self._runs, runs, strict=True)) if a != b]
            self._runs = list(runs)
            if changed:
                self.dataChanged.emit(self.index(min(changed)), self.index(max(changed)))
            return
        added = len(new_ids) - len(old_ids)
        if added > 0 and new_ids[added:] == old_ids:
            old = self._runs
            self.beginInsertRows(QModelIndex(), 0, added - 1)
            self._runs = list(runs)
            self.endInsertRows()
            if old != runs[added:]:
                self.dataChanged.emit(self.index(added), self.index(len(runs) - 1))
            return
        self.beginResetModel()
        self._runs = list(runs)
        self.endResetModel()

    def runs(self) -> list[dict[str, Any]]:
        return list(self._runs)

    def run(self, run_id: str | None) -> dict[str, Any] | None:
        return next((r for r in self._runs if r["run_id"] == run_id), None)

    def row_of(self, run_id: str | None) -> int:
        return next((i for i, r in enumerate(self._runs) if r["run_id"] == run_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._runs)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._runs):
            return None
        run = self._runs[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                (run.get("question") or "").strip().splitlines()[0]
                if run.get("question")
                else run["run_id"]
            )
        if role == Qt.ItemDataRole.ToolTipRole:
            status = theme.status_label(run.get("status"))
            return f"{run['run_id']} · {status}\n{run.get('question', '')}"
        if role == RUN_ROLE:
            return run
        if role == STATUS_ROLE:
            return run.get("status")
        if role == RUN_ID_ROLE:
            return run["run_id"]
        return None
