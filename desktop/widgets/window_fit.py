"""Windows that fit the screen they open on: on a 1024x700 laptop every window is whole.

A window with no saved size asks for its preferred size shrunk to the screen's available area
(leaving room for the title bar the window manager adds); a saved geometry, or a window moved
by the system, is clamped so that its frame lies inside the screen it is on.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QEvent, QObject, QPoint, QRect, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QResizeEvent, QScreen
from PySide6.QtWidgets import QFrame, QPushButton, QScrollArea, QSplitter, QStyle, QWidget

# The title bar and borders a window manager adds, until the real frame is known (once shown).
FRAME_ALLOWANCE = QSize(16, 40)


def screen_of(window: QWidget) -> QScreen:
    """The screen the window is (or will be) on: the one under its centre, else its own."""
    at = QGuiApplication.screenAt(window.frameGeometry().center())
    return at or window.screen() or QGuiApplication.primaryScreen()


def screen_at(window: QWidget, rect: QRect) -> QScreen:
    """The screen under a saved geometry's centre, else the window's own (that one is gone)."""
    at = QGuiApplication.screenAt(rect.center())
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


def place_on_screen(window: QWidget, saved: QRect) -> None:
    """Give a window the size and place saved on another screen, capped to this one and moved
    onto it (Qt's own restore gives up on a geometry larger than the screen: a tiny window)."""
    area = screen_at(window, saved).availableGeometry()
    allowance = FRAME_ALLOWANCE
    width = max(window.minimumWidth(), min(saved.width(), area.width() - allowance.width()))
    height = max(window.minimumHeight(), min(saved.height(), area.height() - allowance.height()))
    border = allowance.width() // 2
    frame = QRect(saved.left() - border, saved.top() - (allowance.height() - border), 0, 0)
    corner = _inside(QRect(frame.topLeft(), QSize(width, height) + allowance), area)
    window.setGeometry(corner.x() + border, corner.y() + allowance.height() - border, width, height)


def grown_on_larger_screen(
    saved: QSize, saved_screen: QSize | None, area: QSize, preferred: QSize
) -> QSize:
    """The size a window saved on a smaller screen opens at on this one: each side that was
    below the preferred size (squeezed by that screen: its panes and columns clipped) grows
    to the preferred size as far as this screen allows; a side saved on a screen as large as
    this one keeps the size the person chose. `saved_screen` None: saved before screens were
    kept, so any room this screen has beyond the saved size counts as larger."""
    room = area - FRAME_ALLOWANCE

    def side(size: int, old_screen: int | None, here: int, wanted: int) -> int:
        larger = old_screen is None or here > old_screen
        return max(size, min(wanted, here)) if larger and size < wanted else size

    old = saved_screen
    return QSize(
        side(saved.width(), old.width() if old else None, room.width(), preferred.width()),
        side(saved.height(), old.height() if old else None, room.height(), preferred.height()),
    )


def restore_window_state(
    window: QWidget, splitter: QSplitter, qsettings: QSettings, preferred: QSize
) -> None:
    """The size, place and pane widths saved last time, fitted to this screen (grown when the
    screen is larger than the one it was saved on, clamped when smaller)."""
    geometry, normal = qsettings.value("window/geometry"), qsettings.value("window/normal")
    restored = isinstance(geometry, QByteArray | bytes) and window.restoreGeometry(
        QByteArray(geometry)
    )
    grown = False
    if window.isMaximized() or window.isFullScreen():
        pass  # the window system fits these
    elif isinstance(normal, QRect) and normal.isValid():
        saved_screen = qsettings.value("window/screen")
        old = saved_screen - FRAME_ALLOWANCE if isinstance(saved_screen, QSize) else None
        area = screen_at(window, normal).availableGeometry()
        size = grown_on_larger_screen(normal.size(), old, area.size(), preferred)
        grown = size != normal.size()
        place_on_screen(window, QRect(normal.topLeft(), size))
    elif restored:
        clamp_to_screen(window)  # saved on a larger screen, or one that is gone: fit this one
    else:
        fit_to_screen(window, preferred, centre=True)
    state = qsettings.value("window/splitter")
    if isinstance(state, QByteArray | bytes) and not grown:  # grown: the panes as on a first
        splitter.restoreState(QByteArray(state))  # start (the saved ones fit a squeezed window)


def save_window_state(window: QWidget, splitter: QSplitter, qsettings: QSettings) -> None:
    qsettings.setValue("window/geometry", window.saveGeometry())
    qsettings.setValue("window/normal", window.normalGeometry())  # to fit another screen
    # The screen it was saved on: a larger one later grows what this one squeezed.
    qsettings.setValue("window/screen", screen_of(window).availableGeometry().size())
    qsettings.setValue("window/splitter", splitter.saveState())
    qsettings.sync()


def fit_dialog(dialog: QWidget, parent: QWidget | None, *, centre: bool = True) -> None:
    """Cap a dialog to its screen's available area (with room for its title bar) and centre it
    on its parent, or on the screen (else keep it where it is, moved onto the screen): it opens
    whole, its title bar on the screen."""
    screen = (parent.screen() if parent is not None else None) or dialog.screen()
    area = (screen or QGuiApplication.primaryScreen()).availableGeometry()
    # Room for a real title bar even before the window manager has told its size (X11).
    frame = (dialog.frameGeometry().size() - dialog.geometry().size()).expandedTo(FRAME_ALLOWANCE)
    dialog.setMaximumSize(area.size() - frame)  # no later growth pushes it off the screen
    wanted = dialog.size().expandedTo(dialog.sizeHint())  # Qt's first size stops at 2/3 screen
    width = min(wanted.width(), area.width() - frame.width())
    height = min(wanted.height(), area.height() - frame.height())
    if (width, height) != (dialog.width(), dialog.height()):
        dialog.resize(width, height)
    middle = parent.frameGeometry().center() if parent is not None else area.center()
    whole = QSize(dialog.width(), dialog.height()) + frame
    start = middle - QPoint(whole.width() // 2, whole.height() // 2)
    corner = _inside(QRect(start if centre else dialog.frameGeometry().topLeft(), whole), area)
    dialog.move(corner)  # a window's move() places its frame's top left corner


def place_beside(dialog: QWidget, parent: QWidget | None, reading: QSize, share: float) -> None:
    """Size a dialog to its content (at least `reading`, for what it shows scrolls), at most
    `share` of its screen's available area, and put it at the top right of its parent: the
    parent's left side (its runs and their state) and its status bar stay in view beside it."""
    screen = (parent.screen() if parent is not None else None) or dialog.screen()
    area = (screen or QGuiApplication.primaryScreen()).availableGeometry()
    wanted = dialog.sizeHint().expandedTo(reading)
    width = max(dialog.minimumWidth(), min(wanted.width(), int(area.width() * share)))
    height = max(dialog.minimumHeight(), min(wanted.height(), int(area.height() * share)))
    dialog.resize(width, height)
    whole = QSize(width, height) + FRAME_ALLOWANCE
    if parent is None:
        corner = area.center() - QPoint(whole.width() // 2, whole.height() // 2)
    else:
        frame = parent.frameGeometry()
        corner = QPoint(frame.right() + 1 - whole.width(), frame.top())
    dialog.move(_inside(QRect(corner, whole), area))


def snug_width(button: QPushButton) -> int:
    """The width a push button needs for its whole text and frame: styles widen every text
    button to 75-80 px, which a narrow row of short captions cannot afford."""
    style = button.style()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, None, button)
    frame = style.pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None, button)
    return button.fontMetrics().horizontalAdvance(button.text()) + 2 * (margin + frame) + 4


class WholeScroll(QScrollArea):
    """A page that scrolls only when the screen is too small for it: it asks for the whole
    page's size (a plain QScrollArea asks for a fixed, smaller one and always scrolls)."""

    def __init__(self, page: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(page)
        self._in_view: QWidget | None = None
        page.installEventFilter(self)  # its layout asks again: a wrapped message grew
        self._keep_page_whole()

    def keep_in_view(self, widget: QWidget) -> None:
        """Scroll `widget` (a message just shown) into view, now and as the layout settles."""
        self._in_view = widget
        self.ensureWidgetVisible(widget, 0, 0)

    def _keep_page_whole(self) -> None:
        """Never squeeze the page's boxes below what they need at this width, wrapped text
        included (a layout's own minimum ignores height for width): scroll instead."""
        page = self.widget()
        layout = page.layout() if page is not None else None
        if page is None or layout is None:
            return
        least = layout.totalMinimumSize()
        width = max(self.viewport().width(), least.width())
        tall = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else -1
        page.setMinimumSize(
            least.width(), max(least.height(), tall, layout.totalSizeHint().height())
        )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        settled = super().eventFilter(watched, event)
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self._keep_page_whole()
            if self._in_view is not None:  # once the page has its new geometry
                QTimer.singleShot(0, self._show_in_view)
        return settled

    def _show_in_view(self) -> None:
        if self._in_view is not None:
            self.ensureWidgetVisible(self._in_view, 0, 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._keep_page_whole()

    def sizeHint(self) -> QSize:
        page = self.widget()
        hint = page.sizeHint() if page is not None else QSize(0, 0)
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(hint.width() + bar, hint.height())

    def minimumSizeHint(self) -> QSize:
        page = self.widget()
        width = page.minimumSizeHint().width() if page is not None else 0
        return QSize(width + self.verticalScrollBar().sizeHint().width(), 120)
