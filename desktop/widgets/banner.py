"""Banners above the work area, alerts, and the prompts that bring a person to a waiting run.

Banners offer recoveries, show errors and point at runs that wait for someone.

They never block: a banner stays until acted on or closed (errors can time out), and a banner
shown again under the same key replaces the old one instead of stacking copies.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QIcon
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QSystemTrayIcon,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import ApprovalView, RunView
from desktop import theme
from desktop.i18n import core_words
from desktop.models import agent_labels
from desktop.models.event_text import cut_words
from desktop.models.visible_text import visible_line

if TYPE_CHECKING:
    from desktop.bridge import Bridge
    from desktop.context import AppContext
    from desktop.widgets.approval_guard import ReadGuard

translate = QCoreApplication.translate
LEVEL_COLOURS = {
    "info": (47, 123, 230),
    "success": (46, 157, 79),
    "warning": (217, 154, 0),
    "recovery": (232, 119, 46),
    "error": (214, 69, 69),
}
LEVEL_GLYPHS = {"info": "ℹ", "success": "✓", "warning": "⚠", "recovery": "↻", "error": "✖"}

Action = tuple[str, Callable[[], None]]


class Banner(QFrame):
    closed = Signal()

    def __init__(
        self,
        level: str,
        text: str,
        actions: Sequence[Action] = (),
        *,
        closable: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.level = level
        r, g, b = LEVEL_COLOURS.get(level, LEVEL_COLOURS["info"])
        self.setObjectName("banner")
        glyph_colour = theme.text_colour(QColor(r, g, b).name())  # 4.5:1 on the window
        self.setStyleSheet(
            f"QFrame#banner {{ background: rgba({r},{g},{b},38);"
            f" border: 1px solid rgba({r},{g},{b},150);"
            " border-radius: 6px; }"
            f" QLabel#glyph {{ color: {glyph_colour}; font-size: 15px; font-weight: bold; }}"
        )
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 6, 6)
        row.setSpacing(8)
        glyph = QLabel(LEVEL_GLYPHS.get(level, "ℹ"))
        glyph.setObjectName("glyph")
        row.addWidget(glyph)
        self.label = QLabel(text)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # a question's "<b>" stays text
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.label, 1)
        self.buttons: dict[str, QPushButton] = {}
        for caption, callback in actions:
            button = QPushButton(caption)
            button.clicked.connect(callback)
            row.addWidget(button)
            self.buttons[caption] = button
        if closable:
            close = QToolButton()
            close.setText("✕")
            close.setAutoRaise(True)
            close.setToolTip(self.tr("Dismiss"))
            close.clicked.connect(self.dismiss)
            row.addWidget(close)

    @property
    def text(self) -> str:
        return self.label.text()

    def dismiss(self) -> None:
        self.hide()
        self.closed.emit()
        self.deleteLater()


class BannerArea(QWidget):
    """A vertical stack of banners keyed by purpose ("interrupted", "error", "approval", ...)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(4)
        self._banners: dict[str, Banner] = {}
        self.setVisible(False)

    def show_banner(
        self,
        key: str,
        level: str,
        text: str,
        actions: Sequence[Action] = (),
        *,
        closable: bool = True,
        timeout_ms: int | None = None,
    ) -> Banner:
        self.hide_banner(key)
        banner = Banner(level, text, actions, closable=closable, parent=self)
        banner.closed.connect(lambda: self._forget(key, banner))
        self._banners[key] = banner
        self._layout.addWidget(banner)
        self.setVisible(True)
        if timeout_ms:
            QTimer.singleShot(timeout_ms, banner, lambda: self.hide_banner(key, banner))
        return banner

    def hide_banner(self, key: str, only: Banner | None = None) -> None:
        banner = self._banners.get(key)
        if banner is not None and (only is None or banner is only):
            banner.dismiss()

    def banner(self, key: str) -> Banner | None:
        return self._banners.get(key)

    def keys(self) -> list[str]:
        return list(self._banners)

    def _forget(self, key: str, banner: Banner) -> None:
        if self._banners.get(key) is banner:
            del self._banners[key]
        self._layout.removeWidget(banner)
        self.setVisible(bool(self._banners))


class Notifier:
    """Tells a person who is looking elsewhere that a run waits for them: a tray message where
    the desktop has a tray, else the window asks for attention (taskbar flash, dock bounce)."""

    def __init__(self, window: QWidget, icon: QIcon) -> None:
        self.window = window
        self.icon = icon
        self._tray: QSystemTrayIcon | None = None
        # True: desktop notifications (desktop.notifications) tell instead, or are turned off.
        self.handled_elsewhere: Callable[[], bool] = lambda: False

    def alert(self, title: str, text: str) -> None:
        if not self.handled_elsewhere() and QSystemTrayIcon.isSystemTrayAvailable():
            if self._tray is None:
                self._tray = QSystemTrayIcon(self.icon, self.window)
                self._tray.setToolTip("BriefDesk")
                self._tray.messageClicked.connect(self._raise_window)
            self._tray.show()
            self._tray.showMessage(title, text, self.icon, 10_000)
        else:
            QApplication.alert(self.window, 0)

    def _raise_window(self) -> None:
        self.window.showNormal()
        self.window.raise_()
        self.window.activateWindow()


def short_target(approval: ApprovalView, run: RunView) -> str:
    """The target relative to the run's artifacts folder when it is inside it (most are)."""
    target = str(approval.get("target") or "")
    root = str(run.get("artifacts") or "")
    if root and target.startswith(root.rstrip("/") + "/"):
        return target[len(root.rstrip("/")) + 1 :]
    return target


class PersonPrompts:
    """When a run waits for a person: alert once, keep a banner with the way to act, and open
    the approval or question dialog for runs this window drove. The dialogs do their reads and
    writes through the bridge; after a decision or an answer the run is resumed here.

    It is handed what it uses (the window only as the dialogs' parent), never the main window
    that builds it: knowing that would be an import cycle."""

    def __init__(
        self,
        window: QWidget,
        *,
        bridge: Bridge,
        context: AppContext,
        banners: BannerArea,
        notifier: Notifier,
        run_guard: ReadGuard,
    ) -> None:
        self.window, self.bridge, self.context = window, bridge, context
        self.banners, self.notifier, self.run_guard = banners, notifier, run_guard
        self._alerted: set[str] = set()
        self._opened: set[str] = set()
        self._banner_run: str | None = None
        self._dialog: QWidget | None = None
        self._dialog_run: str | None = None  # the run whose dialog `dialog` is

    @staticmethod
    def key_of(run: RunView) -> str | None:
        if run.get("status") == RunStatus.WAITING_APPROVAL:
            approvals = run.get("approvals") or []
            return f"approval:{approvals[0]['id']}" if approvals else None
        if run.get("status") == RunStatus.WAITING_INPUT:
            return f"question:{run['run_id']}:{run.get('question_pending')}"
        return None

    def announce(self, run: RunView, *, alert: bool) -> None:
        key = self.key_of(run)
        if key is None:
            return
        # Words from the run and the model: control characters escaped, never raw.
        question = visible_line(cut_words(str(run.get("question") or ""), 70))
        if run["status"] == RunStatus.WAITING_APPROVAL:
            approval = run["approvals"][0]
            target = visible_line(short_target(approval, run))
            text = translate(
                "PersonPrompts", "“{question}” waits for approval of {tool} → {target}"
            )
            if agent_labels.is_agent(run.get("agent")):  # "Claude Code in ~/app waits …"
                text = translate(
                    "PersonPrompts", "{session} waits for approval of {tool} → {target}"
                )
                question = agent_labels.session_text(str(run.get("agent")), run.get("cwd"))
            text = text.format(
                question=question, session=question, tool=approval.get("tool"), target=target
            )
            caption = translate("PersonPrompts", "Review approval…")
        else:
            text = translate("PersonPrompts", "“{question}” waits for an answer: {asked}").format(
                question=question, asked=visible_line(str(run.get("question_pending") or ""))
            )
            caption = translate("PersonPrompts", "Answer…")
        self.banners.show_banner(
            "person", "warning", text, [(caption, lambda: self.open_for(run, force=True))]
        )
        self._banner_run = run["run_id"]
        if alert and key not in self._alerted:
            self._alerted.add(key)
            self.notifier.alert(translate("PersonPrompts", "BriefDesk needs you"), text)

    def withdraw(self, run_id: str) -> None:
        if self._banner_run == run_id:
            self.banners.hide_banner("person")
            self._banner_run = None

    @property
    def dialog(self) -> QWidget | None:
        """The dialog last opened, while it exists (it deletes itself when closed)."""
        dialog = self._dialog
        return dialog if dialog is not None and shiboken6.isValid(dialog) else None

    @dialog.setter
    def dialog(self, dialog: QWidget | None) -> None:
        self._dialog = dialog

    def settled(self, run_id: str) -> None:
        """The run's decision or answer landed (maybe from another process): nothing is left
        to ask, so the banner goes and an open dialog for it closes."""
        self.withdraw(run_id)
        dialog = self.dialog  # None when a decision made in it closed (and deleted) it already
        if self._dialog_run == run_id:
            self.dialog, self._dialog_run = None, None
            if dialog is not None:
                open_elsewhere = dialog.isVisible()
                approval_id = getattr(dialog, "approval_id", None)
                dialog.close()
                if open_elsewhere and isinstance(approval_id, str):
                    self._say_who_decided(run_id, approval_id)

    def _say_who_decided(self, run_id: str, approval_id: str) -> None:
        """The dialog closed under the person's eyes: say who decided, and how."""
        from desktop.widgets.approval_text import decided_how

        run = self.context.run(run_id)
        asked = run.get("question") if run is not None else None
        question = visible_line(cut_words(str(asked or ""), 70))

        def done(approval: ApprovalView) -> None:
            level, how = decided_how(approval)
            text = translate(
                "PersonPrompts", "Decided elsewhere: “{question}” was {how}. Its dialog closed."
            ).format(question=question, how=how)
            self.banners.show_banner("decided", level, text)

        self.bridge.submit(lambda ws: ws.get_approval(approval_id), done, lambda _exc: None)

    def open_for(self, run: RunView, *, force: bool = False) -> None:
        key = self.key_of(run)
        if key is None or (key in self._opened and not force):
            return
        self._opened.add(key)
        self.announce(run, alert=True)
        if run["status"] == RunStatus.WAITING_APPROVAL:
            self._open_approval(run, invited=force)
        else:
            self._open_question(run, invited=force)

    # -- approval -------------------------------------------------------------------------------

    def _open_approval(self, run: RunView, *, invited: bool = False) -> None:
        approval = run["approvals"][0]
        try:
            import desktop.widgets.approval_dialog  # noqa: F401
        except ImportError:
            self._fallback_approval(run["run_id"], approval)
            return
        self.open_approval(run["run_id"], approval["id"], invited=invited)

    def open_approval(self, run_id: str, approval_id: str, *, invited: bool = True) -> None:
        """The full dialog for one proposal (the inbox names it by id: a run may have more)."""
        from desktop.widgets.approval_dialog import ApprovalDialog

        reviewer = str(self.context.settings.get("reviewer") or "reviewer")
        current = self.dialog
        if (
            isinstance(current, ApprovalDialog)
            and shiboken6.isValid(current)
            and current.isVisible()
            and current.approval_id == approval_id
        ):
            current.present()  # one window per proposal: bring it forward, guard again
            return
        dialog = ApprovalDialog(self.bridge, approval_id, reviewer, self.window)
        dialog.decided.connect(lambda _approval_id, _status: self._resume(run_id))
        self._show(dialog, run_id, invited=invited, takes_keys=True)

    def _fallback_approval(self, run_id: str, approval: ApprovalView) -> None:
        box = QMessageBox(self.window)
        box.setWindowTitle(translate("PersonPrompts", "Approve this action?"))
        box.setIcon(QMessageBox.Icon.Question)
        box.setText(
            f"<b>{approval.get('tool')}</b> → {approval.get('target') or ''}"
            f"<br>{core_words.reason(approval.get('reason', ''))}"
        )
        box.setDetailedText(json.dumps(approval.get("args"), indent=2, ensure_ascii=False))
        approve = box.addButton(
            translate("PersonPrompts", "Approve"), QMessageBox.ButtonRole.AcceptRole
        )
        reject = box.addButton(
            translate("PersonPrompts", "Reject"), QMessageBox.ButtonRole.DestructiveRole
        )
        box.addButton(translate("PersonPrompts", "Later"), QMessageBox.ButtonRole.RejectRole)

        def finished(_result: int) -> None:
            clicked = box.clickedButton()
            if clicked in (approve, reject):
                self.context.decide_and_resume(approval["id"], run_id, clicked is approve)

        box.finished.connect(finished)
        self._show(box)

    # -- question -------------------------------------------------------------------------------

    def _open_question(self, run: RunView, *, invited: bool = False) -> None:
        self.open_question(run["run_id"], str(run.get("question_pending") or ""), invited=invited)

    def open_question(self, run_id: str, question: str, *, invited: bool = True) -> None:
        try:
            from desktop.widgets.question_dialog import QuestionDialog
        except ImportError:
            box = QInputDialog(self.window)
            box.setWindowTitle(translate("PersonPrompts", "The agent asks"))
            box.setLabelText(question)
            box.textValueSelected.connect(lambda text: self.context.answer_and_resume(run_id, text))
            self._show(box)
            return
        dialog = QuestionDialog(self.bridge, run_id, question, self.window)
        dialog.answered.connect(lambda answered_run: self._resume(answered_run))
        self._show(dialog, run_id, invited=invited)

    def _resume(self, run_id: str) -> None:
        self.withdraw(run_id)
        run = self.context.run(run_id)
        if run is not None and agent_labels.is_agent(run.get("agent")):
            return  # an agent's session goes on when its hook reads the decision, not here
        self.context.continue_run(run_id)

    def _show(
        self,
        dialog: QWidget,
        run_id: str | None = None,
        *,
        invited: bool = False,
        takes_keys: bool = False,
    ) -> None:
        """Non-modal, so the main window keeps working. Asked for, it comes forward focused;
        an approval dialog that opened by itself takes the keyboard too (nothing in it takes
        typed text, the read guard holds its decisions, Escape closes it), keys meant for it
        kept from the window behind; a question appears without taking the keys the person is
        typing (its answer box would catch them)."""
        from desktop.widgets.quiet_show import present, show_taking_keys, show_without_taking_keys

        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog = dialog
        self._dialog_run = run_id
        if invited:
            present(dialog)
        elif takes_keys:
            show_taking_keys(dialog, self.window)
            self.run_guard.restart()  # a Run key pressed before it showed starts nothing
        else:
            show_without_taking_keys(dialog)
            # keys pressed now were meant for it: they must not start a run in the main window
            self.run_guard.restart()
