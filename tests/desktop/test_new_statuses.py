"""The window knows every status: a `created` run (made, never driven) is listed as not started,
never offered as a crash to recover; a proposal closed by its run's cancellation reads as
closed, not as a refusal, and can no longer be decided."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pytestqt.qtbot import QtBot

from agent_core.contract.statuses import ApprovalStatus, RunStatus
from agent_core.facade.workspace import Workspace
from desktop import theme
from desktop.widgets import approval_text
from tests.desktop.test_app_helpers import (
    DEMO_QUESTION,
    fixture_make_window,  # noqa: F401  (registers the `make_window` fixture)
)
from tests.support.desktop import MakeWindow


def test_every_run_status_has_a_label_and_a_colour() -> None:
    for status in RunStatus:
        assert status in theme.STATUS_LABELS and status in theme.STATUS_COLOURS
    assert theme.status_label("created") == "Not started"


def test_a_created_run_is_not_started_not_interrupted(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    ws = Workspace(home)
    try:
        run_id = ws.create_run(DEMO_QUESTION)  # created, not driven
        assert ws.get_run(run_id)["status"] == RunStatus.CREATED
    finally:
        ws.close()
    window = make_window(home)
    qtbot.waitUntil(lambda: window.runs_panel.model.run(run_id) is not None, timeout=10_000)
    window.select_run(run_id)
    assert window.context.interrupted_runs() == []
    assert window.banners.banner("interrupted") is None
    assert "Not started" in window.state_label.text()
    assert window.resume_action.isEnabled()  # Resume starts it


def test_a_cancelled_proposal_reads_as_closed() -> None:
    proposal = {
        "status": str(ApprovalStatus.CANCELLED),
        "reviewer": "alice",
        "decided_at": "2026-01-02T03:04:05+00:00",
        "expires_at": "2999-01-01T00:00:00+00:00",
    }
    level, text = approval_text.describe_status(proposal, datetime.now(UTC))
    assert level == "info" and "Closed" in text and "cancelled" in text
