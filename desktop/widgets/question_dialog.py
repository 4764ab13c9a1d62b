"""The ask-question dialog: the agent called `ask_question` and its run waits for a person.

Sending the answer records it (`ws.answer`) and emits `answered(run_id)`: the main window then
resumes the run. "Cancel run" ends the run for good (`ws.cancel`) and emits `cancelled(run_id)`.
Closing the window does neither: the run keeps waiting and can be answered later. While open,
the dialog polls the run, so an answer or a cancel from elsewhere (the CLI) shows at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import Qt, QTimer, Signal, SignalInstance
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import RunView
from desktop.i18n import core_words
from desktop.jobs import Job
from desktop.widgets.guarded_submit import OnError, submit_while_open

if TYPE_CHECKING:
    from desktop.bridge import Bridge

T = TypeVar("T")

POLL_MS = 1000


class QuestionDialog(QDialog):
    answered = Signal(str)  # run_id
    cancelled = Signal(str)  # run_id

    def __init__(
        self, bridge: Bridge, run_id: str, question: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.run_id = run_id
        self._alive = True
        self._busy = False
        self._open = True  # the run still waits for this answer
        self._poll_inflight = False
        self.setWindowTitle(self.tr("The agent asks a question — BriefDesk"))
        self.setMinimumWidth(620)
        heading = QLabel(self.tr("Run <b>{run}</b> is waiting for your answer:").format(run=run_id))
        self.question_label = QLabel(question)
        self.question_label.setTextFormat(Qt.TextFormat.PlainText)  # the model wrote it: no HTML
        self.question_label.setWordWrap(True)
        self.question_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.question_label.setStyleSheet(
            "font-size: 15px; padding: 8px; background: #ddf4ff; border: 1px solid #54aeff;"
            " border-radius: 4px; color: #1f2328;"
        )
        self.answer_edit = QPlainTextEdit()
        self.answer_edit.setPlaceholderText(self.tr("Your answer (Ctrl+Enter sends it)"))
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.hide()
        hint = QLabel(
            self.tr(
                "Cancelling ends the run; it cannot be resumed. Closing this window keeps it "
                "waiting."
            )
        )
        hint.setStyleSheet("color: #57606a;")
        hint.setWordWrap(True)
        self.cancel_button = QPushButton(self.tr("Cancel run"))
        self.close_button = QPushButton(self.tr("Answer later"))
        self.send_button = QPushButton(self.tr("Send answer  (Ctrl+Enter)"))
        self.send_button.setDefault(True)
        self.send_button.setEnabled(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        buttons.addWidget(self.send_button)
        layout = QVBoxLayout(self)
        for widget in (heading, self.question_label, self.answer_edit, self.status_label, hint):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        self.answer_edit.textChanged.connect(self._update_buttons)
        self.send_button.clicked.connect(self._send)
        self.cancel_button.clicked.connect(self._cancel)
        self.close_button.clicked.connect(self.reject)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self).activated.connect(self._send)
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._timer.start()
        self.answer_edit.setFocus()

    def _update_buttons(self) -> None:
        usable = self._open and not self._busy
        self.send_button.setEnabled(usable and bool(self.answer_edit.toPlainText().strip()))
        self.cancel_button.setEnabled(usable)
        self.answer_edit.setReadOnly(not usable)

    def _send(self) -> None:
        text = self.answer_edit.toPlainText().strip()
        if not text or not self.send_button.isEnabled():
            return
        run_id = self.run_id
        self._act(lambda ws: ws.answer(run_id, text), self.answered)

    def _cancel(self) -> None:
        run_id = self.run_id
        self._act(lambda ws: ws.cancel(run_id), self.cancelled)

    def _act(self, job: Job[RunView], announce: SignalInstance) -> None:
        self._busy = True
        self._update_buttons()

        def done(_run: RunView) -> None:
            self._busy = False
            self._open = False
            announce.emit(self.run_id)
            self.accept()

        def failed(exc: Exception) -> None:
            self._busy = False
            code = getattr(exc, "code", None) or type(exc).__name__
            self._show_status(f"{code}: {getattr(exc, 'message', None) or exc}", error=True)
            self._update_buttons()
            self._poll()

        self._submit(job, done, failed)

    def _poll(self) -> None:
        if self._poll_inflight or not self._open:
            return
        self._poll_inflight = True
        run_id = self.run_id

        def done(run: RunView) -> None:
            self._poll_inflight = False
            if run["status"] != RunStatus.WAITING_INPUT or run["question_pending"] is None:
                self._open = False
                self._timer.stop()
                self._show_status(
                    self.tr("This question was settled elsewhere: the run is now {status}.").format(
                        status=core_words.run_status(run["status"])
                    )
                )
                self._update_buttons()

        def failed(_exc: Exception) -> None:
            self._poll_inflight = False

        self._submit(lambda ws: ws.get_run(run_id), done, failed)

    def _show_status(self, text: str, *, error: bool = False) -> None:
        self.status_label.setStyleSheet(
            "color: #b42318; font-weight: bold;" if error else "color: #57606a;"
        )
        self.status_label.setText(text)
        self.status_label.show()

    def _submit(self, job: Job[T], on_done: Callable[[T], None], on_error: OnError) -> None:
        submit_while_open(self.bridge, self, lambda: self._alive, job, on_done, on_error)

    def done(self, result: int) -> None:
        self._alive = False
        self._timer.stop()
        super().done(result)
