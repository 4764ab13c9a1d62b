"""Issue 26 item 3: notifications that never decide. A real notification server (dunst on a
private session bus, on its own Xvfb screen) receives what the window sends; `dbus-monitor`
records it, exactly as the bus carried it. Proposals come from another process (a
`briefdesk-cli run` on the same home), as a person's other terminal would make them."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from desktop.notifications.decisions import REMINDER_SHARE, remind_at
from desktop.widgets.approval_dialog import ApprovalDialog
from desktop.widgets.question_dialog import QuestionDialog
from tests.desktop.test_app_helpers import (  # noqa: F401  (registers the `make_window` fixture)
    fixture_make_window,
)
from tests.support.cli import CliRunner
from tests.support.desktop import MakeWindow
from tests.support.notification_server import (  # noqa: F401  (registers the fixture)
    NotificationServer,
    fixture_notification_server,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

QUESTION = "How do checkpoints & <leases> make agent runs durable?"
NOTIFY_WITHIN_MS = 5_000  # the bound for a decision that starts waiting elsewhere


@pytest.fixture
def look_elsewhere(qtbot: QtBot) -> Callable[[], QWidget]:
    """Makes another application's window the active one: the person looks away."""
    other = QWidget()
    other.setWindowTitle("Another application")
    qtbot.addWidget(other)

    def look() -> QWidget:
        other.show()
        other.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is other)
        return other

    return look


def _window(
    make_window: MakeWindow, home: Path, server: NotificationServer, monkeypatch: pytest.MonkeyPatch
) -> Any:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", server.address)
    return make_window(home, poll_ms=150)


def _propose(cli: CliRunner, *extra: str) -> dict[str, Any]:
    started: dict[str, Any] = cli("run", "--question", QUESTION, *extra, check=True).body
    assert started["status"] == "waiting_approval", started
    return started


def test_a_proposal_made_elsewhere_notifies_once_and_its_action_only_opens_it(
    qtbot: QtBot,
    home: Path,
    make_window: MakeWindow,
    cli: CliRunner,
    notification_server: NotificationServer,
    monkeypatch: pytest.MonkeyPatch,
    look_elsewhere: Callable[[], QWidget],
) -> None:
    server = notification_server
    window = _window(make_window, home, server, monkeypatch)
    look_elsewhere()
    assert not window.isActiveWindow()

    started = _propose(cli)
    approval = started["approvals"][0]
    qtbot.waitUntil(lambda: len(server.notifies()) >= 1, timeout=NOTIFY_WITHIN_MS)

    window.decision_notices.bus.wait_idle()
    server.barrier()
    notifies = server.notifies()
    assert len(notifies) == 1, notifies
    app_name, replaces, icon, summary, body, actions, hints, _timeout = notifies[0].body
    assert (app_name, replaces, icon) == ("BriefDesk", 0, "org.briefdesk.BriefDesk")
    assert summary == "BriefDesk: a decision waits"
    # dunst reads markup here (markup = full): the run's words arrive escaped, never as tags.
    assert "How do checkpoints &amp; &lt;leases&gt; make agent runs durable?" in body
    assert approval["tool"] in body
    assert list(actions) == ["open", "Open in BriefDesk"]  # one action, and it is not Approve
    assert not any("approve" in str(a).lower() for a in actions)
    assert hints["desktop-entry"] == ("s", "org.briefdesk.BriefDesk")
    assert hints["urgency"] == ("y", 1)

    # The person clicks it, on the server: the server's own ActionInvoked reaches the window.
    server.dunstctl("action", "0")
    qtbot.waitUntil(lambda: len(server.messages("ActionInvoked", "signal")) == 1)
    qtbot.waitUntil(
        lambda: (
            isinstance(window.prompts.dialog, ApprovalDialog) and window.prompts.dialog.isVisible()
        ),
        timeout=10_000,
    )
    assert window.prompts.dialog.approval_id == approval["id"]
    assert window.runs_panel.selected_run_id() == started["run_id"]
    # Nothing was decided by the notification.
    shown = cli("approvals", "show", approval["id"], check=True).body
    assert shown["approval"]["status"] == "pending", shown
    inbox = cli("inbox", check=True).body["inbox"]
    assert [item["id"] for item in inbox] == [approval["id"]]

    # Decided elsewhere: its notice leaves the screen.
    (invoked_id,) = [m.body[0] for m in server.messages("ActionInvoked", "signal")]
    cli("approvals", "reject", approval["id"], "--reviewer", "bob", "--reason", "no", check=True)
    qtbot.waitUntil(
        lambda: any(m.body == (invoked_id,) for m in server.messages("CloseNotification")),
        timeout=10_000,
    )
    assert window.decision_notices.bus.shown() == []


def test_with_the_setting_off_nothing_is_sent(
    qtbot: QtBot,
    home: Path,
    make_window: MakeWindow,
    cli: CliRunner,
    notification_server: NotificationServer,
    monkeypatch: pytest.MonkeyPatch,
    look_elsewhere: Callable[[], QWidget],
) -> None:
    server = notification_server
    cli("settings", "set", "ui.notifications", "false", check=True)
    window = _window(make_window, home, server, monkeypatch)
    qtbot.waitUntil(lambda: window.context.settings.get("ui.notifications") is False)
    look_elsewhere()

    started = _propose(cli)
    key = f"approval:{started['approvals'][0]['id']}"
    qtbot.waitUntil(lambda: key in window.decision_notices.items, timeout=10_000)
    window.decision_notices.bus.wait_idle()
    server.barrier()
    assert server.notifies() == []


def test_a_window_in_use_is_not_interrupted(
    qtbot: QtBot,
    home: Path,
    make_window: MakeWindow,
    cli: CliRunner,
    notification_server: NotificationServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = notification_server
    window = _window(make_window, home, server, monkeypatch)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)

    started = _propose(cli)
    key = f"approval:{started['approvals'][0]['id']}"
    qtbot.waitUntil(lambda: key in window.decision_notices.items, timeout=10_000)
    window.decision_notices.bus.wait_idle()
    server.barrier()
    assert server.notifies() == []


def test_a_proposal_near_its_expiry_is_recalled_once_then_withdrawn(
    qtbot: QtBot,
    home: Path,
    make_window: MakeWindow,
    cli: CliRunner,
    notification_server: NotificationServer,
    monkeypatch: pytest.MonkeyPatch,
    look_elsewhere: Callable[[], QWidget],
) -> None:
    server = notification_server
    window = _window(make_window, home, server, monkeypatch)
    look_elsewhere()
    ttl_s = 8
    started = _propose(cli, "--approval-ttl", str(ttl_s))
    approval = started["approvals"][0]
    qtbot.waitUntil(lambda: len(server.notifies()) >= 1, timeout=NOTIFY_WITHIN_MS)
    first = server.notifies()[0]
    qtbot.waitUntil(lambda: len(server.notifies()) >= 2, timeout=(ttl_s + 5) * 1000)
    reminder = server.notifies()[1]
    _app, replaces, _icon, summary, body, actions, hints, _timeout = reminder.body
    # It replaces the first notice (one notice per proposal), urgent now, still only "open".
    replies = [m for m in server.seen if m.kind == "method_return"]
    assert replaces != 0 and any(r.body == (replaces,) for r in replies), replies
    assert summary == "BriefDesk: a decision expires soon"
    assert approval["tool"] in body
    assert list(actions) == ["open", "Open in BriefDesk"]
    assert hints["urgency"] == ("y", 2)
    assert first.body[1] == 0
    # Expired: the notice goes (CloseNotification for its id), and no second reminder.
    qtbot.waitUntil(
        lambda: any(m.body == (replaces,) for m in server.messages("CloseNotification")),
        timeout=10_000,
    )
    window.decision_notices.bus.wait_idle()
    server.barrier()
    assert len(server.notifies()) == 2


def test_the_reminder_is_due_when_a_tenth_of_the_time_is_left() -> None:
    item: Any = {
        "created_at": "2026-01-01T10:00:00Z",
        "expires_at": "2026-01-01T11:00:00Z",
    }
    due = remind_at(item)
    assert due is not None and due.isoformat() == "2026-01-01T10:54:00+00:00"
    assert REMINDER_SHARE == 0.1
    assert remind_at({**item, "expires_at": None}) is None  # a question never expires


def test_a_question_waiting_elsewhere_notifies_and_opens_its_dialog(
    qtbot: QtBot,
    home: Path,
    make_window: MakeWindow,
    cli: CliRunner,
    notification_server: NotificationServer,
    monkeypatch: pytest.MonkeyPatch,
    look_elsewhere: Callable[[], QWidget],
    tmp_path: Path,
) -> None:
    server = notification_server
    script = tmp_path / "ask.json"
    asked = "Who reads the <brief>?"
    script.write_text(json.dumps([{"call": "ask_question", "args": {"question": asked}}]))
    window = _window(make_window, home, server, monkeypatch)
    look_elsewhere()
    started = cli("run", "--question", QUESTION, "--model", f"scripted:{script}", check=True).body
    assert started["status"] == "waiting_input", started
    qtbot.waitUntil(lambda: len(server.notifies()) >= 1, timeout=NOTIFY_WITHIN_MS)
    _app, _replaces, _icon, summary, body, actions, _hints, _timeout = server.notifies()[0].body
    assert summary == "BriefDesk: a question waits"
    assert "Who reads the &lt;brief&gt;?" in body and "ask_question" in body
    assert list(actions) == ["open", "Open in BriefDesk"]

    server.dunstctl("action", "0")
    qtbot.waitUntil(
        lambda: (
            isinstance(window.prompts.dialog, QuestionDialog) and window.prompts.dialog.isVisible()
        ),
        timeout=10_000,
    )
    assert window.prompts.dialog.run_id == started["run_id"]
    runs = cli("runs", check=True).body["runs"]
    assert [r["status"] for r in runs] == ["waiting_input"]  # nothing answered for the person


def test_without_a_notification_server_the_window_goes_on_and_says_so_once(
    qtbot: QtBot,
    home: Path,
    make_window: MakeWindow,
    cli: CliRunner,
    monkeypatch: pytest.MonkeyPatch,
    look_elsewhere: Callable[[], QWidget],
    tmp_path: Path,
    caplog: Any,
) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path / 'no-bus'}")
    window = make_window(home, poll_ms=150)
    look_elsewhere()
    notices = window.decision_notices
    with caplog.at_level(logging.INFO, logger="desktop.notifications.bus"):
        for _ in range(2):
            started = _propose(cli)
            key = f"approval:{started['approvals'][0]['id']}"
            qtbot.waitUntil(lambda: key in notices.items, timeout=10_000)  # noqa: B023
            notices.bus.wait_idle()
    assert notices.bus.available is False
    assert notices.handles_alerts() is False  # the tray (where there is one) tells instead
    said = [r for r in caplog.records if "not available" in r.getMessage()]
    assert len(said) == 1, said
    assert len(notices.items) == 2  # both proposals read, nothing raised on the way
