"""`make bench`: every benchmark, one after another, and one table of ratios against budgets.

Each benchmark measures its contenders side by side in one process (these machines are noisy:
compare within one run, never across runs). This collects the JSON line each one prints,
prints the table and writes it, with the date and the core count, to benchmarks/README.md
between the markers below. The full output of each benchmark follows the table.

    python benchmarks/run_all.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
README = HERE / "README.md"
sys.path.insert(0, str(HERE))
from peers_report import ms as _ms  # noqa: E402  (the peers' own figures, shown as they show them)
from peers_report import times as _x  # noqa: E402

BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


@dataclass(frozen=True)
class Bench:
    script: str
    args: tuple[str, ...]
    quick: tuple[str, ...]
    timeout: int = 1800


BENCHES = (
    # Issue 29's peers first (the longest: 5 rounds below 400 calls, 2 at 400 and 1,000, about
    # an hour on 2 busy cores). It rewrites its own README section (bench-peers markers)
    # unless --no-write.
    # 3b1f566: main before issue 43's work (BriefDesk at it runs beside BriefDesk now).
    Bench("bench_peers.py", ("--write-readme", "--before", "3b1f566"),
          ("--quick", "--write-readme"), timeout=4 * 3600),
    # 65579ff: the last commit where a remote model paused and saved a RunState before a read.
    Bench("bench_remote.py", ("--calls", "100", "--rounds", "3", "--before", "65579ff"),
          ("--calls", "30", "--rounds", "1")),
    Bench("bench_checkpoint.py", (), ("--rounds", "3", "--saves", "100")),
    Bench("bench_run.py", (), ("--calls", "41", "--long", "200", "--rounds", "1")),
    Bench("bench_gui_events.py", (), ("--events", "100", "--flood", "3000")),
    Bench("bench_agent_hook.py", (), ("--rounds", "3", "--writes", "2")),
    Bench("bench_artifacts.py", (), ("--writes", "50",)),
    Bench("bench_startup.py", ("--runs", "5"), ("--runs", "3")),
    Bench("bench_storage_growth.py", (), ()),
    Bench("bench_search.py", (), ()),
    Bench("bench_corpus.py", (), ("--quick",)),
    Bench("bench_gui_stall.py", (), ()),
    Bench("bench_team_live.py", (), ("--commits", "20")),
)  # fmt: skip


def run(bench: Bench, quick: bool, write: bool) -> tuple[str, dict[str, Any] | None]:
    args = bench.quick if quick else bench.args
    if not write:
        args = tuple(a for a in args if a != "--write-readme")
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    done = subprocess.run(
        [sys.executable, str(HERE / bench.script), *args],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=bench.timeout,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{bench.script} failed:\n{done.stdout}\n{done.stderr}")
    found = None
    for line in done.stdout.splitlines():
        if (line.startswith("{") and '"benchmark"' in line) or line.startswith('{"platform"'):
            found = json.loads(line)
    return done.stdout, found


def ratio_rows(results: dict[str, dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    """(measure, compared with, figure, budget) for the budgeted rows of issue 13."""
    rows: list[tuple[str, str, str, str]] = []
    if cp := results.get("bench_checkpoint.py"):
        by = {r["saver"]: r for r in cp["rows"]}
        ours = next(r for name, r in by.items() if name.startswith("BriefDesk"))
        rows.append((
            "checkpoint at a tool boundary, durable",
            f"raw sqlite3 {by['raw sqlite3 INSERT + COMMIT']['ms']} ms; "
            f"LangGraph SqliteSaver.put {by['LangGraph SqliteSaver.put']['ms']} ms",
            f"{ours['ms']} ms = {ours['x_langgraph']}x SqliteSaver, {ours['x_raw']}x raw",
            "at most 1.25x SqliteSaver",
        ))  # fmt: skip
    if run_ := results.get("bench_run.py"):
        pc, rs, by = run_["per_call"], run_["resume_s"], run_["bytes_per_call"]
        long_key = next(k for k in rs if k.startswith("after_") and k != "after_10")
        near_key = next(k for k in by if k.startswith("near_") and k != "near_10")
        rows += [
            ("a whole durable run, per tool call", f"bare Agents SDK {pc['bare_sdk_ms']} ms",
             f"{pc['briefdesk_ms']} ms = {pc['ratio']}x", "at most 3x"),
            (f"resume {long_key.replace('_', ' ')} tool calls",
             f"resume after 10: {rs['after_10'] * 1000:.0f} ms",
             f"{rs[long_key] * 1000:.0f} ms = {rs['ratio']}x", "at most 1.2x"),
            (f"database bytes per checkpoint {near_key.replace('_', ' ')}",
             f"near step 10: {by['near_10']} B", f"{by[near_key]} B = {by['ratio']}x",
             "at most 1.1x"),
        ]  # fmt: skip
    if gui := results.get("bench_gui_events.py"):
        lat, flood = gui["same_process_event_to_model_ms"], gui["flood"]
        rows += [
            ("same-process event to the timeline model", f"{lat['events']} events",
             f"p95 {lat['p95']} ms (p50 {lat['p50']} ms)", "p95 at most 50 ms"),
            (f"{flood['events']:,} timeline events while the window shows them",
             f"idle window: longest gap {flood['idle_longest_gap_ms']} ms",
             f"longest GUI-thread gap {flood['longest_gap_ms']} ms", "at most 50 ms"),
        ]  # fmt: skip
    if hook := results.get("bench_agent_hook.py"):
        read, write = hook["read"], hook["write"]
        rows += [
            ("an agent's read through `hook claude-code`",
             f"a Python hook that allows: {read['floor_wall']['median']:.2f} s",
             f"{read['wall']['median']:.2f} s wall ({read['ratio_wall']['median']:.1f}x), "
             f"{read['cpu']['median']:.2f} s CPU", "well under a second"),
            ("an agent's write: hook call to the window", "the window polls every 300 ms",
             f"median {write['hook_to_window']['median']:.2f} s "
             f"({write['hook_to_window']['min']:.2f}-{write['hook_to_window']['max']:.2f})",
             "report"),
        ]  # fmt: skip
    if art := results.get("bench_artifacts.py"):
        rows.append((
            "write to artifact_confirmed", f"{art['writes']} approved writes",
            f"p95 {art['p95_ms']} ms (p50 {art['p50_ms']} ms)", "p95 at most 250 ms",
        ))  # fmt: skip
    if start := results.get("bench_startup.py"):
        rows.append((
            "cold start to first window",
            f"a bare QLabel window {start['bare_qlabel_first_paint_ms']} ms",
            f"{start['briefdesk_first_paint_ms']} ms = {start['ratio_first_paint_vs_bare']}x",
            "report",
        ))  # fmt: skip
    if peers := results.get("bench_peers.py"):
        rows += peers_rows(peers)
    if remote := results.get("bench_remote.py"):
        rows.append(remote_row(remote))
    if live := results.get("bench_team_live.py"):
        team, poll = live["team_notify_ms"], live["sqlite_poll_300ms_ms"]
        rows.append((
            "another desk's commit to this window (PostgreSQL LISTEN/NOTIFY, no poll)",
            f"SQLite, poll every 300 ms: p95 {poll['p95']} ms",
            f"p95 {team['p95']} ms (p50 {team['p50']} ms)", "within a second",
        ))  # fmt: skip
    return rows


def peers_rows(peers: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """Issues 29 and 43: BriefDesk per call against the bare SDK and against the bare SDK doing
    the same bounded work, beside its peers and before/after; syncs per call; its growth to the
    long runs; recovery; no duplicate effect. Every figure a median (min to max) over rounds,
    every ratio taken within a round."""
    per, ratios = peers["per_call"], peers["ratios"]
    at = str(peers.get("mid") or ("100" if "100" in per["bare"] else peers["sizes"][-1]))

    def ms(name: str) -> str:
        return _ms(per.get(name, {}).get(at, {}).get("ms"))

    def vs(name: str, floor: str) -> str:
        return _x(ratios.get(name, {}).get(at, {}).get(floor))

    rows = [
        (f"BriefDesk per tool call at N = {at}, against the bare Agents SDK (its one `Runner.run`)",
         f"bare SDK {ms('bare')}",
         f"in-process {ms('briefdesk')} = {vs('briefdesk', 'bare')};"
         f" CLI {vs('briefdesk_cli', 'bare')}",
         "at most 1.3x (quiet machine)"),
        (f"BriefDesk per tool call at N = {at}, against the bare SDK driven as BriefDesk drives it"
         " (one turn per run, bounded view, nothing durable)",
         f"bounded bare SDK {ms('bare_bounded')}",
         f"in-process {vs('briefdesk', 'bare_bounded')}; CLI {vs('briefdesk_cli', 'bare_bounded')}",
         "at most 2x"),
        (f"per tool call at N = {at} beside the peers, against the bare SDK",
         f"DBOS {vs('dbos', 'bare')}; LangGraph sync {vs('langgraph', 'bare')},"
         f" async {vs('langgraph_async', 'bare')}",
         f"BriefDesk {vs('briefdesk', 'bare')}", "below DBOS and LangGraph (sync)"),
    ]  # fmt: skip
    if rev := peers.get("before"):
        rows.append((
            f"BriefDesk per tool call at N = {at}, now against {rev} (same rounds)",
            f"BriefDesk at {rev} {ms('briefdesk_before')}",
            f"now {ms('briefdesk')} = {vs('briefdesk', 'briefdesk_before')}", "report",
        ))  # fmt: skip
    if syncs := peers.get("syncs"):

        def sync(name: str) -> str:
            got = syncs.get(name)
            return (
                "-" if got is None else f"{got['fsyncs']:.2f} fsyncs, {got['commits']:.2f} commits"
            )

        calls = next(iter(syncs.values()))["calls"]
        rows.append((
            f"syncs per tool call (N = {calls}; fsyncs counted by strace, commits by a trace)",
            f"DBOS {sync('dbos')}; LangGraph sync {sync('langgraph')}",
            f"BriefDesk {sync('briefdesk')}", "2 (issue 43)",
        ))  # fmt: skip
    growth, grown = peers.get("growth", {}), peers.get("recovery_growth", {})
    if any(growth.get("briefdesk", {}).values()):
        sizes = ", ".join(f"{int(c):,}" for c in growth["briefdesk"])
        rows.append((
            f"per call at N = {sizes} vs N = {at} (same rounds)",
            _ratios(growth, ("bare SDK", "bare"), ("bounded", "bare_bounded"), ("DBOS", "dbos")),
            _ratios(growth, ("BriefDesk in-process", "briefdesk"), ("CLI", "briefdesk_cli")),
            "within 1.3x",
        ))  # fmt: skip
    if any(grown.get("briefdesk", {}).values()):
        sizes = ", ".join(f"{int(c):,}" for c in grown["briefdesk"])
        rows.append((
            f"recovery after a SIGKILL {sizes} calls in vs 10 calls in (same rounds)",
            _ratios(grown, ("DBOS", "dbos"), ("LangGraph sync", "langgraph")),
            _ratios(grown, ("BriefDesk", "briefdesk")),
            "within 2x",
        ))  # fmt: skip
    if crash := peers.get("crash"):

        def dups(name: str) -> str:
            got = crash.get(name)
            if got is None:
                return "-"
            return f"{got['random']['duplicates']} and {got['worst_window']['duplicates']}"

        rows.append((
            f"duplicate effects, {crash.get('calls', 30)} calls: random SIGKILLs and kills right"
            " after each effect",
            f"DBOS {dups('dbos')}, with an idempotent step {dups('dbos_idempotent')}; LangGraph"
            f" sync {dups('langgraph')}, idempotent tool {dups('langgraph_idempotent')}, async"
            f" {dups('langgraph_async')}",
            f"BriefDesk {dups('briefdesk')}", "0",
        ))  # fmt: skip
    return rows


def _ratios(by: dict[str, dict[str, Any]], *shown: tuple[str, str]) -> str:
    """'LABEL 1.17x (1.10 to 1.25), ...; LABEL ...': each (label, contender)'s ratios, size by
    size."""
    return "; ".join(
        label + " " + ", ".join(_x(x) for x in by.get(name, {}).values()) for label, name in shown
    )


def remote_row(remote: dict[str, Any]) -> tuple[str, str, str, str]:
    """Issue 29, item 3: the remote path costs BriefDesk no more than the embedded one does."""
    ms, over = remote["per_call_ms"], remote["over_floor_ms"]
    before = (
        f"; before the change {ms['remote_before']} ms ({over['remote_before']:+.2f} ms)"
        if "remote_before" in ms
        else ""
    )
    return (
        f"BriefDesk's own cost per call, remote model vs embedded (N = {remote['calls']})",
        f"embedded: {ms['embedded']} ms, {over['embedded']:+.2f} ms over the bare SDK's"
        f" {ms['bare_scripted']} ms",
        f"remote: {ms['remote']} ms, {over['remote']:+.2f} ms over the bare SDK's {ms['bare']} ms"
        f" on the same endpoint{before}",
        "remote as cheap as embedded",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke run")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--reuse-peers", action="store_true",
        help="bench_peers.py's tables from its rounds file (its last run), not measured again",
    )  # fmt: skip
    args = parser.parse_args()
    outputs: dict[str, str] = {}
    results: dict[str, dict[str, Any]] = {}
    loads: dict[str, tuple[float, float]] = {}  # each benchmark's 1-min load before and after
    for bench in BENCHES:
        if args.reuse_peers and bench.script == "bench_peers.py":
            only = "--report-only"
            bench = Bench(bench.script, (*bench.args, only), (*bench.quick, only))
        print(f"== {bench.script}", flush=True)
        load_before = os.getloadavg()[0]
        out, found = run(bench, args.quick, not args.no_write)
        loads[bench.script] = (load_before, os.getloadavg()[0])
        print(out, flush=True)
        outputs[bench.script] = out
        if found is not None:
            results[bench.script] = found
    table = [
        "| measure | compared with | measured | budget | load before, after |",
        "| --- | --- | --- | --- | --- |",
    ]
    for script, found in results.items():  # each benchmark's rows, with the load it ran under
        load = "{:.2f}, {:.2f}".format(*loads[script])
        rows = ratio_rows({script: found})
        table += [f"| {a} | {b} | {c} | {d} | {load} |" for a, b, c, d in rows]
    stamp = (
        f"Measured {date.today().isoformat()} on {os.cpu_count()} cores"
        f"{' (quick sizes)' if args.quick else ''}, Python {sys.version.split()[0]}; the last"
        " column is the 1-minute load average before and after the benchmark that measured the"
        " row. Times and ratios are medians over rounds, with their range where the benchmark"
        " gives one; ratios are of contenders measured side by side in one run."
    )
    print("\n".join([stamp, "", *table]))
    if not args.no_write:
        details = "\n\n".join(
            f"<details><summary>{name}</summary>\n\n```\n{out.strip()}\n```\n\n</details>"
            for name, out in outputs.items()
        )
        block = "\n".join([BEGIN, stamp, "", *table, "", details, END])
        text = README.read_text(encoding="utf-8") if README.exists() else ""
        if BEGIN in text and END in text:
            text = text[: text.index(BEGIN)] + block + text[text.index(END) + len(END) :]
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
        README.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
