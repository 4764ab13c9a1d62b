"""The inbox as a table: every decision a person owes (`Workspace.inbox()`), soonest expiry first.

Rows are diffed by id on every refresh (inserted, removed, moved, changed in place), never
reset, so the selection and the scroll position survive the live updates. The time left is
computed from the clock on each `tick()`; only that column is repainted.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor

from agent_core.contract.views import InboxItemView
from desktop import theme
from desktop.models import agent_labels
from desktop.models.event_text import parse_time
from desktop.models.store_text import other_desk
from desktop.models.visible_text import visible_line

KIND, TOOL, TARGET, QUESTION, DESK, TIME_LEFT = range(6)
ITEM_ROLE = Qt.ItemDataRole.UserRole + 1
URGENT_ROLE = Qt.ItemDataRole.UserRole + 2  # True when less than a tenth of its time is left
URGENT_SHARE = 0.10
URGENT_COLOUR = "#d64545"  # the failed status's red, made readable on the window by theme

Index = QModelIndex | QPersistentModelIndex
Clock = Callable[[], datetime]


def _utcnow() -> datetime:
    return datetime.now(UTC)


def time_left(item: InboxItemView, now: datetime) -> tuple[float | None, float | None]:
    """(seconds left, share of its whole time left); (None, None) when it never expires."""
    expires, created = parse_time(item.get("expires_at")), parse_time(item.get("created_at"))
    if expires is None:
        return None, None
    left = (expires - now).total_seconds()
    whole = (expires - created).total_seconds() if created is not None else 0.0
    return left, (left / whole if whole > 0 else None)


def duration_text(seconds: float) -> str:
    """ "2 h 05 min", "4 min 09 s", "12 s"; "expired" at or under zero."""
    if seconds <= 0:
        return QCoreApplication.translate("InboxModel", "expired")
    whole = int(seconds)
    days, rest = divmod(whole, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return QCoreApplication.translate("InboxModel", "{d} d {h} h").format(d=days, h=hours)
    if hours:
        return QCoreApplication.translate("InboxModel", "{h} h {m:02d} min").format(
            h=hours, m=minutes
        )
    if minutes:
        return QCoreApplication.translate("InboxModel", "{m} min {s:02d} s").format(
            m=minutes, s=secs
        )
    return QCoreApplication.translate("InboxModel", "{s} s").format(s=secs)


class InboxModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None, *, clock: Clock = _utcnow) -> None:
        super().__init__(parent)
        self._items: list[InboxItemView] = []
        self._clock = clock
        self._now = clock()
        self.this_desk: str | None = None
        self._roots: dict[str, str] = {}  # run_id -> its artifacts folder, to shorten targets
        self._agents: dict[str, tuple[str, str | None]] = {}  # run_id -> agent, its folder

    # -- contents ---------------------------------------------------------------------------------

    def items(self) -> list[InboxItemView]:
        return list(self._items)

    def item(self, row: int) -> InboxItemView | None:
        return self._items[row] if 0 <= row < len(self._items) else None

    def row_of(self, item_id: str) -> int:
        return next((i for i, it in enumerate(self._items) if it["id"] == item_id), -1)

    def set_this_desk(self, desk: str | None) -> None:
        if desk != self.this_desk:
            self.this_desk = desk
            if self._items:
                self.dataChanged.emit(self.index(0, DESK), self.index(len(self._items) - 1, DESK))

    def set_roots(self, roots: dict[str, str]) -> None:
        """Runs' artifacts folders: a target inside its run's folder shows relative to it (as
        the banners say it); the tooltip keeps the whole path."""
        if roots != self._roots:
            self._roots = dict(roots)
            if self._items:
                last = len(self._items) - 1
                self.dataChanged.emit(self.index(0, TARGET), self.index(last, TARGET))

    def set_agents(self, agents: dict[str, tuple[str, str | None]]) -> None:
        """The external agents whose sessions the runs are (run id -> agent, folder): their
        rows name the agent ("Claude Code: Write") and its folder instead of a question."""
        if agents != self._agents:
            self._agents = dict(agents)
            if self._items:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self._items) - 1, TIME_LEFT))

    def agent_of(self, item: InboxItemView) -> tuple[str, str | None] | None:
        """(agent, folder) when the item is an external agent's; None for BriefDesk's own."""
        return self._agents.get(item["run_id"])

    def set_items(self, items: list[InboxItemView]) -> None:
        """Become `items` (in their order) by removing, moving and inserting single rows."""
        self._now = self._clock()
        wanted = {it["id"] for it in items}
        for row in range(len(self._items) - 1, -1, -1):  # bottom up: rows above keep their numbers
            if self._items[row]["id"] not in wanted:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._items[row]
                self.endRemoveRows()
        for row, new in enumerate(items):
            current = self._items[row]["id"] if row < len(self._items) else None
            if current == new["id"]:
                if self._items[row] != new:
                    self._items[row] = new
                    self.dataChanged.emit(self.index(row, 0), self.index(row, TIME_LEFT))
                continue
            found = self.row_of(new["id"])
            if found > row:  # an item that moved up: one move, so a selection on it follows
                self.beginMoveRows(QModelIndex(), found, found, QModelIndex(), row)
                self._items.insert(row, self._items.pop(found))
                self.endMoveRows()
                if self._items[row] != new:
                    self._items[row] = new
                    self.dataChanged.emit(self.index(row, 0), self.index(row, TIME_LEFT))
            else:
                self.beginInsertRows(QModelIndex(), row, row)
                self._items.insert(row, new)
                self.endInsertRows()

    def tick(self) -> None:
        """The clock moved: repaint the time left (nothing else changes with it)."""
        self._now = self._clock()
        if self._items:
            last = len(self._items) - 1
            self.dataChanged.emit(self.index(0, TIME_LEFT), self.index(last, TIME_LEFT))

    # -- Qt ----------------------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else TIME_LEFT + 1

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        titles = (
            self.tr("Kind"),
            self.tr("Tool"),
            self.tr("Target"),
            self.tr("Run question"),
            self.tr("Desk"),
            self.tr("Time left"),
        )
        return titles[section] if 0 <= section < len(titles) else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        item = self.item(index.row()) if index.isValid() else None
        if item is None:
            return None
        column = index.column()
        if role == ITEM_ROLE:
            return item
        if role == URGENT_ROLE:
            return self._urgent(item)
        if role == Qt.ItemDataRole.DecorationRole and column == TOOL:
            agent = self.agent_of(item)
            return agent_labels.agent_icon(agent[0]) if agent is not None else None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(item, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(item, column)
        if role == Qt.ItemDataRole.ForegroundRole and column == TIME_LEFT and self._urgent(item):
            return QColor(theme.text_colour(URGENT_COLOUR))
        return None

    def _urgent(self, item: InboxItemView) -> bool:
        left, share = time_left(item, self._now)
        return left is not None and (left <= 0 or (share is not None and share < URGENT_SHARE))

    def _text(self, item: InboxItemView, column: int) -> str:
        if column == KIND:
            return (
                QCoreApplication.translate("InboxModel", "Approval")
                if item["kind"] == "approval"
                else QCoreApplication.translate("InboxModel", "Question")
            )
        agent = self.agent_of(item)
        if column == TOOL and agent is not None:  # "Claude Code: Write"
            return agent_labels.call_text(agent[0], item["tool"], None, None)
        if column == QUESTION and agent is not None:  # "Claude Code in ~/project"
            return agent_labels.session_text(*agent)
        if column == TOOL:
            return visible_line(item["tool"])
        if column == TARGET:
            if item["kind"] == "question":
                return visible_line(item["summary"])  # what the agent asks
            target = item.get("target") or ""
            root = self._roots.get(item["run_id"], "").rstrip("/")
            if root and target.startswith(root + "/"):
                target = target[len(root) + 1 :]
            return visible_line(target)
        if column == QUESTION:
            return visible_line(item["question"])
        if column == DESK:
            desk = item.get("desk")
            if not desk:
                return ""
            return (
                QCoreApplication.translate("InboxModel", "this desk")
                if other_desk(desk, self.this_desk) is None
                else desk
            )
        left, _share = time_left(item, self._now)
        return (
            QCoreApplication.translate("InboxModel", "no expiry")
            if left is None
            else duration_text(left)
        )

    def _tooltip(self, item: InboxItemView, column: int) -> str:
        if column == TIME_LEFT and item.get("expires_at"):
            return QCoreApplication.translate("InboxModel", "Expires at {at}").format(
                at=item["expires_at"]
            )
        text = self._text(item, column)
        if column == TARGET and item["kind"] == "approval":
            text = visible_line(item.get("target") or "")  # the whole path
        revision = item.get("revision") or 1
        if column == KIND and revision > 1:
            return QCoreApplication.translate("InboxModel", "Revision {n} of this proposal").format(
                n=revision
            )
        return text
