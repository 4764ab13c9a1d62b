"""A durable checkpoint at a tool boundary, side by side with raw SQLite and LangGraph.

Same payload (a 15.5 KB RunState string, a little different at every save so nothing is
deduplicated), same durability (WAL, synchronous=FULL, one commit per save), same process:

- raw: one `INSERT` + `COMMIT` through `sqlite3`;
- LangGraph: `SqliteSaver.put` (langgraph-checkpoint-sqlite, a benchmark-only extra);
- BriefDesk: what checkpoint A writes, in one write transaction: the latest RunState blob (the
  one it replaces pruned), the checkpoint row and its `checkpoint_saved` event.

    python benchmarks/bench_checkpoint.py [--rounds 15] [--saves 200]

The contenders save in turn, one save each, in another order each round; each one's figure is
its median round. A burst of load from elsewhere (fsync times vary several-fold on a busy
machine) then falls on all contenders alike instead of on one contender's whole round.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

STATE_BYTES = 15_500


def payload(i: int) -> str:
    body = json.dumps({"generated_items": ["x" * 60] * 200, "turn": i})
    return (body + " " * STATE_BYTES)[: STATE_BYTES - 12] + f"{i:012d}"


def durable(conn: sqlite3.Connection) -> sqlite3.Connection:
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    return conn


def raw_saver(workdir: Path) -> Callable[[int], None]:
    conn = durable(sqlite3.connect(workdir / "raw.db", isolation_level=None))
    conn.execute("CREATE TABLE cp (id INTEGER PRIMARY KEY, run TEXT, state TEXT)")

    def save(i: int) -> None:
        conn.execute("BEGIN")
        conn.execute("INSERT INTO cp (run, state) VALUES (?, ?)", ("run-1", payload(i)))
        conn.execute("COMMIT")

    return save


def langgraph_saver(workdir: Path) -> Callable[[int], None]:
    from langgraph.checkpoint.base import empty_checkpoint
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = durable(sqlite3.connect(workdir / "langgraph.db", check_same_thread=False))
    saver = SqliteSaver(conn)
    saver.setup()
    config = {"configurable": {"thread_id": "run-1", "checkpoint_ns": ""}}

    def save(i: int) -> None:
        checkpoint = empty_checkpoint()
        checkpoint["channel_values"] = {"state": payload(i)}
        saver.put(config, checkpoint, {"step": i}, {})  # type: ignore[arg-type]

    return save


def briefdesk_saver(workdir: Path) -> Callable[[int], None]:
    from agent_core.facade.workspace import Workspace
    from agent_core.runs.checkpointing import save_checkpoint
    from agent_core.runs.context import RunContext
    from agent_core.runs.record import RunRecord

    ws = Workspace(workdir / "home")
    run_id = ws.create_run("benchmark")
    ctx = RunContext(ws.store, RunRecord(ws.store, run_id), ws.settings())

    def save(i: int) -> None:
        ctx.unsaved_state = payload(i)  # as the driver leaves it at an SDK pause
        with ws.store.write() as conn:
            save_checkpoint(ctx, conn, "A", f"call-{i}", "run search_corpus")

    return save


def time_round(
    savers: dict[str, Callable[[int], None]], saves: int, offset: int
) -> dict[str, float]:
    """Milliseconds per save of each contender over one round, their saves taken in turn."""
    spent = dict.fromkeys(savers, 0.0)
    for i in range(saves):
        for name, save in savers.items():
            started = time.perf_counter()
            save(offset + i)
            spent[name] += time.perf_counter() - started
    return {name: seconds * 1000 / saves for name, seconds in spent.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--saves", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bd-bench-cp-") as tmp:
        workdir = Path(tmp)
        savers = {
            "raw sqlite3 INSERT + COMMIT": raw_saver(workdir),
            "LangGraph SqliteSaver.put": langgraph_saver(workdir),
            "BriefDesk checkpoint (blob + row + event)": briefdesk_saver(workdir),
        }
        for save in savers.values():  # warm: tables, caches, first connections
            for i in range(20):
                save(10_000_000 + i)
        # Save by save in turn, so a noisy moment of the machine hits every contender alike,
        # the order turned each round so none always runs right after another's commit.
        results: dict[str, list[float]] = {name: [] for name in savers}
        names = list(savers)
        for r in range(args.rounds):
            turn = names[r % len(names) :] + names[: r % len(names)]
            measured = time_round({name: savers[name] for name in turn}, args.saves, r * args.saves)
            for name, ms in measured.items():
                results[name].append(ms)
    medians = {name: statistics.median(v) for name, v in results.items()}
    raw = medians["raw sqlite3 INSERT + COMMIT"]
    langgraph = medians["LangGraph SqliteSaver.put"]
    rows = [
        {"saver": name, "ms": round(ms, 3), "x_raw": round(ms / raw, 2),
         "x_langgraph": round(ms / langgraph, 2)}
        for name, ms in medians.items()
    ]  # fmt: skip
    print(json.dumps({"benchmark": "checkpoint", "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
