"""Crash injection for drills and demos: BRIEFDESK_CRASH_AT=POINT kills the process (SIGKILL).

POINT is `before_tool:N` (after checkpoint A of the N-th tool call of the run, before it runs),
`after_write_before_confirm` (the file is written and synced, the ledger not yet confirmed) or
`before_watch_confirm` (the run has stopped, its writes are confirmed in the ledger, and no
watcher has recorded them yet: the window in which `run`/`resume` wait for their watcher).
The desktop's Demo menu arms the same points in-process with `arm()`.
"""

from __future__ import annotations

import os
import signal
import sys

CRASH_ENV = "BRIEFDESK_CRASH_AT"
AFTER_WRITE = "after_write_before_confirm"
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


def watch_skipped_then_die() -> bool:
    """True when armed at `before_watch_confirm`: the caller drives without a watcher, then
    calls `die()`. A watcher sights a write within a fraction of a second, so killing one
    that runs would race it; without one, the drill leaves that window's state every time."""
    return _point() == BEFORE_WATCH
