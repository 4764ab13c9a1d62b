"""The live timeline of one run: a table model over its events, appended in batches.

Each batch is one beginInsertRows/endInsertRows, and every row's text is formatted once when it
arrives, so a run with tens of thousands of events stays smooth to follow and to scroll.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QIcon

from agent_core.contract.events import EventKind
from agent_core.contract.statuses import ApprovalStatus, ToolOutcomeStatus
from agent_core.contract.views import EventView
from desktop import theme
from desktop.i18n import QT_TRANSLATE_NOOP
from desktop.models import event_text
from desktop.models.visible_text import visible_line

COLUMNS = (
    QT_TRANSLATE_NOOP("TimelineModel", "Time"),
    QT_TRANSLATE_NOOP("TimelineModel", "Kind"),
    QT_TRANSLATE_NOOP("TimelineModel", "Tool"),
    QT_TRANSLATE_NOOP("TimelineModel", "Summary"),
    QT_TRANSLATE_NOOP("TimelineModel", "Duration"),
    QT_TRANSLATE_NOOP("TimelineModel", "Outcome"),
)
TIME, KIND, TOOL, SUMMARY, DURATION, OUTCOME = range(len(COLUMNS))

DURATION_TIPS: dict[str, str] = {
    EventKind.TOOL_RESULT: QT_TRANSLATE_NOOP("TimelineModel", "From the call to its result"),
    EventKind.RUN_FINISHED: QT_TRANSLATE_NOOP(
        "TimelineModel", "From the start of the run to its end, waits for people included"
    ),
}

EVENT_ROLE = Qt.ItemDataRole.UserRole + 1  # the EVENT dict
CATEGORY_ROLE = Qt.ItemDataRole.UserRole + 2  # theme category of the kind
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 3  # lower-cased text the filter matches
SEQ_ROLE = Qt.ItemDataRole.UserRole + 4

# Tool outcomes, approval and run statuses, and event_text's own words ("confirmed", ...).
OUTCOME_COLOURS: dict[str, str] = {
    ToolOutcomeStatus.SUCCESS: "#2e9d4f",
    "confirmed": "#2e9d4f",
    "settled": "#2e9d4f",
    ApprovalStatus.APPROVED: "#2e9d4f",
    ApprovalStatus.CONSUMED: "#2e9d4f",
    ToolOutcomeStatus.EMPTY: "#d99a00",
    ToolOutcomeStatus.DEGRADED: "#d99a00",
    ToolOutcomeStatus.FALLBACK: "#d99a00",
    ApprovalStatus.PENDING: "#d99a00",
    # Sent back with a note: a person's decision, the colour of the approvals, never an error's.
    event_text.CHANGES_REQUESTED_OUTCOME: theme.CATEGORIES["approval"][1],
    ApprovalStatus.CHANGES_REQUESTED: theme.CATEGORIES["approval"][1],
    ToolOutcomeStatus.ERROR: "#d64545",
    ToolOutcomeStatus.PROVIDER_ERROR: "#d64545",
    "refused": "#d64545",
    ApprovalStatus.REJECTED: "#d64545",
    **{status: colour for status, colour in theme.STATUS_COLOURS.items()},
}

Index = QModelIndex | QPersistentModelIndex


@dataclass(slots=True)
class TimelineRow:
    event: EventView
    texts: tuple[str, str, str, str, str, str]
    category: str
    icon: QIcon
    search: str


class TimelineModel(QAbstractTableModel):
    """Rows are the events of `run_id`, oldest first; `append` ignores other runs and repeats."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.run_id: str | None = None
        self._rows: list[TimelineRow] = []
        self._last_seq = 0
        self._call_started: dict[str, float] = {}
        self._run_started: float | None = None  # the first run_started: every run counts alike

    # -- feeding --------------------------------------------------------------------------------

    def set_run(self, run_id: str | None, events: list[EventView] | None = None) -> None:
        self.beginResetModel()
        self.run_id = run_id
        self._rows = []
        self._last_seq = 0
        self._call_started = {}
        self._run_started = None
        self._rows = self._format(self._join_deltas(events or []))
        self.endResetModel()

    def append(self, events: list[EventView]) -> int:
        """Add the new events of this run in one insert; returns how many rows were added."""
        rows = self._format(self._join_deltas(events))
        if not rows:
            return 0
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self._rows.extend(rows)
        self.endInsertRows()
        return len(rows)

    def _join_deltas(self, events: list[EventView]) -> list[EventView]:
        """A turn's streamed text (model_delta events) grows one row instead of adding rows."""
        kept: list[EventView] = []
        for event in events:
            if event.get("run_id") != self.run_id or int(event.get("seq", 0)) <= self._last_seq:
                continue  # another run's, or a repeat: `_format` would drop it too
            last = kept[-1] if kept else (self._rows[-1].event if self._rows else None)
            joined = event_text.join_delta(last, event)
            if joined is None:
                kept.append(event)
            elif kept:
                kept[-1] = joined
            else:  # the newest row on screen grows
                self._last_seq = int(joined.get("seq", 0))
                self._rows[-1] = self._row(joined)
                row = len(self._rows) - 1
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
        return kept

    def _format(self, events: list[EventView]) -> list[TimelineRow]:
        rows: list[TimelineRow] = []
        for event in events:
            seq = int(event.get("seq", 0))
            if self.run_id is None or event.get("run_id") != self.run_id or seq <= self._last_seq:
                continue
            self._last_seq = seq
            rows.append(self._row(event))
        return rows

    def _row(self, event: EventView) -> TimelineRow:
        kind = str(event.get("kind", ""))
        data: dict[str, object] = event.get("data") or {}
        # a call sent back with a note reads as the decision it is, among the approvals
        decision = event_text.changes_requested(event)
        category = "approval" if decision else theme.category_of(kind)
        # What a run, a document or a model wrote is shown with its control characters
        # escaped: a carriage return or a bidi override must not rewrite the row.
        texts = (
            event_text.clock_text(event.get("at")),
            event_text.kind_label(event),
            visible_line(str(event.get("tool") or "")),
            visible_line(event_text.summary(event)),
            event_text.duration_text(self._duration(event, kind, data)),
            visible_line(event_text.outcome_word(event_text.outcome(event))),
        )
        boundary = data.get("boundary")
        icon_kind = EventKind.APPROVAL_DECIDED if decision else kind
        icon = theme.kind_icon(icon_kind, boundary if isinstance(boundary, str) else None)
        search = event_text.search_text(event, texts[KIND], texts[SUMMARY], texts[OUTCOME])
        return TimelineRow(event, texts, category, icon, search)

    def _duration(self, event: EventView, kind: str, data: dict[str, object]) -> float | None:
        moment = event_text.parse_time(event.get("at"))
        if moment is None:
            return None
        stamp = moment.timestamp()
        call_id = str(data.get("call_id") or "")
        if kind == EventKind.TOOL_CALLED and call_id:
            self._call_started[call_id] = stamp
        elif kind == EventKind.TOOL_RESULT and call_id in self._call_started:
            return stamp - self._call_started.pop(call_id)
        elif kind == EventKind.RUN_STARTED and self._run_started is None:
            self._run_started = stamp
        elif kind == EventKind.RUN_FINISHED and self._run_started is not None:
            # From the run's start, for every run: a resumed run (after an approval, an answer
            # or a crash) is not timed from its last resume while the others count in full.
            return stamp - self._run_started
        return None

    # -- reading --------------------------------------------------------------------------------

    @property
    def last_seq(self) -> int:
        return self._last_seq

    def event_at(self, row: int) -> EventView | None:
        return self._rows[row].event if 0 <= row < len(self._rows) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("TimelineModel", COLUMNS[section])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return row.texts[column]
        if role == Qt.ItemDataRole.DecorationRole and column == KIND:
            return row.icon
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == KIND:
                return theme.category_colour(row.category)
            if column == OUTCOME:
                colour = OUTCOME_COLOURS.get(event_text.outcome(row.event))
                return QColor(colour) if colour else None
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == TIME:
                return str(row.event.get("at", ""))
            if column == DURATION and row.texts[DURATION]:
                tip = DURATION_TIPS.get(str(row.event.get("kind")))
                return QCoreApplication.translate("TimelineModel", tip) if tip else None
            return row.texts[column] if column == SUMMARY else None
        if role == EVENT_ROLE:
            return row.event
        if role == CATEGORY_ROLE:
            return row.category
        if role == SEARCH_ROLE:
            return row.search
        if role == SEQ_ROLE:
            return row.event.get("seq")
        return None
