"""Events reaching the window, and a flood of them while the whole main window shows them.

- latency: the bridge thread commits one event at a time (as a run does); the time from its
  commit to the moment the timeline model on the GUI thread holds it (no poll involved: the
  poll interval is set to an hour);
- flood: the whole MainWindow, built and started as `briefdesk` builds it (theme, language,
  the GUI-thread garbage collector, the bridge, the follower, the SDK warm-up), shown on an X
  server of its own (Xvfb; `offscreen` when Xvfb is missing: the JSON says which) with one run
  selected. Another process commits 10,000 events to that run in batches of 50 (as a run or
  `briefdesk-cli` would) while a 1 ms QTimer on the GUI thread records the gaps between its
  ticks; the longest gap of the same window idle is measured just before, in the same process;
- memory: RSS and PSS (/proc/self/smaps_rollup) of that window idle (home open, SDK warm, the
  run shown), beside a bare QLabel window on the same X server.

Each round starts fresh processes; with `--before TREE` (a git worktree of an older commit) the
old code is measured in the same rounds, the order alternating, so the two read side by side.

    python benchmarks/bench_gui_events.py [--events 300] [--flood 10000] [--rounds 3]
                                          [--before /tmp/bd_before_gui]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CHILD = "--child" in sys.argv
# A child measures the code of the tree it is given (this checkout, or an old commit's worktree).
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv else REPO
sys.path.insert(0, str(TREE))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, Qt, QTimer  # noqa: E402 (after the platform is chosen)
from PySide6.QtWidgets import QApplication  # noqa: E402

TICK_MS = 1
SCREEN = "1600x1000x24"
PROFILE_ENV = "BRIEFDESK_BENCH_PROFILE"  # a file: cProfile of the GUI thread during the flood

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

MAKE_HOME = """
import sys
from agent_core.facade.workspace import Workspace
ws = Workspace(sys.argv[1])
print(ws.create_run("How do checkpoints make agent runs durable?"))
ws.close()
"""


def wait_until(predicate: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        loop = QEventLoop()
        QTimer.singleShot(1, loop.quit)
        loop.exec()
    return True


class Ticks:
    """A 1 ms timer on the GUI thread: the gaps between its ticks are time nothing else ran."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.busy: list[float] = []  # the GUI thread's own CPU time in each gap
        self._last = 0.0
        self._last_cpu = 0.0
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        self.gaps.append((now - self._last) * 1000)
        self.busy.append((cpu - self._last_cpu) * 1000)
        self._last, self._last_cpu = now, cpu

    def start(self) -> None:
        self.gaps, self.busy = [], []
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()
        self.timer.start()

    def stop(self) -> list[float]:
        self.timer.stop()
        return list(self.gaps)


def memory_kb() -> dict[str, int]:
    """Rss and Pss of this process, in kB."""
    fields = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        fields[name] = int(value.split()[0])
    return {"rss_kb": fields["Rss"], "pss_kb": fields["Pss"]}


# -- the child processes: one window each -------------------------------------------------------


def child_bare() -> dict[str, Any]:
    from PySide6.QtWidgets import QLabel

    app = QApplication.instance() or QApplication([sys.argv[0]])
    label = QLabel("BriefDesk")
    label.resize(400, 200)
    label.show()
    wait_until(lambda: False, 1.5)
    assert app is not None
    return memory_kb()


def child_window(home: str, run_id: str, count: int) -> dict[str, Any]:
    from desktop import theme
    from desktop.app import build_window, make_qsettings, start_background, start_language
    from desktop.gui_thread_gc import GuiThreadGarbageCollector

    app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    if (TREE / "desktop" / "gil_turns.py").exists():  # as `briefdesk` does (older code: not)
        from desktop.gil_turns import favour_the_gui_thread

        favour_the_gui_thread()
    collector = GuiThreadGarbageCollector(app)  # as `briefdesk` runs: GC on the GUI thread only
    theme.apply_theme(app)
    qsettings = make_qsettings(tempfile.mkdtemp(prefix="bd-bench-qsettings-"))
    start_language(app, "en", qsettings)
    window = build_window(home, qsettings)
    freeze = getattr(collector, "freeze_survivors", None)  # as `briefdesk` does (older code: none)
    if freeze is not None:
        window.bridge.warmed.connect(freeze)
    warmed: list[bool] = []
    painted: list[bool] = []
    window.bridge.warmed.connect(lambda: warmed.append(True))
    window.first_painted.connect(lambda: painted.append(True))
    window.show()
    wait_until(lambda: bool(painted), 30)
    start_background(window)  # as `briefdesk` does after its first paint
    timeline = window.timeline

    def ready() -> bool:
        return bool(warmed) and timeline.model.run_id == run_id == window.bridge.current_run_id

    if not wait_until(ready, 120):
        raise SystemExit("the window never showed the run with the SDK warm")
    wait_until(lambda: False, 1.0)  # let the first reads, the corpus scan and the GC settle
    ticks = Ticks()
    ticks.start()
    wait_until(lambda: False, 2.0)
    idle = ticks.stop()
    idle_busy = ticks.busy
    memory = memory_kb()
    before = timeline.model.rowCount()
    writer = subprocess.Popen([sys.executable, "-c", FLOOD, home, run_id, str(count)], cwd=TREE)
    profile = cProfile.Profile() if PROFILE_ENV in os.environ else None
    ticks.start()
    began = time.perf_counter()
    if profile is not None:
        profile.enable()
    done = wait_until(
        lambda: writer.poll() is not None and timeline.model.rowCount() >= before + count, 300
    )
    if profile is not None:
        profile.disable()
        profile.dump_stats(os.environ[PROFILE_ENV])
    took = time.perf_counter() - began
    flood = ticks.stop()
    shown = (timeline.model.event_at(row) for row in range(timeline.model.rowCount()))
    seqs = [event["seq"] for event in shown if event is not None]
    del collector
    return {
        "idle_longest_gap_ms": round(max(idle), 1),
        "flood_longest_gap_ms": round(max(flood), 1),
        "flood_p99_gap_ms": round(sorted(flood)[int(0.99 * (len(flood) - 1))], 1),
        "flood_longest_busy_ms": round(max(ticks.busy), 1),
        "idle_longest_busy_ms": round(max(idle_busy), 1),
        "flood_s": round(took, 2),
        "rows_added": timeline.model.rowCount() - before,
        "all_in_order": done and seqs == sorted(set(seqs)),
        **memory,
    }


def child_main(args: argparse.Namespace) -> int:
    result = child_bare() if args.child == "bare" else child_window(args.home, args.run, args.flood)
    print("CHILD " + json.dumps(result), flush=True)
    os._exit(0)  # skip interpreter teardown of live Qt objects (not what is measured)


# -- the parent: X server, rounds, summary -------------------------------------------------------


def start_xvfb(display: str) -> tuple[subprocess.Popen[bytes] | None, dict[str, str]]:
    if display == "offscreen" or shutil.which("Xvfb") is None:
        return None, {"QT_QPA_PLATFORM": "offscreen"}
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", SCREEN, "-nolisten", "tcp", "-noreset"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        display = pipe.readline().strip()
    return xvfb, {"DISPLAY": f":{display}", "QT_QPA_PLATFORM": "xcb"}


def run_child(tree: Path, env: dict[str, str], *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", *args, "--tree", str(tree)],
        capture_output=True, text=True, cwd=tree, timeout=600,
        env={**os.environ, **env, "PYTHONPATH": str(tree)},
    )  # fmt: skip
    for line in done.stdout.splitlines():
        if line.startswith("CHILD "):
            result: dict[str, Any] = json.loads(line[6:])
            return result
    raise SystemExit(f"child failed ({done.returncode}):\n{done.stdout}\n{done.stderr[-3000:]}")


def window_round(tree: Path, env: dict[str, str], flood: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bd-bench-flood-") as tmp:
        home = str(Path(tmp) / "home")
        made = subprocess.run(
            [sys.executable, "-c", MAKE_HOME, home], capture_output=True, text=True, cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
        )  # fmt: skip
        run_id = made.stdout.split()[-1]
        return run_child(tree, env, "window", "--home", home, "--run", run_id,
                         "--flood", str(flood))  # fmt: skip


def spread(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 1),
        "min": round(min(values), 1),
        "max": round(max(values), 1),
    }


def flood_rounds(args: argparse.Namespace) -> dict[str, Any]:
    xvfb, env = start_xvfb(args.display)
    now = Path(args.now) if args.now else REPO
    trees = {"now": now, **({"before": Path(args.before)} if args.before else {})}
    rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in (*trees, "bare")}
    loads = []
    try:
        for number in range(args.rounds):
            order = list(trees.items())
            if number % 2:
                order.reverse()
            loads.append(os.getloadavg()[0])
            for name, tree in order:
                rounds[name].append(window_round(tree, env, args.flood))
            rounds["bare"].append(run_child(REPO, env, "bare"))
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()
    bare_rss = statistics.median(r["rss_kb"] for r in rounds["bare"])
    summary: dict[str, Any] = {
        "display": "Xvfb" if xvfb is not None else "offscreen",
        "rounds": args.rounds,
        "load_1min": spread(loads),
        "bare_qlabel_rss_mb": round(bare_rss / 1024, 1),
        "bare_qlabel_pss_mb": round(
            statistics.median(r["pss_kb"] for r in rounds["bare"]) / 1024, 1
        ),
    }
    for name in trees:
        got = rounds[name]
        summary[name] = {
            "longest_gap_ms": spread([r["flood_longest_gap_ms"] for r in got]),
            "idle_longest_gap_ms": spread([r["idle_longest_gap_ms"] for r in got]),
            "p99_gap_ms": spread([r["flood_p99_gap_ms"] for r in got]),
            "longest_busy_ms": spread([r["flood_longest_busy_ms"] for r in got]),
            "idle_longest_busy_ms": spread([r["idle_longest_busy_ms"] for r in got]),
            "flood_s": spread([r["flood_s"] for r in got]),
            "idle_rss_mb": spread([r["rss_kb"] / 1024 for r in got]),
            "idle_pss_mb": spread([r["pss_kb"] / 1024 for r in got]),
            "rss_x_bare": spread([r["rss_kb"] / bare_rss for r in got]),
            "all_rows_in_order": all(
                r["all_in_order"] and r["rows_added"] == args.flood for r in got
            ),
        }
    return summary


# -- same-process latency (offscreen, one panel: no flood) ----------------------------------------


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


def latency(events: int) -> dict[str, Any]:
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
        view.set_run(run_id, [])
        arrived: dict[int, float] = {}

        def on_events(batch: list[dict[str, Any]]) -> None:
            view.append(batch)  # type: ignore[arg-type]
            now = time.perf_counter()
            arrived.update((e["seq"], now) for e in batch)

        bridge.events_arrived.connect(on_events)
        bridge.start_following(3_600_000)
        wait_until(lambda: False, 0.5)  # the first read of the runs and cursor
        committed: dict[int, float] = {}
        for _ in range(events):  # one event per commit, as a run's boundaries are
            done: list[int] = []
            bridge.submit(commit_events(run_id, 1, 1, committed), on_done=done.append)
            wait_until(lambda d=done: bool(d) and set(committed) <= set(arrived), 10)
        bridge.stop()
    ordered = sorted((arrived[s] - committed[s]) * 1000 for s in committed if s in arrived)
    return {
        "events": len(ordered),
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
        "max": round(ordered[-1], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--flood", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", help="a worktree of older code, measured in the same rounds")
    parser.add_argument("--display", choices=("xvfb", "offscreen"), default="xvfb")
    parser.add_argument("--now", help="the tree measured as now (default: this checkout)")
    parser.add_argument("--child", choices=("window", "bare"), help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    parser.add_argument("--home", help=argparse.SUPPRESS)
    parser.add_argument("--run", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child_main(args)
    flood = flood_rounds(args)
    same_process = latency(args.events) if args.events else None
    now = flood["now"]
    print(
        json.dumps(
            {
                "benchmark": "gui_events",
                "same_process_event_to_model_ms": same_process,
                "flood": {
                    "events": args.flood,
                    "longest_gap_ms": now["longest_gap_ms"]["median"],
                    "idle_longest_gap_ms": now["idle_longest_gap_ms"]["median"],
                    **flood,
                },
            }
        )
    )
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown of live Qt objects (not what is measured)


if __name__ == "__main__":
    raise SystemExit(main())
