"""Whole durable runs, side by side with the bare Agents SDK, and how they scale with length.

- per tool call: a scripted run of N+1 `search_corpus` calls minus a run of 1, through
  BriefDesk (checkpoints A and B, ledger, events, policy) and through the bare SDK `Runner`
  with the same scripted model, the same tool body and no checkpoints, in the same process;
- resume after 1,000 tool calls against resume after 10 (the run waits for approval of its
  write; the time is `resume` after the approval: load the state, replay the pause, write,
  answer, end);
- database bytes per checkpoint near step 1,000 against near step 10 (rows a call adds:
  checkpoints, their events, ledger and tool-call rows);
- growth: BriefDesk's cost per call at N = 400 and 1,000 against N = 100 (issue 29);
- durable commits per tool call (the write engine's commits, N calls minus 1);
- recovery after a SIGKILL: a run of N reads then a write is killed at checkpoint A of its
  N-th call (`BRIEFDESK_CRASH_AT=before_tool:N`, a real subprocess); the time is `resume` in a
  new Workspace until the run waits for the write's approval, at N = 10, 400 and 1,000.

    python benchmarks/bench_run.py [--calls 121] [--long 1000] [--growth 100,400,1000]
        [--kills 10,400,1000]

Before and after a change, side by side (issue 43): `--against TREE` (a `git worktree` of the
older commit) measures, in one run, BriefDesk's cost per read call from TREE's agent_core and
from this tree's, and the bare SDK's, each contender in a child process of its own (TREE first
on its sys.path), in rounds that rotate their order; it prints medians with their ranges, the
ratios per round (paired, so a loaded moment hits all three alike), the load average, and the
store's syncs, statements and read transactions per call of both trees (store_counts.py).

    python benchmarks/bench_run.py --against /tmp/bd_before [--calls 100] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

LIMITS: dict[str, Any] = {"max_turns": 100_000, "max_tool_calls": 100_000}
SEARCH = {"call": "search_corpus", "args": {"query": "checkpoint", "limit": 1}}


def script(workdir: Path, calls: int, *, write: bool = False) -> Path:
    turns: list[dict[str, Any]] = [SEARCH] * calls
    if write:
        turns.append(
            {"call": "save_brief", "args": {"relative_path": "briefs/b.md", "content": "# B\n"}}
        )
    turns.append({"say": "done"})
    path = workdir / f"script-{calls}-{write}.json"
    path.write_text(json.dumps(turns))
    return path


def briefdesk_run(workdir: Path, calls: int, tag: str, commits: list[int] | None = None) -> float:
    from sqlalchemy import event

    from agent_core.facade.workspace import Workspace

    ws = Workspace(workdir / f"home-{tag}-{calls}")
    path = script(workdir, calls)
    seen: list[object] = []
    event.listen(ws.store.write_engine, "commit", seen.append)
    started = time.perf_counter()
    run = ws.start_run("bench", model=f"scripted:{path}", **LIMITS)
    elapsed = time.perf_counter() - started
    assert run["status"] == "succeeded", run
    if commits is not None:
        commits.append(len(seen))
    ws.close()
    return elapsed


def growth(workdir: Path, sizes: list[int]) -> dict[str, float]:
    """BriefDesk's cost per call at each size (a run of N calls minus a run of 1)."""
    out: dict[str, float] = {}
    for n in sizes:
        one = briefdesk_run(workdir, 1, f"g1-{n}")
        out[str(n)] = (briefdesk_run(workdir, n, f"g{n}") - one) / (n - 1) * 1000
    return out


def commits_per_call(workdir: Path, calls: int) -> float:
    counts: list[int] = []
    briefdesk_run(workdir, 1, "c1", counts)
    briefdesk_run(workdir, calls, "cn", counts)
    return (counts[1] - counts[0]) / (calls - 1)


_KILLED_RUN = (
    "import sys\n"
    "from agent_core.facade.workspace import Workspace\n"
    "ws = Workspace(sys.argv[1])\n"
    "ws.start_run('bench', model='scripted:' + sys.argv[2], max_turns=100000,"
    " max_tool_calls=100000)\n"
)


def recovery_after_kill(workdir: Path, calls: int) -> float:
    """Seconds `resume` takes after a SIGKILL at checkpoint A of call `calls`."""
    import sqlite3

    from agent_core.facade.workspace import Workspace

    home = workdir / f"home-kill-{calls}"
    path = script(workdir, calls, write=True)
    env = {**os.environ, "BRIEFDESK_CRASH_AT": f"before_tool:{calls}", "PYTHONPATH": str(REPO)}
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_RUN, str(home), str(path)], env=env, capture_output=True
    )
    assert killed.returncode == -9, (killed.returncode, killed.stderr[-2000:])
    conn = sqlite3.connect(home / "state.db")
    (run_id,) = conn.execute("SELECT run_id FROM runs").fetchone()
    conn.close()
    ws = Workspace(home)  # as a new process would
    started = time.perf_counter()
    done = ws.resume(run_id)
    elapsed = time.perf_counter() - started
    assert done["status"] == "waiting_approval", done
    ws.close()
    return elapsed


def bare_sdk_run(workdir: Path, calls: int) -> float:
    """The same scripted model and search body through `Runner.run`, nothing durable."""
    from agents import Agent, FunctionTool, RunConfig, Runner

    from agent_core.corpus import index as corpus_index
    from agent_core.corpus import search as research
    from agent_core.facade.workspace import Workspace
    from agent_core.models.scripted import ScriptedModel, load_script
    from agent_core.tools.search_corpus import SearchArgs

    ws = Workspace(workdir / "home-bare")
    corpus = ws.home.corpus
    corpus_index.reindex(ws.desk_store, corpus)

    async def search(_ctx: Any, raw: str) -> str:
        args = SearchArgs.model_validate_json(raw)
        with ws.store.read() as conn:
            hits = research.search(conn, corpus, args.query, args.limit)
        return json.dumps({"results": hits})

    tool = FunctionTool(
        name="search_corpus",
        description="search",
        params_json_schema=SearchArgs.model_json_schema(),
        on_invoke_tool=search,
    )
    model = ScriptedModel("cbare", load_script(script(workdir, calls)))
    agent = Agent(name="bare", instructions="x", tools=[tool], model=model)
    config = RunConfig(tracing_disabled=True)
    started = time.perf_counter()
    result = asyncio.run(Runner.run(agent, "bench", run_config=config, max_turns=100_000))
    elapsed = time.perf_counter() - started
    assert result.final_output == "done"
    ws.close()
    return elapsed


def per_call(calls: int, workdir: Path, rounds: int) -> dict[str, float]:
    ours, bare = [], []
    for r in range(rounds):  # interleaved, so a noisy moment hits both alike
        ours.append(
            (briefdesk_run(workdir, calls, f"n{r}") - briefdesk_run(workdir, 1, f"one{r}"))
            / (calls - 1)
        )
        bare.append((bare_sdk_run(workdir, calls) - bare_sdk_run(workdir, 1)) / (calls - 1))
    ours_ms, bare_ms = statistics.median(ours) * 1000, statistics.median(bare) * 1000
    return {"briefdesk_ms": ours_ms, "bare_sdk_ms": bare_ms, "ratio": ours_ms / bare_ms}


def resume_after(workdir: Path, calls: int) -> tuple[float, float]:
    """Seconds to resume after the approval; bytes a call adds near the end of the run."""
    from agent_core.facade.workspace import Workspace

    ws = Workspace(workdir / f"home-resume-{calls}")
    path = script(workdir, calls, write=True)
    run = ws.start_run("bench", model=f"scripted:{path}", **LIMITS)
    assert run["status"] == "waiting_approval", run
    ws.approve(run["approvals"][0]["id"], reviewer="bench")
    ws.close()
    ws = Workspace(workdir / f"home-resume-{calls}")  # as a new process would
    started = time.perf_counter()
    done = ws.resume(run["run_id"])
    elapsed = time.perf_counter() - started
    assert done["status"] == "succeeded", done
    ws.close()
    return elapsed, bytes_per_call(workdir / f"home-resume-{calls}" / "state.db", calls)


def bytes_per_call(db: Path, calls: int) -> float:
    """Row bytes the last ten calls before the write added (checkpoints, events, ledger, calls)."""
    import sqlite3

    conn = sqlite3.connect(db)
    ids = [
        r[0]
        for r in conn.execute(
            "SELECT call_id FROM tool_calls WHERE idx BETWEEN ? AND ?", (max(1, calls - 9), calls)
        )
    ]
    total = 0
    for call_id in ids:
        total += conn.execute(
            "SELECT coalesce(sum(length(data_json) + length(kind) + length(at)), 0) FROM events"
            " WHERE data_json LIKE ?",
            (f'%"call_id": "{call_id}"%',),
        ).fetchone()[0]
        total += conn.execute(
            "SELECT coalesce(sum(length(run_state_json) + length(budgets_json)"
            " + length(confirmed_json) + length(next_step)), 0) FROM checkpoints WHERE call_id = ?",
            (call_id,),
        ).fetchone()[0]
        total += conn.execute(
            "SELECT coalesce(sum(length(coalesce(result_json, '')) + length(idempotency_key)), 0)"
            " FROM ledger WHERE call_id = ?",
            (call_id,),
        ).fetchone()[0]
        total += conn.execute(
            "SELECT coalesce(sum(length(raw_args)), 0) FROM tool_calls WHERE call_id = ?",
            (call_id,),
        ).fetchone()[0]
    conn.close()
    return total / max(1, len(ids))


def _child_per_call(tree: str, calls: int, pairs: int) -> list[float]:
    """In a child whose sys.path starts with `tree` ("bare": the bare SDK of this tree): ms per
    read call, from `pairs` runs of `calls` + 1 searches minus a run of 1, in one home."""
    workdir = Path(tempfile.mkdtemp(prefix="bd-bench-against-"))
    if tree == "bare":
        bare_sdk_run(workdir, 2)  # warm: the SDK imported, the corpus indexed
        timed = [
            (bare_sdk_run(workdir, calls + 1) - bare_sdk_run(workdir, 1)) / calls * 1000
            for _ in range(pairs)
        ]
        return timed
    import agent_core
    from agent_core.facade.workspace import Workspace

    assert agent_core.__file__ and agent_core.__file__.startswith(tree), agent_core.__file__
    ws = Workspace(workdir / "home")

    def drive(n: int) -> float:
        run_id = ws.create_run("bench", model=f"scripted:{script(workdir, n)}", **LIMITS)
        started = time.perf_counter()
        run = ws.drive(run_id)
        elapsed = time.perf_counter() - started
        assert run["status"] == "succeeded", run
        return elapsed

    drive(2)  # warm: the SDK imported, the corpus indexed
    timed = [(drive(calls + 1) - drive(1)) / calls * 1000 for _ in range(pairs)]
    ws.close()
    return timed


def _spawn(tree: str, calls: int, pairs: int) -> list[float]:
    # This file, whichever tree is measured; that tree first on the path (this file puts
    # its own tree first as it loads: the child puts the measured one back in front).
    code = (
        "import sys, json, importlib.util as u;"
        "spec = u.spec_from_file_location('bench_run_child', sys.argv[1]);"
        "m = u.module_from_spec(spec); spec.loader.exec_module(m);"
        "sys.path.insert(0, sys.argv[2]) if sys.argv[2] != 'bare' else None;"
        "print(json.dumps(m._child_per_call(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, __file__, tree, str(calls), str(pairs)],
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [float(x) for x in json.loads(done.stdout.strip().splitlines()[-1])]


def _spread(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
    }


def _counts_of(tree: str) -> dict[str, float]:
    code = (
        "import sys, json, tempfile; from pathlib import Path;"
        "sys.path[:0] = json.loads(sys.argv[1]);"
        "from benchmarks.store_counts import per_read_call;"
        "print(json.dumps(per_read_call(Path(tempfile.mkdtemp()), 20)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps([tree, str(REPO)])],
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    counts: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return counts


def against(tree: str, calls: int, rounds: int, pairs: int) -> dict[str, object]:
    """Per read call: TREE's BriefDesk, this tree's, and the bare SDK, side by side."""
    names = {"before": tree, "after": str(REPO), "bare_sdk": "bare"}
    per: dict[str, list[float]] = {name: [] for name in names}
    ratios: dict[str, list[float]] = {"before/bare": [], "after/bare": [], "after/before": []}
    loads: list[float] = []
    order = list(names)
    for r in range(rounds):
        this_round: dict[str, float] = {}
        for name in order[r % 3 :] + order[: r % 3]:  # each contender first in turn
            loads.append(os.getloadavg()[0])
            this_round[name] = statistics.median(_spawn(names[name], calls, pairs))
            per[name].append(this_round[name])
        ratios["before/bare"].append(this_round["before"] / this_round["bare_sdk"])
        ratios["after/bare"].append(this_round["after"] / this_round["bare_sdk"])
        ratios["after/before"].append(this_round["after"] / this_round["before"])
    return {
        "benchmark": "run_against",
        "calls": calls,
        "rounds": rounds,
        "ms_per_call": {name: _spread(values) for name, values in per.items()},
        "ratios": {name: _spread(values) for name, values in ratios.items()},
        "load_1min": _spread(loads),
        "store_per_call": {"before": _counts_of(tree), "after": _counts_of(str(REPO))},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=121)
    parser.add_argument("--long", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--growth", default="100,400,1000", help="sizes; empty: skip")
    parser.add_argument("--kills", default="10,400,1000", help="sizes; empty: skip")
    parser.add_argument("--against", help="a worktree of an older commit: before vs after")
    parser.add_argument("--pairs", type=int, default=2, help="with --against: runs per child")
    args = parser.parse_args()
    if args.against:
        calls = args.calls if args.calls != 121 else 100
        print(json.dumps(against(args.against, calls, args.rounds, args.pairs)))
        return 0
    sizes = [int(n) for n in args.growth.split(",") if n]
    kills = [int(n) for n in args.kills.split(",") if n]
    with tempfile.TemporaryDirectory(prefix="bd-bench-run-") as tmp:
        workdir = Path(tmp)
        bare_sdk_run(workdir, 2)  # import and warm the SDK before anything is timed
        calls = per_call(args.calls, workdir, args.rounds)
        short_s, short_bytes = resume_after(workdir, 10)
        long_s, long_bytes = resume_after(workdir, args.long)
        per_size = growth(workdir, sizes) if sizes else {}
        commits = commits_per_call(workdir, 21)
        recovered = {str(n): recovery_after_kill(workdir, n) for n in kills}
    resume = {"after_10": round(short_s, 4), f"after_{args.long}": round(long_s, 4)}
    sizes_b = {"near_10": round(short_bytes), f"near_{args.long}": round(long_bytes)}
    result: dict[str, object] = {
        "benchmark": "run",
        "per_call": {k: round(v, 3) for k, v in calls.items()},
        "resume_s": {**resume, "ratio": round(long_s / short_s, 2)},
        "bytes_per_call": {**sizes_b, "ratio": round(long_bytes / short_bytes, 2)},
        "commits_per_call": round(commits, 2),
    }
    if per_size:
        first = next(iter(per_size.values()))
        result["growth_ms"] = {
            **{k: round(v, 3) for k, v in per_size.items()},
            **{f"x_{k}": round(v / first, 2) for k, v in per_size.items()},
        }
    if recovered:
        base = next(iter(recovered.values()))
        result["recovery_after_kill_s"] = {
            **{k: round(v, 4) for k, v in recovered.items()},
            **{f"x_{k}": round(v / base, 2) for k, v in recovered.items()},
        }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
