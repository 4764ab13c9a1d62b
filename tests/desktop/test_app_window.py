"""The main window offscreen: a new home's first view, the Run flow with its alert and status
bar, errors as readable banners, shortcuts, restored geometry, title, icon and palette."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeySequence, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop import theme
from desktop.app import build_window
from desktop.models.timeline_model import EVENT_ROLE
from tests.desktop.test_app_helpers import (
    DEMO_QUESTION,
    close_dialogs,
    fixture_make_window,  # noqa: F401  (registers the `make_window` fixture)
    wait_for_run,
)
from tests.support.desktop import MakeWindow


def test_new_home_shows_corpus_question_pickers_and_run_button(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    window = make_window(home)
    assert window.windowTitle() == "BriefDesk"
    assert not window.windowIcon().isNull()
    form = window.run_form
    assert form.question_text() == DEMO_QUESTION
    assert [form.model.itemData(i) for i in range(form.model.count())] == ["offline", "openai"]
    assert form.mode.count() == 3 and form.mode.currentData() == "default"
    assert form.run_button.isVisible() and form.run_button.isEnabled()
    # The demo corpus was copied into the new home and is listed in the Corpus tab.
    copied = sorted(p.name for p in (home / "corpus").iterdir())
    assert "checkpoints-at-tool-boundaries.md" in copied
    qtbot.waitUntil(
        lambda: set(copied) <= set(window.corpus_panel.document_paths()), timeout=30_000
    )
    # Empty states say what to do.
    assert "No runs yet" in window.runs_panel.view.empty_text
    assert window.runs_panel.model.rowCount() == 0


def test_run_button_streams_the_timeline_and_alerts_when_the_run_waits(
    qtbot: QtBot, home: Path, make_window: MakeWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    alerts: list[Any] = []
    monkeypatch.setattr(
        QApplication, "alert", staticmethod(lambda widget, msec=0: alerts.append(widget))
    )
    window = make_window(home)
    qtbot.mouseClick(window.run_form.run_button, Qt.MouseButton.LeftButton)
    run = wait_for_run(qtbot, window, "waiting_approval")
    close_dialogs(window)
    qtbot.waitUntil(
        lambda: any(
            window.timeline.model.event_at(r)["kind"] == "approval_requested"
            for r in range(window.timeline.model.rowCount())
        )
    )
    kinds = [
        window.timeline.model.event_at(r)["kind"] for r in range(window.timeline.model.rowCount())
    ]
    assert kinds[0] == "run_started" and "tool_called" in kinds and "checkpoint_saved" in kinds
    assert alerts == [window], "the window asked for attention once"
    assert window.banners.banner("person") is not None
    assert "save_brief" in window.banners.banner("person").text
    qtbot.waitUntil(lambda: window.approvals_label.text() == "1 pending approval")
    assert (
        "Needs approval" in window.state_label.text() and run["run_id"] in window.state_label.text()
    )
    # The runs panel lists it with its status.
    assert window.runs_panel.selected_run_id() == run["run_id"]
    row = window.runs_panel.model.row_of(run["run_id"])
    assert (
        window.runs_panel.model.index(row).data(Qt.ItemDataRole.UserRole + 2) == "waiting_approval"
    )


def test_core_errors_show_their_message_in_a_banner(
    qtbot: QtBot, home: Path, make_window: MakeWindow, tmp_path: Path
) -> None:
    window = make_window(home)
    window.run_form.corpus.setText(str(tmp_path / "no-such-folder"))
    window.run_question()
    qtbot.waitUntil(lambda: window.banners.banner("error") is not None)
    text = window.banners.banner("error").text
    assert not text.startswith("not_found") and "does not exist" in text
    assert "Traceback" not in text
    assert window.runs_panel.model.rowCount() == 0


def test_shortcuts_are_bound_and_ctrl_enter_runs(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    window = make_window(home)
    bound = {a.text(): [s.toString() for s in a.shortcuts()] for a in window.actions()}
    assert "Ctrl+Return" in bound["&Run question"] and "Ctrl+Enter" in bound["&Run question"]
    assert bound["&Cancel run"] == ["Ctrl+."]
    assert bound["&Settings…"] == ["Ctrl+,"]
    assert bound["&Quit"] == ["Ctrl+Q"]
    assert bound["&Refresh"] == ["F5"]
    assert QKeySequence("Ctrl+.").toString() == "Ctrl+."
    window.activateWindow()
    window.run_form.question.setFocus()
    qtbot.keyClick(window.run_form.question, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait_for_run(qtbot, window, "waiting_approval")
    close_dialogs(window)
    assert window.run_form.question_text() == DEMO_QUESTION, (
        "Ctrl+Enter ran the question, typed no newline"
    )


def test_window_geometry_is_restored(qtbot: QtBot, home: Path, tmp_path: Path) -> None:
    settings_file = str(tmp_path / "qs" / "BriefDesk.ini")
    first = build_window(home, QSettings(settings_file, QSettings.Format.IniFormat))
    qtbot.addWidget(first)
    first.show()
    # The offscreen screen is 800x800 and restoreGeometry() keeps a window on its screen, so
    # the height (which fits) is what must come back exactly; the width is at least the minimum.
    first.move(40, 30)
    first.resize(1180, 700)
    first.splitter.setSizes([240, 640, 300])
    qtbot.waitUntil(lambda: first.height() == 700)
    saved_geometry, saved_splitter = first.saveGeometry(), first.splitter.saveState()
    first.close()
    stored = QSettings(settings_file, QSettings.Format.IniFormat)
    assert stored.value("window/geometry") == saved_geometry
    assert stored.value("window/splitter") == saved_splitter
    second = build_window(home, QSettings(settings_file, QSettings.Format.IniFormat))
    qtbot.addWidget(second)
    second.show()
    assert second.height() == 700
    assert second.width() >= second.minimumSizeHint().width()
    second.close()


def test_palette_follows_light_and_dark_with_fusion(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    dark = theme.make_palette(True)
    light = theme.make_palette(False)
    assert theme.is_dark(dark) and not theme.is_dark(light)
    assert (
        dark.color(QPalette.ColorRole.Text).lightness()
        > 128
        > light.color(QPalette.ColorRole.Text).lightness()
    )
    monkeypatch.setenv("BRIEFDESK_THEME", "dark")
    assert theme.system_prefers_dark() is True
    monkeypatch.setenv("BRIEFDESK_THEME", "light")
    assert theme.system_prefers_dark() is False
    monkeypatch.delenv("BRIEFDESK_THEME")
    old_style, old_palette = app.style().name(), app.palette()
    try:
        theme.apply_theme(app)
        assert app.style().name().lower() == "fusion"
        assert theme.is_dark(app.palette()) == theme.system_prefers_dark()
    finally:
        app.setStyle(old_style)
        app.setPalette(old_palette)


def test_status_colours_match_the_style_guide() -> None:
    assert theme.STATUS_COLOURS["running"] == "#2f7be6"
    assert theme.status_colour("succeeded").green() > theme.status_colour("succeeded").red()
    assert theme.status_colour("failed").red() > 200
    assert theme.status_colour("cancelled") == theme.status_colour("expired")
    assert theme.status_colour("interrupted") != theme.status_colour("waiting_approval")


def test_selecting_an_event_shows_it_in_the_detail_pane(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    window = make_window(home)
    window.run_question()
    wait_for_run(qtbot, window, "waiting_approval")
    close_dialogs(window)
    qtbot.waitUntil(lambda: window.timeline.proxy.rowCount() > 5)
    window.timeline.select_row(0)
    event = window.timeline.proxy.index(0, 0).data(EVENT_ROLE)
    assert f'"seq": {event["seq"]}' in window.timeline.detail.toPlainText()


def test_approval_dialog_decision_resumes_the_run(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    from desktop.widgets.approval_dialog import ApprovalDialog

    window = make_window(home)
    window.run_question()
    run = wait_for_run(qtbot, window, "waiting_approval")
    dialog = window.prompts.dialog
    assert isinstance(dialog, ApprovalDialog), "the window opened the approval dialog by itself"
    assert dialog.isVisible()
    qtbot.waitUntil(dialog.approve_button.isEnabled, timeout=10_000)
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    done = wait_for_run(qtbot, window, "succeeded")  # decided in the dialog, resumed by the window
    assert done["run_id"] == run["run_id"]
    target = Path(run["approvals"][0]["target"])
    assert target.read_text() == run["approvals"][0]["args"]["content"]
    assert window.banners.banner("person") is None

    # The app's artifacts watcher confirms the write, once, on the run's live timeline.
    def events() -> list[dict[str, Any]]:
        model = window.timeline.model
        return [model.event_at(r) for r in range(model.rowCount())]

    qtbot.waitUntil(
        lambda: any(e["kind"] == "artifact_confirmed" for e in events()), timeout=10_000
    )
    confirmed = [e for e in events() if e["kind"] == "artifact_confirmed"]
    assert [(e["data"]["path"], e["data"]["count"]) for e in confirmed] == [(str(target), 1)]
    writes = [e for e in events() if e["kind"] == "tool_result" and e["tool"] == "save_brief"]
    assert [e["data"]["executed"] for e in writes] == [True]


def test_question_dialog_answer_resumes_the_run(
    qtbot: QtBot, home: Path, make_window: MakeWindow, tmp_path: Path
) -> None:
    from desktop.widgets.question_dialog import QuestionDialog

    script = tmp_path / "asks.json"
    script.write_text(
        '[{"call": "ask_question", "args": {"question": "Who will read this brief?"}},'
        ' {"say": "Thanks, noted."}]'
    )
    window = make_window(home)
    window.context.start_run("Write a brief about checkpoints.", model=f"scripted:{script}")
    run = wait_for_run(qtbot, window, "waiting_input")
    assert run["question_pending"] == "Who will read this brief?"
    dialog = window.prompts.dialog
    assert isinstance(dialog, QuestionDialog)
    assert "Answer…" in window.banners.banner("person").buttons
    dialog.answer_edit.setPlainText("Platform engineers")
    qtbot.waitUntil(dialog.send_button.isEnabled, timeout=10_000)
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    done = wait_for_run(qtbot, window, "succeeded")
    assert done["output"] == "Thanks, noted."
    qtbot.waitUntil(
        lambda: any(
            window.timeline.model.event_at(r)["kind"] == "answer_received"
            for r in range(window.timeline.model.rowCount())
        )
    )
