"""Issue 12 item 1: the Demo menu never decides for a person, and says what it will do.

A real window offscreen on a real home; the confirmation is the real message box, read and
answered as a person does; runs and approvals are read with sqlite3. Only the self-SIGKILL is
left out (`arm_crash` records the crash point instead): the crash itself is proven in a real
subprocess by test_app_recovery; here the point is what the demo decides and shows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from tests.desktop.test_app_helpers import (  # noqa: F401  (registers the `make_window` fixture)
    close_dialogs,
    fixture_make_window,
    wait_for_run,
)
from tests.support.desktop import MakeWindow

CRASH, CANCEL = "Crash", "Cancel"  # the confirmation's buttons


def runs(home: Path) -> list[tuple[str, str, str, str]]:
    with sqlite3.connect(home / "state.db") as db:
        return list(
            db.execute("SELECT run_id, question, mode, status FROM runs ORDER BY created_at")
        )


def approval(home: Path, approval_id: str) -> tuple[str, str | None, str | None]:
    with sqlite3.connect(home / "state.db") as db:
        row = db.execute(
            "SELECT status, reviewer, decision_reason FROM approvals WHERE id = ?",
            (approval_id,),
        ).fetchone()
    return row[0], row[1], row[2]


def answer_the_box(window: Any, button: str) -> list[dict[str, str]]:
    """Reads the next confirmation box (and the Mode box while it is open), then answers it."""
    seen: list[dict[str, str]] = []

    def act() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, act)
            return
        mode = window.run_form.mode
        seen.append({"text": box.text(), "mode": mode.currentData(), "shown": mode.currentText()})
        [chosen] = [b for b in box.buttons() if b.text().replace("&", "") == button]
        chosen.click()

    QTimer.singleShot(0, act)
    return seen


@pytest.fixture
def armed() -> Callable[[Any], list[str]]:
    def arm(window: Any) -> list[str]:
        points: list[str] = []
        window.context.arm_crash = points.append  # not SIGKILL the test runner
        return points

    return arm


def test_crash_after_write_shows_its_mode_and_leaves_a_waiting_write_to_the_person(
    qtbot: QtBot, home: Path, make_window: MakeWindow, armed: Callable[[Any], list[str]]
) -> None:
    window = make_window(home)
    window.run_question()
    waiting = wait_for_run(qtbot, window, "waiting_approval")
    close_dialogs(window)
    [pending] = waiting["approvals"]
    assert window.run_form.mode.currentData() == "default"
    points = armed(window)

    # Cancelled: nothing happens, and the Mode box is as it was.
    seen = answer_the_box(window, CANCEL)
    window.crash_write_action.trigger()
    assert seen and seen[0]["mode"] == "acceptEdits"
    assert window.run_form.mode.currentData() == "default"
    assert points == [] and len(runs(home)) == 1

    seen = answer_the_box(window, CRASH)
    window.crash_write_action.trigger()
    [asked] = seen
    # While it asks, the Mode box already shows the mode the demo will use, and so does the text.
    assert asked["mode"] == "acceptEdits" and asked["shown"] == "Accept edits"
    assert "Mode: Accept edits" in asked["text"] and "written without asking" in asked["text"]
    assert window.run_form.question_text() in asked["text"]
    assert "1 proposal waiting for a person still waits for you" in asked["text"]
    assert points == ["after_write_before_confirm"]
    qtbot.waitUntil(lambda: len(runs(home)) == 2, timeout=20_000)
    _new_id, question, mode, _status = runs(home)[1]
    assert (question, mode) == (window.run_form.question_text(), "acceptEdits")
    assert window.run_form.mode.currentData() == "acceptEdits", "the box still says so"
    qtbot.waitUntil(lambda: runs(home)[1][3] == "succeeded", timeout=60_000)
    # The write that waited for a person still waits for that person.
    assert approval(home, pending["id"]) == ("pending", None, None)
    assert runs(home)[0][3] == "waiting_approval"


def test_crash_at_next_tool_says_it_starts_the_question_in_the_box(
    qtbot: QtBot, home: Path, make_window: MakeWindow, armed: Callable[[Any], list[str]]
) -> None:
    window = make_window(home)
    points = armed(window)
    window.run_form.question.setPlainText("What do idempotency keys prevent?")
    seen = answer_the_box(window, CANCEL)
    window.crash_next_action.trigger()
    [asked] = seen
    text = asked["text"]
    assert "starts the question in the box as a new run" in text
    assert "“What do idempotency keys prevent?”" in text
    assert "Mode: Default: ask before writes" in text
    assert points == [] and runs(home) == []

    window.run_form.set_mode("acceptEdits")  # the person's choice, in the box
    seen = answer_the_box(window, CRASH)
    window.crash_next_action.trigger()
    assert "Mode: Accept edits" in seen[0]["text"]
    assert points == ["before_tool:next"]
    qtbot.waitUntil(lambda: len(runs(home)) == 1, timeout=20_000)
    [(_run_id, question, mode, _status)] = runs(home)
    assert (question, mode) == ("What do idempotency keys prevent?", "acceptEdits")
