"""Usage and budgets in the window: Run details says what a run's model calls used and how
much of each budget is gone; the runs list shows requests and tokens per run and the home's
sum under it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from agent_core.contract.views import RunBudgetsView, RunView, UsageView
from desktop.models.runs_model import USAGE_ROLE
from desktop.widgets.run_details import RunSummary
from desktop.widgets.runs_panel import RunsPanel
from tests.support.desktop import open_workspace, started_bridge

QUESTION = "How do checkpoints make agent runs durable?"
SIDE_TAB_WIDTH = 300  # what the Details tab gets of a 1024x700 window


def _usage(requests: int, sent: int, got: int, cost: float | None) -> UsageView:
    return {
        "requests": requests,
        "input_tokens": sent,
        "output_tokens": got,
        "cost": cost,
        "currency": "USD",
    }


def _run(run_id: str, usage: UsageView, model: str = "openai") -> RunView:
    return {
        "run_id": run_id,
        "thread_id": "th-1",
        "status": "succeeded",
        "question": QUESTION,
        "model": model,
        "mode": "default",
        "created_at": "2026-01-01T10:00:00+00:00",
        "updated_at": "2026-01-01T10:01:00+00:00",
        "approvals": [],
        "question_pending": None,
        "output": None,
        "error": None,
        "corpus": "/c",
        "artifacts": "/a",
        "desk": None,
        "usage": usage,
    }


def test_run_details_show_usage_and_each_budget_of_a_real_run(qtbot: QtBot, home: Path) -> None:
    with open_workspace(home) as ws:
        run = ws.start_run(QUESTION, max_turns=40)  # offline: requests, no tokens, costs 0
        state = ws.run_state(run["run_id"])
    with started_bridge(qtbot, home) as bridge:
        summary = RunSummary(bridge=bridge)
        qtbot.addWidget(summary)
        summary.show_run(run)
        shown = summary.toPlainText()
        assert f"Usage{state.turns} requests · 0 tokens · $0.00" in shown.replace("\n", "")
        qtbot.waitUntil(lambda: "Tokens" in summary.toPlainText(), timeout=10_000)
    shown = summary.toPlainText().replace("\n", "")
    assert f"Turns{state.turns} of 40" in shown
    assert f"Tool calls{state.tool_calls} of 100" in shown
    assert "Tokens0 of 500,000" in shown
    assert f"Time{state.active_s:.1f} s of 900 s" in shown


def test_run_details_read_whole_in_the_side_tab_of_a_small_screen(qtbot: QtBot) -> None:
    summary = RunSummary()
    qtbot.addWidget(summary)
    summary.resize(SIDE_TAB_WIDTH, 500)
    summary.show()
    run = _run("run-big", _usage(48, 1_234_567, 89_012, 3.456789))
    summary.show_run(run)
    budgets: RunBudgetsView = {
        "turns": {"used": 48, "limit": 50},
        "tool_calls": {"used": 97, "limit": 100},
        "tokens": {"used": 1_323_579, "limit": None},
        "seconds": {"used": 612.25, "limit": 900.0},
    }
    summary.show_budgets("run-other", budgets)  # another run's: not shown for this one
    assert "Turns" not in summary.toPlainText()
    summary.show_budgets("run-big", budgets)
    QApplication.processEvents()
    shown = summary.toPlainText().replace("\n", "")
    assert "48 requests · 1,323,579 tokens (1,234,567 in, 89,012 out) · $3.46" in shown
    assert "Tokens1,323,579 (no limit)" in shown and "Time612.2 s of 900 s" in shown
    assert summary.horizontalScrollBar().maximum() == 0, "a line wider than the tab"

    summary.show_run(_run("run-big", _usage(2, 300, 40, None)))  # no prices: no made-up cost
    assert "2 requests · 340 tokens (300 in, 40 out) · cost unknown" in summary.toPlainText()


def test_the_runs_list_shows_requests_and_tokens_and_the_home_sum(qtbot: QtBot) -> None:
    panel = RunsPanel()
    qtbot.addWidget(panel)
    remote = _run("run-2", _usage(4, 12_000, 345, 0.0123))
    offline = _run("run-1", _usage(5, 0, 0, 0.0), model="offline")
    panel.set_runs([remote, offline])
    index = panel.model.index(0)
    assert index.data(USAGE_ROLE) == "4 req · 12.3k tok"
    assert panel.model.index(1).data(USAGE_ROLE) == "5 req · 0 tok"
    tooltip = panel.model.data(index, Qt.ItemDataRole.ToolTipRole)
    assert "4 requests · 12,345 tokens" in str(tooltip)
    assert panel.total_label.text() == (
        "All runs: 9 requests · 12,345 tokens (12,000 in, 345 out) · $0.0123"
    )
    panel.set_runs([_run("run-3", _usage(1, 10, 1, None)), remote, offline])
    assert panel.total_label.text().endswith("· cost unknown")  # one unknown: the sum too
