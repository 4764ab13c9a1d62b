"""Runs started by briefdesk-cli in another process appear in the runs panel and update live;
selecting one shows its timeline; F5 refreshes at once."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.desktop.test_app_helpers import DEMO_QUESTION, fixture_make_window  # noqa: F401  (registers the `make_window` fixture)
from tests.support.cli import CliRunner
from tests.support.desktop import MakeWindow
from tests.support.waiting import bridge_caught_up


def test_cli_runs_appear_and_update_live(
    qtbot: QtBot, home: Path, make_window: MakeWindow, cli: CliRunner
) -> None:
    window = make_window(home, poll_ms=150)
    assert window.runs_panel.model.rowCount() == 0
    first = cli("run", "--question", DEMO_QUESTION, check=True).body
    qtbot.waitUntil(
        lambda: window.runs_panel.model.run(first["run_id"]) is not None, timeout=10_000
    )
    assert window.runs_panel.model.run(first["run_id"])["status"] == "waiting_approval"
    # The newest run is selected on a fresh window; its timeline loads.
    qtbot.waitUntil(lambda: window.runs_panel.selected_run_id() == first["run_id"])
    qtbot.waitUntil(lambda: window.timeline.model.rowCount() >= 20)
    qtbot.waitUntil(lambda: window.approvals_label.text() == "1 pending approval")
    rows_before = window.timeline.model.rowCount()
    # Decide and resume from another process: the status and the timeline follow live.
    approval_id = first["approvals"][0]["id"]
    cli("approvals", "approve", approval_id, "--reviewer", "eve", check=True)
    cli("resume", first["run_id"], check=True)
    qtbot.waitUntil(
        lambda: window.runs_panel.model.run(first["run_id"])["status"] == "succeeded",
        timeout=10_000,
    )

    def kinds() -> list[str]:
        model = window.timeline.model
        return [model.event_at(r)["kind"] for r in range(model.rowCount())]

    # The CLI's watcher confirms the write after the run finished: wait for the whole story.
    qtbot.waitUntil(lambda: "artifact_confirmed" in kinds(), timeout=10_000)
    seen = kinds()
    assert len(seen) > rows_before
    assert seen.count("run_started") == 1 and "run_resumed" in seen
    assert seen.index("run_finished") < seen.index("artifact_confirmed")
    assert seen.count("artifact_confirmed") == 1  # the app's watcher and the CLI's count once
    seqs = [
        window.timeline.model.event_at(r)["seq"] for r in range(window.timeline.model.rowCount())
    ]
    assert seqs == sorted(set(seqs)), "no event twice, none out of order"
    assert window.approvals_label.text() == "0 pending approvals"
    # A second CLI run appears at the top without stealing the selection.
    second = cli("run", "--question", "What is an idempotency key?", check=True).body
    qtbot.waitUntil(lambda: window.runs_panel.model.row_of(second["run_id"]) == 0, timeout=10_000)
    assert window.runs_panel.selected_run_id() == first["run_id"]
    window.select_run(second["run_id"])
    qtbot.waitUntil(
        lambda: (
            window.timeline.model.run_id == second["run_id"]
            and window.timeline.model.rowCount() > 5
        )
    )
    assert {
        window.timeline.model.event_at(r)["run_id"] for r in range(window.timeline.model.rowCount())
    } == {second["run_id"]}


def test_f5_refreshes_without_waiting_for_the_timer(
    qtbot: QtBot, home: Path, make_window: MakeWindow, cli: CliRunner
) -> None:
    window = make_window(home, poll_ms=60_000)  # the timer will not fire during this test
    bridge_caught_up(qtbot, window.bridge)  # the start-up reads have all answered
    run = cli("run", "--question", DEMO_QUESTION, check=True).body
    # Twice: a refresh set off while the first no-op ran (a commit heard, a file seen) would
    # be queued before the second, and shown by the time it answers.
    bridge_caught_up(qtbot, window.bridge)
    bridge_caught_up(qtbot, window.bridge)
    assert window.runs_panel.model.run(run["run_id"]) is None
    window.refresh_action.trigger()
    qtbot.waitUntil(lambda: window.runs_panel.model.run(run["run_id"]) is not None, timeout=5000)
