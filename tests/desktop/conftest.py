"""The desktop tests' fixtures, all from `tests.support.desktop` (the one set of them)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication, QDialog

from tests.support.desktop import (
    StillClock,
    fixture_make_window,
    make_window_unready,
    open_window,
    open_workspace,
    started_bridge,
)

__all__ = [  # fixtures pytest finds here; helpers older tests import from here
    "fixture_make_window",
    "make_window_unready",
    "open_window",
    "open_workspace",
    "started_bridge",
]


@pytest.fixture(autouse=True)
def _no_dialog_outlives_its_test() -> Iterator[None]:
    """A modal dialog a test left open (say, one whose assertion failed before it closed it)
    would block the next test of this worker's windows: close whatever is still shown."""
    yield
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    for widget in app.topLevelWidgets():
        if isinstance(widget, QDialog) and widget.isVisible():
            widget.reject()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> StillClock:
    """The read guard holds until the test passes it (a file may define a clock of its own)."""
    from desktop.widgets import approval_guard

    still = StillClock()
    monkeypatch.setattr(approval_guard, "clock", still)
    return still
