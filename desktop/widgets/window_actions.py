"""Small pieces of the main window's plumbing: its menu actions and its records windows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

ReopenableT = TypeVar("ReopenableT", bound=QWidget)


def add_action(
    owner: QWidget, menu: QMenu, text: str, slot: Callable[[], object], *shortcuts: str
) -> QAction:
    """A menu entry whose shortcuts work in the whole window, even while the menu bar is
    hidden."""
    action = QAction(text, owner)
    if shortcuts:
        action.setShortcuts([QKeySequence(s) for s in shortcuts])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.triggered.connect(lambda _checked=False: slot())
    menu.addAction(action)
    owner.addAction(action)
    return action


class Reloadable(Protocol):
    """A records window: it reads its rows again on `reload`."""

    def reload(self) -> None: ...

    def raise_(self) -> None: ...

    def activateWindow(self) -> None: ...


def reopened(window: Reloadable | None) -> bool:
    """Bring an open window to the front, read again (False: there is none, or Qt deleted it)."""
    if window is None or not shiboken6.isValid(window):
        return False
    window.reload()
    window.raise_()
    window.activateWindow()
    return True


def opened(window: ReopenableT) -> ReopenableT:
    """Show a window that deletes itself when closed."""
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    window.show()
    return window
