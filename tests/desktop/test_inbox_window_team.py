"""The inbox across desks (team mode): a proposal that starts waiting on another desk shows in
this desk's window by LISTEN/NOTIFY (the poll timer is set to a minute), with its desk named and
a banner whose Open opens its dialog; decided on that desk, it leaves the inbox and the banner
goes. Real windows offscreen, the session's PostgreSQL server, `briefdesk-cli` as the other
desk."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.models.inbox_model import DESK
from desktop.widgets.approval_dialog import ApprovalDialog
from desktop.widgets.inbox.live import BANNER
from tests.desktop.test_app_helpers import DEMO_QUESTION, fixture_make_window  # noqa: F401  (registers the `make_window` fixture)
from tests.desktop.test_team_window_live import NO_POLL_MS, on_team_db
from tests.support.cli import CliRunner
from tests.support.desktop import MakeWindow
from tests.support.typed import present


def test_another_desks_proposal_shows_in_the_inbox_by_notify_with_its_desk(
    qtbot: QtBot,
    tmp_path: Path,
    pg_url: str,
    make_window: MakeWindow,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    desk_b = on_team_db(tmp_path / "desk-b", pg_url)
    monkeypatch.setenv("BRIEFDESK_DESK", "desk-a")
    window = make_window(on_team_db(tmp_path / "desk-a", pg_url), poll_ms=NO_POLL_MS, store=True)
    assert window.inbox_panel.count() == 0
    other = CliRunner(desk_b)
    started = other("--db", pg_url, "run", "--question", DEMO_QUESTION,
                    env={"BRIEFDESK_DESK": "desk-b"}, check=True).body  # fmt: skip
    approval_id = started["approvals"][0]["id"]

    qtbot.waitUntil(lambda: window.inbox_panel.count() == 1, timeout=10_000)
    model = window.inbox_panel.model
    assert present(model.item(0))["id"] == approval_id
    assert model.index(0, DESK).data() == "desk-b"
    qtbot.waitUntil(lambda: window.banners.banner(BANNER) is not None, timeout=5000)
    banner = window.banners.banner(BANNER)
    assert "on desk desk-b" in banner.text
    qtbot.mouseClick(banner.buttons["Open"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(window.prompts.dialog, ApprovalDialog), timeout=5000)
    window.prompts.dialog.close()

    other("--db", pg_url, "approvals", "approve", approval_id, "--reviewer", "eve",
          env={"BRIEFDESK_DESK": "desk-b"}, check=True)  # fmt: skip
    qtbot.waitUntil(lambda: window.inbox_panel.count() == 0, timeout=10_000)
    assert window.banners.banner(BANNER) is None
    assert window.centre_tabs.tabText(window.centre_tabs.inbox_tab) == "Inbox"
