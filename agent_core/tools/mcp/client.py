"""Talk to one registered MCP server over stdio with the official `mcp` SDK.

`connect(row)` starts the server through launch.py (the minimal environment of servers.py,
killed with BriefDesk), inside bubblewrap (sandbox.py) unless it was added with --no-sandbox,
and yields a `ServerSession` that lists tools and calls one with a timeout. Leaving it stops
the server: the SDK closes its stdin, then SIGTERMs and SIGKILLs its process group; in the
sandbox, everything the server started dies with its PID namespace.

Faults come back as stable codes, never as the SDK's nested exception groups:
- the server does not start, exits, answers with something that is not JSON-RPC, or does
  not finish its handshake in time: `mcp_server_unavailable`;
- a call past its timeout: `tool_timeout` (the server may still be working on it);
- a JSON-RPC error answer (the server refused; nothing ran): `McpRefused`.

The server's stderr is kept to its last 64 KiB in memory while it runs; that tail is then
masked (keyring values, key-shaped strings) and appended to the home's `logs/mcp-NAME.log`,
itself cut to its last 64 KiB.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar, cast

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.terminal_text import terminal_line
from agent_core.home.secrets import REDACTOR
from agent_core.storage.tables.mcp_servers import McpServerRow
from agent_core.tools.mcp.sandbox import SANDBOX_TMP, require_bwrap, sandbox_argv
from agent_core.tools.mcp.servers import resolve_command, server_env

if TYPE_CHECKING:
    from mcp import ClientSession
    from mcp.types import CallToolResult, Tool

LAUNCHER = Path(__file__).with_name("launch.py")
START_TIMEOUT_S = 30.0
"""Start and handshake (node through npx can take a while on a cold cache)."""
MAX_LOG_TAIL = 64 * 1024
"""What is kept of a server's stderr, in memory and in its log (contract: its last 64 KiB)."""
_KEEP_BYTES = MAX_LOG_TAIL + 4096
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
    """The server's stderr: a pipe whose reader thread keeps only its last `MAX_LOG_TAIL`
    bytes (a server flooding it costs neither memory nor disk), masked before any of it is
    kept or shown. The home's `logs/mcp-NAME.log` is cut to the same size."""

    def __init__(self, log_dir: Path | None, server: str) -> None:
        read_end, write_end = os.pipe()
        self._read_end = read_end
        # Handed to the SDK as the child's fd 2; our copy is closed once the server started.
        self.writer = cast(TextIO, os.fdopen(write_end, "w", encoding="utf-8"))
        self.log = None if log_dir is None else log_dir / f"mcp-{server}.log"
        self._kept = bytearray()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._reader = threading.Thread(
            target=self._drain, name=f"mcp-{server}-stderr", daemon=True
        )
        self._reader.start()

    def _drain(self) -> None:
        poller = select.poll()  # not select(): a busy process may hold fds past 1024
        poller.register(self._read_end, select.POLLIN)
        try:
            while not self._stop.is_set():
                if not poller.poll(200):
                    continue
                chunk = os.read(self._read_end, 65536)
                if not chunk:
                    return  # every holder of the write end is gone
                with self._lock:
                    self._kept += chunk
                    if len(self._kept) > _KEEP_BYTES:
                        del self._kept[: len(self._kept) - _KEEP_BYTES]
        except OSError:
            return

    def started(self) -> None:
        """The child holds its own copy of the write end: close ours, so the reader sees the
        end of the stream when the server (and all it started) is gone."""
        self.writer.close()

    def tail(self, *, settle: float = 0.0) -> str:
        """The last MAX_LOG_TAIL characters, masked; `settle`: wait that long for the stream
        to end first (the last words of a server that just exited)."""
        if settle:
            self._reader.join(settle)
        with self._lock:
            raw = bytes(self._kept)
        # Masked with a margin before the cut, so a secret is never cut in half unmasked.
        return REDACTOR.redact_text(raw.decode("utf-8", "replace"))[-MAX_LOG_TAIL:]

    def last_line(self) -> str:
        lines = [line for line in self.tail(settle=1.0).splitlines() if line.strip()]
        return terminal_line(lines[-1])[:200] if lines else ""

    def close(self) -> None:
        if not self.writer.closed:
            self.writer.close()
        self._reader.join(1.0)
        self._stop.set()  # a leftover holder of the pipe (unsandboxed): stop listening
        self._reader.join()
        os.close(self._read_end)
        text = self.tail()
        if text and self.log is not None:
            with contextlib.suppress(OSError):
                _append_bounded(self.log, text if text.endswith("\n") else text + "\n")


def _append_bounded(log: Path, text: str) -> None:
    """Append to `log`, keeping only its last MAX_LOG_TAIL bytes (written whole, then moved
    into place: a reader never sees it half-cut)."""
    log.parent.mkdir(parents=True, exist_ok=True)
    try:
        old = log.read_bytes()[-MAX_LOG_TAIL:]
    except FileNotFoundError:
        old = b""
    data = (old + text.encode("utf-8", "replace"))[-MAX_LOG_TAIL:]
    cut = data.find(b"\n") + 1 if len(data) == MAX_LOG_TAIL else 0  # start at a whole line
    temp = log.with_name(f".{log.name}.{os.getpid()}.tmp")
    temp.write_bytes(data[cut:])
    os.replace(temp, log)


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


def _server_command(
    row: McpServerRow, env: dict[str, str], private: Sequence[Path] = ()
) -> list[str]:
    """The command line that starts `row`: the launcher (minimal environment, killed with
    BriefDesk) and the server, inside bubblewrap unless the server was added with
    --no-sandbox (`private`: folders the sandbox hides). `env` is adjusted to what the
    server will see."""
    command = resolve_command(row, env)
    python = sys.executable
    if row.sandbox:
        bwrap = require_bwrap(row.name)
        env["TMPDIR"] = SANDBOX_TMP  # its own tmpfs: the host's temp folders are hidden
    launcher = [python, "-I", "-S", str(LAUNCHER), ",".join(sorted(env)), "--", command]
    launcher += row.args
    if not row.sandbox:
        return launcher
    files: list[str | Path] = [python, LAUNCHER, command]
    return sandbox_argv(bwrap, row, launcher, env, program_files=files, private=private)


@contextlib.asynccontextmanager
async def connect(
    row: McpServerRow, *, log_dir: Path | None = None, start_timeout: float = START_TIMEOUT_S
) -> AsyncIterator[ServerSession]:
    """Start `row`'s server and shake hands; it is stopped when the block ends."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    if getattr(sys, "frozen", False):  # no Python to run launch.py with (issue 28's next step)
        raise unavailable(row.name, "the app bundle cannot start MCP servers yet")
    env = await asyncio.to_thread(server_env, row)  # the keyring is asked off the loop
    # The home the logs lie in is BriefDesk's: hidden from the server wherever it lies.
    private = [] if log_dir is None else [log_dir.parent]
    argv = await asyncio.to_thread(_server_command, row, env, private)  # bwrap's probe waits
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
    stderr = _Stderr(log_dir, row.name)
    broken = asyncio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, Exception):  # a stdout line that is not JSON-RPC
            broken.set()

    try:
        async with (
            stdio_client(params, errlog=stderr.writer) as (read, write),
            ClientSession(
                read, write, read_timeout_seconds=start_timeout, message_handler=on_message
            ) as session,
        ):
            stderr.started()
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
