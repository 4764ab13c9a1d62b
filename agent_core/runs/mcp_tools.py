"""A run's MCP tools: listed once when it starts, recorded, offered to its model, called.

The offline model keeps BriefDesk's own tools (it is the embedded brief writer, and starts no
server). The scripted and remote models also see every tool of every MCP server registered on
the run's desk: when the run starts, all servers start at once and list their tools; what they
offered is recorded in `run_mcp_tools` (in the same write for all of them) and is what the run
offers from then on, resumed runs included. A server that did not start is noted, so a call to
one of its tools is refused as `mcp_server_unavailable`, not as an unknown tool.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.contract.errors import BriefDeskError
from agent_core.contract.json_types import JsonObject
from agent_core.contract.model_spec import ModelKind, ModelSpec
from agent_core.runs.context import RunContext
from agent_core.storage.store import Store
from agent_core.storage.tables import mcp_servers as server_rows
from agent_core.storage.tables.mcp_servers import McpServerRow
from agent_core.storage.tables.run_mcp_tools import RunMcpTool, record_tools, tools_of_run
from agent_core.tools.mcp.run_servers import RunServers
from agent_core.tools.mcp.server_identity import ServerFacts, server_facts
from agent_core.tools.mcp.tool_spec import run_toolset

if TYPE_CHECKING:
    from mcp.types import CallToolResult


class RunMcp:
    def __init__(self, ctx: RunContext, desk_store: Store, *, log_dir: Path | None) -> None:
        self.ctx = ctx
        self.desk_store = desk_store
        self.log_dir = log_dir
        self.servers: RunServers | None = None
        self._prepared = False
        self._recorded: list[RunMcpTool] = []
        self._registered: dict[str, McpServerRow] | None = None

    def use_recorded(self) -> bool:
        """Offer the MCP tools the run recorded when it started; False when it has none."""
        with self.ctx.store.read() as conn:
            recorded = tools_of_run(conn, self.ctx.run_id)
        if recorded:
            self.ctx.tools = run_toolset(recorded, self._call, servers=self._facts())
            self._recorded = recorded
        return bool(recorded)

    async def prepare(self, *, starting: bool, model: str) -> bool:
        """Called once the run is claimed. True when it listed tools just now (the agent must
        be built again to offer them)."""
        if self._prepared:
            return False
        self._prepared = True
        servers = self._servers()
        if servers is None:
            return False
        servers.bind(asyncio.get_running_loop())
        if self.use_recorded() or not starting or _offline(model):
            servers.expect(self._recorded)
            return False
        listing = await servers.list_all()
        servers.expect(listing.tools)
        with self.ctx.write() as conn:
            record_tools(conn, self.ctx.run_id, listing.tools)
        self.ctx.tools = run_toolset(
            listing.tools, self._call, listing.unavailable, servers=self._facts()
        )
        return True

    def _rows(self) -> dict[str, McpServerRow]:
        """The desk's registered servers, read once: the ones this process calls, and the
        ones its gate binds rules and relative paths to (tools/mcp/server_identity.py)."""
        if self._registered is None:
            with self.desk_store.read() as conn:
                self._registered = {row.name: row for row in server_rows.list_all(conn)}
        return self._registered

    def _facts(self) -> dict[str, ServerFacts]:
        return server_facts(self._rows().values(), self.ctx.desk)

    def _servers(self) -> RunServers | None:
        if self.servers is None:
            rows = self._rows()
            if not rows:
                return None
            self.servers = RunServers(
                rows, log_dir=self.log_dir, call_timeout=self.ctx.settings.mcp_call_timeout
            )
        return self.servers

    def _call(self, server: str, tool: str, args: JsonObject) -> CallToolResult:
        from agent_core.tools.mcp.client import unavailable

        if self.servers is None:
            raise unavailable(server, "it is no longer registered on this desk")
        return self.servers.call_from_thread(server, tool, args)

    async def aclose(self) -> None:
        if self.servers is not None:
            await self.servers.aclose()


def _offline(model: str) -> bool:
    try:
        return ModelSpec.parse(model).kind is ModelKind.OFFLINE
    except BriefDeskError:  # a spec that names no model: the run reports it when it builds one
        return True
