"""The façade's MCP servers: register, list, inspect, re-tier and remove this desk's servers.

The servers are the desk's own (its `state.db`, also in team mode). Only `mcp tools` starts
one; registering never does (a server that cannot start is found out when it is used).
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.mcp_views import McpServerView, McpTierView, McpToolView
from agent_core.facade import home_stores
from agent_core.facade.base import WorkspaceBase
from agent_core.home.secrets import watch_secret_names
from agent_core.storage.tables import mcp_servers
from agent_core.storage.tables.mcp_servers import McpServerRow
from agent_core.tools.mcp.servers import granted_folders


def _view(row: McpServerRow) -> McpServerView:
    return McpServerView(
        name=row.name,
        command=row.command,
        args=list(row.args),
        env_keys=sorted(row.env),
        trust_hints=row.trust_hints,
        status="configured",
        roots=[str(folder) for folder in granted_folders(row)],
        network=row.network,
        sandbox=row.sandbox,
    )


class McpCommands(WorkspaceBase):
    """Mixed into `Workspace`: `mcp add / list / tools / tier / remove`."""

    def mcp_add(
        self,
        name: str,
        command: str,
        args: Sequence[str] = (),
        *,
        env: Sequence[str] = (),
        trust_hints: bool = False,
        roots: Sequence[str] = (),
        network: bool = False,
        sandbox: bool = True,
    ) -> McpServerView:
        """Register a stdio server (`invalid_arguments` on a bad name, env, command or root).
        `roots`: folders it may write in besides those named as arguments; `network`: it may
        reach the network; `sandbox=False`: it runs unconfined (--no-sandbox)."""
        from agent_core.tools.mcp.servers import new_server

        row = new_server(
            name,
            command,
            args,
            env,
            trust_hints=trust_hints,
            roots=roots,
            network=network,
            sandbox=sandbox,
        )
        with self.desk_store.write() as conn:
            mcp_servers.add(conn, row)
        watch_secret_names(home_stores.keyring_names([row]))  # its secrets are masked from now on
        return _view(row)

    def mcp_secret_names(self) -> list[str]:
        """The keyring entries this desk's servers take `keyring:` values from (names only).
        A server whose row cannot be read is left out: it cannot start either."""
        return home_stores.mcp_secret_names(self.desk_store)

    def mcp_servers(self) -> list[McpServerView]:
        with self.desk_store.read() as conn:
            return [_view(row) for row in mcp_servers.list_all(conn)]

    def mcp_server(self, name: str) -> McpServerRow:
        """One registered server; `not_found` when this desk has none of that name."""
        with self.desk_store.read() as conn:
            row = mcp_servers.get(conn, name)
        if row is None:
            raise _not_found(name)
        return row

    async def mcp_tools_async(self, name: str) -> list[McpToolView]:
        """Start the server, list its tools with their tiers, stop it."""
        from agent_core.tools.mcp.specs import list_specs

        row = self.mcp_server(name)
        return [spec.to_view() for spec in await list_specs(row, log_dir=self.home.logs)]

    def mcp_tools(self, name: str) -> list[McpToolView]:
        """`mcp_tools_async` for a caller without a loop (the CLI)."""
        import asyncio

        return asyncio.run(self.mcp_tools_async(name))

    def mcp_tier(self, name: str, tool: str, tier: str) -> McpTierView:
        """Override one tool's tier (read, write, network or interaction)."""
        from agent_core.tools.mcp.servers import check_tool_name
        from agent_core.tools.mcp.specs import OVERRIDE_TIERS

        if tier not in OVERRIDE_TIERS:
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS,
                f"A tier is one of {', '.join(OVERRIDE_TIERS)}; got {tier[:40]!r}.",
            )
        check_tool_name(tool)
        with self.desk_store.write() as conn:
            if not mcp_servers.set_tier(conn, name, tool, tier):
                raise _not_found(name)
        return McpTierView(server=name, tool=tool, tier=tier)

    def mcp_remove(self, name: str) -> str:
        with self.desk_store.write() as conn:
            if not mcp_servers.remove(conn, name):
                raise _not_found(name)
        return name


def _not_found(name: str) -> BriefDeskError:
    return BriefDeskError(
        ErrorCode.NOT_FOUND,
        f"No MCP server named {name[:40]!r} is registered on this desk (briefdesk-cli mcp list).",
    )
