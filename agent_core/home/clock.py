"""The time the core reads: one seam, so expiry, TTL and lease tests move time instead of waiting.

Everything in the core that asks "what time is it" asks here: `utcnow()` (aware UTC) for what is
stored and compared (`expires_at`, a memory's TTL, a lease's deadline), `monotonic()` for
durations within one process (budgets, settling). The system clock is the default; a test
installs a `ManualClock` with `use(clock)` and moves it with `advance(seconds)`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Protocol

from agent_core.contract.canonical import iso


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (only differences mean anything)."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()


class ManualClock:
    """A clock that moves only when told to: `advance(seconds)`. Thread-safe."""

    def __init__(self, start: datetime | None = None) -> None:
        self._lock = threading.Lock()
        self._now = start or datetime.now(UTC)
        self._monotonic = 0.0

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def monotonic(self) -> float:
        with self._lock:
            return self._monotonic

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += timedelta(seconds=seconds)
            self._monotonic += seconds


SYSTEM = SystemClock()
_current: Clock = SYSTEM


def current() -> Clock:
    return _current


@contextmanager
def use(clock: Clock) -> Iterator[Clock]:
    """Make `clock` the core's clock for the block (tests), then put the previous one back."""
    global _current
    previous, _current = _current, clock
    try:
        yield clock
    finally:
        _current = previous


def utcnow() -> datetime:
    return _current.now()


def monotonic() -> float:
    return _current.monotonic()


def now_iso() -> str:
    """`utcnow()` as stored: ISO 8601, milliseconds, UTC offset."""
    return iso(_current.now())
