"""Composition root: `briefdesk [--home DIR]`.

The window paints first; only then does the bridge thread open the home (SQLite) and import the
Agents SDK, so neither the SDK nor the keyring is on the path to the first frame. A few
environment variables drive the app for benchmarks, screenshots and drills (see `Automation`).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from desktop import theme
from desktop.bridge import Bridge
from desktop.context import AppContext
from desktop.widgets.main_window import MainWindow

ORGANISATION = "BriefDesk"
SCREENSHOT_ENV = "BRIEFDESK_SCREENSHOT"  # save window.grab() after a demo run stops, then quit
EXIT_AFTER_PAINT_ENV = "BRIEFDESK_EXIT_AFTER_PAINT"  # "1": report the first paint and quit;
# "warm": also report when the home is open and the SDK imported (behind the paint), then quit
DEMO_ENV = "BRIEFDESK_DEMO"  # crash_next_tool | crash_after_write | compromised | run
QSETTINGS_ENV = "BRIEFDESK_QSETTINGS_DIR"  # where window geometry is kept (tests use a temp dir)
_STARTED = time.perf_counter()


def icon_path() -> Path:
    """The app icon, found beside the code as `agent_core.config` finds its resources: needed
    before the first paint, when not even the façade may be imported yet."""
    beside = Path(__file__).resolve().parents[1]
    for folder in ("resources", "briefdesk_resources"):  # a checkout; an installed wheel
        candidate = beside / folder / "icons" / "briefdesk.png"
        if candidate.is_file():
            return candidate
    return beside / "resources" / "icons" / "briefdesk.png"


def make_qsettings(folder: str | Path | None = None) -> QSettings:
    """Window geometry: organisation "BriefDesk"; an INI file under `folder` when given."""
    folder = folder or os.environ.get(QSETTINGS_ENV)
    if folder:
        return QSettings(str(Path(folder) / "BriefDesk.ini"), QSettings.Format.IniFormat)
    return QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANISATION, "BriefDesk"
    )


def build_window(home: str | Path | None, qsettings: QSettings | None = None) -> MainWindow:
    """The window with its bridge and context, not yet shown or started (tests use this)."""
    bridge = Bridge(home)
    context = AppContext(bridge)
    window = MainWindow(bridge, context, QIcon(str(icon_path())), qsettings or make_qsettings())
    bridge.setParent(window)
    context.setParent(window)
    return window


def start_background(window: MainWindow, poll_ms: int = 300) -> None:
    """After the first paint: open the home on the bridge thread, follow events, warm the SDK."""
    window.bridge.start()
    window.context.load_settings()
    window.bridge.start_following(poll_ms)
    window.bridge.warm_up()


class Automation:
    """Env-driven behaviour for the startup benchmark, screenshots and crash drills."""

    def __init__(self, app: QApplication, window: MainWindow) -> None:
        self.app = app
        self.window = window
        self.screenshot = os.environ.get(SCREENSHOT_ENV)
        self.demo = os.environ.get(DEMO_ENV)
        self.report_mode = os.environ.get(EXIT_AFTER_PAINT_ENV, "")
        self.exit_after_paint = self.report_mode == "1"

    def on_first_paint(self) -> None:
        if self.exit_after_paint:
            report = {
                "first_paint_s": round(time.perf_counter() - _STARTED, 4),
                "agents_loaded": "agents" in sys.modules,
                "keyring_loaded": "keyring" in sys.modules,
                "workspace_loaded": "agent_core.workspace" in sys.modules,
            }
            print("FIRST_PAINT " + json.dumps(report), flush=True)
            QTimer.singleShot(0, self.window.close)
            return
        if self.report_mode == "warm":
            print(
                "FIRST_PAINT "
                + json.dumps({"first_paint_s": round(time.perf_counter() - _STARTED, 4)}),
                flush=True,
            )
            self.window.bridge.ready.connect(lambda: self._report("HOME_OPEN"))
            self.window.bridge.warmed.connect(self._report_warm_and_close)
            return
        if self.screenshot or self.demo:
            self.window.bridge.ready.connect(self._act)
            self.window.context.run_stopped.connect(self._run_stopped)

    def _report(self, what: str) -> None:
        print(
            f"{what} {json.dumps({'elapsed_s': round(time.perf_counter() - _STARTED, 4)})}",
            flush=True,
        )

    def _report_warm_and_close(self) -> None:
        self._report("SDK_WARM")
        self.window.close()

    def _act(self) -> None:
        ctx = self.window.context
        question = self.window.run_form.question_text()
        if self.demo == "crash_next_tool":
            ctx.demo_crash_next_tool(None, question)
        elif self.demo == "crash_after_write":
            ctx.demo_crash_after_write(None, question)
        elif self.demo == "compromised":
            ctx.demo_compromised()
        elif self.screenshot or self.demo == "run":
            self.window.run_question()

    def _run_stopped(self, run: dict[str, Any]) -> None:
        if not self.screenshot:
            return
        timeline = self.window.timeline
        QTimer.singleShot(900, lambda: timeline.select_row(timeline.proxy.rowCount() - 1))
        QTimer.singleShot(1400, lambda: self._save(run))

    def _save(self, run: dict[str, Any]) -> None:
        assert self.screenshot
        self.window.grab().save(self.screenshot)
        print(f"SCREENSHOT {self.screenshot} {run.get('status')}", flush=True)
        self.window.close()


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="briefdesk", description="BriefDesk: a desktop cockpit for a research agent."
    )
    parser.add_argument(
        "--home",
        help="the BriefDesk home folder (default: $BRIEFDESK_HOME or the user data folder)",
    )
    args, _qt_args = parser.parse_known_args(argv)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    # The home's log file takes INFO and up; the terminal only hears about problems.
    for handler in logging.getLogger().handlers:
        handler.setLevel(logging.WARNING)
    # Redaction is installed on these handlers when the bridge thread opens the Workspace
    # (`configure_logging`), before any key is read: keys are only read on that thread.
    app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName("BriefDesk")
    app.setApplicationDisplayName("BriefDesk")
    theme.apply_theme(app)
    window = build_window(args.home)  # None: $BRIEFDESK_HOME or the user data folder
    app.setWindowIcon(window.windowIcon())
    automation = Automation(app, window)
    started = False

    def after_first_paint() -> None:
        nonlocal started
        if started:
            return
        started = True
        automation.on_first_paint()
        if not automation.exit_after_paint:
            start_background(window)

    window.first_painted.connect(lambda: QTimer.singleShot(0, after_first_paint))
    window.show()
    return int(app.exec())


if __name__ == "__main__":
    sys.exit(main())
