"""BriefDesk beside its peers (issue 29): the same scripted workload through each, in one run.

The workload (peers_workload.py): N calls of a read tool returning about 2.2 KB of JSON (the
same corpus search and bytes for everyone), then a final answer, from a scripted model; no
network. The contenders (peers_contenders.py), each run as its users run it:

- the bare Agents SDK `Runner` (nothing durable: the floor);
- BriefDesk through its facade in-process, and through `briefdesk-cli run` (a fresh process);
- DBOS 3.4 + dbos-openai-agents on its SQLite system database (tools as `@DBOS.step()`,
  `DBOSRunner.run` in a `@DBOS.workflow()`);
- LangGraph: `StateGraph(MessagesState)`, a model node and `ToolNode`, `SqliteSaver`.

Measured per contender, at each N: per call = (run of N - run of 1) / (N - 1), so start-up
cancels out (each run in a fresh process); ratio to bare; growth = per call at N / per call
at 100; database bytes per call (pages in use, WAL folded in); commits per call (write
transactions committed through any sqlite3 connection of the process, from a trace callback:
peers_workload.CommitCounter). Recovery: a run killed (SIGKILL) at the start of its last call,
10 or each of `--long` calls in, then timed from a fresh process opening its store to the final
answer. The crash comparison is peers_crash.py. Contenders take turns in another order every
round (the machine is noisy); figures are medians over rounds. Every measurement is appended to
`--rounds-file` as it is made, so an interrupted run keeps what it measured: `--report-only`
makes the tables from that file.

    python benchmarks/bench_peers.py [--quick] [--rounds 5] [--big-rounds 2]
        [--sizes 10,100,400,1000] [--long 400,1000] [--kills 20] [--write-readme]
        [--rounds-file F] [--report-only]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(HERE.parent))

import peers_contenders as pc  # noqa: E402  (imports the SDK, DBOS, agent_core once, pre-fork)
import peers_crash  # noqa: E402
import peers_report  # noqa: E402
import peers_workload as wl  # noqa: E402
from peers_children import run_child  # noqa: E402

CONTENDERS = ("bare", "briefdesk", "briefdesk_cli", "dbos", "langgraph")
RECOVERING = ("briefdesk", "dbos", "langgraph")
BIG = 400  # from this size on, `--big-rounds` rounds (a 1,000-call round takes minutes)


def one_pair(name: str, root: Path, calls: int) -> dict[str, float]:
    """Per-call time, commits and bytes of `calls` calls, from a run of N and a run of 1."""
    runs = {}
    for size in (1, calls):
        workdir = root / f"{name}-{size}"
        outcome = run_child(name, workdir, size, env={wl.WARM_ENV: "1"})
        if outcome.error or not outcome.result.get("done"):
            raise SystemExit(f"{name} at {size} calls failed: {outcome.error or outcome.result}")
        runs[size] = {
            "seconds": float(outcome.result["seconds"]),
            "commits": float(outcome.result.get("commits") or 0),
            "bytes": float(wl.live_bytes(*pc.databases(name, workdir))),
        }
        shutil.rmtree(workdir, ignore_errors=True)  # LangGraph's 1,000 calls: gigabytes
    span = calls - 1
    return {
        "ms": (runs[calls]["seconds"] - runs[1]["seconds"]) / span * 1000,
        "commits": (runs[calls]["commits"] - runs[1]["commits"]) / span,
        "bytes": (runs[calls]["bytes"] - runs[1]["bytes"]) / span,
    }


def recovery(name: str, root: Path, calls: int) -> float:
    """Seconds a fresh process takes to finish a run killed at the start of its last call."""
    from agent_core.home.crash import CRASH_ENV

    workdir = root / f"recover-{name}-{calls}"
    env = {wl.KILL_AT_ENV: str(calls), CRASH_ENV: f"before_tool:{calls}"}
    killed = run_child(name, workdir, calls, env=env)
    if not killed.killed:
        raise SystemExit(f"{name}: the run of {calls} calls was not killed: {killed.result}")
    outcome = run_child(name, workdir, calls)
    if outcome.error or not outcome.result.get("done"):
        raise SystemExit(f"{name} did not recover: {outcome.error or outcome.result}")
    shutil.rmtree(workdir, ignore_errors=True)
    return float(outcome.result["seconds"])


def _record(path: Path, entry: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")


def measure(args: argparse.Namespace, root: Path) -> None:
    """Every round's measurements, each appended to the rounds file as soon as it is made."""
    sizes, longs = _ints(args.sizes), _ints(args.long)
    rounds = max(args.rounds, args.big_rounds)
    for r in range(rounds):
        rng = random.Random(args.seed + r)
        for calls in sizes:
            if (calls >= BIG and r >= args.big_rounds) or (calls < BIG and r >= args.rounds):
                continue
            for name in rng.sample(CONTENDERS, len(CONTENDERS)):
                got = one_pair(name, root, calls)
                _record(args.rounds_file, {"per_call": name, "calls": calls, **got})
        for calls in (10, *longs):
            if (calls >= BIG and r >= args.big_rounds) or (calls < BIG and r >= args.rounds):
                continue
            for name in rng.sample(RECOVERING, len(RECOVERING)):
                seconds = recovery(name, root, calls)
                _record(args.rounds_file, {"recovery": name, "calls": calls, "s": seconds})
        print(f"round {r + 1} of {rounds} done", file=sys.stderr, flush=True)


def _ints(text: str) -> list[int]:
    return [int(s) for s in str(text).split(",")]


def summarize(args: argparse.Namespace) -> dict[str, Any]:
    """Medians of what the rounds file holds."""
    sizes, longs = _ints(args.sizes), _ints(args.long)
    per: dict[str, dict[int, list[dict[str, float]]]] = {
        n: {s: [] for s in sizes} for n in CONTENDERS
    }
    rec: dict[str, dict[int, list[float]]] = {n: {c: [] for c in (10, *longs)} for n in RECOVERING}
    crash: dict[str, Any] | None = None
    ran: dict[str, Any] = {"load": [None, None]}
    for line in args.rounds_file.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if "per_call" in entry and entry["calls"] in sizes:
            per[entry["per_call"]][entry["calls"]].append(entry)
        elif "recovery" in entry and entry["calls"] in rec[entry["recovery"]]:
            rec[entry["recovery"]][entry["calls"]].append(entry["s"])
        elif "crash" in entry:
            crash = entry["crash"]
        elif "load" in entry:  # the run's load average before and after, and its date
            ran = {"load": entry["load"], "date": entry["date"]}
    medians = {
        name: {
            str(calls): {
                key: round(statistics.median(m[key] for m in got), 3)
                for key in ("ms", "commits", "bytes")
            }
            | {"rounds": len(got)}
            for calls, got in by_size.items()
            if got
        }
        for name, by_size in per.items()
    }
    recovered = {
        name: {
            str(calls): round(statistics.median(got), 3) for calls, got in by_calls.items() if got
        }
        for name, by_calls in rec.items()
    }
    mid = 100 if 100 in sizes else sizes[len(sizes) // 2]
    pair = peers_report.paired
    growth = {
        name: {str(c): pair([m["ms"] for m in by[c]], [m["ms"] for m in by[mid]])
               for c in sizes if c > mid and by[c]}
        for name, by in per.items()
    }  # fmt: skip
    recovery_growth = {
        name: {str(c): pair(by[c], by[10]) for c in longs if by[c]} for name, by in rec.items()
    }
    summary = {
        "sizes": sizes, "long": longs, "per_call": medians, "growth": growth,
        "recovery_s": recovered, "recovery_growth": recovery_growth,
    }  # fmt: skip
    return summary | ran | ({"crash": crash} if crash is not None else {})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds below 400 calls")
    parser.add_argument("--big-rounds", type=int, default=2, help="rounds at 400 calls and more")
    parser.add_argument("--sizes", default="10,100,400,1000")
    parser.add_argument("--long", default="400,1000", help="the long runs of the recovery")
    parser.add_argument("--kills", type=int, default=20, help="random kills in the crash run")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--no-crash", action="store_true", help="skip the crash comparison")
    parser.add_argument("--write-readme", action="store_true", help="rewrite its README section")
    parser.add_argument(
        "--rounds-file", type=Path, default=Path(tempfile.gettempdir()) / "bd-bench-peers.jsonl",
        help="where each measurement is appended as it is made (started afresh unless"
        " --report-only)",
    )  # fmt: skip
    parser.add_argument("--report-only", action="store_true", help="tables of the rounds file only")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.long, args.rounds, args.big_rounds, args.kills = "10,40", "40", 1, 1, 5
    load_before = os.getloadavg()[0]
    if not args.report_only:
        args.rounds_file.write_text("", encoding="utf-8")
        with tempfile.TemporaryDirectory(prefix="bd-bench-peers-") as tmp:
            root = Path(tmp)
            if not args.no_crash:  # first: the one part whose figures are counts, not times
                crash = peers_crash.crash_comparison(
                    root / "crash", kills=args.kills, seed=args.seed
                )
                _record(args.rounds_file, {"crash": crash})
            measure(args, root)
        load = [round(load_before, 2), round(os.getloadavg()[0], 2)]
        _record(args.rounds_file, {"load": load, "date": date.today().isoformat()})
    result = summarize(args)
    result["rounds"] = [args.rounds, args.big_rounds]
    stamp = (
        f"Measured {result.get('date', '(date not recorded)')} on {os.cpu_count()} cores"
        f"{' (quick sizes)' if args.quick else ''}, Python {sys.version.split()[0]}; load"
        f" average {result['load'][0]} before, {result['load'][1]} after;"
        f" {args.rounds} rounds below {BIG} calls, {args.big_rounds} from {BIG} on."
    )
    lines = peers_report.tables(result, pc.LABELS)
    print("\n".join([stamp, "", *lines]))
    print(json.dumps({"benchmark": "peers", **result}))
    if args.write_readme:
        peers_report.write_readme([stamp, "", *lines])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
