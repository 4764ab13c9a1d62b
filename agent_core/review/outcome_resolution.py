"""`approvals resolve ID --done`: a person says that a call of unknown outcome did happen.

The proposal is one the gate made after an MCP write reached its server and its answer was
never recorded (runs/unknown_outcome.py). Resolving it records the call as done, in one write:
the proposal consumed by the person, the ledger entry confirmed with a result that says so
(what the model reads when the run goes on), the decision audited. Nothing is called again.
"""

from __future__ import annotations

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import check_decidable
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import SideEffectStatus, ToolOutcomeStatus
from agent_core.contract.views import ApprovalView
from agent_core.home.clock import now_iso, utcnow
from agent_core.review.decisions import require_reviewer
from agent_core.review.expiry import sweep_expired
from agent_core.review.proposals import approval_view
from agent_core.review.tool_of import spec_of
from agent_core.runs.unknown_outcome import unsettled
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import audit, ledger
from agent_core.storage.tables import grants as grant_rows

DONE_TEXT = "{reviewer} confirmed that this call happened; its output is not known."


def resolve_done(
    store: Store, approval_id: str, *, reviewer: str, reason: str | None = None
) -> ApprovalView:
    reviewer = require_reviewer(reviewer)
    sweep_expired(store)
    with store.write() as conn:
        current = approval_rows.get_approval(conn, approval_id)
        grant_rows.require(
            conn, reviewer=reviewer, tool=current.tool, path=current.target, doing="resolve"
        )
        check_decidable(current, utcnow())
        entry = unsettled(conn, spec_of(conn, current), current)
        if entry is None:
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS,
                f"Approval {approval_id} is not a call whose outcome is unknown: approve or "
                "reject it.",
            )
        # A person's word that it ran: approved by them, and consumed by that call (two moves
        # of the table, each one the database lets the run's desk make).
        at = now_iso()
        approved = approval_rows.move(
            conn,
            current,
            ApprovalMove.APPROVE,
            at=at,
            reviewer=reviewer,
            reason=reason or "it did happen",
        )
        after = approval_rows.move(conn, approved, ApprovalMove.CONSUME, at=at)
        text = DONE_TEXT.format(reviewer=reviewer)
        ledger.finish(
            conn,
            entry.idempotency_key,
            SideEffectStatus.CONFIRMED,
            str(ToolOutcomeStatus.SUCCESS),
            {"outcome": str(ToolOutcomeStatus.SUCCESS), "text": text, "resolved_by": reviewer},
        )
        approval_rows.append_approval_event(
            conn, after, EventKind.APPROVAL_DECIDED, reviewer=reviewer, resolved="done"
        )
        audit.record(
            conn,
            entry="decision",
            principal=f"person:{reviewer}",
            run_id=after.run_id,
            tool=after.tool,
            arg_hash=after.arg_hash,
            resource=after.target,
            decision="resolved_done",
            detail=reason,
        )
        return approval_view(after)
