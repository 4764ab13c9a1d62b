"""What the executor reads to tell whether an approval authorises a call (runs/approval_binding.py):
every version proposed for the call and the call as the model made it (a rule by its id:
rules.py)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select

from agent_core.contract.approvals import Approval
from agent_core.contract.statuses import ApprovalStatus
from agent_core.storage.schema import approvals, tool_calls


@dataclass(frozen=True)
class ModelCall:
    """A call as the model made it, recorded by the gate before anything was decided."""

    tool: str
    raw_args: str


def call_chain(conn: Connection, run_id: str, call_id: str) -> list[Approval]:
    """Every proposal made for one call, oldest version first (1, then each edit)."""
    rows = conn.execute(
        select(approvals)
        .where(approvals.c.run_id == run_id, approvals.c.call_id == call_id)
        .order_by(approvals.c.version, approvals.c.created_at)
    )
    return [Approval.from_row(r) for r in rows]


def model_call(conn: Connection, run_id: str, call_id: str) -> ModelCall | None:
    row = conn.execute(
        select(tool_calls.c.tool, tool_calls.c.raw_args).where(
            tool_calls.c.run_id == run_id, tool_calls.c.call_id == call_id
        )
    ).first()
    return None if row is None else ModelCall(str(row.tool), str(row.raw_args))


def changes_requested_before(conn: Connection, run_id: str, created_at: str) -> bool:
    """Did a person ask for changes in this run before a proposal made at `created_at`? Then
    that proposal is a revision, which only a person decides (tools/policy.py)."""
    row = conn.execute(
        select(approvals.c.id).where(
            approvals.c.run_id == run_id,
            approvals.c.status == str(ApprovalStatus.CHANGES_REQUESTED),
            approvals.c.created_at < created_at,
        )
    ).first()
    return row is not None
