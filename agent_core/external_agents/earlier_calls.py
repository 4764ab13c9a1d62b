"""A call an agent sends again without an id (Codex's `PermissionRequest` names no call: it
follows the `PreToolUse` that proposed it): known by its tool and arguments, the arguments of
any version of its proposal (a person's edit, which `PreToolUse` already handed the agent)."""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core.contract.approvals import Approval
from agent_core.contract.canonical import arg_hash
from agent_core.contract.json_types import JsonObject
from agent_core.storage.tables import approvals as approval_rows


def newest_with_args(
    conn: Connection, run_id: str, tool: str, tool_input: JsonObject
) -> Approval | None:
    """The newest version of the run's newest call of `tool` one of whose versions has these
    arguments (None: the run never proposed it)."""
    wanted = arg_hash(tool, tool_input)
    calls = [
        a.call_id
        for a in approval_rows.list_approvals(conn, run_id=run_id)
        if a.tool == tool and arg_hash(tool, a.args) == wanted
    ]
    return approval_rows.latest_for_call(conn, run_id, calls[-1]) if calls else None
