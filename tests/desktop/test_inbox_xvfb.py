"""The inbox driven as a person drives it: a real X server at laptop size (1024x700), openbox,
real keys (xdotool), the app in its own process, the proposals made by `briefdesk-cli`.

Ctrl+I shows the inbox; Enter opens the top proposal in the full approval dialog; Escape closes
it; Down then R asks for a reason, and the reason's Reject (Alt+R) rejects the second proposal.
Checked on the database; screenshots go to test-artifacts/inbox/.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.desktop.test_app_helpers import DEMO_QUESTION, REPO_ROOT
from tests.desktop.test_real_input_xvfb import app, query, wait_for
from tests.support.cli import CliRunner
from tests.support.waiting import within
from tests.support.xscreen import XScreen, x_screen

pytestmark = pytest.mark.xvfb

SHOTS = REPO_ROOT / "test-artifacts" / "inbox"


def _shown(screen: XScreen, name: str) -> list[str]:
    env = {**os.environ, "DISPLAY": screen.display}
    found = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", name],
        capture_output=True,
        text=True,
        env=env,
        timeout=10,
    )
    return found.stdout.split()


def _approval(home: Path, approval_id: str) -> tuple[object, ...]:
    rows = query(home, "select status, reviewer, decision_reason from approvals where id = ?",
                 approval_id)  # fmt: skip
    return rows[0]


def test_keyboard_triage_in_the_inbox_with_real_keys(
    tmp_path: Path, home: Path, cli: CliRunner
) -> None:
    cli("settings", "set", "reviewer", "rhea", check=True)
    later = cli("run", "--question", DEMO_QUESTION, "--approval-ttl", "7200", check=True).body
    sooner = cli("run", "--question", DEMO_QUESTION, "--approval-ttl", "600", check=True).body
    later_id, sooner_id = later["approvals"][0]["id"], sooner["approvals"][0]["id"]
    with x_screen(tmp_path, (1024, 700)) as screen, app(home, screen, tmp_path):
        main = screen.wait_window("^BriefDesk$")
        x, y, width, height = screen.geometry(main)
        assert x >= 0 and y >= 0 and x + width <= 1024 and y + height <= 700

        # Ctrl+I, Enter: the top proposal (the sooner one) opens in its full dialog. Pressed
        # again until the window has read its inbox (it opens while the bridge starts).
        def dialog_opened() -> list[str]:
            screen.xdotool("windowactivate", "--sync", main)
            screen.xdotool("key", "ctrl+i", "Return")
            return (
                within(lambda: _shown(screen, "Approve a write"), timeout=2.0, interval=0.1) or []
            )

        dialog = within(dialog_opened, timeout=60, interval=0.1)
        assert dialog, "Enter in the inbox never opened the approval dialog"
        screen.screenshot(SHOTS / "01-dialog-from-the-inbox.png")
        assert _approval(home, sooner_id)[0] == "pending", "opening decides nothing"
        screen.xdotool("windowactivate", "--sync", dialog[-1])
        screen.xdotool("key", "Escape")
        wait_for("the dialog to close", lambda: not _shown(screen, "Approve a write"), 30)

        screen.xdotool("windowactivate", "--sync", main)
        screen.xdotool("key", "ctrl+i", "Down", "r")
        asked = screen.wait_window("Reject this proposal", timeout=30)
        screen.xdotool("windowactivate", "--sync", asked)
        screen.xdotool("key", "alt+r")  # no reason yet: Reject is disabled, and no "r" is typed
        screen.xdotool("type", "--delay", "5", "cites nothing")
        screen.screenshot(SHOTS / "02-reject-with-a-reason.png")
        screen.xdotool("key", "alt+r")
        wait_for("the rejection", lambda: _approval(home, later_id)[0] == "rejected", 30)
        assert _approval(home, later_id) == ("rejected", "rhea", "cites nothing")
        assert _approval(home, sooner_id)[0] == "pending"
        # The window carried the rejected run on to its end (as Reject in the dialog does).
        wait_for(
            "the rejected run to end",
            lambda: (
                query(home, "select status from runs where run_id = ?", later["run_id"])
                == [("cancelled",)]
            ),
            60,
        )
        screen.screenshot(SHOTS / "03-inbox-after.png")
