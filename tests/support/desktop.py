"""The one set of desktop fixtures: a started bridge, a workspace beside it, and real windows
offscreen (each with its own bridge thread and QSettings in a temp dir), closed after the test
with every dialog they opened and every window they reopened into."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from desktop.app import build_window, start_background
from desktop.bridge import Bridge
from desktop.widgets.main_window import MainWindow


@contextmanager
def started_bridge(qtbot: QtBot, home: Path, *, timeout_ms: int = 20_000) -> Iterator[Bridge]:
    """A real bridge thread on `home`, ready (its Workspace open), stopped afterwards."""
    bridge = Bridge(home)
    with qtbot.waitSignal(bridge.ready, timeout=timeout_ms):
        bridge.start()
    try:
        yield bridge
    finally:
        bridge.stop()


@contextmanager
def open_workspace(home: Path) -> Iterator[Workspace]:
    workspace = Workspace(home)
    try:
        yield workspace
    finally:
        workspace.close()


def close_dialogs(window: MainWindow) -> None:
    dialog = window.prompts.dialog
    if dialog is not None:
        with contextlib.suppress(RuntimeError):  # already deleted by Qt
            dialog.close()


class MakeWindow(Protocol):
    """The `make_window` fixture: `Windows.make`."""

    def __call__(
        self,
        home: Path,
        *,
        poll_ms: int = ...,
        db: str | None = ...,
        qsettings_dir: Path | None = ...,
        ready: bool = ...,
        store: bool = ...,
        timeout: int = ...,
    ) -> MainWindow: ...


class OpenWindow(Protocol):
    """The `open_window` fixture: a window on `home` (and `db`) once its store is known."""

    def __call__(self, home: Path, db: str | None = ...) -> MainWindow: ...


MakeWindowUnready = Callable[[Path], MainWindow]


class Windows:
    """Builds shown, started windows on a home; `close_all` closes them (joining their bridges)
    and the windows they reopened into (Settings saved another store)."""

    def __init__(self, qtbot: QtBot, qsettings_dir: Path) -> None:
        self.qtbot = qtbot
        self.qsettings_dir = qsettings_dir
        self.windows: list[MainWindow] = []

    def make(
        self,
        home: Path,
        *,
        poll_ms: int = 100,
        db: str | None = None,
        qsettings_dir: Path | None = None,
        ready: bool = True,
        store: bool = False,
        timeout: int = 20_000,
    ) -> MainWindow:
        """`ready`: wait for the first runs list; `store`: and for the status bar's store."""
        ini = (qsettings_dir or self.qsettings_dir) / "BriefDesk.ini"
        window = build_window(home, QSettings(str(ini), QSettings.Format.IniFormat), db=db)
        window.show()
        self.qtbot.waitExposed(window)
        start_background(window, poll_ms)
        self.windows.append(window)
        if ready:
            self.qtbot.waitUntil(lambda: window.context.runs_seen, timeout=timeout)
        if store:
            self.qtbot.waitUntil(lambda: window.store_status.view is not None, timeout=10_000)
        return window

    def close_all(self) -> None:
        for first in self.windows:
            window: MainWindow | None = first
            while window is not None:
                close_dialogs(window)
                window.close()
                window = window.successor


# -- fixtures (tests/desktop/conftest.py imports them; other folders import what they use) ------


@pytest.fixture(name="make_window")
def fixture_make_window(qtbot: QtBot, tmp_path: Path) -> Iterator[MakeWindow]:
    """Shown, started windows whose first runs list has arrived; closed after the test."""
    made = Windows(qtbot, tmp_path / "qsettings")
    yield made.make
    made.close_all()


@pytest.fixture
def make_window_unready(qtbot: QtBot, tmp_path: Path) -> Iterator[MakeWindowUnready]:
    """A window whose store may never open (no wait for its first read)."""
    made = Windows(qtbot, tmp_path / "qsettings")
    yield lambda home: made.make(home, poll_ms=300, ready=False)
    made.close_all()


@pytest.fixture
def open_window(qtbot: QtBot, tmp_path: Path) -> Iterator[OpenWindow]:
    """A window as `briefdesk --db URL` opens it, once its store is known."""
    made = Windows(qtbot, tmp_path / "qsettings")

    def opened(home: Path, db: str | None = None) -> MainWindow:
        return made.make(home, db=db, store=True, timeout=30_000)

    yield opened
    made.close_all()


class StillClock:
    """The approval dialog's read-guard clock, moved only by the test: the guard holds until
    `pass_the_guard()` (the `clock` fixture of tests/desktop/conftest.py puts it in place)."""

    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now

    def pass_the_guard(self) -> None:
        from desktop.widgets import approval_guard

        self.now += approval_guard.GUARD_MS / 1000 + 0.5
