"""Showing a window that opened by itself without taking the keys a person is typing.

A run can start waiting while the person types somewhere else (the timeline's filter, say).
The window that asks them must appear, but their next keystrokes must not land in it. It is
shown without activation (`WA_ShowWithoutActivating`, honoured by X11 window managers and
Windows) and non-modal, so the window they type in keeps its keys. Where the platform
activates a new window anyway (some Wayland compositors, the offscreen platform), activation
is handed back to the window that had it, for as long as `holds()` says so; a person who
asks for the window (a click on it after that, "Review…") gets it as usual.
"""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from desktop.widgets.approval_guard import ReadGuard


class _HandBack(QObject):
    """Gives activation back to `previous` when `window` takes it while `holds()`."""

    def __init__(self, window: QWidget, previous: QWidget, holds: Callable[[], bool]) -> None:
        super().__init__(window)
        self._window, self._previous = window, previous
        self._focus = previous.focusWidget()
        self._holds = holds
        self._watch = QTimer(self, interval=100)  # only while opening: later, activation is
        self._watch.timeout.connect(self._check)  # the person's, even if the guard restarts
        self._watch.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.WindowActivate and watched is self._window:
            if self._holds():
                QTimer.singleShot(0, self, self._hand_back)
            else:
                self.release()
        return False

    def _check(self) -> None:
        if not self._holds():
            self.release()

    def release(self) -> None:
        self._watch.stop()
        self._window.removeEventFilter(self)

    def _hand_back(self) -> None:
        previous, focus = self._previous, self._focus
        if not shiboken6.isValid(previous) or not previous.isVisible():
            return
        if QApplication.activeWindow() is not self._window:
            return
        previous.activateWindow()
        if focus is not None and shiboken6.isValid(focus):
            focus.setFocus(Qt.FocusReason.ActiveWindowFocusReason)


def show_without_taking_keys(window: QWidget, holds: Callable[[], bool] | None = None) -> None:
    """Show `window` (non-modal) on top, leaving the keyboard with the active window while
    `holds()` (by default: for the read guard's time from now); with no active window of this
    app there is no typing to protect."""
    if holds is None:
        opening = ReadGuard(window)
        opening.restart()
        holds = opening.holds
    previous = QApplication.activeWindow()
    window.setWindowModality(Qt.WindowModality.NonModal)
    window.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
    if previous is not None and previous is not window:
        window.installEventFilter(_HandBack(window, previous, holds))
    window.show()
    window.raise_()
    window.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, False)  # later: as usual


def present(window: QWidget) -> None:
    """Show `window` (non-modal) because the person asked for it: on top and focused."""
    for hand_back in window.findChildren(_HandBack):
        hand_back.release()  # asked for: the keyboard is meant to go there now
    window.setWindowModality(Qt.WindowModality.NonModal)
    window.show()
    window.raise_()
    window.activateWindow()
