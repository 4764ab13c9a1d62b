"""The read guard: a decision is refused for a moment after what it decides on was shown.

A window that opens 0.2 s after a key press receives the keys meant for another window: an
approval dialog once approved an unread write because Ctrl+Enter (Run) was pressed twice. So
every key and click that would decide is refused until `GUARD_MS` has passed since the dialog
appeared or its content last changed; the dialog shows the wait, and enables Approve visibly
when it ends. The same guard keeps a repeated Run, or a Run meant for a dialog that just
opened by itself, from starting another run.

Time is read through `clock` (monotonic seconds) at every check, so tests drive it by
replacing `approval_guard.clock`; no timer decides anything, the timer only repaints.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

DEFAULT_GUARD_MS = 1000
GUARD_ENV = "BRIEFDESK_APPROVAL_GUARD_MS"  # lengthens the guard (a loaded machine), never shortens
TICK_MS = 100  # how often the countdown is repainted while the guard holds


def _guard_ms() -> int:
    try:
        return max(DEFAULT_GUARD_MS, int(os.environ.get(GUARD_ENV, DEFAULT_GUARD_MS)))
    except ValueError:
        return DEFAULT_GUARD_MS


GUARD_MS = _guard_ms()  # how long after a proposal appears (or changes) no key or click decides

clock: Callable[[], float] = time.monotonic  # seconds; tests replace it to drive time


class ReadGuard(QObject):
    """Holds for `GUARD_MS` after each `restart()`; `changed` fires on each tick and at the end."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None, guard_ms: int | None = None) -> None:
        super().__init__(parent)
        self._seconds = (guard_ms or GUARD_MS) / 1000
        self._until = -math.inf
        self._timer = QTimer(self, interval=TICK_MS)
        self._timer.timeout.connect(self._tick)

    def restart(self) -> None:
        """What the decision is about was just shown (or changed): hold again from now."""
        self._until = clock() + self._seconds
        self._timer.start()
        self.changed.emit()

    def holds(self) -> bool:
        """True while a decision must be refused."""
        return clock() < self._until

    def remaining(self) -> float:
        """Seconds until the guard ends (0 once it has)."""
        return max(0.0, self._until - clock())

    def stop(self) -> None:
        self._timer.stop()

    def _tick(self) -> None:
        if not self.holds():
            self._timer.stop()
        self.changed.emit()
