"""What a run's status lets the window offer: Stop, Resume, Delete, or taking it over from
another computer."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QCoreApplication

from agent_core.contract.statuses import TERMINAL_RUN_STATUSES, RunStatus
from agent_core.contract.views import OwnerView, RunView
from desktop import theme
from desktop.i18n import QT_TRANSLATE_NOOP

# Runs that Stop can cancel: every status that is not an end (a `created` one too: it may never
# be started, and cancelling it ends it cleanly).
ACTIVE = frozenset(
    {
        RunStatus.CREATED,
        RunStatus.RUNNING,
        RunStatus.WAITING_APPROVAL,
        RunStatus.WAITING_INPUT,
        RunStatus.INTERRUPTED,
    }
)


READY = QT_TRANSLATE_NOOP("RunState", "Ready to continue")


def status_words(run: Mapping[str, object] | None) -> str:
    """The status as the window says it. A run still recorded as waiting whose decision or answer
    has landed (from anywhere) owes nobody anything: it says so, never "Needs approval"."""
    status = str(run.get("status") or "") if run else ""
    if run is not None and status == RunStatus.WAITING_APPROVAL and not run.get("approvals"):
        return words(READY)
    if run is not None and status == RunStatus.WAITING_INPUT and not run.get("question_pending"):
        return words(READY)
    return theme.status_label(status)


def owned_elsewhere(run: RunView) -> OwnerView | None:
    """The recorded owner of a `running` run when it is on another computer (None otherwise)."""
    owner = run.get("owner")
    if run.get("status") != RunStatus.RUNNING or not owner or owner.get("this_host"):
        return None
    return owner.copy()


# Delete is offered only for a run that has ended: the core refuses the others
# (`run_not_finished`), and the window says why in these words, never with the raw status.
NOT_FINISHED = QT_TRANSLATE_NOOP("RunState", "Only a finished run can be deleted; cancel it first.")
DELETE_TIP = QT_TRANSLATE_NOOP(
    "RunState", "Delete the selected run: its timeline, checkpoints and approvals, for good."
)


JUST_PRESSED = QT_TRANSLATE_NOOP(
    "RunState",
    "Not started: Run was just pressed, or a window just opened. Press Run again to start "
    "another run.",
)  # the Run guard held: the same key pressed twice starts one run, not two


def words(source: str) -> str:
    return QCoreApplication.translate("RunState", source)


def deletable(run: RunView | None) -> bool:
    return run is not None and run.get("status") in TERMINAL_RUN_STATUSES


def delete_tip(run: RunView | None) -> str:
    """Why Delete is offered or not, for its tooltip and status tip."""
    if run is None:
        return QCoreApplication.translate("RunState", "Select a finished run to delete it.")
    return words(DELETE_TIP if deletable(run) else NOT_FINISHED)
