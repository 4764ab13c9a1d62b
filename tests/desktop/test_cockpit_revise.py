"""Issue 12 item 3 in the window: "Request changes" sends the proposal back with a note, the
window continues the run by itself, and the agent's new proposal waits for a person again.
The button obeys the dialog's read guard, like Approve. Proven from the outside: the approval
rows (sqlite3) and the artifacts folder."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.widgets import approval_guard
from tests.desktop.test_app_helpers import (  # noqa: F401  (registers the `make_window` fixture)
    DEMO_QUESTION,
    fixture_make_window,
    wait_for_run,
)
from tests.support.desktop import MakeWindow

NOTE = "call it short.md, shorter"


class FakeClock:
    """The read guard's clock, moved by the test: the guard holds until the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def pass_the_guard(self) -> None:
        self.now += approval_guard.GUARD_MS / 1000 + 1


def _approvals(home: Path, run_id: str) -> list[tuple[str, str, str | None, str]]:
    with sqlite3.connect(home / "state.db") as db:
        return list(
            db.execute(
                "SELECT id, status, reviewer, args_json FROM approvals WHERE run_id = ?"
                " ORDER BY created_at",
                (run_id,),
            )
        )


def _open_dialog(qtbot: QtBot, window: Any, approval_id: str) -> Any:
    def shown() -> bool:
        dialog = window.prompts.dialog
        return bool(
            dialog is not None
            and dialog.isVisible()
            and getattr(dialog, "approval_id", None) == approval_id
            and dialog.info is not None
        )

    qtbot.waitUntil(shown, timeout=30_000)
    return window.prompts.dialog


def test_request_changes_in_the_dialog_continues_the_run_to_a_new_proposal(
    qtbot: QtBot, home: Path, make_window: MakeWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    monkeypatch.setattr(approval_guard, "clock", clock)
    window = make_window(home, poll_ms=150)
    window.run_form.question.setPlainText(DEMO_QUESTION)
    window.run_question()
    run = wait_for_run(qtbot, window, "waiting_approval")
    first = run["approvals"][0]
    dialog = _open_dialog(qtbot, window, first["id"])

    # Just shown: the guard holds, so Request changes is as unusable as Approve.
    assert not dialog.request_changes_button.isEnabled()
    assert not dialog.approve_button.isEnabled()
    clock.pass_the_guard()
    qtbot.waitUntil(dialog.request_changes_button.isEnabled, timeout=5000)

    qtbot.mouseClick(dialog.request_changes_button, Qt.MouseButton.LeftButton)
    assert dialog.note_edit.isVisible() and not dialog.confirm_changes_button.isEnabled()
    qtbot.keyClicks(dialog.note_edit, NOTE)
    assert dialog.confirm_changes_button.isEnabled()
    with qtbot.waitSignal(dialog.decided, timeout=10_000) as signal:
        qtbot.mouseClick(dialog.confirm_changes_button, Qt.MouseButton.LeftButton)
    assert signal.args == [first["id"], "changes_requested"]

    # Nobody clicks Resume: the window continues the run, and the agent proposes again.
    def new_proposal() -> Any:
        rows = _approvals(home, run["run_id"])
        return rows if len(rows) == 2 and rows[1][1] == "pending" else None

    qtbot.waitUntil(lambda: new_proposal() is not None, timeout=60_000)
    rows = new_proposal()
    assert rows[0][:3] == (first["id"], "changes_requested", dialog.reviewer)
    second_id = rows[1][0]
    assert second_id != first["id"] and '"relative_path": "short.md"' in rows[1][3]
    assert not any((home / "artifacts").rglob("*.md"))  # sent back: nothing written

    # The new proposal opens in its own dialog and needs a person (and the guard) again.
    again = _open_dialog(qtbot, window, second_id)
    assert not again.approve_button.isEnabled()
    clock.pass_the_guard()
    qtbot.waitUntil(again.approve_button.isEnabled, timeout=5000)
    qtbot.mouseClick(again.approve_button, Qt.MouseButton.LeftButton)
    wait_for_run(qtbot, window, "succeeded")
    assert sorted(p.name for p in (home / "artifacts").rglob("*.md")) == ["short.md"]
    assert [r[1] for r in _approvals(home, run["run_id"])] == ["changes_requested", "consumed"]
