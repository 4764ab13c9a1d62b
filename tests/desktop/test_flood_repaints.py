"""A flood of events repaints the timeline's rows, not the window around them (offscreen).

The timeline sits in a tab widget, as in the main window. A tab widget repaints all of itself on
every layout request that reaches it, and a label with a free size sends one on each new text:
the count ("1,234 events") changing once a slice made every slice of a flood repaint the whole
centre of the window. The number of layout requests and of paints of a neighbour that shows
nothing new is what a person would feel as a stutter.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QStyle,
    QStyleOption,
    QTabWidget,
    QWidget,
)
from pytestqt.qtbot import QtBot

from agent_core.contract.views import EventView
from desktop import theme
from desktop.widgets.timeline_view import TimelinePanel

RUN = "run-flood"
SLICES, PER_SLICE = 120, 50


class EventCounter(QObject):
    def __init__(self, kind: QEvent.Type) -> None:
        super().__init__()
        self.kind = kind
        self.seen = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == self.kind:
            self.seen += 1
        return False


def model_turns(first: int, count: int) -> list[EventView]:
    at = "2026-12-07T10:00:00+00:00"
    return [
        EventView(seq=seq, run_id=RUN, kind="model_turn", at=at, tool=None, data={"turn": seq})
        for seq in range(first, first + count)
    ]


def test_a_flood_repaints_the_rows_and_leaves_the_rest_of_the_window_alone(qtbot: QtBot) -> None:
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    panel = TimelinePanel()
    tabs.addTab(panel, "Timeline")
    tabs.resize(900, 640)
    tabs.show()
    qtbot.waitExposed(tabs)
    panel.set_run(RUN, [])
    QApplication.processEvents()
    layouts = EventCounter(QEvent.Type.LayoutRequest)
    tabs.installEventFilter(layouts)
    neighbour_paints = EventCounter(QEvent.Type.Paint)  # the event detail: nothing selected
    panel.detail.viewport().installEventFilter(neighbour_paints)
    row_paints = EventCounter(QEvent.Type.Paint)
    panel.table.viewport().installEventFilter(row_paints)

    for number in range(SLICES):
        panel.append(model_turns(number * PER_SLICE + 1, PER_SLICE))
        QApplication.processEvents()  # the slice's layout and paint, as between two slices

    assert panel.count_label.text() == f"{SLICES * PER_SLICE:,} events"
    assert row_paints.seen >= SLICES // 2  # the rows were shown as they came
    # The count widens its label when it gains a digit (and the scroll bar appears once): a
    # handful of layouts, not one a slice.
    assert layouts.seen <= 5, layouts.seen
    assert neighbour_paints.seen <= 5, neighbour_paints.seen


class CountingStyle(theme.VisibleIndicators):
    """The app's style, noting each primitive it is asked to draw and for which widget. (A
    subclass, not a patched method: PySide keeps the method it found for a C++ override, and
    a patched one freed after the test left it calling freed memory.)"""

    def __init__(self) -> None:
        super().__init__("Fusion")
        self.drawn: list[tuple[QStyle.PrimitiveElement, QWidget | None]] = []

    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        self.drawn.append((element, widget))
        super().drawPrimitive(element, option, painter, widget)


@pytest.fixture
def counting_style() -> Iterator[CountingStyle]:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    style = CountingStyle()
    app.setStyle(style)  # the application owns it from here, and deletes it when replaced
    yield style
    theme.apply_theme(app)


def test_the_rows_are_painted_without_a_call_into_python_per_primitive(
    qtbot: QtBot, counting_style: CountingStyle
) -> None:
    """The app's style outlines check boxes in Python; the timeline has none, and through
    that style each cell's each primitive was a call into Python (a fifth of a repaint)."""
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    box = QCheckBox("a check box elsewhere")
    qtbot.addWidget(box)
    panel.resize(900, 640)
    for shown in (panel, box):
        shown.show()
        qtbot.waitExposed(shown)
    panel.set_run(RUN, model_turns(1, 200))
    QApplication.processEvents()
    drawn = counting_style.drawn
    drawn.clear()
    panel.table.viewport().repaint()
    assert [element for element, widget in drawn if widget is panel.table] == []
    box.repaint()  # the app's style still draws the rest of the app
    assert (QStyle.PrimitiveElement.PE_IndicatorCheckBox, box) in drawn
