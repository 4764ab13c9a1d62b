"""Every run in the home, newest first, as ws.list_runs() returns them."""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from agent_core.contract.statuses import TERMINAL_RUN_STATUSES
from agent_core.contract.views import RunView
from desktop.models import agent_labels
from desktop.models.run_state import status_words
from desktop.models.store_text import other_desk
from desktop.models.usage_text import row_text, usage_text
from desktop.models.visible_text import visible_block, visible_line

RUN_ROLE = Qt.ItemDataRole.UserRole + 1
STATUS_ROLE = Qt.ItemDataRole.UserRole + 2
RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 3
BADGE_ROLE = Qt.ItemDataRole.UserRole + 4  # the badge in words: "Succeeded · 3 blocked"
BLOCKED_ROLE = Qt.ItemDataRole.UserRole + 5  # blocked attempts of a finished run (None: unknown)
DESK_ROLE = Qt.ItemDataRole.UserRole + 6  # the run's desk when it is another desk (None: this one)
USAGE_ROLE = Qt.ItemDataRole.UserRole + 7  # requests and tokens, compact: "3 req · 12.3k tok"


def badge_text(run: RunView, blocked: int | None) -> str:
    """The status, and for a finished run how many attempts a boundary refused."""
    status = run.get("status")
    label = status_words(run)
    if blocked and status in TERMINAL_RUN_STATUSES:
        return QCoreApplication.translate("RunsModel", "{status} · {n} blocked").format(
            status=label, n=blocked
        )
    return label


Index = QModelIndex | QPersistentModelIndex


class RunsModel(QAbstractListModel):
    """Updates in place when only statuses change and inserts new runs at the top, so the
    selection and scroll position survive the live refresh."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runs: list[RunView] = []
        self._blocked: dict[str, int] = {}  # run_id -> blocked attempts, for finished runs
        self.this_desk: str | None = None  # runs of other desks say whose they are

    def set_this_desk(self, desk: str | None) -> None:
        if desk != self.this_desk:
            self.this_desk = desk
            if self._runs:
                self.dataChanged.emit(self.index(0), self.index(len(self._runs) - 1))

    def set_blocked(self, counts: dict[str, int]) -> None:
        """How many attempts were blocked, per run (runs not named keep what they had)."""
        changed = {k: v for k, v in counts.items() if self._blocked.get(k) != v}
        if not changed:
            return
        self._blocked.update(changed)
        rows = [i for i, r in enumerate(self._runs) if r["run_id"] in changed]
        if rows:
            self.dataChanged.emit(self.index(min(rows)), self.index(max(rows)))

    def blocked(self, run_id: str) -> int | None:
        return self._blocked.get(run_id)

    def set_runs(self, runs: list[RunView]) -> None:
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

    def runs(self) -> list[RunView]:
        return list(self._runs)

    def run(self, run_id: str | None) -> RunView | None:
        return next((r for r in self._runs if r["run_id"] == run_id), None)

    def row_of(self, run_id: str | None) -> int:
        return next((i for i, r in enumerate(self._runs) if r["run_id"] == run_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._runs)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._runs):
            return None
        run = self._runs[index.row()]
        agent = run.get("agent")
        if role == Qt.ItemDataRole.DisplayRole and agent_labels.is_agent(agent):
            return agent_labels.session_text(str(agent), run.get("cwd"))  # "Codex in ~/app"
        if role == Qt.ItemDataRole.DecorationRole:  # an external agent's badge
            return agent_labels.agent_icon(str(agent)) if agent_labels.is_agent(agent) else None
        if role == Qt.ItemDataRole.DisplayRole:  # the question's first line, controls escaped
            question = str(run.get("question") or "").strip()
            return visible_line(question.split("\n")[0]) if question else run["run_id"]
        if role == Qt.ItemDataRole.ToolTipRole:
            status = badge_text(run, self._blocked.get(run["run_id"]))
            desk = other_desk(run.get("desk"), self.this_desk)
            where = self.tr(" · on desk {desk}").format(desk=visible_line(desk)) if desk else ""
            question = visible_block(str(run.get("question", "")))
            if agent_labels.is_agent(agent):
                question = agent_labels.session_text(str(agent), run.get("cwd"))
                question += f"\n{visible_line(str(run.get('session_id') or ''))}"
            usage = run.get("usage")
            used = f"\n{usage_text(usage)}" if usage else ""
            return f"{run['run_id']} · {status}{where}\n{question}{used}"
        if role == USAGE_ROLE:  # an agent's session spends its own tokens, not ours
            return None if agent_labels.is_agent(agent) else row_text(run.get("usage")) or None
        if role == DESK_ROLE:
            desk = other_desk(run.get("desk"), self.this_desk)
            return visible_line(desk) if desk else None
        if role == BADGE_ROLE:
            return badge_text(run, self._blocked.get(run["run_id"]))
        if role == BLOCKED_ROLE:
            blocked = self._blocked.get(run["run_id"])
            return blocked if run.get("status") in TERMINAL_RUN_STATUSES else None
        if role == RUN_ROLE:
            return run
        if role == STATUS_ROLE:
            return run.get("status")
        if role == RUN_ID_ROLE:
            return run["run_id"]
        return None
