"""From an approved write to its `artifact_confirmed`: how long the watcher takes to confirm.

One run in `acceptEdits` writes N briefs (each approved by policy, written through the ledger)
while the real watchdog observer watches the artifacts folder, in this process, as
`briefdesk-cli run` does. The latency of each write is the time from its `tool_result` event to
the `artifact_confirmed` event for its path (both stamped by the store's clock, in ms).

    python benchmarks/bench_artifacts.py [--writes 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=200)
    args = parser.parse_args()
    from agent_core.facade.watched import drive_watched
    from agent_core.facade.workspace import Workspace

    with tempfile.TemporaryDirectory(prefix="bd-bench-art-") as tmp:
        script = Path(tmp) / "writes.json"
        turns = [
            {
                "call": "save_brief",
                "args": {"relative_path": f"briefs/b{i:04d}.md", "content": f"# Brief {i}\n"},
            }
            for i in range(args.writes)
        ]
        script.write_text(json.dumps([*turns, {"say": "done"}]))
        ws = Workspace(Path(tmp) / "home")
        run_id = ws.create_run(
            "bench", model=f"scripted:{script}", mode="acceptEdits",
            max_turns=100_000, max_tool_calls=100_000,
        )  # fmt: skip
        run = drive_watched(ws, run_id, confirm_timeout=30)
        assert run["status"] == "succeeded", run
        events = ws.timeline(run_id)
        ws.close()
    # Calls run one after another: the i-th proposal's target is the i-th write's path.
    targets = [e["data"]["target"] for e in events if e["kind"] == "approval_requested"]
    results = [e for e in events if e["kind"] == "tool_result" and e["tool"] == "save_brief"]
    written = {
        target: datetime.fromisoformat(result["at"])
        for target, result in zip(targets, results, strict=True)
    }
    latencies = [
        (datetime.fromisoformat(e["at"]) - written[e["data"]["path"]]).total_seconds() * 1000
        for e in events
        if e["kind"] == "artifact_confirmed" and e["data"].get("path") in written
    ]
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan")
    print(
        json.dumps(
            {
                "benchmark": "artifacts",
                "writes": args.writes,
                "confirmed": len(latencies),
                "p50_ms": round(statistics.median(latencies), 1) if latencies else None,
                "p95_ms": round(p95, 1),
                "max_ms": round(latencies[-1], 1) if latencies else None,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
