"""Showing a window that opened by itself without taking the keys a person is typing.

A run can start waiting while the person types somewhere else (the timeline's filter, say).
The window that asks them must appear, but their next keystrokes must not land in it. It is
shown without activation (`WA_ShowWithoutActivating`, honoured by X11 window managers and
Windows) and non-modal, so the window they type in keeps its keys. Where the platform
activates a new window anyway (some Wayland compositors, the offscreen platform), activation
is handed back to the window that had it, for as long as `holds()` says so; a person who
asks for the window (a click on it after that, "Review…") gets it as usual.

An approval dialog is different (issue 44): nothing in it takes typed text at first (the
keyboard starts on the diff, Return clicks nothing, the read guard holds every decision), so
it takes the keyboard when it opens, and Escape closes it. `show_taking_keys` activates it and,
until the window system has made it active (activation is asynchronous on X11), keeps key
presses away from the window behind: a Return meant for the dialog never lands in the
Question box there.
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


class _KeyBarrier(QObject):
    """Swallows key events meant for `behind` until `window` has been active once, or closed,
    or the read guard's time has passed (a window manager that refuses the activation must not
    leave the main window deaf)."""

    KEYS = (QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride)

    def __init__(self, window: QWidget, behind: QWidget) -> None:
        super().__init__(window)
        self._window, self._behind = window, behind
        self._opening = ReadGuard(self)
        self._opening.restart()
        self._watch = QTimer(self, interval=100)
        self._watch.timeout.connect(self._check)
        self._watch.start()
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() in (
            QEvent.Type.WindowActivate,
            QEvent.Type.Hide,
        ):
            self.release()
            return False
        if event.type() in self.KEYS and isinstance(watched, QWidget):
            return watched.window() is self._behind  # meant for the dialog: dropped
        return False

    def _check(self) -> None:
        if not self._opening.holds() or not self._window.isVisible():
            self.release()

    def release(self) -> None:
        self._watch.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)


def show_taking_keys(window: QWidget, behind: QWidget | None) -> None:
    """Show `window` (non-modal) on top with the keyboard, keys meant for it kept from
    `behind` (the window that had them) until it is active."""
    if behind is not None and behind.isVisible():
        _KeyBarrier(window, behind)
    window.setWindowModality(Qt.WindowModality.NonModal)
    window.show()
    window.raise_()
    window.activateWindow()
