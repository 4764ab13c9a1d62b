"""A real window on a real X server (Xvfb, started here): the app paints, runs the demo to
waiting_approval, saves `window.grab()` as a PNG and quits. Under CI=true a missing Xvfb fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tests.desktop.test_app_helpers import run_app
from tests.support.ci import in_ci
from tests.support.waiting import within
from tests.support.xscreen import XVFB_OPTIONS, free_display

pytestmark = pytest.mark.xvfb


@pytest.fixture
def xvfb_display() -> Iterator[str]:
    binary = shutil.which("Xvfb")
    if binary is None:
        message = "Xvfb is not installed (Debian: apt-get install xvfb xauth)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    number = free_display()
    server = subprocess.Popen(
        [binary, f":{number}", "-screen", "0", "1600x1000x24", *XVFB_OPTIONS],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    socket = Path(f"/tmp/.X11-unix/X{number}")
    within(lambda: socket.exists() or server.poll() is not None, timeout=15, interval=0.05)
    if not socket.exists():
        server.kill()
        pytest.fail(
            "Xvfb did not start: " + (server.stderr.read().decode()[-500:] if server.stderr else "")
        )
    try:
        yield f":{number}"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def test_real_window_saves_a_screenshot_after_a_demo_run(
    tmp_path: Path, home: Path, xvfb_display: str
) -> None:
    shot = tmp_path / "main-window.png"
    result = run_app(
        home,
        tmp_path,
        timeout=120,
        DISPLAY=xvfb_display,
        QT_QPA_PLATFORM="xcb",
        BRIEFDESK_SCREENSHOT=str(shot),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"SCREENSHOT {shot} waiting_approval" in result.stdout
    assert shot.exists()
    image = QImage(str(shot))
    assert not image.isNull()
    assert (image.width(), image.height()) == (1440, 880), "the default window size on a big screen"
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)
    }
    assert len(colours) > 40, "the screenshot is blank"
    if os.environ.get("BRIEFDESK_KEEP_SCREENSHOT"):
        shutil.copyfile(shot, os.environ["BRIEFDESK_KEEP_SCREENSHOT"])
