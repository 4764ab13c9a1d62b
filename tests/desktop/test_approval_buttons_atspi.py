"""Issue 26 item 1 in a real window: the approval dialog's buttons, read through AT-SPI as a
screen reader reads them, keep their extents through the read guard.

At 1280x800 Close once sat at x≈980-1058 during the guard and Approve at x≈1002-1210 after it, so
a click meant for Close approved a write. Here a real X server (Xvfb + openbox) and a private
session bus with the accessibility bus (`at-spi-bus-launcher`) run ONE app process, with Qt's
accessibility on. The CLI leaves a proposal pending before the app starts; the app's banner
offers "Review approval…", which a real pointer click (xdotool, at the extents AT-SPI gives)
opens. Debian's Python then reads the dialog's push buttons (tests/support/atspi_reader.py)
during the guard and after it: no button's extents change, and no button after the guard lies
where a different button was during it. Under CI=true a missing part fails, elsewhere it skips.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from tests.desktop.test_app_helpers import DEMO_QUESTION, REPO_ROOT, app_env
from tests.support.ci import require_or_skip
from tests.support.cli import CliRunner
from tests.support.waiting import STAY_ALIVE_SOURCE
from tests.support.xscreen import XScreen, x_screen

pytestmark = pytest.mark.xvfb

SYSTEM_PYTHON = "/usr/bin/python3"  # the one with Debian's pyatspi
READER = REPO_ROOT / "tests" / "support" / "atspi_reader.py"
BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
GUARD_MS = 6000  # long enough that AT-SPI reads the dialog inside it, even on a loaded machine
SCREEN = (1280, 800)  # where the walk-through saw Approve slide under the pointer
SHOTS = REPO_ROOT / "test-artifacts" / "approval-guard-atspi"
Box = dict[str, object]


def need_accessibility_parts() -> None:
    missing = [p for p in ("dbus-run-session", BUS_LAUNCHER) if shutil.which(p) is None]
    has_pyatspi = Path(SYSTEM_PYTHON).exists() and (
        subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True).returncode == 0
    )
    if missing or not has_pyatspi:
        require_or_skip(
            f"AT-SPI test parts missing ({', '.join(missing) or 'pyatspi for ' + SYSTEM_PYTHON})"
            " (Debian: apt-get install at-spi2-core python3-pyatspi dbus)"
        )


def stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop a process started in its own session, with the children it started there."""
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


@contextmanager
def accessibility_bus(screen: XScreen) -> Iterator[dict[str, str]]:
    """A private session bus (dbus-run-session) with the accessibility bus on it; yields the
    variables that reach them."""
    runtime = Path(tempfile.mkdtemp(prefix="bd-a11y-"))  # short: unix socket paths
    runtime.chmod(0o700)
    base = {"PATH": os.environ.get("PATH", ""), "HOME": str(runtime), "DISPLAY": screen.display}
    session = subprocess.Popen(
        [
            "dbus-run-session",
            "--",
            "sh",
            "-c",
            f'echo "$DBUS_SESSION_BUS_ADDRESS"; exec {sys.executable} -c "{STAY_ALIVE_SOURCE}"',
        ],
        env={**base, "XDG_RUNTIME_DIR": str(runtime)},
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    launcher: subprocess.Popen[bytes] | None = None
    try:
        assert session.stdout is not None
        address = session.stdout.readline().decode().strip()
        assert address, "dbus-run-session printed no bus address"
        bus = {"DBUS_SESSION_BUS_ADDRESS": address, "XDG_RUNTIME_DIR": str(runtime)}
        launcher = subprocess.Popen(
            [BUS_LAUNCHER, "--launch-immediately"],
            env={**base, **bus},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        yield {**base, **bus}
    finally:
        for proc in (launcher, session):
            if proc is not None:
                stop_group(proc)
        shutil.rmtree(runtime, ignore_errors=True)


def read(bus: dict[str, str], *args: str, timeout: float = 90) -> object:
    """What the AT-SPI reader prints (JSON), run by the system Python on the private bus."""
    done = subprocess.run(
        [SYSTEM_PYTHON, str(READER), *args, str(timeout)],
        env=bus,  # not the venv's: the system Python with its own packages
        capture_output=True,
        text=True,
        timeout=timeout + 30,
    )
    assert done.returncode == 0, f"AT-SPI reader {args}: {done.stderr.strip()[-2000:]}"
    return json.loads(done.stdout)


def overlaps(a: Box, b: Box) -> bool:
    ax, ay, aw, ah = (int(a[k]) for k in ("x", "y", "width", "height"))  # type: ignore[call-overload]
    bx, by, bw, bh = (int(b[k]) for k in ("x", "y", "width", "height"))  # type: ignore[call-overload]
    return bool(ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah)


def places(snapshot: list[Box]) -> dict[str, tuple[object, ...]]:
    return {str(b["name"]): (b["x"], b["y"], b["width"], b["height"]) for b in snapshot}


def test_the_dialogs_buttons_keep_their_extents_through_the_guard_read_by_atspi(
    tmp_path: Path, home: Path
) -> None:
    need_accessibility_parts()
    started = CliRunner(home)("run", "--question", DEMO_QUESTION, check=True).body
    assert started["status"] == "waiting_approval", started  # the proposal the window will show
    with x_screen(tmp_path, SCREEN) as screen, accessibility_bus(screen) as bus:
        env = app_env(
            **screen.env(),
            **{k: bus[k] for k in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR")},
            QT_ACCESSIBILITY="1",
            QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
            BRIEFDESK_QSETTINGS_DIR=str(tmp_path / "qsettings"),
            BRIEFDESK_APPROVAL_GUARD_MS=str(GUARD_MS),
        )
        app = subprocess.Popen(
            [sys.executable, "-m", "desktop.app", "--home", str(home)],
            env=env,
            cwd=REPO_ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            review = read(bus, "button", "Review approval…")
            assert isinstance(review, dict)
            x = int(review["x"]) + int(review["width"]) // 2
            y = int(review["y"]) + int(review["height"]) // 2
            screen.xdotool("mousemove", "--sync", str(x), str(y), "click", "1")
            seen = read(bus, "guard", "Approve a write")
            screen.screenshot(SHOTS / "after-the-guard.png")
        finally:
            if app.poll() is None:
                app.kill()
            app.wait(30)
    assert isinstance(seen, dict)
    (SHOTS / "extents.json").write_text(json.dumps(seen, indent=1))  # what AT-SPI read
    during, after = seen["during"], seen["after"]
    assert during, "AT-SPI saw the dialog during the guard"
    assert after, "AT-SPI saw the dialog after the guard"
    first = places(during[0])
    assert {"Approve", "Close", "Reject…", "Edit…", "Request changes…"} <= set(first), first
    for box in first.values():
        x, y, width, height = (int(v) for v in box)  # type: ignore[call-overload]
        assert x >= 0 and x + width <= SCREEN[0] and y >= 0 and y + height <= SCREEN[1], first
    assert all(not b["enabled"] for b in during[-1] if b["name"] == "Approve")
    assert all(b["enabled"] for b in after[-1] if b["name"] in ("Approve", "Close"))
    for snapshot in [*during, *after]:
        assert places(snapshot) == first, "a button moved or resized during or after the guard"
    for now in after[-1]:
        for before in during[-1]:
            assert now["name"] == before["name"] or not overlaps(now, before), (
                f"{now['name']} after the guard lies where {before['name']} was during it"
            )
