"""A side effect whose outcome is unknown, when only a person may say what happened.

An MCP write that reached its server and never had its answer recorded (the app was killed
after the server answered, a call timed out, the server died mid-call) is left `started` in the
ledger under the approval it ran with. It is never run again on its own (the server's effect
cannot be looked up the way a file's hash can): at the call's pause the gate asks a person,
with a new version of the proposal (runs/reproposal.py), whether to run it again. Approving
that version runs it once more; rejecting it records it as not executed; `approvals resolve
--done` records that it did happen (review/outcome_resolution.py). A read, and a tool whose
trusted server says it is idempotent, simply run again (`ToolSpec.reruns_after_unknown`).
"""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core.contract.approvals import Approval
from agent_core.contract.canonical import idempotency_key
from agent_core.contract.statuses import SideEffectStatus, ToolOutcomeStatus
from agent_core.runs.context import RunContext
from agent_core.runs.reproposal import propose_again
from agent_core.storage.tables import ledger
from agent_core.tools.specs import ToolSpec

UNKNOWN_REASON = "outcome unknown: the call reached its server, no answer was recorded"


def call_key(spec: ToolSpec, approval: Approval) -> str:
    """The ledger key the executor uses for this approval's call (same normalisation)."""
    args = spec.validate(approval.args).to_json()
    return idempotency_key(approval.run_id, approval.call_id, spec.name, args)


def unsettled(conn: Connection, spec: ToolSpec, approval: Approval) -> ledger.LedgerEntry | None:
    """The call's `started` entry, if it has one that only a person may settle."""
    if spec.reruns_after_unknown or not spec.has_side_effect:
        return None
    entry = ledger.get_entry(conn, call_key(spec, approval))
    return entry if entry is not None and entry.status is SideEffectStatus.STARTED else None


def ask_again(conn: Connection, ctx: RunContext, spec: ToolSpec, approval: Approval) -> bool:
    """At the pause of an approved call: when the call already started under this very
    approval and its outcome is unknown, propose it again to a person (True: the run waits)."""
    entry = unsettled(conn, spec, approval)
    if entry is None or entry.approval_id != approval.id:
        return False
    propose_again(conn, ctx, spec, approval, reason=UNKNOWN_REASON, why="outcome_unknown")
    return True


def not_executed(conn: Connection, run_id: str, spec: ToolSpec, approval: Approval) -> None:
    """A rejected question about an unknown outcome: the call is recorded as not done."""
    entry = unsettled(conn, spec, approval)
    if entry is None:
        return
    ledger.finish(
        conn,
        entry.idempotency_key,
        SideEffectStatus.FAILED,
        str(ToolOutcomeStatus.ERROR),
        {"error": {"code": "rejected", "message": f"Rejected by {approval.reviewer}."}},
    )
