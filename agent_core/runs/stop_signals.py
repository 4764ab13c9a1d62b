"""A cancel asked in the process that drives the run reaches the driver at once, unread.

Every driver registers its run's event while it drives (`listening`). `Workspace.cancel` first
commits the request (the `cancel_requested` flag and its audit row: what a driver in another
process sees, read back by its next progress write, and what names who cancelled), then tells
the driver here (`tell_stop`) when it runs in this process (the desktop's worker thread, say),
so the run stops at its next boundary with no read of the flag at all.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_LIVE: dict[str, threading.Event] = {}


@contextmanager
def listening(run_id: str, stop: threading.Event) -> Iterator[None]:
    """While the body drives `run_id` in this process, `tell_stop(run_id)` sets `stop`."""
    with _LOCK:
        _LIVE[run_id] = stop
    try:
        yield
    finally:
        with _LOCK:
            if _LIVE.get(run_id) is stop:
                del _LIVE[run_id]


def tell_stop(run_id: str) -> None:
    """Tell the run's driver, if it drives in this process, that a cancel was requested."""
    with _LOCK:
        stop = _LIVE.get(run_id)
    if stop is not None:
        stop.set()
