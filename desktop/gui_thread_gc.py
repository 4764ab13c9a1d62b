"""Garbage collection on the GUI thread only.

Python's cycle collector runs in whichever thread happens to allocate when a threshold is
crossed: the bridge's loop, a `to_thread` worker, the artifacts watcher's scan. If a cycle it
frees holds a Qt object (a dialog and the lambda connected to its signal), that object is
destroyed on the wrong thread, and Qt may crash (a segfault seen in the test suite). So the
automatic collector is switched off and this timer collects on the GUI thread instead, each
generation when its own threshold is crossed, as the collector itself would (Anki does the
same). Reference counting still frees everything that is not in a cycle at once.

Once the window is up and the Agents SDK imported, nearly every object alive is the app's
furniture (modules, classes, widgets) and stays to the end: `freeze_survivors` collects once
and moves them to the permanent generation (`gc.freeze`), so later full collections walk only
what came after. Unfrozen, a full collection walked every object of the SDK and the window:
57 ms on average on these cores, up to 230 ms, the longest stalls of the window under a flood
of events (issue 43). The price: a cycle
among those frozen objects that becomes garbage later is never freed (reference counting
still frees the rest), so freeze once, when little that is short-lived exists.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 250  # often enough that each young collection stays small (a flood allocates fast)


class GuiThreadGarbageCollector(QObject):
    def __init__(self, parent: QObject, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self.frozen = False
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.collect)
        self._timer.start(interval_ms)

    def collect(self) -> None:
        collect_due(self.thresholds)

    def freeze_survivors(self) -> None:
        """Collect everything once, then exempt what lives from later collections."""
        if not self.frozen:
            self.frozen = True
            gc.collect()
            gc.freeze()


def collect_due(thresholds: tuple[int, ...]) -> None:
    """Collect each generation whose count is past its threshold, youngest first, as the
    automatic collector would have."""
    counts = gc.get_count()
    for generation in range(3):
        if counts[generation] <= thresholds[generation]:
            break
        gc.collect(generation)
