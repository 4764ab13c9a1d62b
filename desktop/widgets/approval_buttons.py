"""The approval dialog's decision buttons under the read guard: fixed in size and place.

When the guard ended, Approve once widened (a longer text, and a bold, padded style that applied
only while enabled) and slid under the pointer where Close had been: a newcomer approved a write
that way. So every button of the action area gets a fixed size from the start: the widest and
tallest of every text it can show (each countdown step of the guard included) in either enabled
state, for the font and style it has now. The guard then changes only enabled states and texts,
and hides or shows nothing. A page of the action area that puts a decision under the pointer
(Approve's click shows "Approve and remember" where Approve was, Edit… shows "Discard edits"
where Edit… was) restarts the guard as a first show does, so a double click never decides
twice. Every control also gets an accessible name (the guarded ones a description too), so a
screen reader reads the dialog and a test finds its buttons by name.

`DecisionButtons` is handed the parts it sizes, names and enables (the action area, the edit
panel, the "Always allow" row, the guard, the window they sit in), never the dialog: the dialog
builds it, so knowing the dialog would be an import cycle.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QMargins
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractButton, QPushButton, QWidget

from desktop.i18n import without_mnemonic
from desktop.widgets import approval_guard
from desktop.widgets.approval_actions import EDIT, MAIN, REMEMBER, ApprovalActions, RememberRow
from desktop.widgets.approval_text import is_revert

if TYPE_CHECKING:
    from agent_core.contract.views import ApprovalView
    from desktop.widgets.approval_edit_panel import ApprovalEditPanel
    from desktop.widgets.approval_guard import ReadGuard

translate = QCoreApplication.translate
APPROVE_KEYS = "Ctrl+Shift+A"  # deliberately not Run's Ctrl+Enter, and not a lone Return
APPROVE, APPROVE_EDITED = "Approve", "Approve edited"  # captions, and their accessible names
APPROVE_REMEMBER = "Approve and remember"
# pages whose buttons decide at a click where the previous page had a button
GUARDED_PAGES = frozenset({MAIN, REMEMBER, EDIT})


def keys_text() -> str:
    return QKeySequence(APPROVE_KEYS).toString(QKeySequence.SequenceFormat.NativeText)


def waiting_text(caption: str, remaining: float) -> str:
    return QCoreApplication.translate("ApprovalButtons", "{caption} (in {seconds} s)").format(
        caption=caption, seconds=f"{remaining:.1f}"
    )


def ready_text(caption: str) -> str:
    return f"{caption}  ({keys_text()})"


def guard_seconds() -> float:
    return approval_guard.GUARD_MS / 1000


def texts_of(caption: str) -> list[str]:
    """Every text a guarded button shows: each tenth of the countdown, and ready."""
    tenths = math.ceil(guard_seconds() * 10)
    return [waiting_text(caption, step / 10) for step in range(tenths + 1)] + [ready_text(caption)]


def fix_size(button: QPushButton, texts: list[str]) -> None:
    """The widest and tallest of `texts`, enabled or not, become the button's one size (its
    style pads Approve only while enabled)."""
    button.ensurePolished()
    shown, enabled, widest, tallest = button.text(), button.isEnabled(), 0, 0
    for state in (False, True):
        button.setEnabled(state)
        for text in texts:
            button.setText(text)
            hint = button.sizeHint()
            widest, tallest = max(widest, hint.width()), max(tallest, hint.height())
    button.setText(shown)
    button.setEnabled(enabled)
    button.setFixedSize(widest, tallest)


class DecisionButtons:
    """Sizes, names and enables the dialog's buttons; the dialog decides what a click does."""

    def __init__(
        self,
        window: QWidget,
        actions: ApprovalActions,
        edit_panel: ApprovalEditPanel,
        remember: RememberRow,
        guard: ReadGuard,
        proposal: Callable[[], ApprovalView | None],
    ) -> None:
        self.window, self.actions, self.edit_panel = window, actions, edit_panel
        self.remember, self.guard, self.proposal = remember, guard, proposal

    def guarded(self) -> dict[QPushButton, str]:
        """The buttons whose text counts the guard down, with their captions."""
        # The captions as shown (APPROVE... are the English source texts).
        return {
            self.actions.approve_button: QCoreApplication.translate("ApprovalButtons", "Approve"),
            self.edit_panel.approve_edited_button: QCoreApplication.translate(
                "ApprovalButtons", "Approve edited"
            ),
            self.actions.confirm_remember_button: QCoreApplication.translate(
                "ApprovalButtons", "Approve and remember"
            ),
        }

    def watch_pages(self) -> None:
        """Call once the action area is built: a page switch is a first show for its buttons."""
        self.actions.currentChanged.connect(self._page_shown)

    def _page_shown(self, page: int) -> None:
        if page in GUARDED_PAGES:
            self.guard.restart()

    def fix_sizes(self) -> None:
        """Call once the buttons are in the dialog (its font and style reach them), and again
        when the font or style changes; never because of the guard."""
        window, guarded = self.window, self.guarded()
        for button in self.actions.findChildren(QPushButton):
            captions = guarded.get(button)
            fix_size(button, texts_of(captions) if captions else [button.text()])
        # never narrower than the row: a squeezed dialog would cut Approve off at its edge
        layout, row = window.layout(), self.actions.minimumSizeHint().width()
        margins = layout.contentsMargins() if layout is not None else QMargins()
        window.setMinimumWidth(max(window.minimumWidth(), row + margins.left() + margins.right()))

    def name_controls(self, *, diff: QWidget, brief: QWidget, tabs: QWidget, args: QWidget) -> None:
        """An accessible name for every control (Orca reads it; tests find buttons by it); the
        dialog's own views (`diff`, `brief`, `tabs`, `args`) are named here too, so the dialog's
        words for a screen reader stay in one place."""
        actions, panel = self.actions, self.edit_panel
        seconds = f"{guard_seconds():g}"
        for button, caption in self.guarded().items():
            button.setAccessibleName(caption)
            button.setAccessibleDescription(
                translate(
                    "ApprovalButtons",
                    "{caption} is enabled after {seconds} seconds, so that a key meant for "
                    "another window never approves this write. Shortcut: {keys}.",
                ).format(caption=caption, seconds=seconds, keys=keys_text())
            )
        actions.close_button.setAccessibleDescription(
            translate(
                "ApprovalButtons",
                "Closes without deciding; enabled after {seconds} seconds (Escape closes at once).",
            ).format(seconds=seconds)
        )
        names: list[tuple[QWidget, str]] = [
            (diff, translate("ApprovalButtons", "Changes to the file")),
            (
                brief,
                translate("ApprovalButtons", "The brief as it reads, with links to its sources"),
            ),
            (tabs, translate("ApprovalButtons", "Proposed content")),
            (args, translate("ApprovalButtons", "Arguments of the tool call")),
            (panel.path_edit, translate("ApprovalButtons", "Path inside the artifacts folder")),
            (panel.content_edit, translate("ApprovalButtons", "Edited content")),
            (self.remember.scope_combo, translate("ApprovalButtons", "Scope of the rule")),
            (actions.reason_edit, translate("ApprovalButtons", "Reason for rejecting")),
            (actions.note_edit, translate("ApprovalButtons", "Note for the agent")),
        ]
        for widget, name in names:
            widget.setAccessibleName(name)
        for control in self.window.findChildren(QAbstractButton):  # the rest: what they say
            if not control.accessibleName():
                control.setAccessibleName(without_mnemonic(control.text()))

    def enable(self, usable: bool) -> None:
        """The buttons that decide: usable ones only once the read guard has passed."""
        a, panel = self.actions, self.edit_panel
        # A revert is approved or rejected as it is: never edited, sent back or remembered.
        whole = not is_revert(self.proposal())
        self.remember.remember_check.setEnabled(usable and whole)
        self.remember.scope_combo.setEnabled(usable and whole)
        seen = not self.guard.holds()  # no button decides, or closes, during the read guard
        for button in (a.approve_button, a.reject_button, a.confirm_remember_button):
            button.setEnabled(usable and seen)
        a.edit_button.setEnabled(usable and seen and whole)
        a.close_button.setEnabled(seen)
        panel.cancel_edit_button.setEnabled(seen)  # where Edit… was: a double click keeps edits
        a.confirm_reject_button.setEnabled(usable and seen and bool(a.reason_edit.text().strip()))
        a.request_changes_button.setEnabled(usable and seen and whole)
        a.confirm_changes_button.setEnabled(usable and seen and bool(a.note_edit.text().strip()))
        panel.approve_edited_button.setEnabled(usable and seen and panel.valid_args is not None)
        self.show_guard(usable and not seen)

    def show_guard(self, waiting: bool) -> None:
        """Approve counts the guard down while it holds, then reads as itself again: only the
        text changes, inside the width fixed for all of them."""
        remaining = self.guard.remaining()
        for button, caption in self.guarded().items():
            button.setText(waiting_text(caption, remaining) if waiting else ready_text(caption))
        self.actions.approve_button.setToolTip(
            translate(
                "ApprovalButtons",
                "Approve this write ({keys}). It enables a moment after the proposal is "
                "shown, so that a key meant for another window never approves it.",
            ).format(keys=keys_text())
        )


def dialog_keys() -> list[tuple[str, str]]:
    """The dialog's keys, for Help ▸ Keyboard shortcuts: the shortcut its QShortcut is made
    with, Escape, and the mnemonics of the same action area the dialog builds."""
    native = QKeySequence.SequenceFormat.NativeText
    rows = [
        (
            translate(
                "ApprovalButtons",
                "Approve, Approve edited or Approve and remember, once the read guard has passed",
            ),
            keys_text(),
        ),
        (
            translate("ApprovalButtons", "Close without deciding (also during the read guard)"),
            QKeySequence(QKeySequence.StandardKey.Cancel).toString(native),
        ),
    ]
    area = ApprovalActions(QWidget())
    for button in area.findChildren(QPushButton):
        mnemonic = QKeySequence.mnemonic(button.text())
        if not mnemonic.isEmpty():
            rows.append((without_mnemonic(button.text()), mnemonic.toString(native)))
    area.deleteLater()
    return rows
