"""Start-up: the first paint comes before the Agents SDK, the keyring and even the Workspace
are imported, on a machine with no keyring service; and the whole app (offscreen) runs a demo
to waiting_approval there and saves a non-blank picture of itself."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtGui import QImage

from tests.desktop.test_app_helpers import run_app

NO_KEYRING = {"DBUS_SESSION_BUS_ADDRESS": "", "PYTHON_KEYRING_BACKEND": "", "XDG_RUNTIME_DIR": ""}


def distinct_colours(image: QImage, step: int = 7) -> int:
    colours = {
        image.pixel(x, y)
        for x in range(0, image.width(), step)
        for y in range(0, image.height(), step)
    }
    return len(colours)


def without_keyring(tmp_path: Path) -> dict[str, str]:
    env = dict(NO_KEYRING)
    env["HOME"] = str(tmp_path / "user")  # no keyring files of the developer either
    return env


def test_first_paint_comes_before_sdk_keyring_and_storage(tmp_path: Path, home: Path) -> None:
    result = run_app(
        home, tmp_path, timeout=60, BRIEFDESK_EXIT_AFTER_PAINT="1", **without_keyring(tmp_path)
    )
    assert result.returncode == 0, result.stderr[-2000:]
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("FIRST_PAINT "))
    report = json.loads(line.removeprefix("FIRST_PAINT "))
    assert report["agents_loaded"] is False
    assert report["keyring_loaded"] is False
    assert report["workspace_loaded"] is False
    assert report["first_paint_s"] < 5


def test_app_runs_a_demo_without_a_keyring_service_and_saves_a_screenshot(
    tmp_path: Path, home: Path
) -> None:
    shot = tmp_path / "offscreen.png"
    result = run_app(
        home, tmp_path, timeout=120, BRIEFDESK_SCREENSHOT=str(shot), **without_keyring(tmp_path)
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert f"SCREENSHOT {shot} waiting_approval" in result.stdout
    image = QImage(str(shot))
    assert not image.isNull() and image.width() >= 900 and image.height() >= 600  # fits 800x800
    assert distinct_colours(image) > 40, "the picture is blank"
    assert "Traceback" not in result.stderr


def test_console_script_entry_point_is_desktop_app_main() -> None:
    from importlib.metadata import entry_points

    scripts = {ep.name: ep.value for ep in entry_points(group="gui_scripts")}
    assert scripts.get("briefdesk") == "desktop.app:main"
    from desktop.app import main, parse_args

    assert callable(main)
    assert parse_args(["--home", "/tmp/x"]).home == "/tmp/x"
