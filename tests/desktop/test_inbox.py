"""Issue 26 item 2, the inbox in the window: every decision a person owes, soonest expiry
first; keyboard triage (move, open, reject with a reason; no approve key); live from other
processes with a banner whose Open opens the dialog; a run decided elsewhere continues here
when the person asks, and the runs list never says "Needs approval" with nothing pending.

Real windows offscreen on a temp home, the offline demo model; the other process is a real
`briefdesk-cli` subprocess."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QShortcut
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from desktop.models.runs_model import BADGE_ROLE
from desktop.widgets.approval_buttons import APPROVE_KEYS
from desktop.widgets.approval_dialog import ApprovalDialog
from desktop.widgets.inbox.live import BANNER, READY_BANNER
from desktop.widgets.main_window import MainWindow
from desktop.widgets.question_dialog import QuestionDialog
from tests.desktop.test_app_helpers import (  # noqa: F401  (registers the `make_window` fixture)
    DEMO_QUESTION,
    fixture_make_window,
)
from tests.support.cli import CliRunner
from tests.support.desktop import MakeWindow

REVIEWER = "rhea"


def _proposals(home: Path, ttls: list[int]) -> list[dict[str, Any]]:
    """One run per TTL, each stopped at its save_brief proposal (in this process, before any
    window opens: the window reads them at start)."""
    ws = Workspace(home)
    try:
        ws.set_setting("reviewer", REVIEWER)
        runs = [
            ws.start_run(DEMO_QUESTION, artifacts=home / f"artifacts-{i}", approval_ttl=ttl)
            for i, ttl in enumerate(ttls)
        ]
    finally:
        ws.close()
    assert all(r["status"] == "waiting_approval" for r in runs), runs
    return [r["approvals"][0] for r in runs]


def _inbox_ids(window: MainWindow) -> list[str]:
    return [item["id"] for item in window.inbox_panel.model.items()]


def _stored(window: MainWindow, qtbot: QtBot, approval_id: str) -> dict[str, Any]:
    """The approval as the database has it, read through the window's own bridge: the read
    runs after every job the keys above submitted (one thread, in order)."""
    got: list[dict[str, Any]] = []
    window.bridge.submit(lambda ws: ws.get_approval(approval_id), on_done=got.append)
    qtbot.waitUntil(lambda: bool(got), timeout=10_000)
    return got[0]


def test_the_inbox_lists_two_runs_proposals_soonest_expiry_first(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    later, sooner = _proposals(home, [7200, 600])
    window = make_window(home)
    qtbot.waitUntil(lambda: len(_inbox_ids(window)) == 2, timeout=10_000)
    assert _inbox_ids(window) == [sooner["id"], later["id"]]
    assert window.centre_tabs.tabText(window.centre_tabs.inbox_tab) == "Inbox (2)"
    model = window.inbox_panel.model
    row = [model.index(0, c).data() for c in range(model.columnCount())]
    assert row[0] == "Approval" and row[1] == "save_brief"
    folder = window.context.run(sooner["run_id"])["artifacts"]
    assert sooner["target"].startswith(folder + "/")
    assert row[2] == sooner["target"][len(folder) + 1 :]  # in its run's folder: as the banner
    assert row[2].startswith("briefs/") and row[3] == DEMO_QUESTION
    assert row[5].endswith(" s") and "min" in row[5], row[5]  # about ten minutes left
    assert model.index(0, 2).data(Qt.ItemDataRole.ToolTipRole) == sooner["target"]  # whole


def test_down_then_r_rejects_with_a_reason_and_records_the_reviewer(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    first, second = _proposals(home, [600, 7200])
    window = make_window(home)
    qtbot.waitUntil(lambda: len(_inbox_ids(window)) == 2, timeout=10_000)
    qtbot.waitUntil(lambda: window.context.settings.get("reviewer") == REVIEWER)
    window.inbox_action.trigger()  # Review ▸ Inbox
    table = window.inbox_panel.table
    assert window.centre_tabs.currentWidget() is window.inbox_panel
    qtbot.keyClick(table, Qt.Key.Key_Down)
    qtbot.keyClick(table, Qt.Key.Key_R)
    dialog = window.inbox.reject_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.item["id"] == second["id"]
    assert not dialog.reject_button.isEnabled(), "no reason, no rejection"
    qtbot.keyClicks(dialog.reason_edit, "   ")
    assert not dialog.reject_button.isEnabled(), "blanks are no reason"
    qtbot.keyClicks(dialog.reason_edit, "the brief cites nothing")
    qtbot.mouseClick(dialog.reject_button, Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: _inbox_ids(window) == [first["id"]], timeout=10_000)
    stored = _stored(window, qtbot, second["id"])
    assert (stored["status"], stored["reviewer"], stored["decision_reason"]) == (
        "rejected",
        REVIEWER,
        "the brief cites nothing",
    )
    assert _stored(window, qtbot, first["id"])["status"] == "pending"
    assert window.centre_tabs.tabText(window.centre_tabs.inbox_tab) == "Inbox (1)"


def test_enter_opens_the_full_dialog_and_the_inbox_has_no_approve_key(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    (proposal,) = _proposals(home, [600])
    window = make_window(home)
    qtbot.waitUntil(lambda: _inbox_ids(window) == [proposal["id"]], timeout=10_000)
    window.centre_tabs.show_inbox()
    table = window.inbox_panel.table
    qtbot.keyClick(table, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: isinstance(window.prompts.dialog, ApprovalDialog), timeout=5000)
    dialog = window.prompts.dialog
    assert isinstance(dialog, ApprovalDialog) and dialog.approval_id == proposal["id"]
    assert dialog.isVisible()
    dialog.close()

    # Nothing in the inbox approves: no button, action or shortcut of its own, and the keys a
    # hand might try there leave the proposal pending.
    panel = window.inbox_panel
    assert not panel.findChildren(QAction) and not panel.findChildren(QShortcut)
    assert all("pprove" not in b.text() for b in (panel.open_button, panel.reject_button))
    table.setFocus()
    for key in (Qt.Key.Key_A, Qt.Key.Key_Y, Qt.Key.Key_Space):
        qtbot.keyClick(table, key)
    qtbot.keyClick(
        table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert APPROVE_KEYS == "Ctrl+Shift+A"  # the dialog's key: here it only brings a dialog up
    assert _stored(window, qtbot, proposal["id"])["status"] == "pending"


def test_a_proposal_from_a_cli_process_shows_live_with_a_banner_that_opens_its_dialog(
    qtbot: QtBot, home: Path, make_window: MakeWindow, cli: CliRunner
) -> None:
    window = make_window(home)
    assert _inbox_ids(window) == [] and window.inbox_panel.stack.currentWidget() is not None
    started = cli("run", "--question", DEMO_QUESTION, check=True).body  # another process
    approval_id = started["approvals"][0]["id"]

    qtbot.waitUntil(lambda: _inbox_ids(window) == [approval_id], timeout=10_000)
    qtbot.waitUntil(lambda: window.banners.banner(BANNER) is not None, timeout=5000)
    banner = window.banners.banner(BANNER)
    assert "From another process" in banner.text and "save_brief" in banner.text
    assert window.banners.banner("person") is None, "one banner for one decision"
    qtbot.mouseClick(banner.buttons["Open"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(window.prompts.dialog, ApprovalDialog), timeout=5000)
    assert window.prompts.dialog.approval_id == approval_id

    # Decided in yet another process: the banner and the row go, and the window offers to
    # continue the run (it never continues by itself a run it did not start).
    cli("approvals", "approve", approval_id, "--reviewer", "bob", check=True)
    qtbot.waitUntil(lambda: window.banners.banner(BANNER) is None, timeout=10_000)
    assert _inbox_ids(window) == []
    qtbot.waitUntil(lambda: window.banners.banner(READY_BANNER) is not None, timeout=10_000)
    run_id = started["run_id"]
    assert window.context.run(run_id)["status"] == "waiting_approval"
    row = window.runs_panel.model.row_of(run_id)
    assert window.runs_panel.model.index(row).data(BADGE_ROLE) == "Ready to continue"

    qtbot.mouseClick(
        window.banners.banner(READY_BANNER).buttons["Continue"], Qt.MouseButton.LeftButton
    )
    qtbot.waitUntil(
        lambda: (window.context.run(run_id) or {}).get("status") == "succeeded", timeout=30_000
    )
    assert window.banners.banner(READY_BANNER) is None


def test_the_runs_list_never_says_needs_approval_with_nothing_pending(
    qtbot: QtBot, home: Path, make_window: MakeWindow, cli: CliRunner
) -> None:
    (proposal,) = _proposals(home, [600])
    window = make_window(home)
    run_id = proposal["run_id"]
    model = window.runs_panel.model
    qtbot.waitUntil(lambda: model.row_of(run_id) >= 0)
    assert model.index(model.row_of(run_id)).data(BADGE_ROLE) == "Needs approval"

    cli("approvals", "reject", proposal["id"], "--reviewer", "bob", "--reason", "no", check=True)
    qtbot.waitUntil(
        lambda: model.index(model.row_of(run_id)).data(BADGE_ROLE) == "Ready to continue",
        timeout=10_000,
    )
    window.select_run(run_id)
    assert "Needs approval" not in window.state_label.text()
    assert "Ready to continue" in window.state_label.text()
    assert window.resume_action.isEnabled()


def test_a_burst_of_events_costs_one_inbox_read(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    (proposal,) = _proposals(home, [600])
    window = make_window(home)
    keeper = window.inbox
    qtbot.waitUntil(lambda: _inbox_ids(window) == [proposal["id"]], timeout=10_000)
    qtbot.waitUntil(lambda: not keeper._inflight and not keeper._debounce.isActive())
    before = keeper.reads
    burst = [
        {"seq": 10_000 + i, "run_id": proposal["run_id"], "kind": kind, "at": "", "tool": None,
         "data": {"approval_id": proposal["id"]}}
        for i, kind in enumerate(["approval_requested", "approval_decided", "run_resumed"] * 20)
    ]  # fmt: skip
    window.bridge.events_arrived.emit(burst[:30])
    window.bridge.events_arrived.emit(burst[30:])
    qtbot.waitUntil(lambda: keeper.reads == before + 1, timeout=5000)
    _stored(window, qtbot, proposal["id"])  # a bridge round trip after it: no second read
    assert keeper.reads == before + 1 and not keeper._debounce.isActive()
    # These ids came from "another process" (the window did not start the run): the banner.
    assert window.banners.banner(BANNER) is not None


def test_a_question_waits_last_opens_its_dialog_and_cannot_be_rejected(
    qtbot: QtBot, home: Path, make_window: MakeWindow, tmp_path: Path
) -> None:
    (proposal,) = _proposals(home, [600])
    script = tmp_path / "ask.json"
    script.write_text(
        json.dumps([{"call": "ask_question", "args": {"question": "Who reads it?"}}, {"say": "ok"}])
    )
    ws = Workspace(home)
    try:
        asking = ws.start_run("Ask me first", model=f"scripted:{script}")
    finally:
        ws.close()
    assert asking["status"] == "waiting_input"
    window = make_window(home)
    qtbot.waitUntil(lambda: len(_inbox_ids(window)) == 2, timeout=10_000)
    assert _inbox_ids(window) == [proposal["id"], asking["run_id"]]  # no expiry: last
    model = window.inbox_panel.model
    assert model.index(1, 0).data() == "Question" and model.index(1, 2).data() == "Who reads it?"
    window.centre_tabs.show_inbox()
    table = window.inbox_panel.table
    qtbot.keyClick(table, Qt.Key.Key_Down)
    assert not window.inbox_panel.reject_button.isEnabled()
    qtbot.keyClick(table, Qt.Key.Key_R)
    assert window.inbox.reject_dialog is None, "a question is answered, not rejected"
    qtbot.keyClick(table, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: isinstance(window.prompts.dialog, QuestionDialog), timeout=5000)
    assert window.prompts.dialog.run_id == asking["run_id"]
