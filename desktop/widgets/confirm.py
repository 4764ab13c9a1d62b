"""Ask first: one shape for every confirmation of an action that cannot be undone (delete a run,
take over a run, revoke a rule). The dialog is window-modal but not blocking (`open`), Cancel is
the default (Return never confirms), and the action runs only on its own button."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from agent_core.contract.views import OwnerView, RunView
from desktop.i18n.dates import local_time
from desktop.models.event_text import cut_words


def ask_first(
    parent: QWidget,
    *,
    title: str,
    text: str,
    action: str,
    on_confirm: Callable[[], None],
    icon: QMessageBox.Icon = QMessageBox.Icon.Question,
    role: QMessageBox.ButtonRole = QMessageBox.ButtonRole.AcceptRole,
) -> QMessageBox:
    """Open the question and return it (tests answer it); `on_confirm` runs after `action`."""
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Cancel, parent)
    confirm = box.addButton(action, role)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.finished.connect(lambda _result: on_confirm() if box.clickedButton() is confirm else None)
    box.open()
    return box


def take_over_question(owner: OwnerView) -> str:
    """Taking a run over is right only if it no longer runs on the computer recorded."""
    return QCoreApplication.translate(
        "Confirm",
        "This run is recorded as running on another computer, “{host}” (process {pid}), since "
        "{since}.\n\nThis computer cannot tell whether it still runs there. If it has stopped "
        "there (the computer was renamed, or BriefDesk was closed), take it over to continue it "
        "here from its last checkpoint, without repeating a side effect. If it still runs "
        "there, leave it.",
    ).format(host=owner["host"], pid=owner["pid"], since=local_time(owner["since"]))


def delete_question(run: RunView) -> str:
    run_id = run["run_id"]
    return QCoreApplication.translate(
        "Confirm",
        "Delete the run “{question}” ({run})?\n\nIts timeline, checkpoints and approvals are "
        "removed for good. Files it wrote stay in the artifacts folder.",
    ).format(question=cut_words(run["question"] or run_id, 80), run=run_id)
