"""Composition root: `briefdesk [--home DIR] [--db URL] [--smoke] [--version]`.

The window paints first; only then does the bridge thread open the home (SQLite) and import the
Agents SDK, so neither the SDK nor the keyring is on the path to the first frame. A few
environment variables drive the app for benchmarks, screenshots and drills (see `Automation`).

Qt is imported inside the functions that build the app, not at the top of this module: the
console script imports this module, and `briefdesk --version` must answer with no display and
no Qt at all (an installer or a packager runs it on a headless machine).
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import agent_core  # only for agent_core.__version__: the package metadata, no Qt, no storage

if TYPE_CHECKING:
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    from agent_core.contract.views import RunView
    from desktop.widgets.main_window import MainWindow

ORGANISATION = "BriefDesk"
APP_ID = "org.briefdesk.BriefDesk"  # the .desktop file's name and the AppStream id (packaging/)
EXIT_HOME_UNUSABLE = 2  # as briefdesk-cli answers a home it cannot use
SMOKE_TIMEOUT_MS = 120_000  # `--smoke` gives up (exit 1) if the home has not opened by then
SCREENSHOT_ENV = "BRIEFDESK_SCREENSHOT"  # save window.grab() after a demo run stops, then quit
EXIT_AFTER_PAINT_ENV = "BRIEFDESK_EXIT_AFTER_PAINT"  # "1": report the first paint and quit;
# "warm": also report when the home is open and the SDK imported (behind the paint), then quit;
# "quit": once the home is open, Ctrl+Q while the SDK import is still going (QUIT, HIDDEN)
DEMO_ENV = "BRIEFDESK_DEMO"  # crash_next_tool | crash_after_write | compromised | run
QSETTINGS_ENV = "BRIEFDESK_QSETTINGS_DIR"  # where window geometry is kept (tests use a temp dir)
_STARTED = time.perf_counter()


def icon_path() -> Path:
    """The app icon, found beside the code as `agent_core.home.config` finds its resources: needed
    before the first paint, when not even the façade may be imported yet."""
    beside = Path(__file__).resolve().parents[1]
    for folder in ("resources", "briefdesk_resources"):  # a checkout; an installed wheel
        candidate = beside / folder / "icons" / "briefdesk.png"
        if candidate.is_file():
            return candidate
    return beside / "resources" / "icons" / "briefdesk.png"


def make_qsettings(folder: str | Path | None = None) -> QSettings:
    """Window geometry: organisation "BriefDesk"; an INI file under `folder` when given."""
    from PySide6.QtCore import QSettings

    folder = folder or os.environ.get(QSETTINGS_ENV)
    if folder:
        return QSettings(str(Path(folder) / "BriefDesk.ini"), QSettings.Format.IniFormat)
    return QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANISATION, "BriefDesk"
    )


def build_window(
    home: str | Path | None, qsettings: QSettings | None = None, *, db: str | None = None
) -> MainWindow:
    """The window with its bridge and context, not yet shown or started (tests use this).
    `db`: `--db URL` (None: $BRIEFDESK_DB, the `db.url` setting, else the home's SQLite)."""
    from PySide6.QtGui import QIcon

    from desktop.bridge import Bridge
    from desktop.context import AppContext
    from desktop.widgets.main_window import MainWindow

    bridge = Bridge(home, db=db)
    context = AppContext(bridge)
    window = MainWindow(bridge, context, QIcon(str(icon_path())), qsettings or make_qsettings())
    bridge.setParent(window)
    context.setParent(window)
    window.reopen_requested.connect(lambda: reopen_window(window))
    return window


def reopen_window(old: MainWindow) -> MainWindow:
    """The window again, in the same place, on the store the settings now choose (Settings ▸
    Team database saved another URL). A new window with a new bridge, rather than the old
    one rewired: nothing it shows (runs, timeline, prompts, open dialogs) can still belong to
    the database it left. The old one closes as a window closes (its bridge stops; it drives
    no run: the window asks for this only then), after the new one shows, so the app stays."""
    from PySide6.QtCore import QCoreApplication, Qt

    from desktop.models.store_text import store_name

    old.save_geometry()
    new = build_window(old.bridge.home, old.qsettings, db=old.bridge.db)
    new.store_status.loaded.connect(
        lambda view: new.statusBar().showMessage(
            QCoreApplication.translate("App", "Reconnected: runs now live in {store}.").format(
                store=store_name(view)
            ),
            10_000,
        ),
        Qt.ConnectionType.SingleShotConnection,
    )
    new.show()
    start_background(new, old.poll_ms)
    old.successor = new
    old.close()
    return new


def start_background(window: MainWindow, poll_ms: int = 300) -> None:
    """After the first paint: open the home on the bridge thread, follow events, warm the SDK."""
    window.poll_ms = poll_ms
    window.bridge.start()
    window.context.load_settings()
    window.bridge.start_following(poll_ms)
    window.bridge.warm_up()


class HomeGuard:
    """`briefdesk --home BAD`: the home opens on the bridge thread after the first paint. When it
    cannot be opened (a file, a path under a file, a read-only disk, `--home ""`), say why on
    stderr and in a message box, then close with EXIT_HOME_UNUSABLE: a window on no home could
    do nothing. Errors after the home opened are the window's business, not this guard's."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.opened = False
        self.exit_code = 0
        window.bridge.ready.connect(self._opened)
        window.bridge.error.connect(self._failed)

    def _opened(self) -> None:
        self.opened = True

    def _failed(self, code: str, message: str) -> None:
        if self.opened or self.exit_code:
            return
        from PySide6.QtCore import QCoreApplication
        from PySide6.QtWidgets import QMessageBox

        self.exit_code = EXIT_HOME_UNUSABLE
        print(f"briefdesk: cannot open the home folder ({code}): {message}", file=sys.stderr)
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            "BriefDesk",
            QCoreApplication.translate(
                "App", "BriefDesk cannot open its home folder, so it will close."
            ),
            parent=self.window,
        )
        box.setInformativeText(message)
        box.finished.connect(lambda _result: self.window.close())
        box.open()


class Automation:
    """Env-driven behaviour for the startup benchmark, screenshots and crash drills."""

    def __init__(self, app: QApplication, window: MainWindow, smoke: bool = False) -> None:
        self.app = app
        self.window = window
        self.smoke = smoke
        self.exit_code = 0  # what main returns once the event loop ends (a failed smoke: 1)
        self.screenshot = os.environ.get(SCREENSHOT_ENV)
        self.demo = os.environ.get(DEMO_ENV)
        self.report_mode = os.environ.get(EXIT_AFTER_PAINT_ENV, "")
        self.exit_after_paint = self.report_mode == "1"

    @property
    def starts_background(self) -> bool:
        """Whether main starts the bridge, the follower and the SDK warm-up after the paint."""
        return not (self.exit_after_paint or self.smoke)

    def on_first_paint(self) -> None:
        from PySide6.QtCore import QTimer

        if self.smoke:
            self._start_smoke()
            return
        if self.exit_after_paint:
            report = {
                "first_paint_s": round(time.perf_counter() - _STARTED, 4),
                "agents_loaded": "agents" in sys.modules,
                "keyring_loaded": "keyring" in sys.modules,
                "workspace_loaded": "agent_core.facade.workspace" in sys.modules,
            }
            print("FIRST_PAINT " + json.dumps(report), flush=True)
            QTimer.singleShot(0, self.window.close)
            return
        if self.report_mode == "quit":
            self.window.bridge.ready.connect(self._quit_while_warming)
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

    def _start_smoke(self) -> None:
        """`--smoke`: the window has painted; open the home on the bridge thread, read its runs
        there (the GUI thread does no I/O), print one SMOKE line and quit with 0, or 1 on error.
        """
        from PySide6.QtCore import QTimer

        bridge = self.window.bridge
        bridge.ready.connect(
            lambda: bridge.submit(lambda ws: len(ws.list_runs()), on_done=self._smoke_passed)
        )
        bridge.error.connect(lambda code, message: self._smoke_failed(f"{code}: {message}"))
        QTimer.singleShot(
            SMOKE_TIMEOUT_MS,
            lambda: self._smoke_failed(f"the home did not open in {SMOKE_TIMEOUT_MS // 1000} s"),
        )
        bridge.start()

    def _smoke_passed(self, runs: object) -> None:
        if self.exit_code:
            return
        from desktop import i18n

        report = {
            "painted": True,
            "store_open": True,
            "runs": runs,
            "version": _version(),
            "language": i18n.active(),  # and the menus as shown: what a wheel's user reads
            "menus": [action.text() for action in self.window.menuBar().actions()],
        }
        print("SMOKE " + json.dumps(report), flush=True)
        self.window.close()

    def _smoke_failed(self, why: str) -> None:
        if self.exit_code or not self.window.isVisible():
            return
        self.exit_code = 1
        print(f"SMOKE FAILED {why}", file=sys.stderr, flush=True)
        self.window.close()

    def _report(self, what: str) -> None:
        print(
            f"{what} {json.dumps({'elapsed_s': round(time.perf_counter() - _STARTED, 4)})}",
            flush=True,
        )

    def _report_warm_and_close(self) -> None:
        self._report("SDK_WARM")
        self.window.close()

    def _quit_while_warming(self) -> None:
        handle = self.window.windowHandle()
        handle.visibleChanged.connect(self._report_hidden)
        self._report("QUIT")
        self.window.quit_action.trigger()

    def _report_hidden(self, shown: bool) -> None:
        if not shown:
            self._report("HIDDEN")

    def _act(self) -> None:
        ctx = self.window.context
        if self.demo == "crash_next_tool":  # as the Demo menu does, confirmed beforehand
            self.window.demo_crash_next(confirm=False)
        elif self.demo == "crash_after_write":
            self.window.demo_crash_write(confirm=False)
        elif self.demo == "compromised":
            ctx.demo_compromised()
        elif self.screenshot or self.demo == "run":
            self.window.run_question()

    def _run_stopped(self, run: RunView) -> None:
        if not self.screenshot:
            return
        from PySide6.QtCore import QTimer

        timeline = self.window.timeline
        QTimer.singleShot(900, lambda: timeline.select_row(timeline.proxy.rowCount() - 1))
        QTimer.singleShot(1400, lambda: self._save(run))

    def _save(self, run: RunView) -> None:
        assert self.screenshot
        self.window.grab().save(self.screenshot)
        print(f"SCREENSHOT {self.screenshot} {run['status']}", flush=True)
        self.window.close()


def _version() -> str:
    return agent_core.__version__


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="briefdesk", description="BriefDesk: a desktop cockpit for a research agent."
    )
    parser.add_argument(
        "--home",
        help="the BriefDesk home folder (default: $BRIEFDESK_HOME or the user data folder)",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the team's PostgreSQL database, postgresql://USER@HOST/DB, its password from the "
        "keyring or PGPASSFILE (default: $BRIEFDESK_DB, the db.url setting, else the home's "
        "own database)",
    )
    parser.add_argument(
        "--lang",
        choices=("en", "zh_CN"),
        help="the window's language (default: the ui.language setting, else the locale)",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="paint the window, open the home, print a SMOKE line and quit (exit 0: all is well)",
    )
    parser.add_argument(
        "--version", action="store_true", help="print the version and exit (needs no display)"
    )
    args, _qt_args = parser.parse_known_args(argv)
    return args


def start_language(app: QCoreApplication, lang: str | None, qsettings: QSettings) -> str:
    """Install the window's language before it is built: `--lang`, else the QSettings mirror of
    `ui.language`, whose `system` follows the locale. Returns "en" or "zh_CN"."""
    from desktop import i18n

    choice = lang or qsettings.value(i18n.QSETTINGS_KEY, "system")
    return i18n.install_translators(app, i18n.resolve(choice))


def main(argv: list[str] | None = None) -> int:
    from agent_core.facade.process import make_undumpable

    make_undumpable()  # no child of ours reads our environment through /proc
    multiprocessing.freeze_support()  # the bundle's corpus parsers run as spawned workers
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.version:
        print(f"briefdesk {_version()}", flush=True)
        return 0
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from desktop import theme

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
    app.setApplicationVersion(_version())
    app.setDesktopFileName(APP_ID)  # Wayland's app id and the taskbar's icon: the .desktop entry
    from desktop.gil_turns import favour_the_gui_thread
    from desktop.gui_thread_gc import GuiThreadGarbageCollector

    favour_the_gui_thread()
    collector = GuiThreadGarbageCollector(app)  # lives as long as main runs
    theme.apply_theme(app)
    from desktop.widgets import system_open

    system_open.install()  # a file no program opens is said in the window, not the log
    # The language before any widget exists. `ui.language` lives in the home, read off the GUI
    # thread after the first paint, so the window keeps a mirror of it in its QSettings (written
    # when the settings load or are saved): a change applies at the next start.
    qsettings = make_qsettings()
    start_language(app, args.lang, qsettings)
    # None: $BRIEFDESK_HOME or the user data folder; $BRIEFDESK_DB or the db.url setting
    window = build_window(args.home, qsettings, db=args.db)
    # The SDK imported, what lives stays: full collections skip it from then on.
    window.bridge.warmed.connect(collector.freeze_survivors)
    app.setWindowIcon(window.windowIcon())
    automation = Automation(app, window, smoke=args.smoke)
    guard = HomeGuard(window) if automation.starts_background else None  # smoke has its own
    started = False

    def after_first_paint() -> None:
        nonlocal started
        if started:
            return
        started = True
        automation.on_first_paint()
        if automation.starts_background:
            start_background(window)

    window.first_painted.connect(lambda: QTimer.singleShot(0, after_first_paint))
    window.show()
    return int(app.exec()) or automation.exit_code or (guard.exit_code if guard else 0)


if __name__ == "__main__":
    sys.exit(main())
