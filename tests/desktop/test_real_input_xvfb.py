"""The app driven from outside, as a person drives it: a real X server (Xvfb) at laptop size with
a window manager (openbox), real key presses (xdotool), the app in its own process.

It runs a question, presses Ctrl+Enter again the moment the approval dialog is up (nothing may be
approved), approves with Approve's own shortcut once the read guard is over, and sees the write
confirmed once; then arms the crash demo, lets the app kill itself, starts it again and resumes.
Everything is checked on the database and the files; screenshots go to test-artifacts/.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.desktop.test_app_helpers import REPO_ROOT, app_env
from tests.support.waiting import wait_until, within
from tests.support.xscreen import XScreen, x_screen

pytestmark = pytest.mark.xvfb

SHOTS = REPO_ROOT / "test-artifacts" / "real-window"
GUARD_MS = 3000  # longer than the default 1 s, so "at once" is inside it even on a loaded machine


def query(home: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"file:{home / 'state.db'}?mode=ro", uri=True, timeout=10) as db:
        return list(db.execute(sql, args))


def wait_for(what: str, check: Callable[[], object], timeout: float = 90) -> object:
    def checked() -> object:
        try:
            return check()
        except sqlite3.OperationalError:  # the app has not made the database yet
            return None

    return wait_until(
        checked, timeout=timeout, interval=0.1, message=f"timed out waiting for {what}"
    )


@contextmanager
def app(home: Path, screen: XScreen, tmp: Path) -> Iterator[subprocess.Popen[str]]:
    env = app_env(
        **screen.env(),
        BRIEFDESK_QSETTINGS_DIR=str(tmp / "qsettings"),
        BRIEFDESK_APPROVAL_GUARD_MS=str(GUARD_MS),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "desktop.app", "--home", str(home)],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(30)


def statuses(home: Path) -> list[str]:
    return [str(s) for (s,) in query(home, "select status from runs order by created_at")]


def confirmed(home: Path, run_id: str) -> int:
    rows = query(
        home, "select count(*) from events where run_id = ? and kind = 'artifact_confirmed'", run_id
    )
    return int(rows[0][0])  # type: ignore[call-overload]


def approve_after_the_guard(screen: XScreen, home: Path, shot: Callable[[str], None]) -> str:
    dialog = screen.wait_window("Approve a write")
    # At once, as a hurried hand would: Run's shortcut, Return, even Approve's own shortcut.
    screen.xdotool("key", "ctrl+Return", "Return", "ctrl+shift+a")
    shot("dialog-at-once")
    pending = query(home, "select id, status from approvals order by created_at")
    assert pending and pending[-1][1] == "pending", f"decided inside the guard: {pending}"
    time.sleep(GUARD_MS / 1000 + 0.5)  # the guard is the behaviour under test: let it pass
    shot("dialog-ready")
    screen.xdotool("windowactivate", "--sync", dialog)
    screen.xdotool("key", "ctrl+shift+a")
    approval_id = str(pending[-1][0])
    wait_for(
        "the approval",
        lambda: (
            query(home, "select status from approvals where id = ?", approval_id)[0][0]
            in ("approved", "consumed")
        ),
    )
    return approval_id


def resume_by_keyboard(screen: XScreen, main: str, home: Path, run_id: str) -> None:
    """Ctrl+R resumes the selected run (the newest, selected on start); pressed again, as a
    person would, while the window is still loading its runs and nothing is selected yet."""
    resumed = "select count(*) from events where run_id = ? and kind = 'run_resumed'"

    def has_resumed() -> object:
        return query(home, resumed, run_id)[0][0]

    for _attempt in range(60):
        screen.xdotool("windowactivate", "--sync", main)
        screen.xdotool("key", "ctrl+r")
        if within(has_resumed, timeout=1.0, interval=0.1):
            return
    raise AssertionError("Ctrl+R never resumed the interrupted run")


def test_a_person_approves_with_real_keys_then_crashes_and_resumes(
    tmp_path: Path, home: Path
) -> None:
    with x_screen(tmp_path, (1024, 768)) as screen:

        def shot(name: str) -> None:
            screen.screenshot(SHOTS / f"{shot.n:02d}-{name}.png")  # type: ignore[attr-defined]
            shot.n += 1  # type: ignore[attr-defined]

        shot.n = 1  # type: ignore[attr-defined]
        with app(home, screen, tmp_path) as first:
            main = screen.wait_window("^BriefDesk$")
            x, y, width, height = screen.geometry(main)
            assert x >= 0 and y >= 0 and x + width <= 1024 and y + height <= 768, (
                "a first start opens inside a laptop-sized screen"
            )
            screen.xdotool("windowactivate", "--sync", main)
            shot("new-home")
            # The Question box has the focus on a new home: Ctrl+Enter runs it, twice by habit.
            screen.xdotool("key", "ctrl+Return", "ctrl+Return")
            wait_for("a run", lambda: statuses(home))
            approve_after_the_guard(screen, home, shot)
            wait_for("the run to succeed", lambda: statuses(home) == ["succeeded"])
            run_id = str(query(home, "select run_id from runs")[0][0])
            wait_for("artifact_confirmed", lambda: confirmed(home, run_id))
            shot("succeeded")
            # Quit with the keyboard; the app ends cleanly.
            screen.xdotool("windowactivate", "--sync", main)
            screen.xdotool("key", "ctrl+q")
            assert first.wait(60) == 0, first.stderr.read() if first.stderr else ""
        assert statuses(home) == ["succeeded"], "Ctrl+Enter pressed twice started one run"
        assert confirmed(home, run_id) == 1
        briefs = [p for p in (home / "artifacts").rglob("*") if p.is_file()]
        assert len(briefs) == 1

        # The crash demo: from the Demo menu, by keyboard; the app kills itself at the next tool.
        with app(home, screen, tmp_path) as second:
            main = screen.wait_window("^BriefDesk$")
            screen.xdotool("windowactivate", "--sync", main)
            screen.xdotool("key", "alt+d", "Return")  # Demo > Crash at the next tool call
            confirm = screen.wait_window("Crash")
            shot("crash-confirmation")
            screen.xdotool("windowactivate", "--sync", confirm)
            screen.xdotool("key", "alt+c")  # the confirmation's "Crash" button (its mnemonic)
            assert second.wait(120) == -9, "the app killed itself with SIGKILL"
        assert statuses(home) == ["succeeded", "running"], "its owner died mid-run"
        crashed = str(query(home, "select run_id from runs order by created_at")[1][0])

        with app(home, screen, tmp_path):
            main = screen.wait_window("^BriefDesk$")
            shot("after-the-crash")
            resume_by_keyboard(screen, main, home, crashed)
            approve_after_the_guard(screen, home, shot)
            wait_for("the resumed run", lambda: statuses(home) == ["succeeded", "succeeded"])
            wait_for("its artifact_confirmed", lambda: confirmed(home, crashed))
            shot("resumed")
        executed = query(
            home,
            "select count(*) from events where run_id = ? and kind = 'tool_result'"
            " and json_extract(data_json, '$.executed') = 1 and tool = 'save_brief'",
            crashed,
        )
        assert executed[0][0] == 1, "the resumed run wrote its brief once"
        assert confirmed(home, crashed) == 1
