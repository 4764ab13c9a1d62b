"""Another desk's commit reaching this window: LISTEN/NOTIFY on PostgreSQL against the poll.

Another process (the other desk) commits one event at a time and prints the wall-clock time
right after each commit; this process runs a real bridge and records when the event reaches
the GUI thread (`events_arrived`). Both processes are on this machine, so their clocks agree.

- team: a PostgreSQL database (a throwaway cluster started here, 127.0.0.1), the bridge's poll
  timer set to an hour: only the notice can bring the event;
- sqlite: the same on a home's SQLite file, with the poll at its usual 300 ms.

    python benchmarks/bench_team_live.py [--commits 50]
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

from PySide6.QtWidgets import QApplication  # noqa: E402 (after the platform is chosen)

from benchmarks.bench_gui_events import wait_until  # noqa: E402
from tests.support import pg_cluster  # noqa: E402 (standard library only)

OTHER_DESK = """
import sys, time
from agent_core.storage.tables.timeline import append_event
from agent_core.facade.workspace import Workspace
ws = Workspace(sys.argv[1], db=sys.argv[2] or None)
print("ready", flush=True)
for line in sys.stdin:
    with ws.store.write() as conn:
        seq = append_event(conn, None, "artifact_unexpected", data={"path": "bench"})
    print(seq, time.time(), flush=True)
ws.close()
"""


def measure(home: Path, db: str | None, commits: int, poll_ms: int) -> list[float]:
    """Latencies (ms) from the other desk's commit to the event on this GUI thread."""
    from desktop.bridge import Bridge

    arrived: dict[int, float] = {}
    bridge = Bridge(home / "this-desk", db=db)
    bridge.events_arrived.connect(
        lambda events: arrived.update((e["seq"], time.time()) for e in events)
    )
    ready: list[bool] = []
    bridge.ready.connect(lambda: ready.append(True))
    bridge.start()
    wait_until(lambda: bool(ready), 60)
    bridge.start_following(poll_ms)
    wait_until(lambda: False, 1.0)  # its first read, and LISTEN in place (team mode)
    other = subprocess.Popen(
        # A team: another home on the same database; SQLite: another process on this home.
        [sys.executable, "-c", OTHER_DESK, str(home / ("other-desk" if db else "this-desk")),
         db or ""],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO,
    )  # fmt: skip
    assert other.stdin is not None and other.stdout is not None
    assert other.stdout.readline().strip() == "ready"
    latencies: list[float] = []
    for _ in range(commits):
        other.stdin.write("commit\n")
        other.stdin.flush()
        seq_text, at_text = other.stdout.readline().split()
        seq, committed = int(seq_text), float(at_text)
        wait_until(lambda s=seq: s in arrived, 10)
        if seq in arrived:
            latencies.append((arrived[seq] - committed) * 1000)
        wait_until(lambda: False, 0.05)  # the commits do not queue behind each other
    other.stdin.close()
    other.wait(30)
    bridge.stop()
    return sorted(latencies)


def summary(latencies: list[float], commits: int) -> dict[str, Any]:
    return {
        "commits": commits,
        "arrived": len(latencies),
        "p50": round(statistics.median(latencies), 1),
        "p95": round(latencies[int(0.95 * (len(latencies) - 1))], 1),
        "max": round(latencies[-1], 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=50)
    args = parser.parse_args()
    _app = QApplication.instance() or QApplication([])
    root = Path(tempfile.mkdtemp(prefix="bd-bench-pg-"))  # the server's user must enter it
    cluster = pg_cluster.start(root)
    os.environ["PGPASSFILE"] = str(cluster.passfile)  # this process and the other desk
    try:
        with tempfile.TemporaryDirectory(prefix="bd-bench-live-") as tmp:
            team = measure(Path(tmp) / "team", cluster.url, args.commits, 3_600_000)
            local = measure(Path(tmp) / "sqlite", None, args.commits, 300)
    finally:
        pg_cluster.stop(root)
    print(
        json.dumps(
            {
                "benchmark": "team_live",
                "team_notify_ms": summary(team, args.commits),
                "sqlite_poll_300ms_ms": summary(local, args.commits),
            }
        )
    )
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown of live Qt objects (not what is measured)


if __name__ == "__main__":
    raise SystemExit(main())
