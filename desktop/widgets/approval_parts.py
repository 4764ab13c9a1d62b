"""Small widget factories shared by the approval dialog's modules, so they look alike."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QLineEdit, QWidget


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


def details_grid(captions: list[tuple[str, str]]) -> tuple[QGridLayout, dict[str, QLabel]]:
    """Three (caption, value) pairs a row; the values by key, "—" until the proposal is read.
    The run's line wraps: a long question reads whole, never cut at the dialog's edge."""
    grid, values = QGridLayout(), {}
    grid.setHorizontalSpacing(14)
    for index, (caption, key) in enumerate(captions):
        grid_row, col = divmod(index, 3)
        grid.addWidget(label(caption, style="color: #57606a;"), grid_row, col * 2)
        values[key] = label("—", wrap=key == "run")
        grid.addWidget(values[key], grid_row, col * 2 + 1)
    for column, stretch in ((1, 2), (3, 1), (5, 1)):
        grid.setColumnStretch(column, stretch)
    return grid, values
