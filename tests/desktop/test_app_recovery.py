"""Recovery and demos: the Demo menu really SIGKILLs the app (a real subprocess), the next
start shows the interrupted run in a banner whose Resume continues it without repeating a side
effect; the compromised model's attacks show up as blocks; a running run stops from the window."""

from __future__ import annotations

import signal
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from tests.desktop.test_app_helpers import (
    FakeOpenAI,
    close_dialogs,
    fixture_make_window,  # noqa: F401  (registers the `make_window` fixture)
    run_app,
    tool_call_message,
    wait_for_run,
)
from tests.support.desktop import MakeWindow


def only_run(home: Path) -> dict[str, Any]:
    ws = Workspace(home)
    try:
        runs = ws.list_runs()
        assert len(runs) == 1
        return runs[0]
    finally:
        ws.close()


def executions(home: Path, run_id: str) -> Counter[str]:
    """How many times each call really ran (tool_result with executed: true), per call id."""
    ws = Workspace(home)
    try:
        return Counter(
            e["data"]["call_id"]
            for e in ws.timeline(run_id)
            if e["kind"] == "tool_result" and e["data"].get("executed")
        )
    finally:
        ws.close()


def kinds_in(window: Any) -> list[str]:
    model = window.timeline.model
    return [model.event_at(r)["kind"] for r in range(model.rowCount())]


def test_demo_menu_has_the_three_demos(qtbot: QtBot, home: Path, make_window: MakeWindow) -> None:
    window = make_window(home)
    demo = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Demo")
    texts = [a.text() for a in demo.actions() if a.text()]
    assert texts == [
        "Crash at the next tool call",
        "Crash after the write, before confirmation",
        "Run with a compromised model",
    ]


def test_crash_at_next_tool_kills_the_app_and_the_banner_resumes_it(
    qtbot: QtBot, home: Path, tmp_path: Path, make_window: MakeWindow
) -> None:
    result = run_app(home, tmp_path, BRIEFDESK_DEMO="crash_next_tool")
    assert result.returncode == -signal.SIGKILL, result.stderr[-2000:]
    crashed = only_run(home)
    assert crashed["status"] == "interrupted"
    assert executions(home, crashed["run_id"]) == Counter(), "killed before the first tool ran"

    window = make_window(home)
    qtbot.waitUntil(lambda: window.banners.banner("interrupted") is not None)
    banner = window.banners.banner("interrupted")
    assert "interrupted" in banner.text and crashed["question"][:40] in banner.text
    qtbot.mouseClick(banner.buttons["Resume"], Qt.MouseButton.LeftButton)
    run = wait_for_run(qtbot, window, "waiting_approval")
    close_dialogs(window)
    assert run["run_id"] == crashed["run_id"]
    qtbot.waitUntil(lambda: "approval_requested" in kinds_in(window))
    assert {"run_interrupted", "run_resumed"} <= set(kinds_in(window))
    assert window.banners.banner("interrupted") is None
    counts = executions(home, run["run_id"])
    assert counts and set(counts.values()) == {1}, "every call ran exactly once"


def test_crash_after_write_is_reconciled_without_writing_again(
    qtbot: QtBot, home: Path, tmp_path: Path, make_window: MakeWindow
) -> None:
    result = run_app(home, tmp_path, BRIEFDESK_DEMO="crash_after_write")
    assert result.returncode == -signal.SIGKILL, result.stderr[-2000:]
    crashed = only_run(home)
    assert crashed["status"] == "interrupted"
    briefs = list((home / "artifacts" / "briefs").glob("*.md"))
    assert len(briefs) == 1, "the brief was written and synced before the kill"
    written = briefs[0].read_bytes()
    modified = briefs[0].stat().st_mtime_ns

    window = make_window(home)
    qtbot.waitUntil(lambda: window.banners.banner("interrupted") is not None)
    window.banners.banner("interrupted").buttons["Resume"].click()
    wait_for_run(qtbot, window, "succeeded")
    qtbot.waitUntil(lambda: "run_finished" in kinds_in(window))
    assert {"outcome_unknown", "reconciled"} <= set(kinds_in(window))
    assert briefs[0].read_bytes() == written and briefs[0].stat().st_mtime_ns == modified
    counts = executions(home, crashed["run_id"])
    assert set(counts.values()) == {1}


def test_compromised_model_attacks_appear_as_blocks(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    window = make_window(home)
    window.compromised_action.trigger()
    run = wait_for_run(qtbot, window, ("succeeded", "failed", "cancelled", "waiting_approval"))
    close_dialogs(window)
    assert run["model"].startswith("scripted:") and run["model"].endswith("compromised.json")
    qtbot.waitUntil(lambda: kinds_in(window).count("blocked") >= 6)
    for category, button in window.timeline.kind_buttons.items():
        button.setChecked(category == "block")
    shown = window.timeline.proxy.rowCount()
    assert shown == kinds_in(window).count("blocked") + kinds_in(window).count(
        "artifact_unexpected"
    )
    assert not (home.parent / ".ssh").exists()


def test_a_running_run_stops_from_the_window(
    qtbot: QtBot, home: Path, make_window: MakeWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", "sk-test-fake-key-for-local-server")
    with FakeOpenAI([tool_call_message("search_corpus", {"query": "checkpoints"})]) as server:
        ws = Workspace(home)
        ws.set_setting("openai.base_url", server.base_url)
        ws.close()
        window = make_window(home)
        window.run_form.model.setCurrentIndex(window.run_form.model.findData("openai"))
        window.run_question()
        qtbot.waitUntil(server.arrived.is_set, timeout=30_000)  # the GUI loop keeps turning
        qtbot.waitUntil(
            lambda: (
                window.selected_run() is not None and window.selected_run()["status"] == "running"
            )
        )
        assert window.run_form.stop_button.isEnabled()
        qtbot.mouseClick(window.run_form.stop_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "Stopping" in window.statusBar().currentMessage())
        server.release()
        run = wait_for_run(qtbot, window, "cancelled")
    assert executions(home, run["run_id"]) == Counter(), "stopped at the boundary: no tool ran"
    assert only_run(home)["status"] == "cancelled"
