"""The approval dialog: what will be written where, the diff against the file, and the decision.

Every Workspace call goes through `bridge.submit` (the GUI thread does no I/O). While open, the
dialog polls the proposal and the target's hash every second and listens to
`bridge.events_arrived`, so a decision made elsewhere (another process, the CLI), an expiry or a
file changed on disk shows at once. `decided(approval_id, status)` is emitted only for a decision
this dialog made; after "Approve edited" the id is that of the new, approved version.

Nothing is decided on what was not seen: for `GUARD_MS` after the dialog appears or what it
shows changes (a new proposal, the file on disk, an edit), no key or click decides or closes it
(Escape still closes it, deciding nothing); Approve counts the wait down, then enables. Approve
has its own shortcut (Ctrl+Shift+A), never Run's Ctrl+Enter, and Return clicks nothing.
Opened by itself, it takes the keyboard (banner.py): nothing in it takes typed text at first.
It opens at the top right of the main window, at most three quarters of the screen, so the
window's runs and their state stay in view beside it.

Texts: approval_text; editing: approval_edit_panel; buttons, "Always allow": approval_actions,
approval_buttons; an MCP call: approval_mcp; an external agent's call (Claude Code, Codex, Gemini
CLI): approval_agent, its file change shown by the same diff. This module lays them out, keeps
them live, decides. Each of those is handed what it uses; none imports this module.

Kept whole past 500 lines: it is one concept, the dialog that decides (its layout, its live
state and its decisions read one another's fields at every step).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontDatabase, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.events import EventKind
from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.views import ApprovalView, EventView
from desktop.jobs import Job
from desktop.widgets import approval_agent, approval_text, quiet_show
from desktop.widgets.approval_actions import EDIT, MAIN, REMEMBER, ApprovalActions, RememberRow
from desktop.widgets.approval_buttons import APPROVE_KEYS, DecisionButtons
from desktop.widgets.approval_edit_panel import ApprovalEditPanel
from desktop.widgets.approval_guard import ReadGuard
from desktop.widgets.approval_mcp import McpPart
from desktop.widgets.approval_parts import details_grid, label
from desktop.widgets.approval_revision import RevisionPart
from desktop.widgets.citation_links import BriefTabs
from desktop.widgets.diff_view import DiffView
from desktop.widgets.guarded_submit import OnError, submit_while_open
from desktop.widgets.window_fit import place_beside

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace
    from desktop.bridge import Bridge

T = TypeVar("T")

POLL_MS = 1000
# Enough to read a diff (it scrolls, the buttons stay); never more than three quarters of the
# screen, so the main window's state shows beside it.
READING_SIZE = QSize(900, 640)
SCREEN_SHARE = 0.75


class ApprovalDialog(QDialog):
    decided = Signal(str, str)  # approval_id, status

    def __init__(
        self, bridge: Bridge, approval_id: str, reviewer: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.bridge, self.approval_id, self.reviewer = bridge, approval_id, reviewer
        self.approval: ApprovalView | None = None
        self.info: approval_text.ReviewInfo | None = None
        self._alive, self._busy, self._poll_inflight = True, False, False
        self._shown: tuple[str, str, str | None] | None = None  # what the guard last restarted for
        self.guard = ReadGuard(self)
        self.guard.changed.connect(self._refresh_state)
        self.setWindowTitle(self.tr("Approve a write — BriefDesk"))
        self.setMinimumSize(640, 420)
        self._build()
        self._refresh_state()  # nothing loaded yet: every decision starts disabled
        place_beside(self, parent, READING_SIZE, SCREEN_SHARE)
        self._timer = QTimer(self, interval=POLL_MS)
        self._timer.timeout.connect(self._tick)
        self._timer.start()
        if getattr(bridge, "events_arrived", None) is not None:
            bridge.events_arrived.connect(self._on_events)
        self.reload()

    # -- layout -------------------------------------------------------------------------------

    def _build(self) -> None:
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.title_label = label(
            self.tr("Loading the proposal…"), rich=True, style="font-size: 17px;"
        )
        self.target_label = label(
            wrap=True,
            style=(
                "font-size: 14px; font-weight: bold; padding: 4px 6px; color: #0b2e6b;"
                " background: #eef4ff; border: 1px solid #b6cdf5; border-radius: 4px;"
            ),
        )
        self.target_label.setFont(mono)
        self.banner = label(rich=True, wrap=True)
        self.banner.hide()
        self.newest_button = QPushButton(self.tr("Show the newest version"))
        self.newest_button.hide()
        self.newest_button.clicked.connect(self._show_newest)
        grid, self.details = details_grid(
            [(approval_text.detail_caption(caption), key) for caption, key in approval_text.DETAILS]
        )
        self.summary_label = label(rich=True, wrap=True)
        self.mcp = McpPart(self._resolve_done)  # an MCP call: its server, hints, "it did happen"
        self.agent = approval_agent.AgentPart()  # an agent's command, MCP call or fetch
        self.patch_files = approval_agent.PatchFiles()  # a patch of several files: which one
        self.patch_files.widget.currentIndexChanged.connect(self._show_patch_file)
        self.diff = DiffView()
        self.content_tabs = BriefTabs(self.diff, self.bridge)  # the diff, and the brief as read
        self.revision = RevisionPart(self.content_tabs, self)  # a revision: what was asked
        self.args_view = QPlainTextEdit(readOnly=True)  # arguments of tools other than save_brief
        self.args_view.setFont(mono)
        self.args_view.hide()
        self.edit_panel = self._build_edit_panel(mono)
        self.edit_panel.hide()
        splitter = QSplitter(Qt.Orientation.Vertical)
        for widget in (self.edit_panel, self.content_tabs, self.args_view):
            splitter.addWidget(widget)
        self.error_label = label(wrap=True, style="color: #b42318; font-weight: bold;")
        self.error_label.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.title_label)
        layout.addWidget(self.revision.label)
        layout.addWidget(self.target_label)
        banner_row = QHBoxLayout()  # a layout, not a widget: the wrapped label keeps its height
        banner_row.addWidget(self.banner, 1)
        banner_row.addWidget(self.newest_button)
        layout.addLayout(banner_row)
        layout.addLayout(grid)
        layout.addWidget(self.mcp.widget)
        layout.addWidget(self.agent.widget)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.patch_files.widget)
        layout.addWidget(splitter, 1)
        layout.addWidget(self._build_remember_row())
        layout.addWidget(self.error_label)
        layout.addWidget(self._build_actions())
        QShortcut(QKeySequence(APPROVE_KEYS), self).activated.connect(self._primary_action)
        for button in self.findChildren(QPushButton):
            button.setAutoDefault(False)  # Return clicks nothing: only a deliberate act decides
            button.setDefault(False)
        self.diff.browser.setFocus()  # the keyboard starts on what is read, never a text field
        self.action_stack.show_reviewer(self.reviewer)  # its width settles before the first show
        self.buttons = DecisionButtons(
            self,
            self.action_stack,
            self.edit_panel,
            self.remember_row,
            self.guard,
            lambda: self.approval,
        )
        tabs = self.content_tabs
        self.buttons.name_controls(
            diff=self.diff.browser, brief=tabs.brief, tabs=tabs, args=self.args_view
        )
        self.buttons.fix_sizes()
        self.buttons.watch_pages()

    def _build_edit_panel(self, mono: QFont) -> ApprovalEditPanel:
        panel = ApprovalEditPanel(self, self._submit, mono)
        # the panel's widgets stay reachable under their old names on the dialog
        self.path_caption, self.path_edit = panel.path_caption, panel.path_edit
        self.validation_label, self.content_edit = panel.validation_label, panel.content_edit
        self.highlighter = panel.highlighter
        self.cancel_edit_button = panel.cancel_edit_button
        self.approve_edited_button = panel.approve_edited_button
        panel.preview_changed.connect(self._show_edited)
        panel.validated.connect(self._refresh_state)
        # an edit changes what would be approved: it must be seen before "Approve edited"
        panel.path_edit.textEdited.connect(lambda _text: self.guard.restart())
        panel.content_edit.textChanged.connect(self.guard.restart)
        return panel

    def _build_remember_row(self) -> RememberRow:
        remember = RememberRow(lambda: self.approval)
        self.remember_check, self.scope_combo = remember.remember_check, remember.scope_combo
        self.scope_label = remember.scope_label
        self.remember_row = remember
        return remember

    def _build_actions(self) -> ApprovalActions:
        self.action_stack = actions = ApprovalActions(self.edit_panel.action_row)
        # its widgets stay reachable under their old names on the dialog
        self.edit_button, self.reject_button = actions.edit_button, actions.reject_button
        self.close_button, self.approve_button = actions.close_button, actions.approve_button
        self.reviewer_label, self.reason_edit = actions.reviewer_label, actions.reason_edit
        self.reject_back, self.remember_back = actions.reject_back, actions.remember_back
        self.confirm_reject_button = actions.confirm_reject_button
        self.remember_confirm_label = actions.remember_confirm_label
        self.confirm_remember_button = actions.confirm_remember_button
        self.approve_button.clicked.connect(self._on_approve_clicked)
        self.reason_edit.textChanged.connect(lambda _text: self._refresh_state())
        self.confirm_reject_button.clicked.connect(self._reject)
        # Enter in the reason submits, as the button would: not while it is disabled (guard)
        self.reason_edit.returnPressed.connect(self.confirm_reject_button.click)
        self.confirm_remember_button.clicked.connect(self._approve)
        self.edit_button.clicked.connect(self._start_edit)
        self.cancel_edit_button.clicked.connect(self._stop_edit)
        self.approve_edited_button.clicked.connect(self._approve_edited)
        self.close_button.clicked.connect(self.reject)
        # Request changes: a note back to the agent instead of a decision (the run goes on)
        self.request_changes_button = actions.request_changes_button
        self.note_edit = actions.note_edit
        self.confirm_changes_button = actions.confirm_changes_button
        self.note_edit.textChanged.connect(lambda _text: self._refresh_state())
        self.note_edit.returnPressed.connect(self._request_changes)
        self.confirm_changes_button.clicked.connect(self._request_changes)
        return actions

    # -- loading and live state ---------------------------------------------------------------

    def reload(self) -> None:
        approval_id = self.approval_id
        # with this desk's id: a proposal of another desk's run says so in the heading
        self._submit(lambda ws: approval_text.review_info(ws, approval_id), self._on_described)

    def _on_described(self, info: approval_text.ReviewInfo) -> None:
        self.info, self.approval = info, info["approval"]
        ap, run = info["approval"], info["run"]
        agent = approval_agent.agent_of(info)
        if agent is not None:
            self.title_label.setText(approval_agent.heading(info) + approval_text.desk_text(info))
        else:
            self.title_label.setText(approval_text.title_text(info))
        self.target_label.setText(approval_text.target_text(ap))
        for key, value in approval_text.detail_texts(ap, run, self.reviewer):
            self.details[key].setText(value)
        self.details["arg_hash"].setToolTip(ap["arg_hash"])
        if agent is not None:  # its session and folder, not the run's made-up question
            self.details["run"].setText(approval_agent.run_text(run))
        self.action_stack.show_reviewer(self.reviewer)
        self.revision.show_for(info, self.reviewer)
        self.mcp.show_for(info.get("mcp"))
        self.agent.show_for(info)
        brief_tab = self.content_tabs.indexOf(self.content_tabs.brief)
        self.content_tabs.setTabVisible(brief_tab, agent is None)  # an agent's file is no brief
        self.patch_files.widget.hide()  # shown again below for a patch of several files
        if self.edit_panel.isVisible():
            self.edit_panel.revalidate()  # the file may have changed: validate and diff again
        elif content_field := ap.get("content_field"):
            raw = ap["args"].get(content_field)  # null: a revert that removes the file
            content = "" if raw is None else str(raw)
            self._show_summary(content)
            self.content_tabs.show_brief(content, run["corpus"])
            self.diff.set_texts(
                info["current_text"],
                content,
                old_label=approval_text.old_label(info),
                new_label=self.tr("proposed content")
                if raw is not None
                else self.tr("(file removed)"),
            )
        elif approval_agent.is_file_change(info) and self.patch_files.show_for(info) is not None:
            self.args_view.hide()
            self.content_tabs.show()
            self._show_patch_file()
        else:
            self.summary_label.setText(self.tr("<b>Arguments</b>"))
            self.content_tabs.hide()
            self.args_view.show()
            self.args_view.setPlainText(approval_text.args_text(ap["args"]))
        self.remember_row.update_rule()
        self._update_countdown()
        if not self.args_view.isHidden() and self.focusWidget() is self.diff.browser:
            self.args_view.setFocus()
        shown = (ap["id"], ap["arg_hash"], info["current_hash"])
        if shown != self._shown:  # a new proposal, or the file it is diffed against changed
            self._shown = shown
            self.guard.restart()
        self._refresh_state()

    def _show_patch_file(self) -> None:
        """The diff of the file of an agent's change that is picked (the only one, mostly)."""
        picked = self.patch_files.picked()
        if picked is None or self.info is None:
            return
        current, after = picked["current_text"], picked["after_text"]
        self.summary_label.setText(approval_agent.change_summary(current, after or ""))
        self.diff.set_texts(
            current,
            after or "",
            old_label=self.tr("(no file yet)")
            if current is None and self.info["compared_with"] != "unknown_base"
            else approval_text.old_label(self.info),
            new_label=self.tr("after the change")
            if after is not None
            else self.tr("(file removed)"),
        )

    def _show_summary(self, content: str) -> None:
        self.summary_label.setText(approval_text.summary_text(content))

    def _show_edited(self, current: str | None, content: str) -> None:
        """A valid edit: summarise it and diff it against the file as it is now."""
        self._show_summary(content)
        self.content_tabs.show_brief(content, keep_corpus=True)
        old = self.tr("current file") if current is not None else self.tr("(no file yet)")
        self.diff.set_texts(current, content, old_label=old, new_label=self.tr("edited content"))

    def _tick(self) -> None:
        self._update_countdown()
        self._poll()

    def _poll(self) -> None:
        if self._poll_inflight or self.approval is None:
            return
        self._poll_inflight = True
        approval_id, target = self.approval_id, self.approval["target"]
        if self.info is not None and self.info["compared_with"] != "file":
            target = None  # another desk's file: this machine's copy (if any) is not it

        def work(ws: Workspace) -> tuple[ApprovalView, str | None]:
            return ws.get_approval(approval_id), ws.file_hash(target) if target else None

        def done(result: tuple[ApprovalView, str | None]) -> None:
            self._poll_inflight = False
            approval, hash_now = result
            known = self.approval
            shown_hash = self.info["current_hash"] if self.info is not None else None
            shows_file = bool(approval.get("content_field")) or (
                self.info is not None and approval_agent.is_file_change(self.info)
            )
            changed_on_disk = shows_file and hash_now != shown_hash
            if known is None or approval["id"] != known["id"]:
                return  # switched to the newest version meanwhile
            if changed_on_disk or approval["status"] != known["status"]:
                self.reload()  # decided, expired or superseded elsewhere, or the file changed
            else:
                self.approval = approval
                self._refresh_state()

        def failed(_exc: Exception) -> None:
            self._poll_inflight = False

        self._submit(work, done, failed)

    def _on_events(self, events: list[EventView]) -> None:
        if any(
            e.get("kind") in (EventKind.APPROVAL_DECIDED, EventKind.APPROVAL_REQUESTED)
            and (e.get("data") or {}).get("approval_id") == self.approval_id
            for e in events
        ):
            self._poll()
        ap = self.approval
        if (
            ap is not None
            and ap["status"] == ApprovalStatus.CHANGES_REQUESTED
            and any(
                e.get("kind") == EventKind.APPROVAL_REQUESTED and e.get("run_id") == ap["run_id"]
                for e in events
            )
        ):
            self.reload()  # sent back, and now maybe answered: the banner offers the revision

    def _update_countdown(self) -> None:
        if self.approval is None or self.approval["status"] != ApprovalStatus.PENDING:
            return
        text, remaining = approval_text.countdown_text(
            self.approval["expires_at"], datetime.now(UTC)
        )
        expires = self.details["expires"]
        expires.setText(text)
        expires.setToolTip(approval_text.expiry_tip(self.approval["expires_at"]))
        expires.setStyleSheet("color: #b42318; font-weight: bold;" if remaining < 60 else "")
        if remaining <= 0:
            self._refresh_state()

    def _refresh_state(self) -> None:
        """Enable or disable the decision, and say why, from the latest known proposal."""
        ap = self.approval
        if ap is None:  # still loading: nothing is shown, so nothing can be decided
            self._enable_actions(False)
            return
        level, message = approval_text.describe_status(ap, datetime.now(UTC))
        decidable = level is None
        if decidable and self.info is not None and self.info["target_changed"]:
            level, message = "warning", approval_text.changed_message(self.info)
        newest = self.info["newest_id"] if self.info is not None else None
        replaced = self.revision.replaced_text(ap, newest)  # announced, never swapped silently
        self.banner.setVisible(level is not None)
        self.banner.setStyleSheet(approval_text.BANNER_STYLES.get(level or "", ""))
        self.banner.setText(f"{message}<br>{replaced}" if replaced else message)
        self.newest_button.setText(self.revision.newest_caption(ap))
        self.newest_button.setVisible(self.revision.replaced(ap, newest))
        if not decidable:
            expired = ap["status"] in (ApprovalStatus.PENDING, ApprovalStatus.EXPIRED)
            self.details["expires"].setText("expired" if expired else "—")
        self._enable_actions(decidable and not self._busy)
        if not decidable and self.action_stack.currentIndex() != MAIN:
            self.edit_panel.hide()
            self.action_stack.show_page(MAIN)

    def _enable_actions(self, usable: bool) -> None:
        self.buttons.enable(usable)
        self.mcp.enable(usable and not self.guard.holds())

    def _resolve_done(self) -> None:  # the third answer to "did it happen?" (approval_mcp)
        approval_id, reviewer = self.approval_id, self.reviewer
        self._decide(lambda ws: ws.resolve_done(approval_id, reviewer=reviewer))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        restyled = event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange)
        if restyled and hasattr(self, "buttons"):  # not before the buttons are built
            self.buttons.fix_sizes()  # a new font or theme: widths for it, still never the guard

    def _show_newest(self) -> None:
        newest = self.info["newest_id"] if self.info is not None else None
        if newest:
            self.approval_id = newest
            self.error_label.hide()
            self.reload()

    # -- decisions ----------------------------------------------------------------------------

    def _primary_action(self) -> None:
        if self.guard.holds():
            return
        page = self.action_stack.currentIndex()
        if page == EDIT and self.approve_edited_button.isEnabled():
            self._approve_edited()
        elif page == REMEMBER and self.confirm_remember_button.isEnabled():
            self._approve()
        elif page == MAIN and self.approve_button.isEnabled():
            self._on_approve_clicked()

    def _on_approve_clicked(self) -> None:
        if self.guard.holds():
            return
        if not self.remember_check.isChecked():
            self._approve()
            return
        scope = self.scope_combo.currentData()
        self.remember_confirm_label.setText(approval_text.remember_question(self.approval, scope))
        self.action_stack.show_page(REMEMBER)

    def _approve(self) -> None:
        approval_id, reviewer = self.approval_id, self.reviewer
        remember = self.remember_row.scope()
        self._decide(lambda ws: ws.approve(approval_id, reviewer=reviewer, remember=remember))

    def _reject(self) -> None:
        approval_id, reviewer = self.approval_id, self.reviewer
        reason = self.reason_edit.text().strip()
        if reason:
            self._decide(lambda ws: ws.reject(approval_id, reviewer=reviewer, reason=reason))

    def _request_changes(self) -> None:
        """Send the proposal back with the note; `decided` then says `changes_requested` (the
        caller continues the run, as after an approval, and the agent proposes again)."""
        approval_id, reviewer = self.approval_id, self.reviewer
        note = self.note_edit.text().strip()
        if note and self.confirm_changes_button.isEnabled():  # also the guard, for Return
            self._decide(
                lambda ws: ws.reject(approval_id, reviewer=reviewer, reason=note, revise=True)
            )

    def _approve_edited(self) -> None:
        approval_id, reviewer, args = self.approval_id, self.reviewer, self.edit_panel.valid_args
        if args is not None:
            self._decide(lambda ws: ws.approve_edited(approval_id, reviewer=reviewer, args=args))

    def _decide(self, job: Job[ApprovalView]) -> None:
        if self.guard.holds() or self._busy or self.approval is None:
            return  # a disabled button cannot get here; a key or a queued click still could
        self._set_busy(True)
        self.error_label.hide()

        def done(approval: ApprovalView) -> None:
            self._set_busy(False)
            self.approval = approval
            self.decided.emit(approval["id"], approval["status"])
            self.accept()

        def failed(exc: Exception) -> None:
            self._set_busy(False)
            self.action_stack.show_page(EDIT if self.edit_panel.isVisible() else MAIN)
            self._show_error(exc)
            self.reload()  # the answer may be expired, superseded or target_changed: show it

        self._submit(job, done, failed)

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        self._refresh_state()

    def _show_error(self, exc: Exception) -> None:
        self.error_label.setText(approval_text.error_text(exc))
        self.error_label.show()

    # -- editing ------------------------------------------------------------------------------

    def _start_edit(self) -> None:
        if self.approval is None:
            return
        self.edit_panel.load(self.approval)
        self.edit_panel.show()
        self.action_stack.show_page(EDIT)
        self.content_edit.setFocus()
        self.edit_panel.revalidate()

    def _stop_edit(self) -> None:
        self.edit_panel.discard()
        self.action_stack.show_page(MAIN)
        self.reload()

    # -- showing ------------------------------------------------------------------------------

    def present(self) -> None:
        """Bring the dialog forward because the person asked to review it: focused, and since
        it may have been hidden behind other windows, guarded again."""
        quiet_show.present(self)
        self.guard.restart()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.guard.restart()  # appearing is showing something new

    def _submit(
        self, job: Job[T], on_done: Callable[[T], None], on_error: OnError | None = None
    ) -> None:
        """bridge.submit, dropping results that arrive after the dialog closed."""
        on_error = on_error or self._show_error
        submit_while_open(self.bridge, self, lambda: self._alive, job, on_done, on_error)

    def done(self, result: int) -> None:  # accept(), reject() and closing all end here
        self._alive = False
        self._timer.stop()
        self.guard.stop()
        self.edit_panel.stop()
        if getattr(self.bridge, "events_arrived", None) is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.bridge.events_arrived.disconnect(self._on_events)
        super().done(result)
