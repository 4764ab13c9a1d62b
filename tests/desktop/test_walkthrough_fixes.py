"""Issue 26 item 7, what the walk-through found in the window (real widgets offscreen, real
homes): Delete offered only for a finished run and refused in plain words, the Test connection
answer shown whole, Help's keyboard shortcuts (read from the live window) and documentation, and
the Approve key bringing forward a dialog that opened by itself without ever approving during
its read guard."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.models.run_state import NOT_FINISHED
from desktop.widgets.approval_dialog import ApprovalDialog
from desktop.widgets.help_menu import APPROVAL_DIALOG, MAIN_WINDOW, README, ShortcutsDialog
from desktop.widgets.settings_dialog import SettingsDialog
from tests.desktop.test_app_helpers import (  # noqa: F401  (registers the `make_window` fixture)
    DEMO_QUESTION,
    fixture_make_window,
)
from tests.support.desktop import MakeWindow, StillClock, open_workspace, started_bridge
from tests.support.waiting import bridge_caught_up

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
NATIVE = QKeySequence.SequenceFormat.NativeText


def approval_status(home: Path, approval_id: str) -> str:
    with sqlite3.connect(home / "state.db") as db:
        row = db.execute("SELECT status FROM approvals WHERE id = ?", (approval_id,)).fetchone()
    return str(row[0])


# -- Run ▸ Delete -------------------------------------------------------------------------------


def test_delete_is_offered_only_for_a_finished_run_and_a_refusal_says_why_in_words(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    with open_workspace(home) as ws:
        waiting = ws.start_run(DEMO_QUESTION, artifacts=home.parent / "waiting")
        finished = ws.start_run(DEMO_QUESTION, mode="acceptEdits", artifacts=home.parent / "done")
    assert (waiting["status"], finished["status"]) == ("waiting_approval", "succeeded")
    window = make_window(home)
    window.select_run(waiting["run_id"])
    qtbot.waitUntil(
        lambda: (window.selected_run() or {"run_id": None})["run_id"] == waiting["run_id"]
    )
    action = window.delete_action
    assert not action.isEnabled()
    assert action.toolTip() == action.statusTip() == NOT_FINISHED
    window.select_run(finished["run_id"])
    qtbot.waitUntil(action.isEnabled, timeout=5000)
    assert action.toolTip() != NOT_FINISHED

    # Refused anyway (the run went on between the menu and the answer): plain words, no status.
    with qtbot.waitSignal(
        window.context.message, timeout=10_000, check_params_cb=lambda _level, text: "run" in text
    ) as said:
        window.context.delete_run(waiting["run_id"])
    assert said.args == ["error", NOT_FINISHED]
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == NOT_FINISHED, timeout=5000)
    with open_workspace(home) as ws:
        assert ws.get_run(waiting["run_id"])["status"] == "waiting_approval"


# -- Settings ▸ Test connection -----------------------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_long_test_connection_answer_is_shown_whole(qtbot: QtBot, home: Path) -> None:
    with started_bridge(qtbot, home) as bridge:
        dialog = SettingsDialog(bridge, {})
        qtbot.addWidget(dialog)
        dialog.resize(640, 600)  # as it opens on a 1024x700 laptop screen
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.base_url.setText(f"http://127.0.0.1:{_closed_port()}/openai-compatible/v1")
        dialog.model_name.setText("gpt-4o-mini")
        dialog.test_connection()
        label = dialog.test_result
        qtbot.waitUntil(dialog.test_button.isEnabled, timeout=30_000)  # answered
        width = label.width()
        assert label.fontMetrics().horizontalAdvance(label.text()) > width, "more than a line"
        needed = label.heightForWidth(width)
        qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()))
        # scrolled into view once the layout settled: nothing cut off
        qtbot.waitUntil(lambda: label.visibleRegion().boundingRect().height() >= needed)


# -- Help -----------------------------------------------------------------------------------------


def test_keyboard_shortcuts_lists_every_shortcut_of_the_window_and_the_approval_dialog(
    qtbot: QtBot, home: Path, make_window: MakeWindow, clock: StillClock
) -> None:
    window = make_window(home)
    window.shortcuts_action.trigger()
    dialog = window.findChild(ShortcutsDialog)
    assert isinstance(dialog, ShortcutsDialog) and dialog.isVisible()
    listed = dialog.rows(MAIN_WINDOW)
    keyed = [a for a in window.actions() if any(not k.isEmpty() for k in a.shortcuts())]
    assert len(keyed) >= 6
    for action in keyed:
        for keys in action.shortcuts():
            assert any(keys.toString(NATIVE) in shown for _what, shown in listed), action.text()
    for shortcut in window.findChildren(QShortcut):
        if shortcut.parent().window() is window:
            assert any(shortcut.key().toString(NATIVE) in k for _w, k in listed)

    # the approval dialog's keys, checked against a real dialog's own QShortcuts and mnemonics
    with open_workspace(home) as ws:
        run = ws.start_run(DEMO_QUESTION)
    approval = ApprovalDialog(window.bridge, run["approvals"][0]["id"], "alice")
    qtbot.addWidget(approval)
    in_dialog = dialog.rows(APPROVAL_DIALOG)
    own = [s.key().toString(NATIVE) for s in approval.findChildren(QShortcut)]
    own += [approval.edit_button.shortcut().toString(NATIVE)]
    assert own and all(any(keys == k for _w, k in in_dialog) for keys in own), (own, in_dialog)
    approval.close()


class UrlCatcher(QObject):
    """The desktop's handler for file: URLs while the test runs (what the viewer would get)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open_url(self, url: QUrl) -> None:
        self.urls.append(url)


def test_documentation_opens_the_readme_and_shows_its_path(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    window = make_window(home)
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("file", catcher, "open_url")
    try:
        window.docs_action.trigger()
    finally:
        QDesktopServices.unsetUrlHandler("file")
    [url] = catcher.urls
    assert Path(url.toLocalFile()) == README and README.is_file()
    assert str(README) in window.statusBar().currentMessage()


# -- Ctrl+Shift+A and a dialog that opened by itself -------------------------------------------


def test_the_approve_key_brings_a_dialog_that_opened_by_itself_forward_never_approving_early(
    qtbot: QtBot, home: Path, make_window: MakeWindow, clock: StillClock
) -> None:
    window = make_window(home)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    window.context.start_run(DEMO_QUESTION)  # a run started in the window
    qtbot.waitUntil(
        lambda: (
            isinstance(window.prompts.dialog, ApprovalDialog)
            and window.prompts.dialog.isVisible()
            and bool(window.prompts.dialog.info)
        ),
        timeout=30_000,
    )
    dialog = window.prompts.dialog
    assert isinstance(dialog, ApprovalDialog)
    approval_id = dialog.approval_id
    # opened by itself, it takes the keyboard (issue 44); the key decides nothing yet
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=5000)

    def press() -> None:
        target = QApplication.focusWidget() or QApplication.activeWindow()
        assert target is not None
        qtbot.keyClick(target, Qt.Key.Key_A, CTRL_SHIFT)

    press()  # at once: the guard holds
    bridge_caught_up(qtbot, window.bridge)
    assert approval_status(home, approval_id) == "pending", "seen too briefly, not approved"
    assert not dialog.approve_button.isEnabled()
    press()  # again at once: the guard still holds
    bridge_caught_up(qtbot, window.bridge)
    assert approval_status(home, approval_id) == "pending"
    clock.pass_the_guard()
    qtbot.waitUntil(dialog.approve_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.decided, timeout=10_000) as decided:
        press()
    assert decided.args == [approval_id, "approved"]


def test_quit_takes_the_window_off_the_screen_before_waiting_for_the_bridge(
    qtbot: QtBot, tmp_path: Path, make_window: MakeWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+Q took 2.3-2.8 s to close the window while the SDK was still being imported: the
    window now goes first, and only then does the quit wait for the bridge to stop (the
    figures are in benchmarks/bench_startup.py); the SDK import runs on a thread of its own."""
    window = make_window(tmp_path / "home")
    seen_when_stopping: list[bool] = []
    stop = window.bridge.stop

    def stopping(timeout_ms: int = 8000) -> None:
        seen_when_stopping.append(window.isVisible())
        stop(timeout_ms)

    monkeypatch.setattr(window.bridge, "stop", stopping)
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: seen_when_stopping != [], timeout=10_000)
    assert seen_when_stopping == [False]
