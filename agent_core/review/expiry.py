"""The expiry sweep: pending proposals past their time become `expired`, and so do their runs
(a revert's run gets back the status it had instead: review/revert.py).

Time is the core's clock (home/clock.py): a test expires a proposal by advancing a
`ManualClock`, no sleep. Reads show an overdue proposal as expired without writing it
(review/proposals.py); only this sweep records it, with its events.
"""

from __future__ import annotations

from agent_core.contract.approvals import is_revert
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import RunStatus
from agent_core.review.proposals import gives_back_here
from agent_core.runs import agent_sessions, lifecycle
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import runs as run_rows


def sweep_expired(store: Store, desk: str | None = None) -> int:
    """Expire every pending proposal past its time; their runs become `expired`. Returns how
    many proposals it expired.

    `desk`: the sweeper's in team mode (see `gives_back_here`). Called by the commands that
    decide or resume, by the CLI before it shows runs or
    proposals, and by the window on a timer: never inside a read (reads do not write).
    """
    with store.read() as conn:
        if not approval_rows.any_due(conn):
            return 0  # the common case: no write transaction at all
    with store.write() as conn:
        changed = approval_rows.expire_due(conn)
        for expired in changed:
            approval_rows.append_approval_event(
                conn, expired, EventKind.APPROVAL_DECIDED, reviewer=None
            )
            row = run_rows.get_run_row(conn, expired.run_id)
            if is_revert(expired):  # nobody decided it: the run gets its status back
                if gives_back_here(store, expired, desk):  # else its desk, at its next resume
                    lifecycle.end_revert(conn, expired.run_id, expired.id)
            elif row.is_agent_run:  # its hook died: the session's run goes on without it
                agent_sessions.back_to_work(conn, expired.run_id)
            elif row.status == RunStatus.WAITING_APPROVAL:
                lifecycle.expire(conn, expired.run_id, None)
    return len(changed)
