"""Issue 44 items 1 and 3 in a real window: Xvfb with openbox, real keys (xdotool), the app in
its own process, decisions read from the database and what the window says read through AT-SPI,
once in English at 1024x700 and once in Chinese at 1280x800.

A run asked in the window opens its approval dialog by itself: it is at most three quarters of
the screen, at the main window's top right (the runs and their state stay in view), and it has
the keyboard. Return presses meant for it never reach the Question box behind (the next run
asks the very same question), Escape closes it deciding nothing. A decision made elsewhere (the
CLI, as bob: a rejection with a reason in one case, an approval in the other) closes the next
run's dialog, and the window says who decided and how, as a screen reader reads it.
Screenshots go to test-artifacts/walkthrough-44/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.desktop.test_approval_buttons_atspi import accessibility_bus, need_accessibility_parts
from tests.desktop.test_real_input_xvfb import GUARD_MS, query, wait_for
from tests.desktop.test_walkthrough_44_xvfb import (
    CHINESE,
    ENGLISH,
    LARGE,
    SHOTS,
    SMALL,
    Words,
    app,
    says,
    shown,
)
from tests.support.cli import CliRunner
from tests.support.waiting import within
from tests.support.xscreen import x_screen

pytestmark = pytest.mark.xvfb

# words: the dialog's title, the banner's opening words, then the CLI's decision and the words
# the banner says for it
CASES = [
    (
        ENGLISH,
        SMALL,
        "Approve a write",
        "Decided elsewhere",
        "reject",
        "rejected by bob: too vague",
    ),
    (CHINESE, LARGE, "批准写入", "已在别处决定", "approve", "已由 bob 批准"),
]


def pending(home: Path) -> list[tuple[object, ...]]:
    return query(home, "select id, run_id from approvals where status = 'pending'")


@pytest.mark.parametrize(
    ("words", "size", "dialog_title", "banner", "decision", "how"),
    CASES,
    ids=["en-1024", "zh-1280"],
)
def test_the_dialog_that_opens_by_itself_takes_the_keys_and_a_decision_elsewhere_is_said(
    tmp_path: Path,
    home: Path,
    words: Words,
    size: tuple[int, int],
    dialog_title: str,
    banner: str,
    decision: str,
    how: str,
) -> None:
    need_accessibility_parts()
    guard = {
        "BRIEFDESK_APPROVAL_GUARD_MS": str(GUARD_MS),
        # no Secret Service on the private bus: no keyring prompt takes the keyboard
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }
    with (
        x_screen(tmp_path, size) as screen,
        accessibility_bus(screen) as bus,
        app(screen, bus, home, tmp_path, *words.args, **guard, **words.env),
    ):
        main = screen.wait_window("^BriefDesk$")
        screen.xdotool("windowactivate", "--sync", main)
        screen.xdotool("key", "ctrl+Return")  # a new home: the Question box has the keys
        dialog = screen.wait_window(dialog_title)
        wait_for("the dialog to have the keyboard", lambda: screen.active_window() == dialog)
        screen.screenshot(SHOTS / f"01-opened-by-itself-{size[0]}-{words.code}.png")
        x, _y, width, height = screen.geometry(dialog)
        mx, _my, mwidth, _mheight = screen.geometry(main)
        assert width <= size[0] * 0.75 and height <= size[1] * 0.75, (width, height)
        assert x >= mx + 150 and x + width <= mx + mwidth + 2, "the runs list stays beside it"
        screen.xdotool("key", "Return", "Return", "Return")  # meant for the dialog
        screen.xdotool("key", "Escape")
        wait_for("the dialog to close", lambda: not shown(screen, dialog_title))
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
        second = screen.wait_window(dialog_title)
        [(second_id, _run)] = [row for row in pending(home) if row[0] != first_id]
        why = ("--reason", "too vague") if decision == "reject" else ()
        CliRunner(home)("approvals", decision, str(second_id), "--reviewer", "bob", *why)
        wait_for("the decided dialog to close", lambda: second not in shown(screen, dialog_title))
        said = says(bus, banner)  # what a screen reader reads in the window now
        screen.screenshot(SHOTS / f"02-decided-elsewhere-{size[0]}-{words.code}.png")
    assert how in said and str(questions[0]) in said, said
    assert query(home, "select status from approvals where id = ?", first_id) == [("pending",)]
    assert first_run
