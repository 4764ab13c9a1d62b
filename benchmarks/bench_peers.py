"""BriefDesk beside its peers (issues 29, 43): the same scripted workload through each, in one run.

The workload (peers_workload.py): N calls of a read tool returning about 2.2 KB of JSON (the
same corpus search and bytes for everyone), then a final answer, from a scripted model; no
network. The contenders (peers_contenders.py, peers_langgraph.py), each run as its users run
it:

- the bare Agents SDK `Runner` (nothing durable: the floor);
- the bare SDK driven as BriefDesk drives it: one turn per `Runner.run` on BriefDesk's bounded
  view of the conversation, nothing durable (the floor of the same work);
- BriefDesk through its facade in-process, and through `briefdesk-cli run` (a fresh process);
  with `--before REV`, BriefDesk at REV too (a git worktree of REV, removed afterwards);
- DBOS 3.4 + dbos-openai-agents on its SQLite system database (tools as `@DBOS.step()`,
  `DBOSRunner.run` in a `@DBOS.workflow()`);
- LangGraph: `StateGraph(MessagesState)`, a model node and `ToolNode`, `SqliteSaver`, with
  `durability="sync"` (durable, comparable with BriefDesk) and its default "async" beside it.

Measured per contender, at each N: per call = (run of N - run of 1) / (N - 1), so start-up
cancels out (each run in a process of its own); its ratio to each floor and to BriefDesk at
REV within each round; growth = per call at N / per call at 100 within each round; database
bytes per call (pages in use, WAL folded in); commits per call (write transactions committed
through any sqlite3 connection of the process: peers_workload.CommitCounter); fsyncs per call
(strace -f -c, one counting pass). Recovery: a run killed (SIGKILL) at the start of its last
call, 10 or each of `--long` calls in, then timed from a fresh process opening its store to the
final answer. The crash comparison is peers_crash.py. Contenders take turns in another order
every round (the machine is noisy); every figure is a median over rounds with its range, and
the load average is recorded before, after and at the end of every round. Every measurement
is appended to `--rounds-file` as it is made, so an interrupted run keeps what it measured:
`--report-only` makes the tables from that file.

    python benchmarks/bench_peers.py [--quick] [--rounds 5] [--big-rounds 2]
        [--sizes 10,100,400,1000] [--long 400,1000] [--kills 20] [--before REV]
        [--write-readme] [--rounds-file F] [--report-only]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(HERE.parent))

import peers_contenders as pc  # noqa: E402  (imports the SDK, DBOS, the contenders once, pre-fork)
import peers_crash  # noqa: E402
import peers_report as rep  # noqa: E402
import peers_workload as wl  # noqa: E402
from peers_children import freeze_imports, run_child, syncs_counted  # noqa: E402

CONTENDERS = (
    "bare", "bare_bounded", "briefdesk", "briefdesk_cli", "dbos", "langgraph", "langgraph_async",
)  # fmt: skip
BEFORE = "briefdesk_before"
RECOVERING = ("briefdesk", "dbos", "langgraph")
FLOORS = ("bare", "bare_bounded", BEFORE)
BIG = 400  # from this size on, `--big-rounds` rounds (a 1,000-call round takes minutes)


def one_pair(name: str, root: Path, calls: int, tree: Path | None) -> dict[str, float]:
    """Per-call time, commits and bytes of `calls` calls, from a run of N and a run of 1."""
    runs = {}
    for size in (1, calls):
        workdir = root / f"{name}-{size}"
        outcome = run_child(name, workdir, size, env={wl.WARM_ENV: "1"}, tree=tree)
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


def syncs_per_call(name: str, root: Path, calls: int, tree: Path | None) -> dict[str, float]:
    """fsyncs (and commits) per call, each run under `strace -f -c`, differenced like time."""
    got = {}
    for size in (1, calls):
        workdir = root / f"syncs-{name}-{size}"
        summary = root / f"syncs-{name}-{size}.strace"
        outcome = run_child(name, workdir, size, env={wl.WARM_ENV: "1"}, tree=tree, strace=summary)
        if outcome.error or not outcome.result.get("done"):
            raise SystemExit(f"{name} under strace failed: {outcome.error or outcome.result}")
        got[size] = (*syncs_counted(summary), float(outcome.result.get("commits") or 0))
        shutil.rmtree(workdir, ignore_errors=True)
    span = calls - 1
    return {
        "fsyncs": round((got[calls][0] - got[1][0]) / span, 3),
        "fsync_ms": round((got[calls][1] - got[1][1]) / span * 1000, 3),
        "commits": round((got[calls][2] - got[1][2]) / span, 3),
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


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _contenders(args: argparse.Namespace) -> tuple[str, ...]:
    return (*CONTENDERS, BEFORE) if args.before else CONTENDERS


def _mid(sizes: list[int]) -> int:
    return 100 if 100 in sizes else sizes[len(sizes) // 2]


def measure(args: argparse.Namespace, root: Path, tree: Path | None) -> None:
    """Every round's measurements, each appended to the rounds file as soon as it is made."""
    sizes, longs = _ints(args.sizes), _ints(args.long)
    names = _contenders(args)
    rounds = max(args.rounds, args.big_rounds)
    for r in range(rounds):
        rng = random.Random(args.seed + r)
        for calls in sizes:
            if (calls >= BIG and r >= args.big_rounds) or (calls < BIG and r >= args.rounds):
                continue
            for name in rng.sample(names, len(names)):
                got = one_pair(name, root, calls, tree if name == BEFORE else None)
                _record(args.rounds_file, {"per_call": name, "calls": calls, "round": r, **got})
        for calls in (10, *longs):
            if (calls >= BIG and r >= args.big_rounds) or (calls < BIG and r >= args.rounds):
                continue
            for name in rng.sample(RECOVERING, len(RECOVERING)):
                seconds = recovery(name, root, calls)
                entry = {"recovery": name, "calls": calls, "round": r, "s": seconds}
                _record(args.rounds_file, entry)
        _record(args.rounds_file, {"round_load": r, "load": _load()})
        print(f"round {r + 1} of {rounds} done", file=sys.stderr, flush=True)


def count_syncs(args: argparse.Namespace, root: Path, tree: Path | None) -> None:
    """One pass at the middle size, every contender under strace (counts, not times)."""
    if shutil.which("strace") is None:
        print("strace not found: fsyncs per call not counted", file=sys.stderr)
        return
    calls = _mid(_ints(args.sizes))
    for name in _contenders(args):
        got = syncs_per_call(name, root, calls, tree if name == BEFORE else None)
        _record(args.rounds_file, {"syncs": name, "calls": calls, **got})


def _ints(text: str) -> list[int]:
    return [int(s) for s in str(text).split(",")]


def summarize(args: argparse.Namespace) -> dict[str, Any]:
    """Medians and ranges of what the rounds file holds; ratios within rounds."""
    sizes, longs = _ints(args.sizes), _ints(args.long)
    per: dict[str, dict[int, dict[int, dict[str, float]]]] = {}  # name -> calls -> round -> m
    rec: dict[str, dict[int, dict[int, float]]] = {}
    found: dict[str, Any] = {"load": [None, None], "syncs": {}}
    round_loads: list[float] = []
    for line in args.rounds_file.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if "per_call" in entry and entry["calls"] in sizes:
            by_round = per.setdefault(entry["per_call"], {}).setdefault(entry["calls"], {})
            by_round[entry.get("round", len(by_round))] = entry  # older files: arrival order
        elif "recovery" in entry and entry["calls"] in (10, *longs):
            by_round_s = rec.setdefault(entry["recovery"], {}).setdefault(entry["calls"], {})
            by_round_s[entry.get("round", len(by_round_s))] = entry["s"]
        elif "syncs" in entry:
            kept = ("calls", "fsyncs", "fsync_ms", "commits")  # fsync_ms: newer files only
            found["syncs"][entry["syncs"]] = {k: entry[k] for k in kept if k in entry}
        elif "crash" in entry:
            found["crash"] = entry["crash"]
        elif "round_load" in entry:
            round_loads.append(entry["load"])
        elif "load" in entry:  # the run's load average before and after, its date and REV
            found |= {k: entry[k] for k in ("load", "date", "before", "rounds") if k in entry}
    medians = {
        name: {
            str(calls): {
                "ms": rep.spread([m["ms"] for m in got.values()]),
                "commits": round(statistics.median(m["commits"] for m in got.values()), 3),
                "bytes": round(statistics.median(m["bytes"] for m in got.values()), 3),
                "rounds": len(got),
            }
            for calls, got in by_size.items()
            if got
        }
        for name, by_size in per.items()
    }

    def ms(name: str, calls: int) -> dict[int, float]:
        return {r: m["ms"] for r, m in per.get(name, {}).get(calls, {}).items()}

    ratios = {
        name: {
            str(c): {f: rep.paired_spread(ms(name, c), ms(f, c)) for f in FLOORS if f in per}
            for c in sizes
        }
        for name in per
    }
    mid = _mid(sizes)
    growth = {
        name: {str(c): rep.paired_spread(ms(name, c), ms(name, mid)) for c in sizes if c > mid}
        for name in per
    }
    recovered = {
        name: {str(c): rep.spread(list(got.values())) for c, got in by.items()}
        for name, by in rec.items()
    }
    recovery_growth = {
        name: {str(c): rep.paired_spread(by.get(c, {}), by.get(10, {})) for c in longs}
        for name, by in rec.items()
    }
    summary = {
        "sizes": sizes, "long": longs, "mid": mid, "per_call": medians, "ratios": ratios,
        "growth": growth, "recovery_s": recovered, "recovery_growth": recovery_growth,
        "round_load": rep.spread(round_loads, 2),
    }  # fmt: skip
    return summary | found


@contextmanager
def checkout(rev: str | None, root: Path) -> Iterator[Path | None]:
    """A worktree of `rev` (removed afterwards), for BriefDesk as it was at that commit."""
    if not rev:
        yield None
        return
    tree = root / "before"
    subprocess.run(
        ["git", "-C", str(wl.REPO), "worktree", "add", "-q", "--detach", str(tree), rev],
        check=True,
    )  # fmt: skip
    try:
        yield tree
    finally:
        subprocess.run(
            ["git", "-C", str(wl.REPO), "worktree", "remove", "--force", str(tree)], check=False
        )


def _stamp(args: argparse.Namespace, result: dict[str, Any]) -> str:
    loads = result.get("round_load")
    during = f", {loads['min']}-{loads['max']} at the ends of rounds" if loads else ""
    return (
        f"Measured {result.get('date', '(date not recorded)')} on {os.cpu_count()} cores"
        f"{' (quick sizes)' if args.quick else ''}, Python {sys.version.split()[0]}; load"
        f" average {result['load'][0]} before, {result['load'][1]} after{during};"
        f" {args.rounds} rounds below {BIG} calls, {args.big_rounds} from {BIG} on."
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds below 400 calls")
    parser.add_argument("--big-rounds", type=int, default=2, help="rounds at 400 calls and more")
    parser.add_argument("--sizes", default="10,100,400,1000")
    parser.add_argument("--long", default="400,1000", help="the long runs of the recovery")
    parser.add_argument("--kills", type=int, default=20, help="random kills in the crash run")
    parser.add_argument("--crash-calls", type=int, default=30, help="calls of the crash run")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--before", help="a commit: BriefDesk at it as a contender too")
    parser.add_argument("--no-crash", action="store_true", help="skip the crash comparison")
    parser.add_argument("--no-syncs", action="store_true", help="skip the strace pass")
    parser.add_argument("--write-readme", action="store_true", help="rewrite its README section")
    parser.add_argument(
        "--rounds-file", type=Path, default=Path(tempfile.gettempdir()) / "bd-bench-peers.jsonl",
        help="where each measurement is appended as it is made (started afresh unless"
        " --report-only)",
    )  # fmt: skip
    parser.add_argument("--report-only", action="store_true", help="tables of the rounds file only")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.long, args.rounds, args.big_rounds = "10,40", "40", 1, 1
        args.kills, args.crash_calls = 5, 10
    if not args.report_only:
        freeze_imports()  # before any fork: the children's collections skip the imports
        load_before = _load()
        args.rounds_file.write_text("", encoding="utf-8")
        with (
            tempfile.TemporaryDirectory(prefix="bd-bench-peers-") as tmp,
            checkout(args.before, Path(tmp)) as tree,
        ):
            root = Path(tmp)
            if not args.no_crash:  # first: the parts whose figures are counts, not times
                crash = peers_crash.crash_comparison(
                    root / "crash", kills=args.kills, seed=args.seed, calls=args.crash_calls
                )
                _record(args.rounds_file, {"crash": crash})
            if not args.no_syncs:
                count_syncs(args, root, tree)
            measure(args, root, tree)
        ran = {
            "load": [load_before, _load()],
            "date": date.today().isoformat(),
            "rounds": [args.rounds, args.big_rounds],
        }
        _record(args.rounds_file, ran | ({"before": args.before} if args.before else {}))
    result = summarize(args)
    # As the run was made (a --report-only reads them from the file; older files lack them).
    args.rounds, args.big_rounds = result.setdefault("rounds", [args.rounds, args.big_rounds])
    labels = {name: label.format(rev=result.get("before")) for name, label in pc.LABELS.items()}
    stamp = _stamp(args, result)
    lines = rep.tables(result, labels)
    print("\n".join([stamp, "", *lines]))
    print(json.dumps({"benchmark": "peers", **result}))
    if args.write_readme:
        rep.write_readme([stamp, "", *lines])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
