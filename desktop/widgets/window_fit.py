"""Windows that fit the screen they open on: on a 1024x700 laptop every window is whole.

A window with no saved size asks for its preferred size shrunk to the screen's available area
(leaving room for the title bar the window manager adds); a saved geometry, or a window moved
by the system, is clamped so that its frame lies inside the screen it is on.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QPoint, QRect, QSettings, QSize
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QSplitter, QWidget

# The title bar and borders a window manager adds, until the real frame is known (once shown).
FRAME_ALLOWANCE = QSize(16, 40)


def screen_of(window: QWidget) -> QScreen:
    """The screen the window is (or will be) on: the one under its centre, else its own."""
    at = QGuiApplication.screenAt(window.frameGeometry().center())
    return at or window.screen() or QGuiApplication.primaryScreen()


def fit_to_screen(window: QWidget, preferred: QSize, *, centre: bool = False) -> None:
    """Give a window with no saved geometry its preferred size, as far as the screen allows."""
    area = screen_of(window).availableGeometry()
    width = min(preferred.width(), area.width() - FRAME_ALLOWANCE.width())
    height = min(preferred.height(), area.height() - FRAME_ALLOWANCE.height())
    window.resize(max(width, window.minimumWidth()), max(height, window.minimumHeight()))
    if centre:
        frame = QSize(
            window.width() + FRAME_ALLOWANCE.width(), window.height() + FRAME_ALLOWANCE.height()
        )
        corner = area.center() - QPoint(frame.width() // 2, frame.height() // 2)
        window.move(max(corner.x(), area.left()), max(corner.y(), area.top()))


def clamp_to_screen(window: QWidget) -> None:
    """Shrink and move a window so that its whole frame lies inside its screen's available area
    (a geometry saved on a larger screen, or on one that is gone, opens whole)."""
    if window.isMaximized() or window.isFullScreen():
        return  # the window system already fits these
    area = screen_of(window).availableGeometry()
    frame, inner = window.frameGeometry(), window.geometry()
    extra_w, extra_h = frame.width() - inner.width(), frame.height() - inner.height()
    if not window.isVisible():  # no frame yet: leave room for the one the system will add
        extra_w, extra_h = FRAME_ALLOWANCE.width(), FRAME_ALLOWANCE.height()
    width = max(window.minimumWidth(), min(inner.width(), area.width() - extra_w))
    height = max(window.minimumHeight(), min(inner.height(), area.height() - extra_h))
    if (width, height) != (inner.width(), inner.height()):
        window.resize(width, height)
    inside = _inside(QRect(frame.topLeft(), QSize(width + extra_w, height + extra_h)), area)
    if inside != frame.topLeft():
        window.move(inside)


def _inside(frame: QRect, area: QRect) -> QPoint:
    x = max(area.left(), min(frame.left(), area.right() + 1 - frame.width()))
    y = max(area.top(), min(frame.top(), area.bottom() + 1 - frame.height()))
    return QPoint(x, y)


def restore_window_state(
    window: QWidget, splitter: QSplitter, qsettings: QSettings, preferred: QSize
) -> None:
    """The size, place and pane widths saved last time, fitted to this screen."""
    geometry = qsettings.value("window/geometry")
    if isinstance(geometry, QByteArray | bytes):
        window.restoreGeometry(QByteArray(geometry))
        clamp_to_screen(window)  # saved on a larger screen, or one that is gone: fit this one
    else:
        fit_to_screen(window, preferred, centre=True)
    state = qsettings.value("window/splitter")
    if isinstance(state, QByteArray | bytes):
        splitter.restoreState(QByteArray(state))


def save_window_state(window: QWidget, splitter: QSplitter, qsettings: QSettings) -> None:
    qsettings.setValue("window/geometry", window.saveGeometry())
    qsettings.setValue("window/splitter", splitter.saveState())
    qsettings.sync()
