"""An agent's call on its run's timeline: `tool_called` when the hook sees it, `tool_result`
when it is decided without running, or after it ran."""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonObject
from agent_core.storage.tables.timeline import append_event


def called(
    conn: Connection,
    run_id: str,
    tool: str,
    call_id: str,
    tool_input: JsonObject,
    target: str | None,
) -> None:
    data = {"call_id": call_id, "args": _clipped(tool_input), "target": target}
    append_event(conn, run_id, EventKind.TOOL_CALLED, tool=tool, data=data)


def result(
    conn: Connection,
    run_id: str,
    tool: str,
    call_id: str,
    outcome: str,
    *,
    executed: bool,
    reason: str | None = None,
    returned: str | None = None,
) -> None:
    data = {
        "call_id": call_id,
        "outcome": outcome,
        "executed": executed,
        "reason": reason,
        "result": returned,
    }
    append_event(conn, run_id, EventKind.TOOL_RESULT, tool=tool, data=data)


PREVIEW_CHARS = 300
"""A long text in a call's arguments (a written file's content) is cut to this on the timeline."""


def _clipped(value: object) -> object:
    """Long strings cut, as runs/call_records.py's `clip` cuts them (that module loads the
    tool registry, which a hook process never needs)."""
    if isinstance(value, str) and len(value) > PREVIEW_CHARS:
        return value[:PREVIEW_CHARS] + f"… ({len(value)} chars)"
    if isinstance(value, dict):
        return {k: _clipped(v) for k, v in value.items()}
    return value
