"""The "Suggest a rule" window (as `rules suggest`): the narrowest rules that would have decided
what a person approved three times or more, each with its scope shown whole (an agent's exact
command in its folder: `shell:DIR $ COMMAND`), the agent it is bound to, and the past
proposals it would have approved. Nothing is enabled by being suggested: making one is the
person's act, asked first and audited by the façade (`add_rule_from_suggestion`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.views import ApprovalView, RuleView, SuggestionView
from desktop.i18n import QT_TRANSLATE_NOOP, core_words
from desktop.i18n.dates import local_time
from desktop.models.agent_labels import agent_title
from desktop.models.plain_errors import plain_exception
from desktop.models.records_model import Column, RecordsModel
from desktop.models.visible_text import visible_line
from desktop.widgets.confirm import ask_first
from desktop.widgets.records_windows import records_table

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace
    from desktop.bridge import Bridge

translate = QCoreApplication.translate


def _text(record: Mapping[str, object], key: str) -> str:
    value = record.get(key)
    return "" if value is None else visible_line(str(value))


def _agent(record: Mapping[str, object]) -> str:
    agent = record.get("agent")
    return agent_title(agent) if isinstance(agent, str) and agent else ""


def make_suggested(ws: Workspace, tool: str, scope: str, agent: str | None) -> RuleView:
    """Bridge thread: make the suggestion the person saw, found again by its tool, scope and
    agent (the list may have changed since it was read: a number alone could name another one;
    Claude Code and Codex both call their shell `Bash`)."""
    for number, suggestion in enumerate(ws.suggest_rules(), start=1):
        if (suggestion["tool"], suggestion["scope"], suggestion["agent"]) == (tool, scope, agent):
            return ws.add_rule_from_suggestion(number)
    raise BriefDeskError(
        ErrorCode.NOT_FOUND, "This suggestion is no longer offered: a decision changed it."
    )


class SuggestRulesWindow(QDialog):
    """Suggestions, the proposals each would have approved, and "Make this rule…"."""

    made = Signal(object)  # RuleView

    COLUMNS: tuple[Column, ...] = (
        (QT_TRANSLATE_NOOP("Records", "Tool"), lambda r: _text(r, "tool")),
        (QT_TRANSLATE_NOOP("Records", "Scope (shown whole)"), lambda r: _text(r, "scope")),
        (QT_TRANSLATE_NOOP("Records", "Would have approved"), lambda r: _text(r, "would_approve")),
        (QT_TRANSLATE_NOOP("Records", "Agent"), _agent),
    )
    PAST: tuple[Column, ...] = (
        (QT_TRANSLATE_NOOP("Records", "Proposal"), lambda r: _text(r, "id")),
        (QT_TRANSLATE_NOOP("Records", "Target"), lambda r: _text(r, "target")),
        (QT_TRANSLATE_NOOP("Records", "Approved by"), lambda r: _text(r, "reviewer")),
        (
            QT_TRANSLATE_NOOP("Records", "When"),
            lambda r: local_time(_text(r, "decided_at")) if r.get("decided_at") else "",
        ),
    )

    def __init__(self, bridge: Bridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self._open = True
        self.setWindowTitle(self.tr("Suggested rules"))
        self.resize(880, 520)
        intro = QLabel(
            self.tr(
                "Each suggestion is the narrowest rule that would have decided what a person "
                "approved three times or more: the very file approved each time, or the folder "
                "holding the files approved, never its parent; for a coding agent, the exact "
                "command in its folder, or one MCP server's tool. Nothing is allowed until you "
                "make one."
            )
        )
        intro.setWordWrap(True)
        self.model = RecordsModel(self.COLUMNS, self)
        self.table = records_table(self.model, 1)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.scope_label = QLabel("")
        self.scope_label.setWordWrap(True)
        self.scope_label.setTextFormat(Qt.TextFormat.PlainText)
        self.scope_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.past_model = RecordsModel(self.PAST, self)
        self.past = records_table(self.past_model, 1)
        self.past.setAccessibleName(self.tr("Past proposals it would have approved"))
        self.status_label = QLabel(self.tr("Loading…"))
        self.status_label.setWordWrap(True)
        self.make_button = QPushButton(self.tr("&Make this rule…"))
        self.make_button.setEnabled(False)
        self.make_button.clicked.connect(self.ask_make)
        close = QPushButton(self.tr("&Close"))
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status_label, 1)
        buttons.addWidget(self.make_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 2)
        layout.addWidget(self.scope_label)
        layout.addWidget(QLabel(self.tr("Past proposals it would have approved:")))
        layout.addWidget(self.past, 3)
        layout.addLayout(buttons)
        self.confirm: QMessageBox | None = None
        self.reload()

    def done(self, result: int) -> None:
        self._open = False
        super().done(result)

    def reload(self) -> None:
        self.bridge.submit(lambda ws: ws.suggest_rules(), self._loaded, self._failed)

    def _loaded(self, suggestions: list[SuggestionView]) -> None:
        if not self._open:
            return
        self.model.set_records(suggestions)
        self.status_label.setText(
            self.tr("No suggestion yet: a rule is suggested after three approvals alike.")
            if not suggestions
            else self.tr("{n} suggestions").format(n=len(suggestions))
        )
        if suggestions:
            self.table.selectRow(0)
        self._selection_changed()

    def _failed(self, exc: Exception) -> None:
        if self._open:
            self.status_label.setText(plain_exception(exc))

    def selected(self) -> Mapping[str, object] | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.record(rows[0].row()) if rows else None

    def _selection_changed(self, *_args: object) -> None:
        chosen = self.selected()
        self.make_button.setEnabled(chosen is not None)
        self.past_model.set_records([])
        if chosen is None:
            self.scope_label.setText("")
            return
        self.scope_label.setText(scope_words(chosen))
        asked = chosen.get("would_have_asked_about")
        ids = [i for i in asked if isinstance(i, str)] if isinstance(asked, list) else []

        def read(ws: Workspace) -> list[ApprovalView]:
            return [ws.get_approval(approval_id) for approval_id in ids]

        def shown(approvals: list[ApprovalView]) -> None:
            if self._open and self.selected() is chosen:
                self.past_model.set_records(approvals)

        self.bridge.submit(read, shown, self._failed)

    def ask_make(self) -> None:
        chosen = self.selected()
        if chosen is None:
            return
        tool, scope = str(chosen["tool"]), str(chosen["scope"])
        agent = chosen.get("agent")
        bound = agent if isinstance(agent, str) else None
        self.confirm = ask_first(
            self,
            title=self.tr("Make this rule?"),
            text=self.tr(
                "{scope}\n\nIt would have approved {n} past proposals. From now on they are "
                "approved without asking, in every run in this home, until you revoke it."
            ).format(scope=scope_words(chosen), n=chosen.get("would_approve")),
            action=self.tr("Make the rule"),
            on_confirm=lambda: self._make(tool, scope, bound),
        )

    def _make(self, tool: str, scope: str, agent: str | None) -> None:
        def done(rule: RuleView) -> None:
            if not self._open:
                return
            self.status_label.setText(
                self.tr("Made: {rule}.").format(
                    rule=visible_line(core_words.described_rule(str(rule.get("describes") or "")))
                )
            )
            self.made.emit(rule)
            self.reload()

        self.bridge.submit(lambda ws: make_suggested(ws, tool, scope, agent), done, self._failed)


def scope_words(suggestion: Mapping[str, object]) -> str:
    """What the rule would allow, whole: the tool (of which agent) and the scope exactly as it
    would hold."""
    if _agent(suggestion):
        return translate("Records", "Allow {tool} of {agent} without asking on: {scope}").format(
            tool=_text(suggestion, "tool"),
            agent=_agent(suggestion),
            scope=_text(suggestion, "scope"),
        )
    return translate("Records", "Allow {tool} without asking on: {scope}").format(
        tool=_text(suggestion, "tool"), scope=_text(suggestion, "scope")
    )
