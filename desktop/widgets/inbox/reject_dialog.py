"""Reject a proposal from the inbox: a small dialog that will not reject without a reason.

Rejecting needs no guard (it writes nothing), but the reason goes to the audit log and to the
run's record, so a person must say why; Escape or Cancel leaves the proposal pending.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.views import InboxItemView
from desktop.models.visible_text import visible_line

MAX_REASON_CHARS = 10_000  # the contract's cap on notes and reasons


class ReasonEdit(QPlainTextEdit):
    """Alt+letter is a button's key, never text: Alt+R pressed while Reject is still disabled
    (no reason yet) must not type an "r" that then passes for a reason."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.AltModifier:
            event.ignore()
            return
        super().keyPressEvent(event)


class RejectDialog(QDialog):
    reject_with = Signal(str)  # the reason, stripped and never empty

    def __init__(self, item: InboxItemView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self.setWindowTitle(self.tr("Reject this proposal — BriefDesk"))
        self.setMinimumWidth(420)
        layout = QVBoxLayout(self)
        what = QLabel(
            self.tr("Reject {tool} → {target}?\nThe run “{question}” ends cancelled.").format(
                tool=visible_line(item["tool"]),
                target=visible_line(item.get("target") or ""),
                question=visible_line(item["question"]),
            )
        )
        what.setTextFormat(Qt.TextFormat.PlainText)  # a model's words stay text
        what.setWordWrap(True)
        layout.addWidget(what)
        prompt = QLabel(self.tr("Rea&son (required):"))
        layout.addWidget(prompt)
        self.reason_edit = ReasonEdit()
        self.reason_edit.setAccessibleName(self.tr("Reason for rejecting"))
        self.reason_edit.setTabChangesFocus(True)
        self.reason_edit.setFixedHeight(90)
        prompt.setBuddy(self.reason_edit)
        layout.addWidget(self.reason_edit)
        self.hint = QLabel(self.tr("Say why: the reason is kept with the decision."))
        self.hint.setWordWrap(True)
        layout.addWidget(self.hint)
        buttons = QDialogButtonBox()
        self.reject_button = QPushButton(self.tr("&Reject"))
        self.reject_button.setAccessibleName(self.tr("Reject with this reason"))
        self.reject_button.setEnabled(False)
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.setAccessibleName(self.tr("Cancel, keep it pending"))
        buttons.addButton(self.reject_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.reject_button.clicked.connect(self._reject_clicked)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.reason_edit.textChanged.connect(self._reason_changed)
        self.reason_edit.setFocus()

    def reason(self) -> str:
        return self.reason_edit.toPlainText().strip()

    def _reason_changed(self) -> None:
        reason = self.reason()
        too_long = len(reason) > MAX_REASON_CHARS
        self.reject_button.setEnabled(bool(reason) and not too_long)
        if too_long:
            self.hint.setText(self.tr("At most {n} characters, please.").format(n=MAX_REASON_CHARS))
        else:
            self.hint.setText(self.tr("Say why: the reason is kept with the decision."))

    def _reject_clicked(self) -> None:
        reason = self.reason()
        if not reason:  # the button is disabled then; a stray activation changes nothing
            return
        self.reject_with.emit(reason)
        self.accept()
