"""Small widget factories shared by the approval dialog's modules, so they look alike."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QWidget


def label(text: str = "", *, rich: bool = False, wrap: bool = False, style: str = "") -> QLabel:
    """A selectable label; plain text unless `rich` (proposal text is never parsed as HTML)."""
    made = QLabel(text)
    made.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    made.setWordWrap(wrap)
    made.setStyleSheet(style)
    made.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return made


def row(*items: QWidget | None) -> QWidget:
    """A margin-less row; None is a stretch, line edits and wrapped labels take the room left."""
    page = QWidget()
    box = QHBoxLayout(page)
    box.setContentsMargins(0, 0, 0, 0)
    for item in items:
        if item is None:
            box.addStretch(1)
        else:
            grows = isinstance(item, QLineEdit) or (isinstance(item, QLabel) and item.wordWrap())
            box.addWidget(item, 1 if grows else 0)
    return page
