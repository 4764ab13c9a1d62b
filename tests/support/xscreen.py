"""A real X screen for tests that drive the app as a person does: Xvfb with a window manager
(openbox), real X input through xdotool, and screenshots of the whole screen.

Xvfb's `-fbdir` keeps its framebuffer in a file in XWD format; `screenshot()` reads that file,
so a picture shows exactly what the X server shows (window frames and all), with no extra tool.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.ci import in_ci
from tests.support.waiting import wait_until

PROGRAMS = {"Xvfb": "xvfb", "openbox": "openbox", "xdotool": "xdotool"}
# Every test's Xvfb: local clients only, and -noreset, without which the server resets when its
# last client leaves: an xdotool that asks before openbox has connected made openbox fail to
# open the display (a CI failure).
XVFB_OPTIONS = ("-nolisten", "tcp", "-noreset")


def free_display() -> int:
    # From a number of this pytest worker's own: two workers looking at once would both find
    # the same first free display, and the second Xvfb would die with the first one's socket
    # in place (its openbox then meets the first one's and exits).
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    first = 90 + 50 * (int(worker) if worker.isdigit() else 0)
    for number in range(first, first + 200):
        if (
            not Path(f"/tmp/.X{number}-lock").exists()
            and not Path(f"/tmp/.X11-unix/X{number}").exists()
        ):
            return number
    raise RuntimeError("no free X display number")


@dataclass
class XScreen:
    display: str
    fbdir: Path
    size: tuple[int, int]

    def env(self) -> dict[str, str]:
        return {"DISPLAY": self.display, "QT_QPA_PLATFORM": "xcb"}

    def xdotool(self, *args: str, timeout: float = 30) -> str:
        env = {**os.environ, "DISPLAY": self.display}
        done = subprocess.run(
            ["xdotool", *args], capture_output=True, text=True, env=env, timeout=timeout
        )
        if done.returncode != 0:
            raise AssertionError(f"xdotool {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def wait_window(self, name: str, timeout: float = 60) -> str:
        """The id of a visible window whose title matches `name` (a regex), once it shows."""
        env = {**os.environ, "DISPLAY": self.display}

        def found() -> list[str]:
            return subprocess.run(
                ["xdotool", "search", "--onlyvisible", "--name", name],
                capture_output=True,
                text=True,
                env=env,
                timeout=10,
            ).stdout.split()

        windows = wait_until(
            found,
            timeout=timeout,
            interval=0.1,
            message=f"no window named {name!r} within {timeout} s",
        )
        return windows[-1]

    def window_name(self, window: str) -> str:
        return self.xdotool("getwindowname", window)

    def active_window(self) -> str:
        return self.xdotool("getactivewindow")

    def geometry(self, window: str) -> tuple[int, int, int, int]:
        """x, y, width, height of `window` on the screen."""
        values = dict(
            line.split("=", 1)
            for line in self.xdotool("getwindowgeometry", "--shell", window).splitlines()
        )
        return int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"])

    def screenshot(self, path: Path) -> Path:
        """The whole screen as a PNG (read from Xvfb's XWD framebuffer file)."""
        from PySide6.QtGui import QImage

        data = (self.fbdir / "Xvfb_screen0").read_bytes()
        header = struct.unpack(">25I", data[:100])
        header_size, width, height = header[0], header[4], header[5]
        bits_per_pixel, bytes_per_line, ncolors = header[11], header[12], header[19]
        assert bits_per_pixel == 32, "Xvfb was started with depth 24 (32 bits per pixel)"
        start = header_size + ncolors * 12
        pixels = data[start : start + bytes_per_line * height]
        image = QImage(pixels, width, height, bytes_per_line, QImage.Format.Format_RGB32).copy()
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(str(path))
        return path


def _need_programs() -> None:
    missing = [pkg for prog, pkg in PROGRAMS.items() if shutil.which(prog) is None]
    if missing:
        message = f"missing Debian packages: {' '.join(missing)}"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)


def _wait_for_window_manager(screen: XScreen, wm: subprocess.Popen[bytes]) -> None:
    """Until openbox manages the screen: before it advertises _NET_ACTIVE_WINDOW, xdotool
    refuses to activate a window ("claims not to support"), which once failed a CI run."""
    env = {**os.environ, "DISPLAY": screen.display}

    def managed() -> bool:
        asked = subprocess.run(
            ["xdotool", "getactivewindow"], capture_output=True, text=True, env=env, timeout=10
        )
        if "claims not to support" not in asked.stderr:
            return True
        if wm.poll() is not None:
            raise AssertionError("openbox exited before it managed the screen")
        return False

    wait_until(
        managed, timeout=20, interval=0.05, message="openbox did not start managing the screen"
    )


class _ScreenLost(AssertionError):
    """Xvfb or openbox died while starting (another server took the display meanwhile)."""


def _start_screen(
    tmp: Path, size: tuple[int, int], procs: list[subprocess.Popen[bytes]]
) -> XScreen:
    number = free_display()
    fbdir = tmp / "xfb"
    fbdir.mkdir(parents=True, exist_ok=True)
    server = subprocess.Popen(
        [
            "Xvfb",
            f":{number}",
            "-screen",
            "0",
            f"{size[0]}x{size[1]}x24",
            *XVFB_OPTIONS,
            "-fbdir",
            str(fbdir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    procs.append(server)
    socket = Path(f"/tmp/.X11-unix/X{number}")
    wait_until(
        lambda: socket.exists() or server.poll() is not None,
        timeout=20,
        interval=0.05,
        message="Xvfb did not start",
    )
    if not socket.exists() or server.poll() is not None:
        raise _ScreenLost(f"Xvfb did not start (it exited with {server.returncode})")
    screen = XScreen(f":{number}", fbdir, size)
    wm_log = tmp / f"openbox-{number}.log"
    with wm_log.open("wb") as log:
        wm = subprocess.Popen(
            ["openbox", "--sm-disable"],
            env={**os.environ, "DISPLAY": screen.display},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    procs.append(wm)
    try:
        _wait_for_window_manager(screen, wm)
    except AssertionError as exc:
        said = wm_log.read_text(errors="replace").strip()[-500:]
        raise _ScreenLost(f"{exc} on {screen.display}: {said or 'it printed nothing'}") from None
    return screen


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in reversed(procs):  # openbox first, then its server
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    procs.clear()


@contextmanager
def x_screen(tmp: Path, size: tuple[int, int] = (1024, 768)) -> Iterator[XScreen]:
    """Xvfb (with its framebuffer in a file) and openbox on a free display, stopped after.

    A display found free can be taken by another test's server before ours binds it (the
    servers of other workers, or one that picks its own number): that start is given up and
    tried again on another display, at most three times."""
    _need_programs()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for attempt in range(3):
            try:
                screen = _start_screen(tmp, size, procs)
                break
            except _ScreenLost:
                _stop(procs)
                if attempt == 2:
                    raise
        yield screen
    finally:
        _stop(procs)
