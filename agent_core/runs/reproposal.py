"""An approved call put to a person again, as a new version of its proposal.

Two things make an approval no longer enough, both found at the call's pause: its outcome is
unknown (runs/unknown_outcome.py), or the file a whole-file MCP write replaces changed after
the person approved the diff (the executor found it just before sending the call and sent the
run back to this pause: tools/mcp/whole_file.py). Either way the approved version is
superseded by a pending one of the same call, against the file as it is now (its base and the
content kept for reviewers elsewhere), and the run waits. The approval binding accepts such a
version as "asked again" (same arguments, same target), decided by a person only.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from sqlalchemy import Connection

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import Approval
from agent_core.contract.canonical import iso
from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonValue
from agent_core.contract.statuses import ApprovalStatus
from agent_core.home.clock import utcnow
from agent_core.runs.context import RunContext
from agent_core.storage.tables import approvals as approval_rows
from agent_core.tools.mcp.whole_file import target_changed
from agent_core.tools.proposal_base import keep_base
from agent_core.tools.specs import ToolSpec

TARGET_CHANGED_REASON = (
    "target changed: the file was changed after the write was approved; nothing was sent. "
    "Approve it against the file as it is now, or reject it"
)


def mcp_base_moved(spec: ToolSpec, approval: Approval) -> bool:
    """A whole-file MCP write whose file is neither the approved base nor its new content."""
    if spec.source is None or spec.content_field is None:
        return False
    content = spec.expected_hash(spec.validate(approval.args))
    return target_changed(approval.target, approval.base_hash, content)


def ask_if_target_changed(
    conn: Connection, ctx: RunContext, spec: ToolSpec, approval: Approval
) -> bool:
    """At the pause of an approved call: when its file moved since the person saw it, a new
    proposal with the new diff (True: the run waits)."""
    if not mcp_base_moved(spec, approval):
        return False
    propose_again(conn, ctx, spec, approval, reason=TARGET_CHANGED_REASON, why="target_changed")
    return True


def propose_again(
    conn: Connection,
    ctx: RunContext,
    spec: ToolSpec,
    approval: Approval,
    *,
    reason: str,
    why: str,
) -> Approval:
    """Supersede `approval` with a pending version of the same call against the target as it
    is now; `why` (`outcome_unknown`, `target_changed`) is set true on its request event."""
    approval_rows.move(conn, approval, ApprovalMove.SUPERSEDE_BY_REPROPOSAL)
    base_hash = spec.base_hash(approval.target)
    now = utcnow()
    again = replace(
        approval,
        id=approval_rows.new_approval_id(),
        version=approval.version + 1,
        status=ApprovalStatus.PENDING,
        reason=reason,
        base_hash=base_hash,
        base_digest=keep_base(conn, spec, approval.target, base_hash, run_id=ctx.run_id),
        created_at=iso(now) or "",
        # A new question gets its whole time to be answered, not what was left of the old one.
        expires_at=iso(now + timedelta(seconds=ctx.facts.limits.approval_ttl)) or "",
        reviewer=None,
        decided_at=None,
        decided_by_rule=None,
        decision_reason=None,
    )
    approval_rows.insert_approval(conn, again)
    approval_rows.append_approval_event(
        conn, approval, EventKind.APPROVAL_DECIDED, reviewer=approval.reviewer,
        status="superseded", by=again.id,
    )  # fmt: skip
    facts: dict[str, JsonValue] = {"target": again.target, "version": again.version, why: True}
    approval_rows.append_approval_event(
        conn, again, EventKind.APPROVAL_REQUESTED, reviewer=None, status=None, **facts
    )
    ctx.record.advance(conn, next_step=f"wait for approval of {spec.name}")
    return again
