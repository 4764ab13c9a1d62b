"""The approval dialog: what will be written where, the diff against the file, and the decision.

Every Workspace call goes through `bridge.submit` (the GUI thread does no I/O). While open, the
dialog polls the proposal and the target's hash every second and listens to
`bridge.events_arrived`, so a decision made elsewhere (another process, the CLI), an expiry or a
file changed on disk shows at once. `decided(approval_id, status)` is emitted only for a decision
this dialog made; after "Approve edited" the id is that of the new, approved version.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from agent_core.tools.policy import Rule
from desktop.widgets.diff_view import DiffView
from desktop.widgets.markdown_highlighter import MarkdownHighlighter, cited_sources, content_summary

POLL_MS = 1000
VALIDATE_DEBOUNCE_MS = 300
SCOPES = (("run", "this run only"), ("home", "every run in this home"))
MAIN, REJECT, REMEMBER, EDIT = range(4)  # pages of the action area
_BANNER = "border-radius: 4px; padding: 6px; color: #1f2328; background: {}; border: 1px solid {};"
BANNER_STYLES = {
    "info": _BANNER.format("#ddf4ff", "#54aeff"),
    "success": _BANNER.format("#dafbe1", "#4ac26b"),
    "warning": _BANNER.format("#fff8c5", "#d4a72c"),
    "error": _BANNER.format("#ffebe9", "#ff8182"),
}
DETAILS = (
    ("Tool", "tool"),
    ("Risk tier", "risk"),
    ("Expires in", "expires"),
    ("Reason", "reason"),
    ("Arg hash", "arg_hash"),
    ("Created", "created"),
    ("Run", "run"),
    ("State version", "state_version"),
    ("Reviewer", "reviewer"),
)


def _label(text: str = "", *, rich: bool = False, wrap: bool = False, style: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    label.setStyleSheet(style)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _row(*items: QWidget | None) -> QWidget:
    page = QWidget()
    row = QHBoxLayout(page)
    row.setContentsMargins(0, 0, 0, 0)
    for item in items:
        if item is None:
            row.addStretch(1)
        else:
            grows = isinstance(item, QLineEdit) or (isinstance(item, QLabel) and item.wordWrap())
            row.addWidget(item, 1 if grows else 0)
    return page


class ApprovalDialog(QDialog):
    decided = Signal(str, str)  # approval_id, status

    def __init__(
        self, bridge: Any, approval_id: str, reviewer: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.bridge, self.approval_id, self.reviewer = bridge, approval_id, reviewer
        self.approval: dict[str, Any] | None = None
        self.info: dict[str, Any] | None = None
        self._alive, self._busy, self._poll_inflight = True, False, False
        self._edit_generation = 0
        self._valid_args: dict[str, Any] | None = None
        self.setWindowTitle("Approve a write — BriefDesk")
        self.setMinimumSize(1000, 720)
        self._build()
        self._timer = QTimer(self, interval=POLL_MS)
        self._timer.timeout.connect(self._tick)
        self._timer.start()
        self._validate_timer = QTimer(self, interval=VALIDATE_DEBOUNCE_MS, singleShot=True)
        self._validate_timer.timeout.connect(self._validate_now)
        if getattr(bridge, "events_arrived", None) is not None:
            bridge.events_arrived.connect(self._on_events)
        self.reload()

    # -- layout -------------------------------------------------------------------------------

    def _build(self) -> None:
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.title_label = _label("Loading the proposal…", rich=True, style="font-size: 17px;")
        self.target_label = _label(
            wrap=True,
            style=(
                "font-size: 14px; font-weight: bold; padding: 4px 6px; color: #0b2e6b;"
                " background: #eef4ff; border: 1px solid #b6cdf5; border-radius: 4px;"
            ),
        )
        self.target_label.setFont(mono)
        self.banner = _label(rich=True, wrap=True)
        self.banner.hide()
        self.newest_button = QPushButton("Show the newest version")
        self.newest_button.hide()
        self.newest_button.clicked.connect(self._show_newest)
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        self.details: dict[str, QLabel] = {}
        for index, (caption, key) in enumerate(DETAILS):
            row, col = divmod(index, 3)
            grid.addWidget(_label(caption + ":", style="color: #57606a;"), row, col * 2)
            self.details[key] = _label("—")
            grid.addWidget(self.details[key], row, col * 2 + 1)
        for column, stretch in ((1, 2), (3, 1), (5, 1)):
            grid.setColumnStretch(column, stretch)
        self.summary_label = _label(rich=True, wrap=True)
        self.diff = DiffView()
        self.args_view = QPlainTextEdit(readOnly=True)  # arguments of tools other than save_brief
        self.args_view.setFont(mono)
        self.args_view.hide()
        self.edit_panel = self._build_edit_panel(mono)
        self.edit_panel.hide()
        splitter = QSplitter(Qt.Orientation.Vertical)
        for widget in (self.edit_panel, self.diff, self.args_view):
            splitter.addWidget(widget)
        self.error_label = _label(wrap=True, style="color: #b42318; font-weight: bold;")
        self.error_label.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.title_label)
        layout.addWidget(self.target_label)
        banner_row = QHBoxLayout()  # a layout, not a widget: the wrapped label keeps its height
        banner_row.addWidget(self.banner, 1)
        banner_row.addWidget(self.newest_button)
        layout.addLayout(banner_row)
        layout.addLayout(grid)
        layout.addWidget(self.summary_label)
        layout.addWidget(splitter, 1)
        layout.addWidget(self._build_remember_row())
        layout.addWidget(self.error_label)
        layout.addWidget(self._build_actions())
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self).activated.connect(self._primary_action)

    def _build_edit_panel(self, mono: Any) -> QWidget:
        panel = QWidget()
        box = QVBoxLayout(panel)
        box.setContentsMargins(0, 0, 0, 0)
        self.path_caption = QLabel("Path inside the artifacts folder:")
        self.path_edit = QLineEdit()
        self.path_edit.setFont(mono)
        box.addWidget(_row(self.path_caption, self.path_edit))
        self.validation_label = _label(rich=True, wrap=True)
        box.addWidget(self.validation_label)
        self.content_edit = QPlainTextEdit()
        self.content_edit.setFont(mono)
        self.highlighter = MarkdownHighlighter(self.content_edit.document())
        box.addWidget(self.content_edit, 1)
        self.path_edit.textEdited.connect(self._on_edit_changed)
        self.content_edit.textChanged.connect(self._on_edit_changed)
        return panel

    def _build_remember_row(self) -> QWidget:
        self.remember_check = QCheckBox("Always allow for this folder")
        self.scope_combo = QComboBox()
        for value, caption in SCOPES:
            self.scope_combo.addItem(caption, value)
        self.scope_label = _label(wrap=True, style="color: #57606a;")
        self.remember_check.toggled.connect(self._update_scope_text)
        self.scope_combo.currentIndexChanged.connect(self._update_scope_text)
        return _row(self.remember_check, self.scope_combo, self.scope_label)

    def _build_actions(self) -> QStackedWidget:
        self.action_stack = QStackedWidget()
        self.edit_button = QPushButton("Edit…")
        self.reject_button = QPushButton("Reject…")
        self.reviewer_label = _label(rich=True)
        self.close_button = QPushButton("Close")
        self.approve_button = QPushButton("Approve  (Ctrl+Enter)")
        self.approve_button.setStyleSheet(
            "QPushButton:enabled { background: #1a7f37; color: white; font-weight: bold;"
            " padding: 6px 16px; }"
        )
        self.action_stack.addWidget(
            _row(
                self.edit_button,
                self.reject_button,
                None,
                self.reviewer_label,
                self.close_button,
                self.approve_button,
            )
        )
        self.reason_edit = QLineEdit(placeholderText="Why is this write refused? (required)")
        self.reject_back = QPushButton("Back")
        self.confirm_reject_button = QPushButton("Reject")
        self.action_stack.addWidget(
            _row(QLabel("Reason:"), self.reason_edit, self.reject_back, self.confirm_reject_button)
        )
        self.remember_confirm_label = _label(rich=True, wrap=True)
        self.remember_back = QPushButton("Back")
        self.confirm_remember_button = QPushButton("Approve and remember")
        self.action_stack.addWidget(
            _row(self.remember_confirm_label, self.remember_back, self.confirm_remember_button)
        )
        self.cancel_edit_button = QPushButton("Discard edits")
        self.approve_edited_button = QPushButton("Approve edited  (Ctrl+Enter)")
        self.action_stack.addWidget(_row(self.cancel_edit_button, None, self.approve_edited_button))
        self.approve_button.clicked.connect(self._on_approve_clicked)
        self.reject_button.clicked.connect(lambda: self._show_page(REJECT))
        self.reject_back.clicked.connect(lambda: self._show_page(MAIN))
        self.reason_edit.textChanged.connect(lambda _text: self._refresh_state())
        self.confirm_reject_button.clicked.connect(self._reject)
        self.remember_back.clicked.connect(lambda: self._show_page(MAIN))
        self.confirm_remember_button.clicked.connect(self._approve)
        self.edit_button.clicked.connect(self._start_edit)
        self.cancel_edit_button.clicked.connect(self._stop_edit)
        self.approve_edited_button.clicked.connect(self._approve_edited)
        self.close_button.clicked.connect(self.reject)
        return self.action_stack

    # -- loading and live state ---------------------------------------------------------------

    def reload(self) -> None:
        approval_id = self.approval_id
        self._submit(lambda ws: ws.describe_approval(approval_id), self._on_described)

    def _on_described(self, info: dict[str, Any]) -> None:
        self.info, self.approval = info, info["approval"]
        ap, run = info["approval"], info["run"]
        if ap["tool"] == "save_brief":
            new = info["current_text"] is None
            verb = "create a new file" if new else "overwrite an existing file"
            self.title_label.setText(f"<b>save_brief</b> wants to {verb} — version {ap['version']}")
        else:
            self.title_label.setText(
                f"<b>{escape(ap['tool'])}</b> needs approval ({escape(ap['risk'])})"
            )
        self.target_label.setText(ap["target"] or json.dumps(ap["args"], ensure_ascii=False))
        question = run["question"] if len(run["question"]) <= 60 else run["question"][:57] + "…"
        for key, value in (
            ("tool", ap["tool"]),
            ("risk", ap["risk"]),
            ("reason", ap["reason"]),
            ("arg_hash", ap["arg_hash"][:12]),
            ("created", local_time(ap["created_at"])),
            ("state_version", f"{ap['state_version']} (proposal v{ap['version']})"),
            ("run", f"{run['run_id']} ({run['status']}): “{question}”"),
            ("reviewer", self.reviewer),
        ):
            self.details[key].setText(value)
        self.details["arg_hash"].setToolTip(ap["arg_hash"])
        self.reviewer_label.setText(f"Deciding as <b>{escape(self.reviewer)}</b>")
        self.reviewer_label.setMinimumWidth(self.reviewer_label.sizeHint().width())
        if self.edit_panel.isVisible():
            self._on_edit_changed()  # the file may have changed: validate and diff again
        elif ap["tool"] == "save_brief":
            content = ap["args"].get("content", "")
            self._show_summary(content)
            self.diff.set_texts(
                info["current_text"],
                content,
                old_label=_old_label(info),
                new_label="proposed content",
            )
        else:
            self.summary_label.setText("<b>Arguments</b>")
            self.diff.hide()
            self.args_view.show()
            self.args_view.setPlainText(json.dumps(ap["args"], indent=2, ensure_ascii=False))
        self._update_scope_text()
        self._update_countdown()
        self._refresh_state()

    def _show_summary(self, content: str) -> None:
        summary, sources = content_summary(content), cited_sources(content)
        count, listed = summary["sources"], escape(", ".join(sources) or "none")
        self.summary_label.setText(
            f"<b>Content:</b> {summary['bytes']:,} bytes · {summary['lines']} lines · "
            f"<b>{count} source{'s' if count != 1 else ''} cited</b> ({listed})"
        )

    def _tick(self) -> None:
        self._update_countdown()
        self._poll()

    def _poll(self) -> None:
        if self._poll_inflight or self.approval is None:
            return
        self._poll_inflight = True
        approval_id, target = self.approval_id, self.approval.get("target")

        def work(ws: Any) -> tuple[dict[str, Any], str | None]:
            from agent_core.tools.sandbox import file_sha256

            return ws.get_approval(approval_id), file_sha256(Path(target)) if target else None

        def done(result: tuple[dict[str, Any], str | None]) -> None:
            self._poll_inflight = False
            approval, hash_now = result
            known = self.approval or {}
            shown_hash = (self.info or {}).get("current_hash")
            changed_on_disk = approval["tool"] == "save_brief" and hash_now != shown_hash
            if approval["id"] != known.get("id"):
                return  # switched to the newest version meanwhile
            if changed_on_disk or approval["status"] != known.get("status"):
                self.reload()  # decided, expired or superseded elsewhere, or the file changed
            else:
                self.approval = approval
                self._refresh_state()

        def failed(_exc: Exception) -> None:
            self._poll_inflight = False

        self._submit(work, done, failed)

    def _on_events(self, events: list[dict[str, Any]]) -> None:
        if any(
            e.get("kind") in ("approval_decided", "approval_requested")
            and (e.get("data") or {}).get("approval_id") == self.approval_id
            for e in events
        ):
            self._poll()

    def _update_countdown(self) -> None:
        if self.approval is None or self.approval["status"] != "pending":
            return
        text, remaining = countdown_text(self.approval["expires_at"], datetime.now(UTC))
        label = self.details["expires"]
        label.setText(text)
        label.setToolTip(f"at {local_time(self.approval['expires_at'])}")
        label.setStyleSheet("color: #b42318; font-weight: bold;" if remaining < 60 else "")
        if remaining <= 0:
            self._refresh_state()

    def _refresh_state(self) -> None:
        """Enable or disable the decision, and say why, from the latest known proposal."""
        ap = self.approval
        if ap is None:
            return
        level, message = describe_status(ap, datetime.now(UTC))
        decidable = level is None
        if decidable and self.info is not None and self.info.get("target_changed"):
            level, message = "warning", _changed_message(self.info)
        self.banner.setVisible(level is not None)
        self.banner.setStyleSheet(BANNER_STYLES.get(level or "", ""))
        self.banner.setText(message)
        newest = (self.info or {}).get("newest_id")
        superseded = ap["status"] == "superseded"
        self.newest_button.setVisible(superseded and bool(newest) and newest != ap["id"])
        if not decidable:
            expired = ap["status"] in ("pending", "expired")
            self.details["expires"].setText("expired" if expired else "—")
        usable = decidable and not self._busy
        for widget in (
            self.approve_button,
            self.reject_button,
            self.edit_button,
            self.remember_check,
            self.scope_combo,
            self.confirm_remember_button,
        ):
            widget.setEnabled(usable)
        self.confirm_reject_button.setEnabled(usable and bool(self.reason_edit.text().strip()))
        self.approve_edited_button.setEnabled(usable and self._valid_args is not None)
        if not decidable and self.action_stack.currentIndex() != MAIN:
            self.edit_panel.hide()
            self._show_page(MAIN)

    def _show_newest(self) -> None:
        newest = (self.info or {}).get("newest_id")
        if newest:
            self.approval_id = newest
            self.error_label.hide()
            self.reload()

    # -- decisions ----------------------------------------------------------------------------

    def _primary_action(self) -> None:
        page = self.action_stack.currentIndex()
        if page == EDIT and self.approve_edited_button.isEnabled():
            self._approve_edited()
        elif page == REMEMBER and self.confirm_remember_button.isEnabled():
            self._approve()
        elif page == MAIN and self.approve_button.isEnabled():
            self._on_approve_clicked()

    def _on_approve_clicked(self) -> None:
        if not self.remember_check.isChecked():
            self._approve()
            return
        scope = self.scope_combo.currentData()
        which = f" ({self.approval['run_id']})" if scope == "run" and self.approval else ""
        self.remember_confirm_label.setText(
            "Approve this write <b>and</b> from now on allow "
            f"<b>{escape(self._rule_text(scope))}</b>{escape(which)} without asking?"
        )
        self._show_page(REMEMBER)

    def _approve(self) -> None:
        approval_id, reviewer = self.approval_id, self.reviewer
        remember = self.scope_combo.currentData() if self.remember_check.isChecked() else None
        self._decide(lambda ws: ws.approve(approval_id, reviewer=reviewer, remember=remember))

    def _reject(self) -> None:
        approval_id, reviewer = self.approval_id, self.reviewer
        reason = self.reason_edit.text().strip()
        if reason:
            self._decide(lambda ws: ws.reject(approval_id, reviewer=reviewer, reason=reason))

    def _approve_edited(self) -> None:
        approval_id, reviewer, args = self.approval_id, self.reviewer, self._valid_args
        if args is not None:
            self._decide(lambda ws: ws.approve_edited(approval_id, reviewer=reviewer, args=args))

    def _decide(self, job: Callable[[Any], dict[str, Any]]) -> None:
        self._set_busy(True)
        self.error_label.hide()

        def done(approval: dict[str, Any]) -> None:
            self._set_busy(False)
            self.approval = approval
            self.decided.emit(approval["id"], approval["status"])
            self.accept()

        def failed(exc: Exception) -> None:
            self._set_busy(False)
            self._show_page(EDIT if self.edit_panel.isVisible() else MAIN)
            self._show_error(exc)
            self.reload()  # the answer may be expired, superseded or target_changed: show it

        self._submit(job, done, failed)

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        self._refresh_state()

    def _show_error(self, exc: Exception) -> None:
        code = getattr(exc, "code", None) or type(exc).__name__
        self.error_label.setText(f"{code}: {getattr(exc, 'message', None) or exc}")
        self.error_label.show()

    def _show_page(self, page: int) -> None:
        self.action_stack.setCurrentIndex(page)
        if page == REJECT:
            self.reason_edit.setFocus()

    # -- remembered decisions -----------------------------------------------------------------

    def _rule_text(self, scope: str) -> str:
        ap = self.approval or {}
        if not ap.get("target"):
            return "(nothing: this call has no target to remember)"
        folder = str(Path(ap["target"]).parent)  # what Workspace._remember stores
        return Rule("", ap["tool"], folder, scope, ap.get("run_id")).describe()

    def _update_scope_text(self) -> None:
        checked = self.remember_check.isChecked()
        self.scope_combo.setVisible(checked)
        rule = self._rule_text(self.scope_combo.currentData())
        self.scope_label.setText(f"Rule: {rule}" if checked else "")

    # -- editing ------------------------------------------------------------------------------

    def _start_edit(self) -> None:
        if self.approval is None:
            return
        args, is_brief = self.approval["args"], self.approval["tool"] == "save_brief"
        self.path_caption.setVisible(is_brief)
        self.path_edit.setVisible(is_brief)
        self.path_edit.setText(args.get("relative_path", "") if is_brief else "")
        self.content_edit.setPlainText(
            args.get("content", "") if is_brief else json.dumps(args, indent=2, ensure_ascii=False)
        )
        self.edit_panel.show()
        self._show_page(EDIT)
        self.content_edit.setFocus()
        self._on_edit_changed()

    def _stop_edit(self) -> None:
        self._edit_generation += 1
        self._valid_args = None
        self.edit_panel.hide()
        self._show_page(MAIN)
        self.reload()

    def _edited_args(self) -> dict[str, Any]:
        if self.approval and self.approval["tool"] == "save_brief":
            return {
                "relative_path": self.path_edit.text(),
                "content": self.content_edit.toPlainText(),
            }
        value = json.loads(self.content_edit.toPlainText())  # JSONDecodeError is a ValueError
        if not isinstance(value, dict):
            raise ValueError("the arguments must be a JSON object")
        return value

    def _on_edit_changed(self) -> None:
        if not self.edit_panel.isVisible():
            return
        self._edit_generation += 1
        self._valid_args = None
        self.approve_edited_button.setEnabled(False)
        self.validation_label.setText("<i>checking…</i>")
        self._validate_timer.start()

    def _validate_now(self) -> None:
        generation = self._edit_generation
        try:
            args = self._edited_args()
        except ValueError as exc:
            self._on_validated(
                generation,
                {},
                {"ok": False, "error": {"code": "invalid_arguments", "message": str(exc)}},
                None,
            )
            return
        approval_id, root = self.approval_id, (self.info or {}).get("artifacts_root")
        is_brief = bool(self.approval and self.approval["tool"] == "save_brief")

        def work(ws: Any) -> tuple[dict[str, Any], str | None]:
            result = ws.validate_edit(approval_id, args)
            readable = result["ok"] and is_brief
            return result, read_target_text(result["target"], root) if readable else None

        self._submit(work, lambda result: self._on_validated(generation, args, *result))

    def _on_validated(
        self, generation: int, args: dict[str, Any], result: dict[str, Any], current: str | None
    ) -> None:
        if generation != self._edit_generation:
            return  # the text changed since: a newer validation is on its way
        if result["ok"]:
            where = "a new file" if current is None else "replaces the existing file"
            target = escape(result["target"] or "")
            self.validation_label.setText(
                f'<span style="color:#1a7f37;">✓ will write <b>{target}</b> ({where})</span>'
            )
            self._valid_args = args
            if "content" in args:
                self._show_summary(args["content"])
                old_label = "current file" if current is not None else "(no file yet)"
                self.diff.set_texts(
                    current, args["content"], old_label=old_label, new_label="edited content"
                )
        else:
            error = result["error"]
            code, message = escape(error["code"]), escape(error["message"])
            self.validation_label.setText(
                f'<span style="color:#b42318;">✗ <b>{code}</b>: {message}</span>'
            )
            self._valid_args = None
        self._refresh_state()

    # -- plumbing -----------------------------------------------------------------------------

    def _submit(
        self,
        job: Callable[[Any], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[Exception], None] | None = None,
    ) -> None:
        """bridge.submit, dropping results that arrive after the dialog closed."""

        def done(result: Any) -> None:
            if self._alive and shiboken6.isValid(self):
                on_done(result)

        def failed(exc: Exception) -> None:
            if self._alive and shiboken6.isValid(self):
                (on_error or self._show_error)(exc)

        self.bridge.submit(job, done, failed)

    def done(self, result: int) -> None:  # accept(), reject() and closing all end here
        self._alive = False
        self._timer.stop()
        self._validate_timer.stop()
        if getattr(self.bridge, "events_arrived", None) is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.bridge.events_arrived.disconnect(self._on_events)
        super().done(result)


# -- pure helpers (no Qt, no I/O unless said) ---------------------------------------------------


def parse_time(value: str) -> datetime:
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def local_time(value: str | None) -> str:
    return parse_time(value).astimezone().strftime("%Y-%m-%d %H:%M:%S") if value else "—"


def countdown_text(expires_at: str, now: datetime) -> tuple[str, float]:
    """("12:03", seconds left); hours are shown only when there are some."""
    remaining = (parse_time(expires_at) - now).total_seconds()
    if remaining <= 0:
        return "expired", remaining
    hours, rest = divmod(int(remaining + 0.999), 3600)
    minutes, seconds = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
    return text, remaining


def describe_status(ap: dict[str, Any], now: datetime) -> tuple[str | None, str]:
    """(banner level, rich text) for a proposal that can no longer be decided; (None, "") else."""
    status, when = ap["status"], local_time(ap.get("decided_at"))
    by = f" by <b>{escape(ap['reviewer'])}</b>" if ap.get("reviewer") else ""
    by += f" (remembered rule {escape(ap['decided_by_rule'])})" if ap.get("decided_by_rule") else ""
    why = f" — “{escape(ap['decision_reason'])}”" if ap.get("decision_reason") else ""
    if status == "expired" or (status == "pending" and parse_time(ap["expires_at"]) <= now):
        return "error", (
            f"<b>Expired</b> at {local_time(ap['expires_at'])}: nobody decided in "
            "time, so it can no longer be approved and its run has ended."
        )
    if status == "superseded":
        return "info", f"<b>Superseded</b>{by} at {when}: an edit replaced it with a newer version."
    if status == "approved":
        return "success", f"<b>Already approved</b>{by} at {when}{why}."
    if status == "consumed":
        ran = local_time(ap.get("consumed_at"))
        return "success", f"<b>Approved</b>{by} and <b>executed</b> at {ran}."
    if status == "rejected":
        return "error", f"<b>Rejected</b>{by} at {when}{why}."
    return None, ""


def read_target_text(target: str | None, artifacts_root: str | None) -> str | None:
    """The current text of an edited target (bridge thread only); None when there is no file."""
    from agent_core.errors import BriefDeskError
    from agent_core.tools.sandbox import read_text_nofollow

    if not target or not artifacts_root:
        return None
    root = Path(artifacts_root).resolve()
    try:
        relative = Path(target).relative_to(root).as_posix()
        return read_text_nofollow(root, relative, max_bytes=5_000_000)[0]
    except (BriefDeskError, ValueError, OSError):
        return None


def _old_label(info: dict[str, Any]) -> str:
    if info["current_text"] is None:
        return "(no file yet)"
    changed = " (changed since the proposal)" if info["target_changed"] else ""
    return "current file on disk" + changed


def _changed_message(info: dict[str, Any]) -> str:
    base, now = info["approval"]["base_hash"], info["current_hash"]
    what = (
        "has been deleted"
        if now is None
        else "now exists (it did not when the write was proposed)"
        if base is None
        else "has different content"
    )
    return (
        f"<b>The target changed on disk since this proposal was made:</b> it {what}. The diff "
        "below is against what is there now. Approving this proposal answers "
        "<b>target_changed</b>; reject it, or Edit to propose it again against the current "
        "file."
    )
