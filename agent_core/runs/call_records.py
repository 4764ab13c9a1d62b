"""What a tool call leaves on record: its refusal (block event + audit row) and its result event.

Both the gate (refusals at validation and policy) and the executor (refusals at run time,
results) write these, so they live here rather than in either.
"""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import ToolOutcomeStatus
from agent_core.home.result_text import bounded_masked_text
from agent_core.storage.tables import audit
from agent_core.storage.tables import tool_calls as call_rows
from agent_core.storage.tables.timeline import append_event
from agent_core.tools.validation import printable

PREVIEW_CHARS = 300

RULE_FOR_CODE = {
    ErrorCode.INVALID_ARGUMENTS: "schema.strict",
    ErrorCode.UNKNOWN_TOOL: "tools.unknown",
    ErrorCode.PATH_OUTSIDE_SCOPE: "sandbox.path",
    ErrorCode.NOT_FOUND: "sandbox.path",
    ErrorCode.WRITE_FORBIDDEN: "sandbox.write",
    ErrorCode.NETWORK_BLOCKED: "network.off",
    ErrorCode.PREVIOUSLY_REJECTED: "approvals.previously_rejected",
    ErrorCode.TARGET_CHANGED: "approvals.target_changed",
}


def clip(value: object, limit: int = PREVIEW_CHARS) -> object:
    """Bound model-supplied text before it goes into an event (long strings are cut)."""
    if isinstance(value, str) and len(value) > limit:
        return value[:limit] + f"… ({len(value)} chars)"
    if isinstance(value, dict):
        return {k: clip(v, limit) for k, v in value.items()}
    return value


def tool_result(
    conn: Connection,
    run_id: str,
    tool: str,
    call_id: str,
    outcome: str | None,
    *,
    executed: bool,
    result: str | None = None,
    **extra: object,
) -> None:
    """`executed` is true on exactly one tool_result per call: its one real execution.
    `result` is what the tool returned (None: it did not run), kept masked, escaped, bounded."""
    data = {
        "call_id": call_id,
        "outcome": outcome,
        "executed": executed,
        **extra,
        "result": bounded_masked_text(result),
    }
    append_event(conn, run_id, EventKind.TOOL_RESULT, tool=tool, data=data)


def refuse(
    conn: Connection,
    run_id: str,
    call_id: str,
    tool: str,
    error: BriefDeskError,
    *,
    resource: str | None,
    mark_call: bool = True,
) -> None:
    """A boundary refused the call: `blocked` + a non-executed error result + a block row.

    `mark_call=False` leaves the call's row alone: a second call that reused the id of a first
    one is refused, the first one is not."""
    known = error.code in ErrorCode._value2member_map_
    # The refusing boundary's own rule id when it names one (network.allowlist, ...).
    rule = str(
        error.details.get("rule")
        or (RULE_FOR_CODE.get(ErrorCode(error.code), "policy") if known else "policy")
    )
    if mark_call:
        call_rows.deny_call(conn, run_id, call_id, error.code)
    clipped = printable(resource) if resource else None
    append_event(
        conn,
        run_id,
        EventKind.BLOCKED,
        tool=tool,
        data={
            "call_id": call_id,
            "rule": rule,
            "code": error.code,
            "resource": clipped,
            "message": clip(error.message, 300),
        },
    )
    tool_result(
        conn, run_id, tool, call_id, str(ToolOutcomeStatus.ERROR), executed=False, code=error.code
    )
    audit.record(
        conn,
        entry="block",
        principal="model",
        run_id=run_id,
        tool=tool,
        resource=clipped,
        rule_id=rule,
        code=error.code,
        detail=error.message,
    )
