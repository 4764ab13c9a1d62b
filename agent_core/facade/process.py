"""What a front end (the CLI, the window) does to its own process before anything else.

`make_undumpable()`: prctl(PR_SET_DUMPABLE, 0). A process of the same user can then no longer
read BriefDesk's `/proc/PID/environ`, `mem` or `maps`, nor ptrace it (the kernel's ptrace
access check refuses a non-dumpable target): a second wall behind the MCP sandbox, for a child
that is not sandboxed (a server added with --no-sandbox, a hook). The price: no core dumps.
Linux only; elsewhere nothing happens.
"""

from __future__ import annotations

import ctypes
import sys

PR_SET_DUMPABLE = 4


def make_undumpable() -> bool:
    """True when the kernel took it; False where it cannot be done (not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False
