"""Remembered rules deciding an external agent's calls, as for BriefDesk's own tools.

Which rule covers a call is asked the way it was made (tools/agent_calls/rule_scope.py): a
write only when every file it changes lies in the rule's folder (`Rule.covers`, the gate's
test); a shell command or an MCP call only by the very scope its rule remembered, made for this
agent on this desk.
"""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core.contract.json_types import JsonObject
from agent_core.external_agents.proposal_of_call import AimedCall
from agent_core.storage.tables import rules as rule_rows
from agent_core.tools.agent_calls.kinds import AgentTools, CallKind
from agent_core.tools.agent_calls.rule_scope import agent_rule_scope
from agent_core.tools.policy import Rule

_SCOPED_PREFIXES = ("shell:", "mcp:")


def rule_deciding(
    conn: Connection,
    tools: AgentTools,
    *,
    run_id: str,
    tool: str,
    tool_input: JsonObject,
    aimed: AimedCall,
    desk: str | None,
) -> Rule | None:
    """The first live rule that covers the call (None: a person decides)."""
    if aimed.kind not in (CallKind.FILE_WRITE, CallKind.SHELL, CallKind.MCP):
        return None
    scope = agent_rule_scope(tools, tool, tool_input, aimed.target, desk)
    if scope is None:
        return None
    paths = [c.path for c in aimed.changes] or [aimed.target or ""]
    for row in rule_rows.list_rules(conn):
        if row.revoked_at is not None or row.tool != tool:
            continue
        rule = Rule(row.id, row.tool, row.folder, row.scope, row.run_id)
        if rule.scope == "run" and rule.run_id != run_id:
            continue
        if aimed.kind is CallKind.FILE_WRITE:
            if row.folder.startswith(_SCOPED_PREFIXES) or row.server_digest not in (
                None,
                scope.owner,
            ):
                continue
            if all(rule.covers(tool, path, run_id) for path in paths):
                return rule
        elif row.folder == scope.folder and row.server_digest == scope.owner:
            return rule
    return None
