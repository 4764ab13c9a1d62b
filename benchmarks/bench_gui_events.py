"""Events of this process reaching the window, and a flood of them while it shows them.

- latency: the bridge thread commits one event at a time (as a run does); the time from its
  commit to the moment the timeline model on the GUI thread holds it (no poll involved: the
  poll interval is set to an hour);
- flood: 10,000 events committed in batches of 50 by another process (as `briefdesk-cli` or a
  second window would) while a real TimelinePanel (offscreen) shows the run and the bridge
  polls every 300 ms; a 2 ms QTimer on the GUI thread records its longest gap, next to the
  longest gap of the same window idle.

    python benchmarks/bench_gui_events.py [--events 300] [--flood 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402 (after the platform is chosen)
from PySide6.QtWidgets import QApplication  # noqa: E402

from benchmarks.bench_gui_stall import GapRecorder  # noqa: E402


def wait_until(predicate: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        loop = QEventLoop()
        QTimer.singleShot(1, loop.quit)
        loop.exec()


FLOOD = """
import sys
from agent_core.storage.tables.timeline import append_event
from agent_core.facade.workspace import Workspace
ws = Workspace(sys.argv[1])
run_id, count = sys.argv[2], int(sys.argv[3])
for start in range(0, count, 50):
    with ws.store.write() as conn:
        for i in range(50):
            append_event(conn, run_id, "model_turn", data={"turn": start + i + 1})
ws.close()
"""


def commit_events(run_id: str, count: int, batch: int, committed: dict[int, float]) -> Any:
    """A bridge job: append `count` events, `batch` per transaction; note each commit time."""

    def job(ws: Any) -> int:
        from agent_core.storage.tables.timeline import append_event

        for start in range(0, count, batch):
            with ws.store.write() as conn:
                seqs = [
                    append_event(conn, run_id, "model_turn", data={"turn": start + i + 1})
                    for i in range(min(batch, count - start))
                ]
            now = time.perf_counter()
            committed.update((seq, now) for seq in seqs)
        return count

    return job


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--flood", type=int, default=10_000)
    args = parser.parse_args()
    from desktop.bridge import Bridge
    from desktop.widgets.timeline_view import TimelinePanel

    _app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory(prefix="bd-bench-gui-") as tmp:
        bridge = Bridge(Path(tmp) / "home")
        bridge.start()
        made: list[str] = []
        bridge.submit(lambda ws: ws.create_run("bench"), on_done=made.append)
        wait_until(lambda: bool(made), 30)
        (run_id,) = made
        view = TimelinePanel()
        view.resize(1100, 700)
        view.show()
        view.set_run(run_id, [])
        arrived: dict[int, float] = {}

        slowest: list[float] = [0.0]

        def on_events(events: list[dict[str, Any]]) -> None:
            began = time.perf_counter()
            view.append(events)
            now = time.perf_counter()
            slowest[0] = max(slowest[0], (now - began) * 1000)
            arrived.update((e["seq"], now) for e in events)

        bridge.events_arrived.connect(on_events)
        bridge.start_following(3_600_000)
        wait_until(lambda: False, 0.5)  # the first read of the runs and cursor
        committed: dict[int, float] = {}
        for _ in range(args.events):  # one event per commit, as a run's boundaries are
            done: list[int] = []
            bridge.submit(commit_events(run_id, 1, 1, committed), on_done=done.append)
            wait_until(lambda d=done: bool(d) and set(committed) <= set(arrived), 10)
        latencies = sorted((arrived[s] - committed[s]) * 1000 for s in committed if s in arrived)
        recorder = GapRecorder()
        idle = recorder.phase(None, None, 1)
        bridge.start_following(300)  # the other process's events come by the poll
        writer = subprocess.Popen([sys.executable, "-c", FLOOD, str(Path(tmp) / "home"), run_id,
                                   str(args.flood)], cwd=REPO)  # fmt: skip
        recorder.gaps = []
        recorder._last = time.perf_counter()
        recorder.timer.start()
        wait_until(lambda: writer.poll() is not None and view.model.rowCount() > args.flood, 120)
        recorder.timer.stop()
        flood = list(recorder.gaps)
        shown = view.model.rowCount()
        bridge.stop()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        json.dumps(
            {
                "benchmark": "gui_events",
                "same_process_event_to_model_ms": {
                    "events": len(latencies),
                    "p50": round(statistics.median(latencies), 2),
                    "p95": round(p95, 2),
                    "max": round(latencies[-1], 2),
                },
                "flood": {
                    "events": args.flood,
                    "rows_shown": shown,
                    "longest_gap_ms": round(max(flood), 1),
                    "idle_longest_gap_ms": round(max(idle), 1),
                    "longest_append_ms": round(slowest[0], 1),
                },
            }
        )
    )
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown of live Qt objects (not what is measured)


if __name__ == "__main__":
    raise SystemExit(main())
