"""Deciding a proposal: approve (optionally remembering a rule), reject, or send it back with a
note (`changes_requested`). Every decision is one write transaction.

The moves are contract/approval_moves.py's table; storage/tables/approvals.py's `move` makes
them with a conditional update, so the first reviewer wins. Grants (storage/tables/grants.py)
are checked inside the same transaction.
"""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import Approval, check_decidable, is_revert, required_note
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.views import ApprovalView
from agent_core.home.clock import now_iso, utcnow
from agent_core.review.expiry import sweep_expired
from agent_core.review.proposals import approval_view, gives_back_here, proposed_elsewhere
from agent_core.review.remembered_rules import REMEMBER_SCOPES, remember
from agent_core.review.tool_of import spec_of
from agent_core.runs import lifecycle
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import audit
from agent_core.storage.tables import grants as grant_rows
from agent_core.tools.agent_calls.files import file_hash
from agent_core.tools.agent_calls.registry import agent_of_thread

MAX_REVIEWER_CHARS = 80
"""A decision keeps this much of a reviewer's name."""

# What a decision is called in a refusal ("has no grant to approve save_brief on ...").
_DOING = {
    ApprovalStatus.APPROVED: "approve",
    ApprovalStatus.REJECTED: "reject",
    ApprovalStatus.CHANGES_REQUESTED: "request changes to",
}
_MOVE = {
    ApprovalStatus.APPROVED: ApprovalMove.APPROVE,
    ApprovalStatus.REJECTED: ApprovalMove.REJECT,
    ApprovalStatus.CHANGES_REQUESTED: ApprovalMove.REQUEST_CHANGES,
}


def approve(
    store: Store,
    approval_id: str,
    *,
    reviewer: str,
    reason: str | None = None,
    remember: str | None = None,
    desk: str | None = None,
) -> ApprovalView:
    """Approve; `remember`: also store a rule for this tool under the target's folder (`run`
    or `home`). `desk`: the reader's in team mode (another desk's target is not checked here:
    its desk checks it before writing)."""
    if remember is not None and remember not in REMEMBER_SCOPES:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "--remember takes run or home.")
    return _decide(store, approval_id, ApprovalStatus.APPROVED, reviewer, reason, remember, desk)


def reject(
    store: Store,
    approval_id: str,
    *,
    reviewer: str,
    reason: str | None = None,
    revise: bool = False,
    desk: str | None = None,
) -> ApprovalView:
    """Reject (the run ends `cancelled`), or with `revise` send it back with the note `reason`:
    `changes_requested`, and the run goes on when resumed (the model reads the note). `desk`:
    the reader's in team mode (a rejected revert of its own run gives the status back at once)."""
    if not revise:
        return _decide(store, approval_id, ApprovalStatus.REJECTED, reviewer, reason, None, desk)
    note = required_note(reason)  # before any lookup: a bad command changes nothing
    return _decide(store, approval_id, ApprovalStatus.CHANGES_REQUESTED, reviewer, note, None)


def require_reviewer(reviewer: str | None) -> str:
    """The reviewer's name as a decision keeps it; `invalid_arguments` when there is none."""
    reviewer = (reviewer or "").strip()
    if not reviewer:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, "A reviewer name is required (--reviewer)."
        )
    return reviewer[:MAX_REVIEWER_CHARS]


def _decide(
    store: Store,
    approval_id: str,
    status: ApprovalStatus,
    reviewer: str,
    reason: str | None,
    remember_scope: str | None,
    desk: str | None = None,
) -> ApprovalView:
    reviewer = require_reviewer(reviewer)
    sweep_expired(store)
    with store.write() as conn:
        current = approval_rows.get_approval(conn, approval_id)
        grant_rows.require(
            conn, reviewer=reviewer, tool=current.tool, path=current.target, doing=_DOING[status]
        )
        check_decidable(current, utcnow())
        if is_revert(current):
            _check_revert_decision(current, status, remember_scope)
        if status is ApprovalStatus.APPROVED:
            _check_target_unchanged(conn, current, desk)
        after = approval_rows.move(
            conn, current, _MOVE[status], at=now_iso(), reviewer=reviewer, reason=reason
        )
        rule_id = remember(conn, after, reviewer, remember_scope) if remember_scope else None
        approval_rows.append_approval_event(
            conn, after, EventKind.APPROVAL_DECIDED, reviewer=reviewer, rule=rule_id
        )
        audit.record(
            conn,
            entry="decision",
            principal=f"person:{reviewer}",
            run_id=after.run_id,
            tool=after.tool,
            arg_hash=after.arg_hash,
            resource=after.target,
            rule_id=rule_id,
            decision=str(after.status),
            detail=reason,
        )
        if (
            is_revert(after)
            and after.status is ApprovalStatus.REJECTED
            and gives_back_here(store, after, desk)
        ):
            lifecycle.end_revert(conn, after.run_id, after.id)  # its status back, at once
        return approval_view(after)


def _check_revert_decision(
    revert: Approval, status: ApprovalStatus, remember_scope: str | None
) -> None:
    """A revert is a person's yes or no: never remembered as a rule, never sent back."""
    if remember_scope is not None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"Approval {revert.id} is a revert: a person decides each one (no --remember).",
        )
    if status is ApprovalStatus.CHANGES_REQUESTED:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"Approval {revert.id} is a revert: approve or reject it (no --revise).",
        )


def _check_target_unchanged(conn: Connection, approval: Approval, desk: str | None = None) -> None:
    if approval.target is None or proposed_elsewhere(approval, desk):
        return  # another desk's file: that desk checks it before it writes (target_changed)
    if agent_of_thread(approval.thread_id) is not None:  # an agent's: files only have a base
        now = file_hash(approval.target) if approval.target.startswith("/") else None
    else:
        now = spec_of(conn, approval).base_hash(approval.target)
    if now != approval.base_hash:
        raise BriefDeskError(
            ErrorCode.TARGET_CHANGED,
            f"{approval.target} changed since this proposal was made; "
            "reject it or edit it to see the new diff.",
        )
