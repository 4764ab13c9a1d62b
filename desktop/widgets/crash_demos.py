"""The Demo menu's crash demos, as the window runs them: which run they act on, what they say
first (`demo_text`), and the Mode box a write demo sets (it never decides a proposal)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import RunView
from desktop.context import DEMO_QUESTION, AppContext
from desktop.widgets import demo_text
from desktop.widgets.runs_panel import RunForm

ACCEPT_EDITS = "acceptEdits"


class CrashDemos:
    def __init__(
        self,
        parent: QWidget,
        context: AppContext,
        run_form: RunForm,
        selected_run: Callable[[], RunView | None],
    ) -> None:
        self._parent = parent
        self._context = context
        self._form = run_form
        self._selected_run = selected_run

    def crash_next(self, *, confirm: bool = True) -> None:
        """Crash at the next tool call of the selected interrupted run, or of a new run of the
        question in the box, with the form's choices (its Mode box included)."""
        selected, question = self._target()
        what = demo_text.crash_next(selected, question, self._mode_label(selected))
        if not confirm or self._confirm(what):
            self._context.demo_crash_next_tool(selected, question, **self._form.options())

    def crash_write(self, *, confirm: bool = True) -> None:
        """Crash right after a write, before it is confirmed. A new run of the question in the
        box writes without asking only because the Mode box says "Accept edits" (the demo sets
        it there, and says so); no pending write is ever approved for the person."""
        selected, question = self._target()
        before = self._form.mode.currentIndex()
        if selected is None:
            self._form.set_mode(ACCEPT_EDITS)
        what = demo_text.crash_write(
            selected,
            question,
            self._mode_label(selected),
            waiting=self._context.pending_approvals(),
        )
        if confirm and not self._confirm(what):
            self._form.mode.setCurrentIndex(before)  # nothing happens: the box as it was
            return
        self._context.demo_crash_after_write(selected, question, **self._form.options())

    def _target(self) -> tuple[RunView | None, str]:
        """The selected run when it is interrupted (the demo resumes it), and the question."""
        run = self._selected_run()
        interrupted = run is not None and run["status"] == RunStatus.INTERRUPTED
        return (run if interrupted else None), self._form.question_text() or DEMO_QUESTION

    def _mode_label(self, run: RunView | None) -> str:
        """How the Mode box names the mode of `run` (None: the mode the box shows now)."""
        box = self._form.mode
        index = box.findData(run["mode"]) if run is not None else box.currentIndex()
        if index >= 0:
            return box.itemText(index)
        return str(run["mode"] if run is not None else None)

    def _confirm(self, what: str) -> bool:
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            QCoreApplication.translate("CrashDemos", "Crash demo"),
            what,
            parent=self._parent,
        )
        crash = box.addButton(
            QCoreApplication.translate("CrashDemos", "&Crash"), QMessageBox.ButtonRole.AcceptRole
        )
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)  # Return never crashes the app
        box.exec()
        return box.clickedButton() is crash
