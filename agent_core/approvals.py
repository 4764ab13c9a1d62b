"""Approvals are data: a proposal row with a status enum and pure transitions.

Nothing here touches a database; storage/approvals.py persists the transitions with a
conditional update so that the first reviewer wins.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.statuses import ApprovalStatus
from agent_core.views import ApprovalView


@dataclass(frozen=True)
class Approval:
    id: str
    run_id: str
    thread_id: str
    call_id: str
    tool: str
    args: dict[str, Any]
    target: str | None
    base_hash: str | None
    risk: str
    reason: str
    arg_hash: str
    state_version: int
    version: int
    status: ApprovalStatus
    created_at: str
    expires_at: str
    reviewer: str | None = None
    decision_reason: str | None = None
    decided_at: str | None = None
    decided_by_rule: str | None = None
    consumed_at: str | None = None

    def to_json(self) -> ApprovalView:
        data = {k: v for k, v in self.__dict__.items() if k not in ("thread_id", "call_id")}
        data["status"] = str(self.status)
        return ApprovalView(**data)  # type: ignore[typeddict-item]

    @staticmethod
    def from_row(row: Any) -> Approval:
        values = dict(row._mapping)
        values["args"] = json.loads(values.pop("args_json"))
        values["status"] = ApprovalStatus(values["status"])
        return Approval(**values)


def is_expired(approval: Approval, now: datetime) -> bool:
    return datetime.fromisoformat(approval.expires_at) <= now


def check_decidable(approval: Approval, now: datetime) -> None:
    """Raise the contract's error when this proposal can no longer be decided.

    Expired and superseded take precedence over already-resolved.
    """
    if approval.status is ApprovalStatus.EXPIRED or (
        approval.status is ApprovalStatus.PENDING and is_expired(approval, now)
    ):
        raise BriefDeskError(
            ErrorCode.APPROVAL_EXPIRED,
            f"Approval {approval.id} expired at {approval.expires_at}; "
            "it can no longer be decided.",
        )
    if approval.status is ApprovalStatus.SUPERSEDED:
        raise BriefDeskError(
            ErrorCode.APPROVAL_SUPERSEDED,
            f"Approval {approval.id} was replaced by an edit; decide the newest version instead.",
        )
    if approval.status is not ApprovalStatus.PENDING:
        raise BriefDeskError(
            ErrorCode.APPROVAL_ALREADY_RESOLVED,
            f"Approval {approval.id} is already {approval.status}"
            + (f" by {approval.reviewer}" if approval.reviewer else "")
            + ".",
        )


def decide(
    approval: Approval,
    status: ApprovalStatus,
    *,
    reviewer: str,
    reason: str | None,
    now_iso: str,
    rule_id: str | None = None,
) -> Approval:
    if status not in (ApprovalStatus.APPROVED, ApprovalStatus.REJECTED):
        raise ValueError(f"not a decision: {status}")
    return replace(
        approval,
        status=status,
        reviewer=reviewer,
        decision_reason=reason,
        decided_at=now_iso,
        decided_by_rule=rule_id,
    )


def consume(approval: Approval, now_iso: str) -> Approval:
    if approval.status is not ApprovalStatus.APPROVED:
        raise BriefDeskError(
            ErrorCode.APPROVAL_ALREADY_RESOLVED, f"Approval {approval.id} is {approval.status}."
        )
    return replace(approval, status=ApprovalStatus.CONSUMED, consumed_at=now_iso)
