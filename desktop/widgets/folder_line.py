"""A folder's path on one line: cut in the middle when the line is short (the folder's own
name, at the end, stays), whole in its tooltip.

A wrapped QLabel cannot break a path (no spaces), so its width would be the whole path's and
it would widen the narrow side tab that holds it.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from desktop.models.visible_text import visible_line


class FolderLine(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def set_path(self, path: str) -> None:
        self.path = visible_line(path)  # a name's control characters shown escaped
        self.setToolTip(self.path)
        self._elide()

    def minimumSizeHint(self) -> QSize:
        return QSize(40, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(
            self.path, Qt.TextElideMode.ElideMiddle, max(self.width(), 40)
        )
        if shown != self.text():
            super().setText(shown)
