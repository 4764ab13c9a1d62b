"""What a run's status lets the window offer: Stop, Resume, or taking it over from another
computer."""

from __future__ import annotations

from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import OwnerView, RunView

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


def owned_elsewhere(run: RunView) -> OwnerView | None:
    """The recorded owner of a `running` run when it is on another computer (None otherwise)."""
    owner = run.get("owner")
    if run.get("status") != RunStatus.RUNNING or not owner or owner.get("this_host"):
        return None
    return owner.copy()
