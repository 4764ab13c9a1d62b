"""One run's MCP servers: listed when the run starts, started again when a call needs them,
stopped with the run.

Each started server lives in a task of its own on the run's event loop: the `mcp` SDK's
connection must be entered and left in the same task, while calls come from tool bodies in
worker threads (`call_from_thread` hops onto the loop). `aclose()` ends every task, which
stops its server (stdin closed, then SIGTERM/SIGKILL of its process group by the SDK).

A server is stopped by letting its task leave the SDK's context, never by cancelling the task:
the SDK's shutdown (close stdin, wait 2 s, kill the group) is shielded only from anyio's
cancel scopes. A native `Task.cancel()` (asyncio.run cancels every task still running when
the run's coroutine returns) cuts it short before the kill, and the SDK's stdout reader then
waits, shielded, for an end of file the live server never sends: the server lives on and
`asyncio.run` never returns. So `aclose()` waits, without cancelling, for every server that
is stopping, including one dropped earlier after a timeout.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.storage.tables.mcp_servers import McpServerRow
from agent_core.storage.tables.run_mcp_tools import RunMcpTool
from agent_core.tools.mcp.client import McpRefused, ServerSession, connect, unavailable
from agent_core.tools.mcp.servers import model_name
from agent_core.tools.mcp.specs import spec_for_tool
from agent_core.tools.mcp.tool_spec import McpOutcomeUnknown

if TYPE_CHECKING:
    from mcp.types import CallToolResult

log = logging.getLogger(__name__)
HOP_MARGIN_S = 5.0
"""The session's own timeout fires first; this only bounds a loop that stopped answering."""
STOP_WAIT_S = 30.0
"""The SDK's shutdown is bounded (flush 0.5 s, stdin grace 2 s, SIGTERM 2 s, reap 2 s); this
only bounds a wait that should never be reached."""


@dataclass
class Listing:
    """What a run's start found: the tools it offers, the servers that did not start."""

    tools: list[RunMcpTool] = field(default_factory=list)
    unavailable: dict[str, BriefDeskError] = field(default_factory=dict)
    """Server name -> why it is unavailable (its code and one sentence)."""


class _Running:
    """One started server, held open by its own task until `stop` is set."""

    def __init__(
        self, session: ServerSession, task: asyncio.Task[None], stop: asyncio.Event
    ) -> None:
        self.session = session
        self.task = task
        self.stop = stop


class RunServers:
    def __init__(
        self, rows: Mapping[str, McpServerRow], *, log_dir: Path | None, call_timeout: float
    ) -> None:
        self.rows = dict(rows)
        self.log_dir = log_dir
        self.call_timeout = call_timeout
        self.loop: asyncio.AbstractEventLoop | None = None
        self._running: dict[str, _Running] = {}
        self._stopping: set[asyncio.Task[None]] = set()
        self._locks: dict[str, asyncio.Lock] = {}
        self._listed: dict[str, list[RunMcpTool]] = {}
        self._expected: dict[str, str] = {}

    def expect(self, recorded: list[RunMcpTool]) -> None:
        """The tools the run offered its model: a call goes to a server only while it still
        offers the very same tool (a tool changed since is refused, never run as approved)."""
        self._expected = {tool.model_name: tool.schema_hash for tool in recorded}

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The loop the servers live on (calls from tool bodies hop onto it)."""
        self.loop = loop

    # -- on the run's loop ------------------------------------------------------------

    async def list_all(self) -> Listing:
        """Start every registered server at once, list its tools, keep it running."""
        self.loop = asyncio.get_running_loop()
        names = sorted(self.rows)
        found = await asyncio.gather(*(self._list(n) for n in names), return_exceptions=True)
        listing = Listing()
        for name, tools in zip(names, found, strict=True):
            if isinstance(tools, BriefDeskError):
                listing.unavailable[name] = tools
            elif isinstance(tools, BaseException):
                raise tools
            else:
                listing.tools.extend(tools)
        return listing

    async def _list(self, name: str) -> list[RunMcpTool]:
        await self._session(name)
        return self._listed[name]

    async def _listing(self, row: McpServerRow, session: ServerSession) -> list[RunMcpTool]:
        name = row.name
        tools: list[RunMcpTool] = []
        for tool in await session.list_tools():
            spec = spec_for_tool(row, tool)
            if spec is None:
                log.warning("MCP server %s: tool %r left out (name not usable)", name, tool.name)
                continue
            if spec.error is not None:  # its schema cannot be checked: never offered
                log.warning("MCP server %s: tool %r left out (%s)", name, tool.name, spec.error)
                continue
            tools.append(spec.recorded(row.trust_hints))
        return tools

    async def _session(self, name: str) -> ServerSession:
        lock = self._locks.setdefault(name, asyncio.Lock())
        async with lock:
            running = self._running.get(name)
            if running is not None and not running.task.done():
                return running.session
            row = self.rows.get(name)
            if row is None:
                raise unavailable(name, "it is no longer registered on this desk")
            ready: asyncio.Future[ServerSession] = asyncio.get_running_loop().create_future()
            stop = asyncio.Event()
            task = asyncio.create_task(self._hold(row, ready, stop), name=f"mcp-{name}")
            session = await ready
            self._running[name] = _Running(session, task, stop)
            try:
                self._listed[name] = await self._listing(row, session)
            except BaseException:
                self._forget(name)
                raise
            return session

    async def _hold(
        self, row: McpServerRow, ready: asyncio.Future[ServerSession], stop: asyncio.Event
    ) -> None:
        try:
            async with connect(row, log_dir=self.log_dir) as session:
                ready.set_result(session)
                await stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            elif not isinstance(exc, asyncio.CancelledError | BriefDeskError):
                log.warning("MCP server %s stopped badly: %s", row.name, exc)

    async def call(self, server: str, tool: str, args: JsonObject) -> CallToolResult:
        session = await self._session(server)  # not started: nothing was sent (a refusal)
        self._check_unchanged(server, tool)
        try:
            return await session.call(tool, args, self.call_timeout)
        except McpRefused:
            raise  # a JSON-RPC error answer: the server refused, nothing ran
        except BriefDeskError as exc:
            if exc.code in (ErrorCode.TOOL_TIMEOUT, ErrorCode.MCP_SERVER_UNAVAILABLE):
                self._forget(server)  # a broken or busy session is not used again
                raise McpOutcomeUnknown(exc.code, exc.message, server=server) from None
            raise

    def _check_unchanged(self, server: str, tool: str) -> None:
        wanted = self._expected.get(model_name(server, tool) or "")
        if wanted is None:
            return
        now = {t.tool: t.schema_hash for t in self._listed.get(server, [])}
        if now.get(tool) != wanted:
            raise BriefDeskError(
                ErrorCode.NOT_AUTHORIZED,
                f"The MCP server {server!r} no longer offers {tool!r} as the run listed it "
                "(its schema, hints or tier changed): it was not called.",
                server=server,
            )

    def _forget(self, server: str) -> None:
        """Stop `server` (a later call starts it again); `aclose` waits until it has stopped."""
        running = self._running.pop(server, None)
        if running is not None:
            running.stop.set()
            if not running.task.done():
                self._stopping.add(running.task)
                running.task.add_done_callback(self._stopping.discard)

    async def aclose(self) -> None:
        """Stop every server this run started and wait until each has stopped (each leaves
        its own task; none is cancelled, see the module's docstring)."""
        for server in list(self._running):
            self._forget(server)
        if not self._stopping:
            return
        _done, late = await asyncio.wait(set(self._stopping), timeout=STOP_WAIT_S)
        for task in late:
            log.warning("MCP server task %s did not stop in %g s", task.get_name(), STOP_WAIT_S)

    # -- from a tool body's worker thread ---------------------------------------------

    def call_from_thread(self, server: str, tool: str, args: JsonObject) -> CallToolResult:
        loop = self.loop
        if loop is None:
            raise unavailable(server, "the run's servers are not running")
        future = asyncio.run_coroutine_threadsafe(self.call(server, tool, args), loop)
        try:
            return future.result(timeout=self.call_timeout + HOP_MARGIN_S + 30)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise McpOutcomeUnknown(
                ErrorCode.TOOL_TIMEOUT,
                f"The MCP server {server!r} did not answer {tool!r} in time.",
                server=server,
            ) from None
