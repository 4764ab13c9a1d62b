"""bench_peers.py's tables, and their section of benchmarks/README.md.

Every time and ratio is a median over rounds with its range (min-max), and every ratio is taken
within a round (the contenders run side by side there, minutes apart at most), then its median
over the rounds: a ratio of medians taken over different rounds would mix in how the machine's
speed drifted over the run.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent / "README.md"
BEGIN, END = "<!-- bench-peers:begin -->", "<!-- bench-peers:end -->"

Spread = dict[str, float]
"""{"median", "min", "max", "n"} of one figure over rounds."""


def spread(values: Sequence[float], digits: int = 3) -> Spread | None:
    if not values:
        return None
    return {
        "median": round(statistics.median(values), digits),
        "min": round(min(values), digits),
        "max": round(max(values), digits),
        "n": len(values),
    }


def paired(big: list[float], small: list[float]) -> float | None:
    """The median over rounds of big / small, the k-th of each from round k."""
    ratios = [b / s for b, s in zip(big, small, strict=False) if s > 0]
    return round(statistics.median(ratios), 3) if ratios else None


def paired_spread(big: Mapping[int, float], small: Mapping[int, float]) -> Spread | None:
    """big / small within each round that measured both (keys: round numbers), over rounds."""
    return spread([big[r] / small[r] for r in big if r in small and small[r] > 0])


def _shown_spread(s: Spread | None, unit: str, digits: int) -> str:
    """'median unit (min-max)', or '(one round)' where there is no range to give."""
    if s is None:
        return "-"
    median = f"{s['median']:.{digits}f}{unit}"
    if s["n"] < 2:
        return f"{median} (one round)"
    return f"{median} ({s['min']:.{digits}f} to {s['max']:.{digits}f})"


def ms(s: Spread | None) -> str:
    return _shown_spread(s, " ms", 2)


def seconds(s: Spread | None) -> str:
    return _shown_spread(s, " s", 3)


def times(s: Spread | None) -> str:
    return _shown_spread(s, "x", 2)


def _n(calls: int) -> str:
    return f"{calls:,}"


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return [_row(head), "|" + " --- |" * len(head), *(_row(r) for r in rows)]


def _shown(result: dict[str, Any], labels: Mapping[str, str]) -> list[str]:
    return [name for name in labels if name in result["per_call"]]


def per_call_table(result: dict[str, Any], labels: Mapping[str, str]) -> list[str]:
    sizes: list[int] = result["sizes"]
    per = result["per_call"]
    rows = [
        [labels[name], *(ms(per[name].get(str(c), {}).get("ms")) for c in sizes)]
        for name in _shown(result, labels)
    ]
    note = (
        "Per tool call: (run of N calls - run of 1) / (N - 1), each run in a process of its own;"
        " median (min to max) over rounds."
    )
    return [note, "", *_table(["contender", *(f"N = {_n(c)}" for c in sizes)], rows)]


def ratio_table(result: dict[str, Any], labels: Mapping[str, str]) -> list[str]:
    sizes: list[int] = result["sizes"]
    ratios = result["ratios"]
    floors = [("bare", "the bare SDK"), ("bare_bounded", "the bounded bare SDK")]
    head = ["contender"] + [f"vs {what}, N = {_n(c)}" for c in sizes for _, what in floors]
    rows = []
    for name in _shown(result, labels):
        if name in ("bare", "bare_bounded"):
            continue
        by = ratios.get(name, {})
        cells = [times(by.get(str(c), {}).get(f)) for c in sizes for f, _ in floors]
        rows.append([labels[name], *cells])
    note = (
        "Per call against the floors: the bare SDK as its users run it (one `Runner.run`, the"
        " whole conversation every turn), and the bare SDK driven as BriefDesk drives it (one"
        " turn per `Runner.run` on BriefDesk's bounded view); the ratio taken within each"
        " round, median (min to max) over rounds."
    )
    return [note, "", *_table(head, rows)]


def before_table(result: dict[str, Any], labels: Mapping[str, str]) -> list[str]:
    rev = result.get("before")
    if not rev:
        return []
    sizes: list[int] = result["sizes"]
    by = result["ratios"].get("briefdesk", {})
    cells = [times(by.get(str(c), {}).get("briefdesk_before")) for c in sizes]
    rows = [[labels["briefdesk"], *cells]]
    note = (
        f"Before and after: BriefDesk now against BriefDesk at {rev} (a checkout of that commit,"
        " run in the same rounds), per call, the ratio within each round (below 1: faster now)."
    )
    return [note, "", *_table(["contender", *(f"N = {_n(c)}" for c in sizes)], rows)]


def cost_table(result: dict[str, Any], labels: Mapping[str, str]) -> list[str]:
    sizes: list[int] = result["sizes"]
    mid = int(result["mid"])
    grown = [c for c in sizes if c > mid]
    syncs = result.get("syncs", {})
    sync_calls = next((str(s["calls"]) for s in syncs.values()), str(mid))
    head = ["contender", *(f"growth, N = {_n(c)} vs {_n(mid)}" for c in grown)]
    head += [f"commits per call (N = {_n(mid)})", f"fsyncs per call (N = {sync_calls}, strace)"]
    head += ["time in them per call (strace)"]
    head += [f"DB bytes per call (N = {', '.join(_n(c) for c in sizes[1:])})"]
    rows = []
    for name in _shown(result, labels):
        by = result["per_call"][name]
        cells = [labels[name]]
        cells += [times(result["growth"].get(name, {}).get(str(c))) for c in grown]
        commits = by.get(str(mid), {}).get("commits")
        cells.append("-" if commits is None else f"{commits:.2f}")
        sync = syncs.get(name)
        cells.append("-" if sync is None else f"{sync['fsyncs']:.2f}")
        waited = None if sync is None else sync.get("fsync_ms")
        cells.append("-" if waited is None else f"{waited:.2f} ms")
        kb = [by.get(str(c), {}).get("bytes", 0) / 1024 for c in sizes[1:]]
        cells.append(" / ".join(f"{x:,.1f} KB" for x in kb))
        rows.append(cells)
    note = (
        "Growth: per call at N against per call at the middle size, within each round, median"
        " (min to max). Commits: write transactions through any sqlite3 connection of the"
        " process (median). fsyncs: fsync, fdatasync, sync_file_range, syncfs and msync calls of"
        " the process and its children, counted by `strace -f -c -w` in one run of 1 and one of"
        " N, differenced, with the wall time they took (waiting for the disk, under strace: the"
        " part of a durable contender's cost the bare SDK never pays)."
        " Bytes: pages in use in the contender's own database (median)."
    )
    return [note, "", *_table(head, rows)]


def recovery_table(result: dict[str, Any], labels: Mapping[str, str]) -> list[str]:
    longs: list[int] = result["long"]
    head = ["recovery after a SIGKILL at the last call", "10 calls in"]
    for calls in longs:
        head += [f"{_n(calls)} calls in", "vs 10 calls in"]
    rows = []
    for name, got in result["recovery_s"].items():
        cells = [labels[name], seconds(got.get("10"))]
        for calls in longs:
            ratio = result.get("recovery_growth", {}).get(name, {}).get(str(calls))
            cells += [seconds(got.get(str(calls))), times(ratio)]
        rows.append(cells)
    rows.append([labels["bare"], "cannot continue: starts over"])
    note = (
        "Recovery: a fresh process, from opening the store to the final answer, after a kill at"
        " the start of the last call; median (min to max) over rounds, the ratio within each round."
    )
    return [note, "", *_table(head, rows)]


def crash_table(result: dict[str, Any], labels: Mapping[str, str]) -> list[str]:
    crash = result.get("crash")
    if not crash:
        return []
    calls = crash.get("calls", 30)
    head = [f"{calls} calls, each with an effect", "random SIGKILLs", "duplicates", "lost",
            "kills right after the effect, before its record", "duplicates", "lost"]  # fmt: skip
    rows = []
    for name, got in crash.items():
        if name == "calls":
            continue
        cells = [labels[name]]
        for kind in ("random", "worst_window"):
            t = got[kind]
            note = "" if t["finished"] else " (did not finish)"
            cells += [f"{t['kills']}{note}", str(t["duplicates"]), str(t["lost"])]
        rows.append(cells)
    note = (
        "Crashes (counts, one run): the peers plain, and with the idempotent step their docs ask"
        " for (the effect keyed by the step's or call's ID, checked before acting)."
    )
    return [note, "", *_table(head, rows)]


def tables(result: dict[str, Any], labels: Mapping[str, str]) -> list[str]:
    out: list[str] = []
    for part in (per_call_table, ratio_table, before_table, cost_table, recovery_table,
                 crash_table):  # fmt: skip
        lines = part(result, labels)
        if lines:
            out += [*([""] if out else []), *lines]
    return out


def write_readme(block: list[str]) -> None:
    text = README.read_text(encoding="utf-8")
    body = "\n".join([BEGIN, *block, END])
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + body + text[text.index(END) + len(END) :]
    else:
        text = text.rstrip() + "\n\n" + body + "\n"
    README.write_text(text, encoding="utf-8")
