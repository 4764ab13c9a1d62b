"""Crash injection for drills and demos: BRIEFDESK_CRASH_AT=POINT kills the process (SIGKILL).

POINT is `before_tool:N` (after checkpoint A of the N-th tool call of the run, before it runs),
`after_write_before_confirm` (the file is written and synced, the ledger not yet confirmed),
`after_mcp_call_before_confirm` (an MCP server answered a call, the ledger not yet confirmed) or
`before_watch_confirm` (the run has stopped, its writes are confirmed in the ledger, and no
watcher has recorded them yet: the window in which `run`/`resume` wait for their watcher).
The desktop's Demo menu arms the same points in-process with `arm()`.

BRIEFDESK_PAUSE_AT=POINT freezes the process instead (SIGSTOP to itself: every thread stops, its
lease heartbeat too, as when a laptop lid closes); SIGCONT wakes it. POINT is `after_base_check`
(a save_brief found its target at the approved base hash and has not yet entered the write
fence) or `in_write_fence` (inside the fence: ownership and hash checked, nothing written yet).
With BRIEFDESK_PAUSE_GATE=FILE it goes on only when woken once FILE exists; woken before, it
stops itself again (a drill may let it run a moment, for a thread to end its transaction).
"""

from __future__ import annotations

import os
import signal
import sys
import threading

CRASH_ENV = "BRIEFDESK_CRASH_AT"
PAUSE_ENV = "BRIEFDESK_PAUSE_AT"
PAUSE_GATE_ENV = "BRIEFDESK_PAUSE_GATE"
AFTER_BASE_CHECK = "after_base_check"
IN_WRITE_FENCE = "in_write_fence"
AFTER_WRITE = "after_write_before_confirm"
AFTER_MCP_CALL = "after_mcp_call_before_confirm"
BEFORE_WATCH = "before_watch_confirm"
_armed: str | None = None


def arm(point: str | None) -> None:
    global _armed
    _armed = point


def _point() -> str | None:
    return _armed or os.environ.get(CRASH_ENV) or None


def die() -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def before_tool(call_index: int) -> None:
    """Die after checkpoint A of call N; the desktop's Demo menu arms `before_tool:next`."""
    point = _point()
    if point == "before_tool:next" or point == f"before_tool:{call_index}":
        die()


def after_write_before_confirm() -> None:
    if _point() == AFTER_WRITE:
        die()


def after_mcp_call_before_confirm() -> None:
    """An MCP server answered a call; the ledger has not recorded it yet."""
    if _point() == AFTER_MCP_CALL:
        die()


def watch_skipped_then_die() -> bool:
    """True when armed at `before_watch_confirm`: the caller drives without a watcher, then
    calls `die()`. A watcher sights a write within a fraction of a second, so killing one
    that runs would race it; without one, the drill leaves that window's state every time."""
    return _point() == BEFORE_WATCH


def pause_at(point: str) -> None:
    """Freeze this process at `point` when BRIEFDESK_PAUSE_AT names it (a drill's frozen
    desk: the test sees state T in /proc, acts, then sends SIGCONT)."""
    if os.environ.get(PAUSE_ENV) != point:
        return
    gate = os.environ.get(PAUSE_GATE_ENV)
    sys.stdout.flush()
    sys.stderr.flush()
    while True:
        # To this thread, not the process: a process-directed SIGSTOP is taken by the main
        # thread and stops this one later, anywhere (even past the gate check); sent here it
        # stops the whole process before the call returns, so it wakes exactly here.
        signal.pthread_kill(threading.get_ident(), signal.SIGSTOP)
        if not gate or os.path.exists(gate):
            return
