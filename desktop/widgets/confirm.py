"""Ask first: one shape for every confirmation of an action that cannot be undone (delete a run,
take over a run, revoke a rule). The dialog is window-modal but not blocking (`open`), Cancel is
the default (Return never confirms), and the action runs only on its own button."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget


def ask_first(
    parent: QWidget,
    *,
    title: str,
    text: str,
    action: str,
    on_confirm: Callable[[], None],
    icon: QMessageBox.Icon = QMessageBox.Icon.Question,
    role: QMessageBox.ButtonRole = QMessageBox.ButtonRole.AcceptRole,
) -> QMessageBox:
    """Open the question and return it (tests answer it); `on_confirm` runs after `action`."""
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Cancel, parent)
    confirm = box.addButton(action, role)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.finished.connect(lambda _result: on_confirm() if box.clickedButton() is confirm else None)
    box.open()
    return box
