"""Who drives a run, and whether that process still lives (same answer on every OS).

A pid alone is not an identity: pids get reused, quickly on macOS and Windows. The owner is
(host, pid, process creation time); a process is the owner only if all three match.
psutil is imported where a process is looked at: every run row carries an `Owner`, and a hook
process that only reads and writes rows never looks at one.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass

# create_time() is a float derived from boot time + ticks; repeated reads of one process agree
# far better than this, while a reused pid starts at least one clock tick (>= 1 ms) later.
START_TOLERANCE_S = 1e-3


def process_create_time(pid: int) -> float | None:
    """Creation time (epoch seconds) of a live, non-zombie process; None if it is gone.

    Raises psutil.AccessDenied when the process exists but may not be inspected.
    """
    import psutil

    try:
        proc = psutil.Process(pid)
        started = float(proc.create_time())
        try:
            if proc.status() == psutil.STATUS_ZOMBIE:
                return None  # exited, only waiting for its parent to reap it
        except psutil.AccessDenied:
            pass  # the creation time already identifies it; zombies are rare and short-lived
        return started
    except psutil.NoSuchProcess:  # ZombieProcess too: it subclasses NoSuchProcess
        return None


@dataclass(frozen=True)
class Owner:
    """The process driving a run: host, pid and process creation time (pids get reused)."""

    host: str
    pid: int
    started: float

    @staticmethod
    def current() -> Owner:
        import psutil

        return Owner(socket.gethostname(), os.getpid(), psutil.Process().create_time())

    def on_this_host(self) -> bool:
        """False: recorded under another host name, whose processes this machine cannot see."""
        return self.host == socket.gethostname()

    def is_alive(self) -> bool:
        if not self.on_this_host():
            return True  # another machine's process: we cannot tell, so never steal it
        import psutil

        try:
            started = process_create_time(self.pid)
        except psutil.AccessDenied:
            return True  # it exists but we may not look at it: never steal a live run
        if started is None:
            return False
        return abs(started - self.started) < START_TOLERANCE_S
