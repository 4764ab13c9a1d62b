"""Run details (the side tab): the selected run at a glance, with what its model calls used
and how much of each budget is gone. The budgets are read on the bridge thread."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QTextBrowser, QWidget

from agent_core.contract.model_spec import model_label
from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import RunBudgetsView, RunView
from desktop import theme
from desktop.i18n import core_words
from desktop.i18n.dates import local_time
from desktop.models import agent_labels
from desktop.models.plain_errors import plain_error
from desktop.models.run_state import status_words
from desktop.models.usage_text import budget_rows, usage_text
from desktop.models.visible_text import visible_block

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace
    from desktop.bridge import Bridge


def _row(label: str, value: object) -> str:
    esc = html.escape
    return (
        f"<tr><td style='color:gray;padding-right:8px'>{esc(label)}</td>"
        f"<td>{esc(str(value or ''))}</td></tr>"
    )


class RunSummary(QTextBrowser):
    """The selected run at a glance: status, question, settings, folders, usage and budgets,
    answer or error."""

    def __init__(self, parent: QWidget | None = None, *, bridge: Bridge | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge  # reads the run's budgets (optional: without it none are shown)
        self.setOpenLinks(False)
        self._run: RunView | None = None
        self._budgets: tuple[str, RunBudgetsView] | None = None  # (run_id, budgets)
        self._asked: tuple[object, ...] | None = None  # the run version the budgets were asked for
        self.show_run(None)

    def show_run(self, run: RunView | None) -> None:
        self._run = run
        self._render()
        if run is not None:
            self._ask_budgets(run)

    def _ask_budgets(self, run: RunView) -> None:
        """Once per version of the run (its counters move only when it is written)."""
        run_id = run["run_id"]
        version = (run_id, run.get("updated_at"), run.get("status"))
        if self.bridge is None or version == self._asked:
            return
        self._asked = version

        def read(ws: Workspace) -> RunBudgetsView:
            return ws.run_budgets(run_id)

        def forget(_exc: Exception) -> None:
            self._asked = None  # asked again with the next refresh

        self.bridge.submit(read, on_done=lambda b: self.show_budgets(run_id, b), on_error=forget)

    def show_budgets(self, run_id: str, budgets: RunBudgetsView) -> None:
        self._budgets = (run_id, budgets)
        if self._run is not None and self._run["run_id"] == run_id:
            self._render()

    def _render(self) -> None:
        run = self._run
        if run is None:
            said = self.tr("Select a run to see its details.")
            self.setHtml(f"<p style='color:gray'>{html.escape(said)}</p>")
            return
        esc = html.escape
        status = str(run.get("status"))
        colour = theme.STATUS_COLOURS.get(status, "#8a8f98")
        rows = [
            (self.tr("Run"), run.get("run_id")),
            (self.tr("Desk"), run.get("desk")),
            (self.tr("Model"), core_words.model(model_label(str(run.get("model") or "")))),
            (self.tr("Mode"), core_words.mode(run.get("mode"))),
            (self.tr("Corpus"), run.get("corpus")),
            (self.tr("Artifacts"), run.get("artifacts")),
            (self.tr("Updated"), local_time(run.get("updated_at"))),
        ]
        agent = run.get("agent")
        if agent_labels.is_agent(agent):  # a coding agent's session: whose, which, where
            rows = [
                (self.tr("Run"), run.get("run_id")),
                (self.tr("Desk"), run.get("desk")),
                (self.tr("Agent"), agent_labels.agent_title(str(agent))),
                (self.tr("Session"), run.get("session_id")),
                (self.tr("Folder"), run.get("cwd")),
                (self.tr("Updated"), local_time(run.get("updated_at"))),
            ]
        if usage := run.get("usage"):
            rows.append((self.tr("Usage"), usage_text(usage)))
        if self._budgets is not None and self._budgets[0] == run.get("run_id"):
            rows += budget_rows(self._budgets[1])
        table = "".join(_row(k, v) for k, v in rows)
        parts = [
            f"<p><span style='background:{colour};color:white;padding:2px 6px'>&nbsp;"
            f"{esc(status_words(run))}&nbsp;</span></p>",
            f"<p><b>{esc(_heading(run))}</b></p>",
            f"<table>{table}</table>",
        ]
        for approval in run.get("approvals") or []:
            parts.append(
                f"<p style='color:{theme.STATUS_COLOURS[RunStatus.WAITING_APPROVAL]}'>"
                + esc(self.tr("Waiting for approval: "))
                + f"{esc(str(approval.get('tool')))} → {esc(approval.get('target') or '')}</p>"
            )
        if pending_question := run.get("question_pending"):
            pending = visible_block(pending_question)
            said = self.tr("Question for you: {question}").format(question=pending)
            parts.append(f"<p>{esc(said)}</p>")
        error = run.get("error")
        if error:
            failed = theme.STATUS_COLOURS[RunStatus.FAILED]
            said = plain_error(error.get("code"), error.get("message"))
            parts.append(f"<p style='color:{failed}'>{esc(said)}</p>")
        if output_text := run.get("output"):
            parts.append(f"<h4>{esc(self.tr('Answer'))}</h4>")
            output = visible_block(output_text)  # a model's words: no raw controls
            parts.append(f"<p style='white-space:pre-wrap'>{esc(output)}</p>")
        self.setHtml("".join(parts))


def _heading(run: RunView) -> str:
    """The run's question; for an agent's session, whose session it is and where."""
    agent = run.get("agent")
    if agent_labels.is_agent(agent):
        return agent_labels.session_text(str(agent), run.get("cwd"))
    return visible_block(run.get("question") or "")
