"""The approval dialog's part for a tool of an MCP server: which server and tool, what the
server says of it (its hints, shown as claims), and, when the call's outcome is unknown, the
third answer beside approve and reject: "It did happen" (`approvals resolve --done`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QPushButton, QWidget

from agent_core.contract.mcp_views import McpCallView
from desktop.widgets.approval_parts import label, row

_HINTS = (
    ("readOnlyHint", "read-only"),
    ("destructiveHint", "destructive"),
    ("idempotentHint", "idempotent"),
    ("openWorldHint", "reaches outside"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("ApprovalMcp", text)


def hints_text(annotations: Mapping[str, object]) -> str:
    """`read-only: no · destructive: yes …` for the hints the server declared."""
    said = [
        f"{_tr(caption)}: {_tr('yes') if annotations[key] else _tr('no')}"
        for key, caption in _HINTS
        if isinstance(annotations.get(key), bool)
    ]
    return " · ".join(said) if said else _tr("no hints declared")


def call_text(mcp: McpCallView) -> str:
    text = _tr(
        "From MCP server <b>{server}</b>, its tool <b>{tool}</b>. The server says: {hints}"
    ).format(
        server=escape(mcp["server"]),
        tool=escape(mcp["tool"]),
        hints=escape(hints_text(mcp["annotations"])),
    )
    if mcp["outcome_unknown"]:
        text += (
            "<br><b style='color:#9a3412'>"
            + _tr(
                "This call already reached the server and its answer was never recorded: it "
                "may have happened. Approve runs it again, Reject records it as not done, It "
                "did happen records it as done without calling it again."
            )
            + "</b>"
        )
    return text


class McpPart:
    """Hidden unless the proposal is an MCP call; `resolve` is the dialog's decision path."""

    def __init__(self, resolve: Callable[[], None]) -> None:
        self.text = label(rich=True, wrap=True)
        self.done_button = QPushButton(_tr("It did happen"))
        self.done_button.setAccessibleName(_tr("It did happen"))
        self.done_button.setToolTip(_tr("Record that this call happened; it is not called again"))
        self.done_button.clicked.connect(resolve)
        self.widget: QWidget = row(self.text, self.done_button)
        self.widget.hide()

    def show_for(self, mcp: McpCallView | None) -> None:
        self.widget.setVisible(mcp is not None)
        if mcp is None:
            return
        self.text.setText(call_text(mcp))
        self.done_button.setVisible(mcp["outcome_unknown"])

    def enable(self, usable: bool) -> None:
        self.done_button.setEnabled(usable)
