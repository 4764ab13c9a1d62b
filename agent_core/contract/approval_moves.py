"""The transition table of an approval's status, and the pure function that applies it.

An approval is born `pending` (a person decides it) or `approved` (a rule or the run's mode
did: `PROPOSED_AS`); every later change of its status is one of the `ApprovalMove`s below.
`moved` applies a move to a record without a database; its one writer,
`storage/tables/approvals.py:move`, persists exactly that record with a conditional update on
the status and version it was read with, so the first reviewer wins. Nothing else writes the
column (tests/test_house_approval_writer.py reads the code to hold that).

The table is pure data in the contract, so the writer itself refuses an illegal move and no
caller, in `runs` or `review`, can reach the column around it. On PostgreSQL a desk's role is
held to the same moves by the triggers of migrations 0007/0015 (`DESK_ROLE_MOVES` says which
pairs they allow; tests/core/test_approval_moves.py reads the trigger's SQL to compare).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from agent_core.contract.approvals import Approval, is_expired, required_note
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.statuses import ApprovalStatus

S = ApprovalStatus

PROPOSED_AS = frozenset({S.PENDING, S.APPROVED})
"""The statuses a proposal may be stored with when it is made: pending for a person, approved
when a remembered rule or the run's mode allowed it (the database checks which, 0007)."""


class ApprovalMove(StrEnum):
    APPROVE = "approve"
    """A person approves these exact arguments (`approvals approve`)."""
    REJECT = "reject"
    """A person refuses the call; it never runs (`approvals reject`)."""
    REQUEST_CHANGES = "request_changes"
    """A person sends it back with a note instead of deciding it (the note is required)."""
    SUPERSEDE_BY_EDIT = "supersede_by_edit"
    """A reviewer's edit made a new pending version of it (`approvals edit`)."""
    EXPIRE = "expire"
    """Its time passed before anyone decided: the sweep, the gate at resume, or its run's
    expiry closes it. The only move without a reviewer."""
    CANCEL_WITH_RUN = "cancel_with_run"
    """Its run ended (cancelled, failed, succeeded) while it waited: closed on record, never
    as a rejection; the reviewer is who ended the run (or `briefdesk`)."""
    CONSUME = "consume"
    """The approved call (or revert) was executed, once; so is an unknown outcome a person
    said did happen (`approvals resolve --done`: approve, then consume, in one write)."""
    SUPERSEDE_BY_REPROPOSAL = "supersede_by_reproposal"
    """The approved call is put to a person again as a new version: its outcome is unknown, or
    its file changed since the person approved it (runs/reproposal.py). Its decision stays."""


@dataclass(frozen=True)
class Rule:
    source: ApprovalStatus
    target: ApprovalStatus
    decides: bool
    """A decision on a pending proposal: records who (`reviewer`, required unless EXPIRE), why
    (`decision_reason`) and when (`decided_at`). Otherwise the earlier decision stays and
    only a consumption records its time (`consumed_at`)."""


MOVES: dict[ApprovalMove, Rule] = {
    ApprovalMove.APPROVE: Rule(S.PENDING, S.APPROVED, decides=True),
    ApprovalMove.REJECT: Rule(S.PENDING, S.REJECTED, decides=True),
    ApprovalMove.REQUEST_CHANGES: Rule(S.PENDING, S.CHANGES_REQUESTED, decides=True),
    ApprovalMove.SUPERSEDE_BY_EDIT: Rule(S.PENDING, S.SUPERSEDED, decides=True),
    ApprovalMove.EXPIRE: Rule(S.PENDING, S.EXPIRED, decides=True),
    ApprovalMove.CANCEL_WITH_RUN: Rule(S.PENDING, S.CANCELLED, decides=True),
    ApprovalMove.CONSUME: Rule(S.APPROVED, S.CONSUMED, decides=False),
    ApprovalMove.SUPERSEDE_BY_REPROPOSAL: Rule(S.APPROVED, S.SUPERSEDED, decides=False),
}

DESK_ROLE_MOVES = frozenset(
    {
        (S.PENDING, S.EXPIRED),  # another desk's only once due by the server's clock (0015)
        (S.APPROVED, S.CONSUMED),  # its own run's only (0008)
        (S.APPROVED, S.SUPERSEDED),  # its own run's only (0015)
        (S.PENDING, S.CANCELLED),  # only once the run ended
        (S.PENDING, S.APPROVED),  # these four: by a reviewer a grant covers
        (S.PENDING, S.REJECTED),
        (S.PENDING, S.CHANGES_REQUESTED),
        (S.PENDING, S.SUPERSEDED),
    }
)
"""The (from, to) pairs the PostgreSQL triggers let a desk's role make (0015's
`briefdesk_guard_approvals`): the table above may not need more."""

DECISION_FIELDS = ("status", "reviewer", "decision_reason", "decided_at", "consumed_at")
"""The columns a move may change: what it records of the decision. The rest of the record is
what the proposal asks, fixed once proposed (the database refuses a change to it, 0007)."""


class IllegalApprovalMove(BriefDeskError):
    """A move the table does not allow from the approval's status: the contract's error for
    that status (expired and superseded first, as `check_decidable` says)."""

    def __init__(self, approval: Approval, move: ApprovalMove) -> None:
        current = approval.status
        code = {
            S.EXPIRED: ErrorCode.APPROVAL_EXPIRED,
            S.SUPERSEDED: ErrorCode.APPROVAL_SUPERSEDED,
        }.get(current, ErrorCode.APPROVAL_ALREADY_RESOLVED)
        super().__init__(
            code, f"Approval {approval.id} is {current}: it cannot {move.value.replace('_', ' ')}."
        )
        self.current = current
        self.move = move


def target_of(approval: Approval, move: ApprovalMove) -> ApprovalStatus:
    """The status `move` leads to from the approval's; raises when the table forbids it."""
    rule = MOVES[move]
    if approval.status is not rule.source:
        raise IllegalApprovalMove(approval, move)
    return rule.target


def moved(
    approval: Approval,
    move: ApprovalMove,
    *,
    at: str,
    reviewer: str | None = None,
    reason: str | None = None,
) -> Approval:
    """The record after `move` at time `at` (ISO), by `reviewer` with `reason`: pure."""
    target = target_of(approval, move)
    rule = MOVES[move]
    if not rule.decides:
        if reviewer is not None or reason is not None:
            raise ValueError(f"{move} keeps the earlier decision: no reviewer, no reason")
        consumed_at = at if target is S.CONSUMED else approval.consumed_at
        return replace(approval, status=target, consumed_at=consumed_at)
    if (reviewer is None) is not (move is ApprovalMove.EXPIRE):
        raise ValueError(f"{move} needs a reviewer" if reviewer is None else "nobody expires")
    if move is ApprovalMove.REQUEST_CHANGES:
        reason = required_note(reason)
    return replace(
        approval, status=target, reviewer=reviewer, decision_reason=reason, decided_at=at
    )


def shown_status(approval: Approval, now: datetime) -> ApprovalStatus:
    """The status a reader is shown: a pending proposal past its time shows as `expired`.

    A view rule, not a move: reads never write (a read runs on the read engine, and in team
    mode on a desk that may not be the proposal's), and such a proposal is already undecidable
    (`check_decidable`). The sweep (review/expiry.py) records the move at its next tick."""
    if approval.status is S.PENDING and is_expired(approval, now):
        return S.EXPIRED
    return approval.status
