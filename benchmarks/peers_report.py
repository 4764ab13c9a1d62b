"""bench_peers.py's tables, and their section of benchmarks/README.md."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent / "README.md"
BEGIN, END = "<!-- bench-peers:begin -->", "<!-- bench-peers:end -->"


def paired(big: list[float], small: list[float]) -> float | None:
    """The median over rounds of big / small, each pair measured in the same round (minutes
    apart): a ratio of medians taken over different rounds would mix in how the machine's
    speed drifted over the hour. The k-th record of a size is round k's (measure's order)."""
    ratios = [b / s for b, s in zip(big, small, strict=False) if s > 0]
    return round(statistics.median(ratios), 3) if ratios else None


def _n(calls: int) -> str:
    return f"{calls:,}"


def per_call_table(result: dict[str, Any], labels: dict[str, str]) -> list[str]:
    sizes: list[int] = result["sizes"]
    per = result["per_call"]
    mid = "100" if "100" in per["bare"] else str(sizes[len(sizes) // 2])
    head = ["contender"]
    for calls in sizes:
        head += [f"per call, N = {_n(calls)}", "ratio to bare"]
    grown = [c for c in sizes if c > int(mid)]
    head += [f"growth, N = {_n(c)} vs {_n(int(mid))} (same rounds)" for c in grown]
    head += [f"commits per call (N = {_n(int(mid))})", "DB bytes per call"]
    rows = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for name, label in labels.items():
        by = per[name]
        cells = [label]
        for calls in sizes:
            ms, bare = by[str(calls)]["ms"], per["bare"][str(calls)]["ms"]
            cells += [f"{ms:.2f} ms", f"{ms / bare:.2f}x" if bare > 0 else "-"]
        for calls in grown:
            ratio = result.get("growth", {}).get(name, {}).get(str(calls))
            cells.append(f"{ratio:.2f}x" if ratio is not None else "-")
        cells.append(f"{by[mid]['commits']:.2f}")
        cells.append(
            " / ".join(f"{by[str(c)]['bytes'] / 1024:,.1f} KB" for c in sizes[1:])
            + f" (N = {', '.join(_n(c) for c in sizes[1:])})"
        )
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def recovery_table(result: dict[str, Any], labels: dict[str, str]) -> list[str]:
    longs = result["long"] if isinstance(result["long"], list) else [result["long"]]
    head = ["recovery after a SIGKILL at the last call", "10 calls in"]
    for calls in longs:
        head += [f"{_n(calls)} calls in", "ratio to 10 (same rounds)"]
    rows = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for name, got in result["recovery_s"].items():
        short_s = got["10"]
        cells = [labels[name], f"{short_s:.3f} s"]
        for calls in longs:
            long_s = got[str(calls)]
            ratio = result.get("recovery_growth", {}).get(name, {}).get(str(calls))
            cells += [f"{long_s:.3f} s", f"{ratio:.1f}x" if ratio is not None else "-"]
        rows.append("| " + " | ".join(cells) + " |")
    rows.append("| " + " | ".join([labels["bare"], "cannot continue: starts over"]) + " |")
    return rows


def crash_table(result: dict[str, Any], labels: dict[str, str]) -> list[str]:
    crash = result.get("crash")
    if not crash:
        return []
    rows = [
        "| 30 calls, each with an effect | random SIGKILLs | duplicates | lost"
        " | kills right after the effect, before its record | duplicates | lost |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, got in crash.items():
        cells = [labels[name]]
        for kind in ("random", "worst_window"):
            t = got[kind]
            note = "" if t["finished"] else " (did not finish)"
            cells += [f"{t['kills']}{note}", str(t["duplicates"]), str(t["lost"])]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def tables(result: dict[str, Any], labels: dict[str, str]) -> list[str]:
    out = [*per_call_table(result, labels), "", *recovery_table(result, labels)]
    crash = crash_table(result, labels)
    return out + (["", *crash] if crash else [])


def write_readme(block: list[str]) -> None:
    text = README.read_text(encoding="utf-8")
    body = "\n".join([BEGIN, *block, END])
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + body + text[text.index(END) + len(END) :]
    else:
        text = text.rstrip() + "\n\n" + body + "\n"
    README.write_text(text, encoding="utf-8")
