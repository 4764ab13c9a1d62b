"""Issue 44 items 1 and 3 in a real window: Xvfb at 1024x700 with openbox, real keys (xdotool),
the app in its own process, decisions read from the database.

A run asked in the window opens its approval dialog by itself: it is at most three quarters of
the screen, at the main window's top right (the runs and their state stay in view), and it has
the keyboard. Return presses meant for it never reach the Question box behind (the next run
asks the very same question), Escape closes it deciding nothing. A rejection made elsewhere (the
CLI, as bob) closes the next run's dialog. Screenshots go to test-artifacts/walkthrough-44/.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.desktop.test_app_helpers import REPO_ROOT
from tests.desktop.test_real_input_xvfb import app, query, wait_for
from tests.support.cli import CliRunner
from tests.support.waiting import within
from tests.support.xscreen import XScreen, x_screen

pytestmark = pytest.mark.xvfb

SCREEN = (1024, 700)
SHOTS = REPO_ROOT / "test-artifacts" / "walkthrough-44"
DIALOG = "Approve a write"


def shown(screen: XScreen, title: str) -> list[str]:
    """The visible windows whose title matches `title` now (none is an answer too)."""
    found = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", title],
        capture_output=True,
        text=True,
        env={**os.environ, "DISPLAY": screen.display},
        timeout=10,
    )
    return found.stdout.split()


def pending(home: Path) -> list[tuple[object, ...]]:
    return query(home, "select id, run_id from approvals where status = 'pending'")


def test_the_dialog_that_opens_by_itself_takes_the_keys_and_leaves_the_window_in_view(
    tmp_path: Path, home: Path
) -> None:
    with x_screen(tmp_path, SCREEN) as screen, app(home, screen, tmp_path):
        main = screen.wait_window("^BriefDesk$")
        screen.xdotool("windowactivate", "--sync", main)
        screen.xdotool("key", "ctrl+Return")  # a new home: the Question box has the keys
        dialog = screen.wait_window(DIALOG)
        wait_for("the dialog to have the keyboard", lambda: screen.active_window() == dialog)
        screen.screenshot(SHOTS / "01-opened-by-itself.png")
        x, _y, width, height = screen.geometry(dialog)
        mx, _my, mwidth, _mheight = screen.geometry(main)
        assert width <= SCREEN[0] * 0.75 and height <= SCREEN[1] * 0.75, (width, height)
        assert x >= mx + 150 and x + width <= mx + mwidth + 2, "the runs list stays beside it"
        screen.xdotool("key", "Return", "Return", "Return")  # meant for the dialog
        screen.xdotool("key", "Escape")
        wait_for("the dialog to close", lambda: not shown(screen, DIALOG))
        [(first_id, first_run)] = pending(home)  # Escape decided nothing
        runs = "select count(*) from runs"
        for _attempt in range(30):  # Run waits out the guard the dialog started: press again
            screen.xdotool("windowactivate", "--sync", main)
            screen.xdotool("key", "ctrl+Return")  # the Question box, as before the dialog
            if within(lambda: query(home, runs)[0][0] == 2, timeout=2.0, interval=0.1):
                break
        wait_for("a second proposal", lambda: len(pending(home)) == 2)
        questions = [q for (q,) in query(home, "select question from runs")]
        assert len(questions) == 2 and questions[0] == questions[1], questions
        second = screen.wait_window(DIALOG)
        [(second_id, _run)] = [row for row in pending(home) if row[0] != first_id]
        CliRunner(home)(
            "approvals", "reject", str(second_id), "--reviewer", "bob", "--reason", "too vague"
        )
        wait_for("the decided dialog to close", lambda: second not in shown(screen, DIALOG))
        screen.screenshot(SHOTS / "02-decided-elsewhere.png")
    assert query(home, "select status from approvals where id = ?", first_id) == [("pending",)]
    assert first_run
