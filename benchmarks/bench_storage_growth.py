"""Storage growth of a run as it gets longer: latest-RunState-only vs one copy per checkpoint.

The SDK's RunState string holds the whole history, so keeping a full copy per checkpoint grows
quadratically with the run. BriefDesk keeps the latest RunState once per run and small
checkpoint rows. This runs scripted runs of increasing length in one process, side by side,
and prints bytes stored against what one copy per checkpoint would have cost (a ratio).

    python benchmarks/bench_storage_growth.py [--turns 5 10 20 40]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def measure(turns: int, workdir: Path) -> dict[str, float]:
    from agent_core.facade.workspace import Workspace

    script = workdir / f"script-{turns}.json"
    script.write_text(
        json.dumps(
            # remember_audience pauses (memory tier): each call saves the RunState, as every
            # call of a remote model does (embedded models' reads run without a pause).
            [{"call": "remember_audience", "args": {"audience": "engineers"}}] * turns
            + [{"say": "done"}]
        )
    )
    ws = Workspace(workdir / f"home-{turns}")
    started = time.perf_counter()
    run = ws.start_run("growth", model=f"scripted:{script}")
    elapsed = time.perf_counter() - started
    ws.close()
    db = sqlite3.connect(workdir / f"home-{turns}" / "state.db")
    state_bytes = db.execute(
        "SELECT size FROM blobs WHERE digest = (SELECT state_digest FROM runs WHERE run_id = ?)",
        (run["run_id"],),
    ).fetchone()[0]
    saved = db.execute(
        "SELECT count(*) FROM events WHERE run_id = ? AND kind = 'checkpoint_saved'",
        (run["run_id"],),
    ).fetchone()[0]
    kept_rows = db.execute(
        "SELECT coalesce(sum(length(run_state_json) + length(budgets_json)"
        " + length(confirmed_json)), 0) FROM checkpoints WHERE run_id = ?",
        (run["run_id"],),
    ).fetchone()[0]
    db.close()
    # One full copy per checkpoint: the state grows about linearly with the turn, so the
    # copies sum to about half of (checkpoints x final state).
    per_checkpoint_copies = saved * state_bytes / 2
    return {
        "turns": turns,
        "checkpoints": saved,
        "stored": state_bytes + kept_rows,
        "copies": per_checkpoint_copies,
        "seconds": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, nargs="+", default=[5, 10, 20, 40])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(n, Path(tmp)) for n in args.turns]
    print("| turns | checkpoints | bytes kept | one copy per checkpoint | ratio | run time |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(
            f"| {r['turns']} | {r['checkpoints']} | {r['stored']:,.0f} | {r['copies']:,.0f} "
            f"| {r['copies'] / r['stored']:.1f}x | {r['seconds']:.2f} s |"
        )


if __name__ == "__main__":
    main()
