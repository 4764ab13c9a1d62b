"""A label whose text changes many times a second (a count) without laying the window out again.

A label with a free size tells its layout on every `setText`, and Qt carries that up to the
main window; a `QTabWidget` on the way repaints all of itself on each such request. Under a
flood of events the timeline's "N events" count did that once a slice: every slice repainted
the whole centre of the window (about 30 widgets). A widget whose minimum and maximum sizes are
equal keeps its text changes to itself, so this label holds a fixed size, widened (one layout)
only when a text needs more room than any before it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import QLabel, QWidget


class SteadyLabel(QLabel):
    def __init__(self, parent: QWidget | None = None, min_width: int = 0) -> None:
        super().__init__(parent)
        self._min_width = min_width

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit(self.minimumWidth())

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit(0)  # another font: the widest text so far may be narrower or wider now

    def _fit(self, at_least: int) -> None:
        hint = self.sizeHint()
        size = QSize(max(self._min_width, at_least, hint.width()), hint.height())
        if size != self.minimumSize() or size != self.maximumSize():
            self.setFixedSize(size)
