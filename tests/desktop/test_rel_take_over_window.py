"""Issue 18, item 4 in the window: a run owned under another host name can be resumed, after a
confirmation that names its owner and since when.

The owner is real: `briefdesk-cli run` in a UTS namespace named "other-host-7", killed mid-run
(tests/reliability/test_rel_take_over.py). Proven from the outside: the run's row and timeline.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from tests.desktop.test_app_helpers import (  # noqa: F401  (registers the `make_window` fixture)
    fixture_make_window,
    wait_for_run,
)
from tests.reliability.test_rel_take_over import OTHER_HOST, crash_under_other_host, owner_row
from tests.support.desktop import MakeWindow

pytestmark = pytest.mark.slow


def _open_box(qtbot: QtBot, window: Any, run_id: str) -> QMessageBox:
    window.select_run(run_id)
    qtbot.waitUntil(lambda: window.resume_action.isEnabled(), timeout=10_000)
    window.resume_action.trigger()
    qtbot.waitUntil(lambda: getattr(window, "take_over_box", None) is not None, timeout=5_000)
    box = window.take_over_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    return box


def test_resume_of_a_run_owned_elsewhere_asks_first_then_takes_it_over(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    run_id, pid = crash_under_other_host(home)
    window = make_window(home, poll_ms=150)

    box = _open_box(qtbot, window, run_id)
    assert OTHER_HOST in box.text() and str(pid) in box.text()
    assert "since" in box.text()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert owner_row(home, run_id) == ("running", OTHER_HOST, pid)  # Cancel changed nothing

    box = _open_box(qtbot, window, run_id)
    [take] = [b for b in box.buttons() if "Take over" in b.text()]
    take.click()
    wait_for_run(qtbot, window, "waiting_approval")
    assert owner_row(home, run_id) == ("waiting_approval", None, None)
    with contextlib.closing(sqlite3.connect(home / "state.db")) as conn:
        kinds = [
            k
            for (k,) in conn.execute(
                "SELECT kind FROM events WHERE run_id = ? AND kind LIKE 'run_%' ORDER BY seq",
                (run_id,),
            )
        ]
    assert kinds == ["run_started", "run_interrupted", "run_resumed"]
