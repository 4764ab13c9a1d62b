"""Issue 12 item 1: the approval dialog never approves what was not seen.

Real windows offscreen, real key and mouse events (QTest), a real home; decisions are read
from the database with sqlite3. Time is driven, not waited for: the read guard reads
`approval_guard.clock`, which these tests replace by a clock that stands still until the test
moves it past the guard, so "an instant key press" is exactly that on any machine.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.widgets.approval_dialog import ApprovalDialog
from tests.desktop.test_app_helpers import (  # noqa: F401  (registers the `make_window` fixture)
    DEMO_QUESTION,
    fixture_make_window,
    wait_for_run,
)
from tests.support.desktop import MakeWindow, StillClock, open_workspace, started_bridge
from tests.support.typed import present
from tests.support.waiting import bridge_caught_up

CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def approval_row(home: Path, approval_id: str) -> tuple[str, str | None]:
    with sqlite3.connect(home / "state.db") as db:
        row = db.execute(
            "SELECT status, reviewer FROM approvals WHERE id = ?", (approval_id,)
        ).fetchone()
    return row[0], row[1]


def count_rows(home: Path, table: str) -> int:
    with sqlite3.connect(home / "state.db") as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def dialog_of(qtbot: QtBot, window: Any) -> ApprovalDialog:
    """The approval dialog the window opened by itself, once it shows its proposal."""

    def shown() -> bool:
        dialog = window.prompts.dialog
        return isinstance(dialog, ApprovalDialog) and dialog.isVisible() and bool(dialog.info)

    qtbot.waitUntil(shown, timeout=30_000)
    dialog = window.prompts.dialog
    assert isinstance(dialog, ApprovalDialog)
    return dialog


def type_into_focus(
    qtbot: QtBot, key: Qt.Key, modifiers: Any = Qt.KeyboardModifier.NoModifier
) -> None:
    """A key press as a person makes it: it goes to whatever has the keyboard focus."""
    target = QApplication.focusWidget()
    assert target is not None
    qtbot.keyClick(target, key, modifiers)


def test_ctrl_enter_twice_starts_one_run_and_approves_nothing(
    qtbot: QtBot, home: Path, make_window: MakeWindow, clock: StillClock
) -> None:
    window = make_window(home)
    window.activateWindow()
    qtbot.mouseClick(window.run_form.question, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.run_form.question)
    type_into_focus(qtbot, Qt.Key.Key_Return, CTRL)  # Run
    dialog = dialog_of(qtbot, window)
    [approval] = present(window.selected_run())["approvals"]
    type_into_focus(qtbot, Qt.Key.Key_Return, CTRL)  # the same key again, "instantly"
    bridge_caught_up(qtbot, window.bridge)
    assert approval_row(home, approval["id"]) == ("pending", None)
    assert count_rows(home, "runs") == 1, "the second Ctrl+Enter started no second run"

    # The person turns to the dialog at once: it has the keyboard, and still nothing decides.
    qtbot.mouseClick(
        window.banners.banner("person").buttons["Review approval…"], Qt.MouseButton.LeftButton
    )
    assert window.prompts.dialog is dialog, "one window per proposal"
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    assert QApplication.focusWidget() is dialog.diff.browser
    for key, modifiers in (
        (Qt.Key.Key_Return, CTRL),
        (Qt.Key.Key_Enter, CTRL),
        (Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_A, CTRL_SHIFT),  # Approve's own shortcut: not yet
    ):
        type_into_focus(qtbot, key, modifiers)
    for button in (dialog.approve_button, dialog.close_button, dialog.reject_button):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    bridge_caught_up(qtbot, window.bridge)
    assert approval_row(home, approval["id"]) == ("pending", None)
    assert dialog.isVisible() and dialog.action_stack.currentIndex() == 0
    # The wait is shown: Approve is disabled and counts down.
    assert not dialog.approve_button.isEnabled()
    assert "(in 1.0 s)" in dialog.approve_button.text()

    clock.pass_the_guard()
    qtbot.waitUntil(dialog.approve_button.isEnabled, timeout=5000)
    assert "Ctrl+Shift+A" in dialog.approve_button.toolTip()
    assert "Ctrl+Shift+A" in dialog.approve_button.text()
    # Run's key never approves, not even after the guard; Approve's own key does.
    type_into_focus(qtbot, Qt.Key.Key_Return, CTRL)
    type_into_focus(qtbot, Qt.Key.Key_Return)
    bridge_caught_up(qtbot, window.bridge)
    assert approval_row(home, approval["id"]) == ("pending", None)
    with qtbot.waitSignal(dialog.decided, timeout=10_000):
        type_into_focus(qtbot, Qt.Key.Key_A, CTRL_SHIFT)
    assert approval_row(home, approval["id"]) == ("approved", dialog.reviewer)
    wait_for_run(qtbot, window, "succeeded")


def test_a_run_key_meant_for_a_dialog_that_just_opened_starts_no_run(
    qtbot: QtBot, home: Path, make_window: MakeWindow, clock: StillClock
) -> None:
    window = make_window(home)
    window.activateWindow()
    # Started a while ago (not by this Run key): the dialog opens by itself, the person was
    # about to press Ctrl+Enter in the main window, as they would in the dialog.
    window.context.start_run(DEMO_QUESTION)
    dialog = dialog_of(qtbot, window)
    # Issue 44: opened by itself, it takes the keyboard; the key lands in it and decides nothing.
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.diff.browser, timeout=5000)
    type_into_focus(qtbot, Qt.Key.Key_Return, CTRL)
    qtbot.keyClick(window.run_form.question, Qt.Key.Key_Return, CTRL)  # one that got there first
    bridge_caught_up(qtbot, window.bridge)
    assert count_rows(home, "runs") == 1
    assert approval_row(home, dialog.approval_id) == ("pending", None)
    clock.pass_the_guard()  # later, Run is Run again
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    window.run_form.question.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.run_form.question)
    type_into_focus(qtbot, Qt.Key.Key_Return, CTRL)
    qtbot.waitUntil(lambda: count_rows(home, "runs") == 2, timeout=20_000)


def test_escape_during_the_guard_closes_without_deciding_and_the_banner_reopens_it(
    qtbot: QtBot, home: Path, make_window: MakeWindow, clock: StillClock
) -> None:
    window = make_window(home)
    window.run_question()
    dialog = dialog_of(qtbot, window)
    [approval] = present(window.selected_run())["approvals"]
    qtbot.keyClick(dialog.focusWidget() or dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not window.prompts.dialog or not window.prompts.dialog.isVisible())
    bridge_caught_up(qtbot, window.bridge)
    assert approval_row(home, approval["id"]) == ("pending", None)

    # The proposal still waits, and the window says so with a way to open it again.
    banner = window.banners.banner("person")
    assert banner is not None and "Review approval…" in banner.buttons
    assert banner.isVisible()
    qtbot.mouseClick(banner.buttons["Review approval…"], Qt.MouseButton.LeftButton)
    reopened = dialog_of(qtbot, window)
    assert reopened.approval_id == approval["id"]
    assert not reopened.approve_button.isEnabled(), "shown again: guarded again"
    qtbot.mouseClick(reopened.approve_button, Qt.MouseButton.LeftButton)
    bridge_caught_up(qtbot, window.bridge)
    assert approval_row(home, approval["id"]) == ("pending", None)
    clock.pass_the_guard()
    qtbot.waitUntil(reopened.approve_button.isEnabled, timeout=5000)


def test_a_dialog_opening_while_typing_in_the_filter_takes_the_keys_and_decides_nothing(
    qtbot: QtBot, home: Path, make_window: MakeWindow, clock: StillClock
) -> None:
    window = make_window(home)
    window.activateWindow()
    search = window.timeline.search
    qtbot.mouseClick(search, Qt.MouseButton.LeftButton)
    search.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is search)
    window.run_question()  # the run started a moment ago; the person types in the filter
    dialog = dialog_of(qtbot, window)
    [approval] = present(window.selected_run())["approvals"]
    assert QApplication.activeModalWidget() is None, "the dialog blocks no other window"
    # Issue 44: the keyboard goes to the dialog, on the diff (no text field); what the person
    # goes on typing lands there, never in the filter behind it, and decides nothing.
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.diff.browser, timeout=5000)
    for key in (Qt.Key.Key_B, Qt.Key.Key_R, Qt.Key.Key_I, Qt.Key.Key_E, Qt.Key.Key_F):
        type_into_focus(qtbot, key)
    type_into_focus(qtbot, Qt.Key.Key_Return)
    assert search.text() == ""
    bridge_caught_up(qtbot, window.bridge)
    assert approval_row(home, approval["id"]) == ("pending", None)
    assert dialog.isVisible()


def test_a_new_home_opens_with_the_keyboard_in_the_question_box(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    window = make_window(home)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.run_form.question)
    qtbot.keyClicks(QApplication.focusWidget(), "Briefly: ")
    assert "Briefly: " in window.run_form.question_text()


# -- what the dialog shows changes: the guard starts again ------------------------------------


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("guard") / "home"


@pytest.fixture
def ws(shared_home: Path) -> Iterator[Workspace]:
    with open_workspace(shared_home) as workspace:
        yield workspace


@pytest.fixture
def bridge(qtbot: QtBot, shared_home: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, shared_home) as started:
        yield started


def open_dialog(qtbot: QtBot, bridge: Bridge, ws: Workspace, name: str) -> tuple[Any, Any]:
    run = ws.start_run(DEMO_QUESTION, artifacts=ws.home.root / f"artifacts-{name}")
    assert run["status"] == "waiting_approval"
    approval = run["approvals"][0]
    dialog = ApprovalDialog(bridge, approval["id"], "alice")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)
    return dialog, approval


def test_an_edit_must_be_seen_before_approve_edited(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, shared_home: Path, clock: StillClock
) -> None:
    dialog, approval = open_dialog(qtbot, bridge, ws, "edit")
    clock.pass_the_guard()
    qtbot.waitUntil(dialog.edit_button.isEnabled, timeout=5000)
    qtbot.mouseClick(dialog.edit_button, Qt.MouseButton.LeftButton)
    dialog.content_edit.moveCursor(dialog.content_edit.textCursor().MoveOperation.End)
    qtbot.keyClicks(dialog.content_edit, "Checked by alice.")
    qtbot.waitUntil(lambda: dialog.edit_panel.valid_args is not None, timeout=5000)
    assert "Checked by alice." in dialog.edit_panel.valid_args["content"]
    # Valid, but just typed: not approvable yet, by click or by key.
    assert not dialog.approve_edited_button.isEnabled()
    assert "(in " in dialog.approve_edited_button.text()
    qtbot.mouseClick(dialog.approve_edited_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(dialog.content_edit, Qt.Key.Key_A, CTRL_SHIFT)
    bridge_caught_up(qtbot, bridge)
    assert approval_row(shared_home, approval["id"]) == ("pending", None)
    assert len(ws.list_approvals(run_id=approval["run_id"])) == 1, "no edited version made"
    clock.pass_the_guard()
    qtbot.waitUntil(dialog.approve_edited_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.decided, timeout=10_000) as signal:
        qtbot.keyClick(dialog.content_edit, Qt.Key.Key_A, CTRL_SHIFT)
    new_id, status = signal.args
    assert status == "approved" and approval_row(shared_home, new_id) == ("approved", "alice")


def test_a_new_proposal_shown_in_the_dialog_is_guarded_again(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, shared_home: Path, clock: StillClock
) -> None:
    dialog, approval = open_dialog(qtbot, bridge, ws, "newest")
    clock.pass_the_guard()
    qtbot.waitUntil(dialog.approve_button.isEnabled, timeout=5000)
    edited = {**approval["args"], "relative_path": "briefs/by-bob.md"}
    newest = ws.edit(approval["id"], reviewer="bob", args=edited)  # as `approvals edit` does
    qtbot.waitUntil(dialog.newest_button.isVisible, timeout=5000)
    qtbot.mouseClick(dialog.newest_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.approval_id == newest["id"] and not dialog.banner.isVisible())
    qtbot.waitUntil(lambda: dialog.target_label.text() == newest["target"], timeout=5000)
    assert not dialog.approve_button.isEnabled()
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(dialog.focusWidget() or dialog, Qt.Key.Key_A, CTRL_SHIFT)
    bridge_caught_up(qtbot, bridge)
    assert approval_row(shared_home, newest["id"]) == ("pending", None)
    clock.pass_the_guard()
    qtbot.waitUntil(dialog.approve_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.decided, timeout=10_000):
        qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    assert approval_row(shared_home, newest["id"]) == ("approved", "alice")
