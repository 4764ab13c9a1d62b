"""The approval dialog's edit panel: change the path and content (or the JSON arguments of other
tools), see every change checked by `Workspace.validate_edit` through the bridge, then
"Approve edited".

Validation is debounced (each keystroke restarts the timer) and numbered: an answer about an
older text is ignored, so the verdict always matches what is in the editor. The panel never
decides: the dialog wires "Discard edits" and "Approve edited" (`action_row`, its EDIT page) and
approves `valid_args`, the arguments that last validated (None while unchecked or refused).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from agent_core.contract.errors import ErrorJSON
from agent_core.contract.views import ApprovalView, EditCheckView
from desktop.widgets.approval_parts import label, row
from desktop.widgets.approval_text import ReviewInfo, args_text, validation_text
from desktop.widgets.guarded_submit import Submit
from desktop.widgets.markdown_highlighter import MarkdownHighlighter

VALIDATE_DEBOUNCE_MS = 300

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace


class ProposalHost(Protocol):
    """What the panel reads from its dialog when it validates: the proposal shown right now."""

    approval_id: str
    approval: ApprovalView | None
    info: ReviewInfo | None


class ApprovalEditPanel(QWidget):
    preview_changed = Signal(object, str)  # current file text (None: no file yet), edited content
    validated = Signal()  # valid_args is settled: the dialog re-checks what may be decided

    def __init__(self, host: ProposalHost, submit: Submit, mono: QFont) -> None:
        super().__init__()
        self._host, self._submit = host, submit
        self._generation = 0
        self.valid_args: dict[str, object] | None = None
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.path_caption = QLabel(self.tr("Path inside the artifacts folder:"))
        self.path_edit = QLineEdit()
        self.path_edit.setFont(mono)
        box.addWidget(row(self.path_caption, self.path_edit))
        self.validation_label = label(rich=True, wrap=True)
        box.addWidget(self.validation_label)
        self.content_edit = QPlainTextEdit()
        self.content_edit.setFont(mono)
        self.highlighter = MarkdownHighlighter(self.content_edit.document())
        box.addWidget(self.content_edit, 1)
        self.path_edit.textEdited.connect(self.revalidate)
        self.content_edit.textChanged.connect(self.revalidate)
        self.cancel_edit_button = QPushButton(self.tr("Discard edits"))
        self.approve_edited_button = QPushButton(self.tr("Approve edited  (Ctrl+Shift+A)"))
        self.action_row = row(self.cancel_edit_button, None, self.approve_edited_button)
        self._validate_timer = QTimer(self, interval=VALIDATE_DEBOUNCE_MS, singleShot=True)
        self._validate_timer.timeout.connect(self._validate_now)

    def load(self, approval: ApprovalView) -> None:
        """Fill the editors from a proposal: path and content for a write, JSON otherwise."""
        args, fields = approval["args"], _write_fields(approval)
        self.path_caption.setVisible(fields is not None)
        self.path_edit.setVisible(fields is not None)
        self.path_edit.setText(str(args.get(fields[0], "")) if fields else "")
        self.content_edit.setPlainText(str(args.get(fields[1], "")) if fields else args_text(args))

    def discard(self) -> None:
        """Hide and forget the edits; a validation still on its way will be ignored."""
        self._generation += 1
        self.valid_args = None
        self.hide()

    def revalidate(self) -> None:
        """The text (or the file behind it) changed: check it again once typing pauses."""
        if not self.isVisible():
            return
        self._generation += 1
        self.valid_args = None
        self.approve_edited_button.setEnabled(False)
        self.validation_label.setText("<i>checking…</i>")
        self._validate_timer.start()

    def stop(self) -> None:
        """The dialog closed: no more validations."""
        self._validate_timer.stop()

    def _edited_args(self) -> dict[str, object]:
        fields = _write_fields(self._host.approval)
        if fields:
            return {fields[0]: self.path_edit.text(), fields[1]: self.content_edit.toPlainText()}
        try:
            value = json.loads(self.content_edit.toPlainText())  # JSONDecodeError: a ValueError
        except RecursionError:  # thousands of nested brackets: refused like any bad JSON
            raise ValueError(self.tr("the arguments are nested too deeply")) from None
        if not isinstance(value, dict):
            raise ValueError(self.tr("the arguments must be a JSON object"))
        return value

    def _validate_now(self) -> None:
        generation = self._generation
        try:
            args = self._edited_args()
        except ValueError as exc:
            error = ErrorJSON(code="invalid_arguments", message=str(exc))
            refused = EditCheckView(ok=False, error=error, target=None)
            self._on_validated(generation, {}, refused, None)
            return
        host = self._host
        approval_id = host.approval_id
        root = host.info["artifacts_root"] if host.info is not None else None
        is_brief = _write_fields(host.approval) is not None

        def work(ws: Workspace) -> tuple[EditCheckView, str | None]:
            result = ws.validate_edit(approval_id, args)
            readable = result["ok"] and is_brief
            return result, read_target_text(result["target"], root) if readable else None

        self._submit(work, lambda result: self._on_validated(generation, args, *result))

    def _on_validated(
        self, generation: int, args: dict[str, object], result: EditCheckView, current: str | None
    ) -> None:
        if generation != self._generation:
            return  # the text changed since: a newer validation is on its way
        self.validation_label.setText(validation_text(result, current))
        if result["ok"]:
            self.valid_args = args
            if "content" in args:
                self.preview_changed.emit(current, str(args["content"]))
        else:
            self.valid_args = None
        self.validated.emit()


def read_target_text(target: str | None, artifacts_root: str | None) -> str | None:
    """The current text of an edited target (bridge thread only); None when there is no file."""
    from agent_core.contract.errors import BriefDeskError
    from agent_core.facade.workspace import Workspace  # already loaded on this (the bridge) thread

    if not target or not artifacts_root:
        return None
    root = Path(artifacts_root).resolve()
    try:
        relative = Path(target).relative_to(root).as_posix()
        return Workspace.read_text_inside(root, relative, max_bytes=5_000_000)[0]
    except (BriefDeskError, ValueError, OSError):
        return None


def _write_fields(approval: ApprovalView | None) -> tuple[str, str] | None:
    """(path argument, content argument) when the tool's spec says it writes a file."""
    if not approval or not approval.get("path_field") or not approval.get("content_field"):
        return None
    return str(approval["path_field"]), str(approval["content_field"])
