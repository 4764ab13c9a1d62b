"""The spec of the tool a proposal calls, as its run offered it (an MCP tool's from the run's
`run_mcp_tools` rows: review never starts a server)."""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core.contract.approvals import Approval
from agent_core.tools.mcp.servers import split_model_name
from agent_core.tools.mcp.tool_spec import recorded_toolset
from agent_core.tools.registry import BUILTIN, ToolSet
from agent_core.tools.specs import ToolSpec


def tools_of(conn: Connection, run_id: str, tool: str) -> ToolSet:
    """The run's tools when `tool` is an MCP tool's name; our own otherwise (no query)."""
    return BUILTIN if split_model_name(tool) is None else recorded_toolset(conn, run_id)


def spec_of(conn: Connection, approval: Approval) -> ToolSpec:
    return tools_of(conn, approval.run_id, approval.tool).spec_for(approval.tool)
