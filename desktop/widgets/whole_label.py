"""A wrapped label that is never cut off: its minimum height is what its text needs.

QLabel's word wrap gives a height for a width, but layouts that do not ask for it (a row nested
in a form, a tab page) hand the label one line's height: the Settings dialog's "Test connection"
answer lost its end that way. Holding the minimum height at `heightForWidth(width())` makes
every layout above it make room.
"""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class WholeLabel(QLabel):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._hold_height()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._hold_height()

    def _hold_height(self) -> None:
        needed = self.heightForWidth(self.width()) if self.text() else 0
        if needed > 0 and needed != self.minimumHeight():
            self.setMinimumHeight(needed)
        elif needed <= 0 and self.minimumHeight():
            self.setMinimumHeight(0)
