"""A run as the contract shows it (the CLI's RUN JSON and the window's rows), with its pending
proposals: it sits in review/ because a run's view holds its proposals' views.

Past its time a proposal is expired, whether or not a sweep has written it yet: a read shows
the truth without writing (review/expiry.py records it, with its events).
"""

from __future__ import annotations

import logging
from typing import cast

from sqlalchemy import Connection

from agent_core.contract.approval_moves import shown_status
from agent_core.contract.approvals import Approval
from agent_core.contract.errors import BriefDeskError, ErrorCode, ErrorJSON
from agent_core.contract.statuses import ApprovalStatus, RunStatus
from agent_core.contract.usage import Prices, usage_of
from agent_core.contract.views import DamagedRunView, RunView
from agent_core.home.clock import utcnow
from agent_core.review.proposals import approval_view
from agent_core.runs import ownership, transitions
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.team.leases import Leases, seen_from

log = logging.getLogger(__name__)


def run_json(
    conn: Connection,
    row: run_rows.RunRow,
    pending: list[Approval] | None = None,
    *,
    desk: str | None = None,
    book: Leases | None = None,
    prices: Prices | None = None,
) -> RunView:
    """RUN as the contract shows it; `pending`: its pending proposals, when already loaded.

    `desk`: the desk looking (team mode), `book`: the leases it judges other desks' runs by
    (read here when not given), `prices`: the looking desk's (none: a remote cost is null)."""
    if pending is None:
        pending = approval_rows.list_approvals(conn, status="pending", run_id=row.run_id)
    if book is None:
        book = seen_from(conn, desk)
    status = run_rows.effective_status(row, book)
    now = utcnow()
    live = [a for a in pending if shown_status(a, now) is ApprovalStatus.PENDING]
    if status is RunStatus.WAITING_APPROVAL and pending and not live:
        status = RunStatus.EXPIRED
    view = {
        **run_rows.shown_fields(row),  # the record's fields, as seen now:
        "status": status,
        "question_pending": row.question_pending if status is RunStatus.WAITING_INPUT else None,
        "approvals": [approval_view(a) for a in live],
        # Only its own desk continues a run: on another desk, `resume` would refuse it.
        "ready_to_continue": (
            _ready_to_continue(status, row, bool(pending), row.error)
            and not run_rows.other_desk(row, desk)
        ),
        # Who drives it: for a person deciding whether to take over an owner on another host.
        "owner": ownership.owner_view(conn, row) if status is RunStatus.RUNNING else None,
        "usage": usage_of(_state(row), row.model, prices or Prices()),
    }
    # In the contract's order (the JSON's): RunView's, whose keys the house check holds.
    return cast("RunView", {key: view[key] for key in RunView.__annotations__})


def _state(row: run_rows.RunRow) -> dict[str, object]:
    """The run's stored state for its usage; one this app cannot read shows no usage (it is
    refused where the run is driven: `cancel` must still end it)."""
    try:
        return dict(run_rows.run_state(row))
    except (BriefDeskError, ValueError):
        return {}


def _ready_to_continue(
    status: RunStatus, row: run_rows.RunRow, has_pending: bool, error: ErrorJSON | None
) -> bool:
    """Would `resume` continue this run now? (A decision made in another process changes no
    status: the run still waits, with nothing left to decide.) Never an external agent's
    session: it goes on when the agent calls again, and `resume` refuses it."""
    if row.is_agent_run:
        return False
    if status is RunStatus.WAITING_APPROVAL:
        return not has_pending
    if status is RunStatus.WAITING_INPUT:
        return row.question_pending is None  # `answer` clears it
    if status is RunStatus.FAILED:
        return transitions.is_retryable(error)
    return status in (RunStatus.INTERRUPTED, RunStatus.CREATED)


def runs_json(
    conn: Connection,
    run_ids: list[str] | None = None,
    damaged: list[DamagedRunView] | None = None,
    *,
    desk: str | None = None,
    prices: Prices | None = None,
) -> list[RunView]:
    """Every run (or the given ones), newest first, with their pending proposals: two queries.

    A run whose row (or one of its proposals) this app cannot read is left out, and reported
    in `damaged` when given: one bad row never hides the rest of the home."""
    rows = run_rows.list_run_rows(conn, run_ids, damaged)  # an unreadable row: damaged
    pending: dict[str, list[Approval]] | None
    try:
        pending = approval_rows.pending_by_run(conn, run_ids)
    except BriefDeskError as exc:
        if exc.code != ErrorCode.STORAGE_CORRUPT:
            raise
        pending = None  # a bad proposal: each run reads its own, so only its run is damaged
    book = seen_from(conn, desk)  # one look at the leases for the whole list
    views: list[RunView] = []
    for row in rows:
        try:
            own = None if pending is None else pending.get(row.run_id, [])
            views.append(run_json(conn, row, own, desk=desk, book=book, prices=prices))
        except BriefDeskError as exc:
            if exc.code != ErrorCode.STORAGE_CORRUPT:
                raise
            log.warning("listing runs: %s", exc.message)
            if damaged is not None:
                damaged.append(DamagedRunView(run_id=str(row.run_id), error=exc.to_json()))
    return views
