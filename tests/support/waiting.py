"""Waiting for a reason: the one polling loop of the suite.

A test that waits says what it waits for (a predicate) and how long that may take at most; it
returns as soon as the condition holds, so a fast machine is not slowed by a fixed sleep and a slow
one is not failed by one. "Nothing else arrived" is not a wait: wait for a sentinel that provably
comes after the thing that must not happen, then assert its absence.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from desktop.bridge import Bridge

T = TypeVar("T")


class WaitTimeout(AssertionError):
    """The condition never held within the timeout (an AssertionError, so pytest shows it as a
    failed expectation rather than an error)."""


def within(predicate: Callable[[], T], *, timeout: float, interval: float = 0.02) -> T | None:
    """What `predicate` returns once it is truthy within `timeout` seconds, else None (for a
    test that goes on either way, e.g. one that keeps writing until a sighting shows)."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() >= deadline:
            return None
        time.sleep(interval)


def wait_until(
    predicate: Callable[[], T],
    *,
    timeout: float = 10.0,
    interval: float = 0.02,
    message: str = "",
) -> T:
    """Call `predicate` until it returns something truthy, and return that; fail after
    `timeout` seconds (measured on the real monotonic clock, not the core's: a test that moves a
    ManualClock still waits in real time for a thread)."""
    result = within(predicate, timeout=timeout, interval=interval)
    if not result:
        raise WaitTimeout(message or f"not true within {timeout} s: {predicate!r}")
    return result


# A helper process that must only stay alive until it is killed blocks on this, not on a timer.
STAY_ALIVE_SOURCE = "import signal; signal.pause()"


def bridge_caught_up(qtbot: QtBot, bridge: Bridge, timeout_ms: int = 10_000) -> None:
    """Every job submitted to `bridge` so far has run and answered: the bridge runs jobs in
    order on its one thread and answers in order, so once a no-op sent now has answered, a
    decision a key or click sent before it is in the database (or was never sent)."""
    answered: list[bool] = []
    bridge.submit(lambda _ws: None, on_done=lambda _result: answered.append(True))
    qtbot.waitUntil(lambda: bool(answered), timeout=timeout_ms)
