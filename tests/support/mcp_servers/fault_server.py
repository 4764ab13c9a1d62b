"""An MCP server (mcp 2.x `MCPServer`, FastMCP's new name) with faults on demand.

Started by the tests as `python fault_server.py` through `mcp add --env FAULT=...`:
- FAULT=crash_at_start: exits before the handshake;
- FAULT=env_to_stderr: prints its TOKEN variable to stderr at start (the log masking test);
- tools: `echo` (read-only hint), `slow` (sleeps: past a timeout; writes its pid to $MARKER
  first), `die` (exits mid-call), `show_env` (its whole environment: the minimal-environment
  and canary tests), `pid` (its process id), `cmdline` (its argv: the canary test),
  `append_line` (appends one line to a file: a write whose every execution can be counted),
  `stall` (read-only hint: starts a child that sleeps, then sleeps itself: a read past any
  timeout whose server has started something).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

FAULT = os.environ.get("FAULT", "none")
if FAULT == "env_to_stderr":  # a careless server: its log must still hold no secret
    print(f"fault server: TOKEN={os.environ.get('TOKEN')}", file=sys.stderr, flush=True)
if FAULT == "crash_at_start":
    print("fault server: crashing at start as asked", file=sys.stderr)
    sys.exit(3)

server = MCPServer("faults")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True, idempotentHint=True))
def echo(text: str) -> str:
    return text


@server.tool(annotations=ToolAnnotations(readOnlyHint=False, idempotentHint=False))
def slow(seconds: float) -> str:
    marker = os.environ.get("MARKER")
    if marker:  # says "busy in a call now" (the leftover-process test)
        with open(marker, "w") as out:
            out.write(str(os.getpid()))
    time.sleep(seconds)
    return f"slept {seconds}"


@server.tool(annotations=ToolAnnotations(readOnlyHint=True, idempotentHint=True))
def stall(seconds: float) -> str:
    subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({seconds!r})"])
    time.sleep(seconds)
    return f"stalled {seconds}"


@server.tool(annotations=ToolAnnotations(readOnlyHint=False, idempotentHint=False))
def append_line(path: str, line: str) -> str:
    """A side effect that can be counted: each call adds one line (the crash sweep)."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(line + "\n")
        out.flush()
        os.fsync(out.fileno())
    return f"appended {line}"


@server.tool()
def die() -> str:
    os._exit(7)


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def show_env() -> dict[str, str]:
    return dict(os.environ)


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def cmdline() -> str:
    with open("/proc/self/cmdline", "rb") as argv:
        return argv.read().replace(b"\0", b" ").decode()


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def pid() -> int:
    return os.getpid()


if __name__ == "__main__":
    server.run()
