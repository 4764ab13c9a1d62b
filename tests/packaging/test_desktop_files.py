"""The desktop integration files validate and agree with each other and with the package: the
.desktop entry (desktop-file-validate), the AppStream metainfo (appstreamcli, offline), the
icons at every hicolor size, and one version from the package metadata everywhere."""

from __future__ import annotations

import configparser
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.metadata import version
from pathlib import Path

from PySide6.QtGui import QImage

from tests.packaging.conftest import REPO, require_program

PACKAGING = REPO / "packaging"
APP_ID = "org.briefdesk.BriefDesk"
DESKTOP = PACKAGING / f"{APP_ID}.desktop"
METAINFO = PACKAGING / f"{APP_ID}.metainfo.xml"


def test_desktop_entry_passes_desktop_file_validate() -> None:
    validate = require_program("desktop-file-validate", "desktop-file-utils")
    done = subprocess.run([validate, str(DESKTOP)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "error" not in done.stdout + done.stderr


def test_metainfo_passes_appstreamcli_validate_offline() -> None:
    appstreamcli = require_program("appstreamcli", "appstream")
    done = subprocess.run(
        [appstreamcli, "validate", "--no-net", str(METAINFO)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_entry_metainfo_and_icons_name_one_app_id_and_the_package_version() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]  (keys are case-sensitive)
    entry.read(DESKTOP)
    section = entry["Desktop Entry"]
    assert section["Icon"] == APP_ID and section["Exec"] == "briefdesk"
    assert section["StartupWMClass"] == "BriefDesk"
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == DESKTOP.name
    releases = root.findall("releases/release")
    assert releases[0].get("version") == version("briefdesk"), "add a <release> for this version"


def test_icons_are_rendered_at_every_hicolor_size(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, str(PACKAGING / "make_icons.py"), str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    for size in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        image = QImage(str(tmp_path / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"))
        assert (image.width(), image.height()) == (size, size)
        assert image.hasAlphaChannel()
        centre = image.pixelColor(size // 2, size // 2)
        assert centre.alpha() == 255, "the icon is drawn, not blank"
    assert (tmp_path / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
