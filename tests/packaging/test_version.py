"""One version, from the package metadata: `briefdesk-cli --version` (text and JSON) and
`briefdesk --version` print it; the GUI answers before importing Qt, with no display."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from tests.packaging.conftest import REPO

# Any import of PySide6 fails in this child: `--version` must not need Qt at all.
NO_QT = """
import sys
class NoQt:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6"):
            raise ImportError("Qt is blocked in this test")
sys.meta_path.insert(0, NoQt())
from desktop.app import main
sys.exit(main(["--version"]))
"""


def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = ""
    env["PYTHONPATH"] = str(REPO)
    return env


def test_gui_version_prints_the_metadata_version_without_qt_or_a_display() -> None:
    done = subprocess.run([sys.executable, "-c", NO_QT], capture_output=True, text=True,
                          env=child_env(), timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"briefdesk {version('briefdesk')}\n"


def test_cli_version_prints_text_and_one_json_object() -> None:
    cli = [sys.executable, "-m", "agent_core.cli"]
    text = subprocess.run([*cli, "--version"], capture_output=True, text=True, env=child_env())
    assert text.returncode == 0 and text.stdout == f"briefdesk-cli {version('briefdesk')}\n"
    as_json = subprocess.run([*cli, "--json", "--version"], capture_output=True, text=True,
                             env=child_env())  # fmt: skip
    assert as_json.returncode == 0
    assert json.loads(as_json.stdout) == {"api": 1, "version": version("briefdesk")}


def test_a_checkout_never_installed_reads_the_version_from_pyproject() -> None:
    from agent_core.home import version as module

    assert module._checkout_version() == version("briefdesk")  # this checkout is installed -e
    import agent_core

    assert agent_core.__version__ == module.version() == version("briefdesk")


def test_about_dialog_shows_the_version(qtbot: object, tmp_path: Path) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop.app import build_window, make_qsettings

    window = build_window(str(tmp_path), make_qsettings(str(tmp_path)))
    shown: list[str] = []

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        shown.append(box.text())
        box.accept()

    (about,) = [a for a in window.findChildren(QAction) if a.text() == "&About BriefDesk"]
    QTimer.singleShot(0, read_and_close)
    about.trigger()  # modal: returns once read_and_close has closed it
    window.close()
    assert f"BriefDesk {version('briefdesk')}" in shown[0]
