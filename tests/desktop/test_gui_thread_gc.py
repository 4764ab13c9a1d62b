"""A cycle that holds a Qt object is freed on the GUI thread, never in a background thread that
happens to allocate (a Qt object destroyed on the wrong thread can crash the app)."""

from __future__ import annotations

import gc
import threading
import weakref
from typing import Any

from PySide6.QtCore import QObject

from desktop.gui_thread_gc import GuiThreadGarbageCollector


class Holder:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cycle collector frees it
        self.qobject = QObject()


def test_a_cycle_with_a_qt_object_is_freed_on_the_gui_thread(qapp: Any) -> None:
    gc.enable()  # as at the app's start (the suite itself keeps it off: tests/conftest.py)
    collector = GuiThreadGarbageCollector(qapp, interval_ms=60_000)
    try:
        destroyed_in: list[str] = []
        holder = Holder()
        holder.qobject.destroyed.connect(
            lambda: destroyed_in.append(threading.current_thread().name)
        )
        alive = weakref.ref(holder)
        del holder

        def allocate() -> None:  # what a watcher's scan does: enough to pass every threshold
            for _ in range(50):
                [[] for _ in range(10_000)]

        worker = threading.Thread(target=allocate, name="background")
        worker.start()
        worker.join()
        assert gc.isenabled() is False
        assert alive() is not None, "no collection ran in the background thread"

        collector.collect()  # the timer's tick, on the GUI thread
        if alive() is not None:
            gc.collect()  # the young generations were under their thresholds: collect all
        assert alive() is None
        assert destroyed_in == [threading.main_thread().name]
    finally:
        gc.disable()
        collector.deleteLater()
