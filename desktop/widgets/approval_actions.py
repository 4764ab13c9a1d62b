"""The approval dialog's decision area: the "Always allow" row and a stack of button rows.

The stack has one page per step of a decision: MAIN offers Edit…, Reject…, Request changes…,
Close and Approve; REJECT asks for the reason; REMEMBER confirms approving and creating an
"Always allow" rule; EDIT is the edit panel's row; CHANGES asks for the note sent back to the
agent. Going to a page and back happens here; what each decision does
is the dialog's business.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QWidget,
)

from agent_core.contract.views import ApprovalView
from desktop.widgets.approval_parts import label, row
from desktop.widgets.approval_text import SCOPES, rule_text

MAIN, REJECT, REMEMBER, EDIT, CHANGES = range(5)  # pages of the action area


class RememberRow(QWidget):
    """The "Always allow for this folder" box, its scope, and the exact rule approving creates."""

    def __init__(self, proposal: Callable[[], ApprovalView | None]) -> None:
        super().__init__()
        self._proposal = proposal  # the proposal shown now, read whenever the rule is described
        self.remember_check = QCheckBox(self.tr("Always allow for this folder"))
        self.scope_combo = QComboBox()
        for value, caption in SCOPES:
            self.scope_combo.addItem(caption, value)
        self.scope_label = label(wrap=True, style="color: #57606a;")
        self.remember_check.toggled.connect(self.update_rule)
        self.scope_combo.currentIndexChanged.connect(self.update_rule)
        box = QHBoxLayout(self)  # as approval_parts.row lays it out: the wrapped label grows
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.remember_check)
        box.addWidget(self.scope_combo)
        box.addWidget(self.scope_label, 1)

    def update_rule(self) -> None:
        proposal = self._proposal()
        mcp = proposal is not None and str(proposal["tool"]).startswith("mcp__")
        self.remember_check.setText(
            self.tr("Always allow this tool") if mcp else self.tr("Always allow for this folder")
        )
        checked = self.remember_check.isChecked()
        self.scope_combo.setVisible(checked)
        rule = rule_text(self._proposal(), self.scope_combo.currentData())
        self.scope_label.setText(self.tr("Rule: {rule}").format(rule=rule) if checked else "")

    def scope(self) -> str | None:
        """The scope of the rule to create when approving; None when nothing is remembered."""
        return self.scope_combo.currentData() if self.remember_check.isChecked() else None


class ApprovalActions(QStackedWidget):
    def __init__(self, edit_actions: QWidget) -> None:
        super().__init__()
        self.edit_button = QPushButton(self.tr("&Edit…"))
        self.reject_button = QPushButton(self.tr("&Reject…"))
        self.request_changes_button = QPushButton(self.tr("Request c&hanges…"))
        self.request_changes_button.setToolTip(
            self.tr(
                "Send this proposal back with a note: nothing is written, the run goes on and "
                "the agent proposes again (a person decides again)."
            )
        )
        self.reviewer_label = label(rich=True)
        self.close_button = QPushButton(self.tr("Close"))
        self.approve_button = QPushButton(self.tr("Approve  (Ctrl+Shift+A)"))
        self.approve_button.setStyleSheet(
            "QPushButton:enabled { background: #1a7f37; color: white; font-weight: bold;"
            " padding: 6px 16px; }"
        )
        self.addWidget(
            row(
                self.edit_button,
                self.reject_button,
                self.request_changes_button,
                None,
                self.reviewer_label,
                self.close_button,
                self.approve_button,
            )
        )
        self.reason_edit = QLineEdit(
            placeholderText=self.tr("Why is this write refused? (required)")
        )
        self.reject_back = QPushButton(self.tr("Back"))
        self.confirm_reject_button = QPushButton(self.tr("Reject"))
        self.addWidget(
            row(
                QLabel(self.tr("Reason:")),
                self.reason_edit,
                self.reject_back,
                self.confirm_reject_button,
            )
        )
        self.remember_confirm_label = label(rich=True, wrap=True)
        self.remember_back = QPushButton(self.tr("Back"))
        self.confirm_remember_button = QPushButton(self.tr("Approve and remember"))
        self.addWidget(
            row(self.remember_confirm_label, self.remember_back, self.confirm_remember_button)
        )
        self.addWidget(edit_actions)
        self.note_edit = QLineEdit(
            placeholderText=self.tr("What should the agent change? (required)")
        )
        self.changes_back = QPushButton(self.tr("Back"))
        self.confirm_changes_button = QPushButton(self.tr("Send back for changes"))
        self.addWidget(
            row(
                QLabel(self.tr("Note:")),
                self.note_edit,
                self.changes_back,
                self.confirm_changes_button,
            )
        )
        self.request_changes_button.clicked.connect(lambda: self.show_page(CHANGES))
        self.changes_back.clicked.connect(lambda: self.show_page(MAIN))
        self.reject_button.clicked.connect(lambda: self.show_page(REJECT))
        self.reject_back.clicked.connect(lambda: self.show_page(MAIN))
        self.remember_back.clicked.connect(lambda: self.show_page(MAIN))

    def show_page(self, page: int) -> None:
        self.setCurrentIndex(page)
        if page == REJECT:
            self.reason_edit.setFocus()
        elif page == CHANGES:
            self.note_edit.setFocus()

    def show_reviewer(self, reviewer: str) -> None:
        self.reviewer_label.setText(
            self.tr("Deciding as <b>{reviewer}</b>").format(reviewer=escape(reviewer))
        )
        self.reviewer_label.setMinimumWidth(self.reviewer_label.sizeHint().width())
