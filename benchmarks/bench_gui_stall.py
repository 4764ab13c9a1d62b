"""How long the GUI thread stalls while the bridge imports the SDK and drives a whole run.

A 2 ms QTimer on the GUI thread records the gap between its ticks; a gap well above 2 ms is
time the event loop could not paint or react. The same run measures an idle window, so each
phase is also given as a ratio to idle (these machines are noisy: compare within one run).

    python benchmarks/bench_gui_stall.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

TICK_MS = 2


class GapRecorder:
    def __init__(self) -> None:
        self.gaps: list[float] = []
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append((now - self._last) * 1000)
        self._last = now

    def phase(self, start: object, done_signal: object | None, seconds: float) -> list[float]:
        self.gaps = []
        self._last = time.perf_counter()
        self.timer.start()
        loop = QEventLoop()
        if done_signal is not None:
            done_signal.connect(lambda *_: QTimer.singleShot(200, loop.quit))  # type: ignore[attr-defined]
        QTimer.singleShot(int(seconds * 1000), loop.quit)
        if callable(start):
            start()
        loop.exec()
        self.timer.stop()
        return list(self.gaps)


def summary(gaps: list[float]) -> tuple[float, float, float]:
    ordered = sorted(gaps)
    p99 = ordered[int(len(ordered) * 0.99) - 1] if ordered else 0.0
    return max(ordered or [0.0]), p99, statistics.median(ordered or [0.0])


def main() -> None:
    from desktop.bridge import Bridge

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        bridge = Bridge(Path(tmp) / "home")
        recorder = GapRecorder()
        phases: dict[str, list[float]] = {}
        phases["open the home"] = recorder.phase(bridge.start, bridge.ready, 20)
        phases["idle"] = recorder.phase(None, None, 2)
        phases["SDK import"] = recorder.phase(bridge.warm_up, bridge.warmed, 30)

        def start_run() -> None:
            bridge.submit(
                lambda ws: ws.create_run("How do checkpoints make agent runs durable?"),
                on_done=lambda run_id: bridge.drive(run_id),
            )

        phases["whole demo run"] = recorder.phase(start_run, bridge.drive_finished, 60)
        bridge.stop()
    idle_max = summary(phases["idle"])[0] or 1.0
    print("| phase | ticks | longest gap | p99 gap | median gap | longest / idle longest |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, gaps in phases.items():
        longest, p99, median = summary(gaps)
        print(
            f"| {name} | {len(gaps)} | {longest:.1f} ms | {p99:.1f} ms | {median:.1f} ms "
            f"| {longest / idle_max:.1f}x |"
        )
    app.quit()


if __name__ == "__main__":
    main()
