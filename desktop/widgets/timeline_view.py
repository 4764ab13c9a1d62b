"""The live timeline: a filter bar, the events table (auto-scrolling) and the event's JSON."""

from __future__ import annotations

import json
from typing import cast

from PySide6.QtCore import QEvent, QItemSelection, QObject, Qt, Signal
from PySide6.QtGui import (
    QFontDatabase,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QShortcut,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonObject
from agent_core.contract.views import EventView
from desktop import theme
from desktop.models.timeline_filter import TimelineFilter
from desktop.models.timeline_model import SUMMARY, TimelineModel
from desktop.models.visible_text import visible_block
from desktop.widgets.steady_label import SteadyLabel
from desktop.widgets.timeline_columns import fitted_widths, hidden_when

FOLLOW_SLACK = 2  # rows' worth of pixels still counted as "at the bottom"
CHIP_MOVES = {Qt.Key.Key_Left: -1, Qt.Key.Key_Up: -1, Qt.Key.Key_Right: 1, Qt.Key.Key_Down: 1}


class TimelineTable(QTableView):
    """A table that paints a hint when it is empty: what to do when the run has no events,
    and that nothing matches when the filter hides every event."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.run_empty_text = self.tr(
            "Select a run on the left, or press Run (Ctrl+Enter) to start one."
        )
        self.no_match_text = ""  # set while a filter hides every event of the run
        self.column_widths: dict[int, int] = {}

    @property
    def empty_text(self) -> str:
        """The hint painted over the empty table now."""
        return self.no_match_text or self.run_empty_text

    @empty_text.setter
    def empty_text(self, text: str) -> None:
        self.run_empty_text = text

    def fit_columns(self) -> None:
        """The short columns as wide as their words in this font and language."""
        self.column_widths = fitted_widths(self.fontMetrics())
        for column, width in self.column_widths.items():
            self.setColumnWidth(column, width)
        self._hide_for_width(self.viewport().width())

    def _hide_for_width(self, width: int) -> None:
        hidden = hidden_when(width, self.column_widths)
        for column in self.column_widths:
            self.setColumnHidden(column, column in hidden)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._hide_for_width(self.viewport().width())

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        model = self.model()
        if model is not None and model.rowCount() > 0:
            return
        painter = QPainter(self.viewport())
        colour = self.palette().placeholderText().color()
        painter.setPen(colour)
        rect = self.viewport().rect().adjusted(24, 24, -24, -24)
        painter.drawText(
            rect, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.empty_text
        )
        painter.end()


class TimelinePanel(QWidget):
    event_selected = Signal(object)  # EventView or None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = TimelineModel(self)
        self.proxy = TimelineFilter(self)
        self.proxy.setSourceModel(self.model)
        self.following = True
        self._shown_none = True  # the table shows no row (so paints a hint)
        self._build()
        self.model.rowsInserted.connect(self._update_count)
        self.model.modelReset.connect(self._update_count)
        self.proxy.layoutChanged.connect(self._update_count)
        self.proxy.rowsRemoved.connect(self._update_count)
        self.proxy.rowsInserted.connect(self._update_count)
        self._update_count()

    # -- building --------------------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        outer.addLayout(self._filter_bar())
        self.table = TimelineTable(self)
        self.table.setStyle(theme.plain_style())  # no indicators to outline: no Python per cell
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        vertical = self.table.verticalHeader()
        vertical.setVisible(False)
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(24)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        for column in range(self.model.columnCount()):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(SUMMARY, QHeaderView.ResizeMode.Stretch)
        self.table.fit_columns()
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        bar = self.table.verticalScrollBar()
        bar.valueChanged.connect(self._on_scrolled)
        bar.rangeChanged.connect(self._on_range)

        self.detail = QPlainTextEdit(self)
        self.detail.setReadOnly(True)
        self.detail.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.detail.setPlaceholderText(
            self.tr("Select an event to see its data (secrets are redacted).")
        )
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([420, 160])
        outer.addWidget(self.splitter, 1)

    def _filter_bar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        bar.setSpacing(4)
        title = QLabel(self.tr("Timeline"))
        font = title.font()
        font.setBold(True)
        title.setFont(font)
        bar.addWidget(title)
        bar.addSpacing(6)
        self.kind_buttons: dict[str, QToolButton] = {}
        for category, (_source, colour, glyph) in theme.CATEGORIES.items():
            label = theme.category_label(category)
            button = QToolButton(self)
            button.setCheckable(True)
            button.setChecked(True)
            button.setIcon(theme.badge_icon(colour, glyph))
            button.setToolTip(
                self.tr("Show {kinds} (arrow keys move, Space toggles)").format(kinds=label.lower())
            )
            button.setText(label)
            button.setAccessibleName(label)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
            button.setAutoRaise(True)
            button.toggled.connect(lambda on, c=category: self.proxy.set_category_enabled(c, on))
            bar.addWidget(button)
            self.kind_buttons[category] = button
        self.chips = ChipKeys(list(self.kind_buttons.values()), self)
        bar.addSpacing(6)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(
            self.tr("Filter events: text, tool, path, outcome… (Ctrl+F)")
        )
        self.find_shortcut = QShortcut(QKeySequence(QKeySequence.StandardKey.Find), self)
        self.find_shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        self.find_shortcut.setWhatsThis(self.tr("Filter the timeline"))  # Help ▸ Shortcuts
        self.find_shortcut.activated.connect(self.focus_filter)
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(120)
        self.search.textChanged.connect(self.proxy.set_text)
        bar.addWidget(self.search, 1)
        self.count_label = SteadyLabel(self, min_width=70)
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        bar.addWidget(self.count_label)
        self.follow_button = QToolButton(self)
        self.follow_button.setText(self.tr("⤓ Follow"))
        self.follow_button.setCheckable(True)
        self.follow_button.setChecked(True)
        self.follow_button.setToolTip(
            self.tr("Keep the newest event in view (pauses while you scroll up)")
        )
        self.follow_button.toggled.connect(self.set_following)
        bar.addWidget(self.follow_button)
        return bar

    # -- feeding ---------------------------------------------------------------------------------

    def set_run(self, run_id: str | None, events: list[EventView] | None = None) -> None:
        self.model.set_run(run_id, events)
        self.detail.clear()
        self.set_following(True)

    def append(self, events: list[EventView]) -> int:
        return self.model.append(events)

    def set_empty_text(self, text: str) -> None:
        self.table.empty_text = text
        self.table.viewport().update()

    def focus_filter(self) -> None:
        """Ctrl+F: type to filter, whatever had the keyboard before."""
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    # -- auto-scroll -----------------------------------------------------------------------------

    def set_following(self, on: bool) -> None:
        self.following = on
        if self.follow_button.isChecked() != on:
            self.follow_button.setChecked(on)
        if on:
            self.table.scrollToBottom()

    def _on_range(self, _minimum: int, maximum: int) -> None:
        # New rows grow the range without moving the value: follow them if we are following.
        if self.following:
            self.table.verticalScrollBar().setValue(maximum)

    def _on_scrolled(self, value: int) -> None:
        bar = self.table.verticalScrollBar()
        at_bottom = value >= bar.maximum() - FOLLOW_SLACK * 24
        if at_bottom != self.following:
            self.set_following(at_bottom)

    # -- details ---------------------------------------------------------------------------------

    def _on_selection(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        event = self.selected_event()
        self.show_event(event)
        self.event_selected.emit(event)

    def show_event(self, event: EventView | None) -> None:
        if event is None:
            self.detail.clear()
            return
        # Events only arrive once the bridge thread has opened (so imported) the Workspace: this
        # import is a lookup, and redacting is pure (no keyring, no I/O).
        from agent_core.facade.workspace import Workspace

        redacted = Workspace.redact(cast("JsonObject", event))
        shown = dict(redacted) if isinstance(redacted, dict) else {}
        inner = shown.get("data")
        data = dict(inner) if isinstance(inner, dict) else {}
        returned = data.pop("result", None)
        is_result = shown.get("kind") == EventKind.TOOL_RESULT and "result" in (
            event.get("data") or {}
        )
        text = json.dumps({**shown, "data": data}, indent=2, ensure_ascii=False)
        if is_result:  # what the tool returned, as it reads (the JSON would make it one line)
            text += "\n\n" + (
                self.tr("What the tool returned:") + "\n" + str(returned)
                if returned is not None
                else self.tr("The tool did not run: it returned nothing.")
            )
        self.detail.setPlainText(visible_block(text))  # JSON leaves C1 and bidi controls raw

    def selected_event(self) -> EventView | None:
        # From the source model, not index.data(): a dict through QVariant comes back as a
        # QVariantMap copy with its keys re-sorted.
        rows = self.table.selectionModel().selectedRows()
        return self.model.event_at(self.proxy.mapToSource(rows[0]).row()) if rows else None

    def select_row(self, row: int) -> None:
        self.table.selectRow(row)

    def _update_count(self, *_args: object) -> None:
        total = self.model.rowCount()
        shown = self.proxy.rowCount()
        text = (
            self.tr("{total} events").format(total=f"{total:,}")
            if shown == total
            else self.tr("{shown} of {total}").format(shown=f"{shown:,}", total=f"{total:,}")
        )
        self.count_label.setText(self.tr("No match") if total and not shown else text)
        hint = self._no_match_text() if total and not shown else ""
        if hint != self.table.no_match_text or (shown == 0) != self._shown_none:
            # The hint painted over an empty table comes, goes or changes. Only then: a whole
            # viewport's repaint on every slice of a flood was most of its cost.
            self.table.no_match_text = hint
            self._shown_none = shown == 0
            self.table.viewport().update()

    def _no_match_text(self) -> str:
        typed = " ".join(self.search.text().split())
        hidden = [b.text().lower() for b in self.kind_buttons.values() if not b.isChecked()]
        what = (
            self.tr("No event matches “{typed}”").format(typed=typed)
            if typed
            else self.tr("No event of the kinds shown")
        )
        if hidden:
            what += self.tr(" ({kinds} hidden)").format(kinds=self.tr(", ").join(hidden))
        return self.tr(
            "{what}. Clear the filter or show more kinds to see the run's events."
        ).format(what=what)


class ChipKeys(QObject):
    """Makes a row of toggle chips one Tab stop: only the current chip takes Tab focus, the
    arrow keys (and Home/End) move between chips, Space toggles the focused one."""

    def __init__(self, chips: list[QToolButton], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.chips = chips
        for chip in chips:
            chip.installEventFilter(self)
        self.current = 0
        self._set_current(0)

    def _set_current(self, index: int) -> None:
        self.current = index
        for i, chip in enumerate(self.chips):
            chip.setFocusPolicy(
                Qt.FocusPolicy.StrongFocus if i == index else Qt.FocusPolicy.ClickFocus
            )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched not in self.chips:
            return False
        index = self.chips.index(watched)
        if event.type() == QEvent.Type.FocusIn and index != self.current:
            self._set_current(index)  # a click: Tab comes back to the chip last used
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = Qt.Key(event.key())
            target = None
            if key in CHIP_MOVES:
                target = (index + CHIP_MOVES[key]) % len(self.chips)
            elif key == Qt.Key.Key_Home:
                target = 0
            elif key == Qt.Key.Key_End:
                target = len(self.chips) - 1
            if target is not None:
                self._set_current(target)
                self.chips[target].setFocus(Qt.FocusReason.TabFocusReason)
                return True
        return False
