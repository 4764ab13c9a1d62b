"""Talk to one registered MCP server over stdio with the official `mcp` SDK.

`connect(row)` starts the server through launch.py (the minimal environment of servers.py,
killed with BriefDesk) and yields a `ServerSession` that lists tools and calls one with a
timeout. Leaving it stops the server: the SDK closes its stdin, then SIGTERMs and SIGKILLs its
process group, so nothing is left behind.

Faults come back as stable codes, never as the SDK's nested exception groups:
- the server does not start, exits, answers with something that is not JSON-RPC, or does
  not finish its handshake in time: `mcp_server_unavailable`;
- a call past its timeout: `tool_timeout` (the server may still be working on it);
- a JSON-RPC error answer (the server refused; nothing ran): `McpRefused`.

The server's stderr is kept in an unnamed temporary file while it runs; its tail is then
masked (keyring values, key-shaped strings) and appended to the home's `logs/mcp-NAME.log`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar, cast

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.terminal_text import terminal_line
from agent_core.home.secrets import REDACTOR
from agent_core.storage.tables.mcp_servers import McpServerRow
from agent_core.tools.mcp.servers import resolve_command, server_env

if TYPE_CHECKING:
    from mcp import ClientSession
    from mcp.types import CallToolResult, Tool

LAUNCHER = Path(__file__).with_name("launch.py")
START_TIMEOUT_S = 30.0
"""Start and handshake (node through npx can take a while on a cold cache)."""
MAX_LOG_TAIL = 64_000
_T = TypeVar("_T")


class McpRefused(BriefDeskError):
    """The server answered a call with a JSON-RPC error: it refused, and nothing ran."""

    def __init__(self, server: str, tool: str, rpc_code: int, message: str) -> None:
        code = ErrorCode.UNKNOWN_TOOL if rpc_code == -32601 else ErrorCode.INVALID_ARGUMENTS
        super().__init__(
            code,
            f"The MCP server {server!r} refused {tool!r} ({rpc_code}: "
            f"{terminal_line(message)[:300]}).",
            server=server,
        )
        self.rpc_code = rpc_code


def unavailable(server: str, why: str) -> BriefDeskError:
    return BriefDeskError(
        ErrorCode.MCP_SERVER_UNAVAILABLE,
        f"The MCP server {server!r} is unavailable: {why}.",
        server=server,
    )


class _Stderr:
    """The server's stderr: a real file (the child needs a descriptor), never a pipe nobody
    drains, masked before any of it is kept or shown."""

    def __init__(self, log_dir: Path | None, server: str) -> None:
        # Closed in close(), which connect() always reaches.
        self.file = cast(TextIO, tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace"))  # noqa: SIM115
        self.log = None if log_dir is None else log_dir / f"mcp-{server}.log"

    def tail(self) -> str:
        self.file.flush()
        size = self.file.seek(0, 2)
        self.file.seek(max(0, size - MAX_LOG_TAIL))
        return REDACTOR.redact_text(self.file.read())

    def last_line(self) -> str:
        lines = [line for line in self.tail().splitlines() if line.strip()]
        return terminal_line(lines[-1])[:200] if lines else ""

    def close(self) -> None:
        try:
            text = self.tail()
            if text and self.log is not None:
                with contextlib.suppress(OSError):
                    self.log.parent.mkdir(parents=True, exist_ok=True)
                    with self.log.open("a", encoding="utf-8") as out:
                        out.write(text if text.endswith("\n") else text + "\n")
        finally:
            self.file.close()


@dataclass
class ServerSession:
    """One started server: list its tools, call one. Only inside `connect`."""

    row: McpServerRow
    session: ClientSession
    stderr: _Stderr
    broken: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def name(self) -> str:
        return self.row.name

    async def list_tools(self) -> list[Tool]:
        """Every tool, across pages."""
        from mcp.types import PaginatedRequestParams

        tools: list[Tool] = []
        cursor: str | None = None
        for _ in range(100):  # a server paging forever is a broken one
            params = None if cursor is None else PaginatedRequestParams(cursor=cursor)
            page = await self._guarded(self.session.list_tools(params=params), "tools/list")
            tools.extend(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                return tools
        raise unavailable(self.name, "its tool list never ends")

    async def call(self, tool: str, args: Mapping[str, object], timeout: float) -> CallToolResult:
        """Call `tool`; `tool_timeout` past `timeout` seconds. A tool's own failure is a result
        with `is_error` (it ran), not an exception."""
        call = self.session.call_tool(tool, dict(args), read_timeout_seconds=timeout)
        return await self._guarded(call, tool, timeout=timeout)

    async def _guarded(self, request: Awaitable[_T], what: str, timeout: float = 0.0) -> _T:
        """Await `request`, failing at once when the server breaks the protocol."""
        if self.broken.is_set():
            close = getattr(request, "close", None)
            if callable(close):
                close()  # never started: no "coroutine was never awaited" warning
            raise unavailable(self.name, "it broke the protocol earlier")
        task = asyncio.ensure_future(request)
        broken = asyncio.ensure_future(self.broken.wait())
        try:
            await asyncio.wait({task, broken}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            broken.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
            raise unavailable(self.name, "it wrote something that is not MCP on its stdout")
        try:
            return task.result()
        except Exception as exc:
            raise _translated(exc, self.name, what, timeout, self.stderr) from None


def _leaf(exc: BaseException) -> BaseException:
    """The first real error inside the SDK's (nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _translated(
    exc: BaseException, server: str, what: str, timeout: float, stderr: _Stderr
) -> BaseException:
    from mcp import MCPError
    from mcp.types import CONNECTION_CLOSED, REQUEST_TIMEOUT

    leaf = _leaf(exc)
    if isinstance(leaf, BriefDeskError):
        return leaf
    if isinstance(leaf, MCPError):
        if leaf.code == REQUEST_TIMEOUT:
            if what in ("initialize", "tools/list"):
                return unavailable(server, f"it did not answer {what} in time")
            return BriefDeskError(
                ErrorCode.TOOL_TIMEOUT,
                f"The MCP server {server!r} did not answer {what!r} within {timeout:g} s "
                "(mcp.call_timeout); it may still have done it.",
                server=server,
            )
        if leaf.code == CONNECTION_CLOSED:
            said = stderr.last_line()
            return unavailable(server, "it exited" + (f" (it said: {said})" if said else ""))
        if what in ("initialize", "tools/list"):
            return unavailable(server, f"it refused {what} ({leaf.code})")
        return McpRefused(server, what, leaf.code, leaf.error.message)
    if isinstance(leaf, OSError | EOFError):
        return unavailable(server, f"it could not be reached ({type(leaf).__name__})")
    import anyio

    if isinstance(leaf, anyio.BrokenResourceError | anyio.ClosedResourceError):
        return unavailable(server, "its connection broke")
    return exc


@contextlib.asynccontextmanager
async def connect(
    row: McpServerRow, *, log_dir: Path | None = None, start_timeout: float = START_TIMEOUT_S
) -> AsyncIterator[ServerSession]:
    """Start `row`'s server and shake hands; it is stopped when the block ends."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    if getattr(sys, "frozen", False):  # no Python to run launch.py with (issue 28's next step)
        raise unavailable(row.name, "the app bundle cannot start MCP servers yet")
    env = await asyncio.to_thread(server_env, row)  # the keyring is asked off the loop
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-I",  # the launcher reads no PYTHON* variable and no user site
            "-S",
            str(LAUNCHER),
            ",".join(sorted(env)),
            "--",
            resolve_command(row, env),
            *row.args,
        ],
        env=env,
    )
    stderr = _Stderr(log_dir, row.name)
    broken = asyncio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, Exception):  # a stdout line that is not JSON-RPC
            broken.set()

    try:
        async with (
            stdio_client(params, errlog=stderr.file) as (read, write),
            ClientSession(
                read, write, read_timeout_seconds=start_timeout, message_handler=on_message
            ) as session,
        ):
            live = ServerSession(row, session, stderr, broken)
            await live._guarded(session.initialize(), "initialize")
            yield live
    except BaseException as exc:
        translated = _translated(exc, row.name, "initialize", start_timeout, stderr)
        if translated is exc:
            raise
        raise translated from None
    finally:
        stderr.close()
