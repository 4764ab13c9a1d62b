"""`briefdesk-cli mcp serve`: BriefDesk as an MCP server over stdio, for any MCP client.

It offers the tools of the desk's registered MCP servers as `NAME__TOOL` (the model name
`mcp__NAME__TOOL` without its prefix: the client adds its own), with the input schema BriefDesk
checks calls against (the server's, undeclared keys refused). Every call is a call of the
connection's run (external_agents/mcp_client_run.py): one run per connection, made at its first
call, `agent` = the client's name from its `initialize`. A call waiting for a person keeps the
client's request open. Results are one text block (no structured output).

Started fast: neither the Agents SDK nor the servers are touched before the client asks; the
servers start when the client first lists tools (or calls one) and stop with the connection.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from agent_core.contract.json_types import JsonObject
from agent_core.contract.terminal_text import terminal_line
from agent_core.external_agents.mcp_client_run import CallAnswer, ClientRun, ServeDesk

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from mcp.types import (
        CallToolRequestParams,
        CallToolResult,
        ListToolsResult,
        PaginatedRequestParams,
    )

log = logging.getLogger(__name__)
MODEL_PREFIX = "mcp__"
UNNAMED_CLIENT = "mcp-client"
MAX_CLIENT_NAME = 80


def client_name(ctx: ServerRequestContext) -> str:
    """The client's name from its `initialize` (`clientInfo.name`), printable and bounded."""
    params = ctx.session.client_params
    name = params.client_info.name if params is not None else ""
    return terminal_line(name.strip())[:MAX_CLIENT_NAME] or UNNAMED_CLIENT


async def serve_stdio(desk: ServeDesk) -> str | None:
    """Serve one client on stdin/stdout until it leaves; returns the id of the run its
    calls made (None when it called nothing)."""
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    client = ClientRun(desk, await asyncio.to_thread(desk.registered_servers))
    busy = asyncio.Lock()  # one call at a time: the run's progress has one writer
    calls: set[asyncio.Future[CallAnswer]] = set()

    async def list_tools(
        ctx: ServerRequestContext, params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        from mcp.types import ListToolsResult, Tool

        listing = await client.listing()
        return ListToolsResult(
            tools=[
                Tool(
                    name=tool.model_name.removeprefix(MODEL_PREFIX),
                    description=tool.description,
                    input_schema=tool.input_schema,
                )
                for tool in listing.tools
            ]
        )

    async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams) -> CallToolResult:
        agent = client_name(ctx)
        arguments: JsonObject = dict(params.arguments or {})
        async with busy:
            await client.listing()
            running = asyncio.ensure_future(
                asyncio.to_thread(client.call, agent, MODEL_PREFIX + params.name, arguments)
            )
            calls.add(running)
            running.add_done_callback(calls.discard)
            answer = await asyncio.shield(running)  # a thread cannot be cancelled: let it end
        return _result(answer)

    server: Server = Server("briefdesk", on_list_tools=list_tools, on_call_tool=call_tool)
    try:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        client.closing.set()  # a call still waiting for a person stops waiting ...
        await asyncio.gather(*calls, return_exceptions=True)  # ... and ends before its run
        await asyncio.to_thread(client.end)
        await client.servers.aclose()
    return client.run_id


def _result(answer: CallAnswer) -> CallToolResult:
    from mcp.types import CallToolResult, TextContent

    return CallToolResult(
        content=[TextContent(type="text", text=answer.text)], is_error=answer.is_error
    )
