"""The corpus at scale (issue 27, item 6): indexing PDFs against `pdftotext`, search at 10,000
documents, index bytes per source byte, and a reindex with nothing changed.

- Indexing: real PDFs (the SQLite documentation Debian ships, public domain, converted by
  LibreOffice; a long one joined by qpdf; corpus_material.py, cached in benchmarks/.cache/)
  indexed by `reindex` into a fresh home with OCR off (pdftotext reads text layers only),
  against `pdftotext` over the same files, as many processes at once as the indexer has
  workers. The two alternate, in another order every round; medians. The words of a few pages
  are compared both ways (pdftotext's words found in our page text, and ours in its).
- Memory: peak resident size per process (corpus_memory.py): each pdftotext process, and the
  indexer's parent, workers and Tesseract, each indexing in a child interpreter, OCR off and
  on; with `--before TREE`, the same indexing by an older tree (a git worktree) side by side.
- Search: 10,000 Markdown documents cut from the same documentation's text (2-8 KB each, far
  less than the issue's 2 GB, which would take too long to build here: the document count is
  what a search's cost follows), indexed once; 200 varied queries, each timed as search_corpus
  runs it (a read connection, `corpus.search.search`, 5 hits) beside a bare FTS5 `MATCH ...
  ORDER BY rank LIMIT 5` on the same query, in turn, over several rounds.
- Index bytes: the pages SQLite holds for the corpus tables (dbstat), over the source bytes.
- Second reindex: the time, the processes started (every multiprocessing start is counted,
  and the count is checked to see the first reindex's workers) and the CPU of reaped children.

    python benchmarks/bench_corpus.py [--quick] [--rounds N] [--write-readme] [--profile]
                                      [--before WORKTREE]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace
    from agent_core.storage.store import Store

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
README = HERE / "README.md"
BEGIN, END = "<!-- bench-corpus:begin -->", "<!-- bench-corpus:end -->"

sys.path.insert(0, str(REPO))

# Light at module level: every spawned extraction worker imports this file again.
from benchmarks.corpus_material import (  # noqa: E402
    build_pdfs,
    build_text_corpus,
    make_queries,
    pages_of,
    sqlite_paragraphs,
    text_quality,
)
from benchmarks.corpus_memory import (  # noqa: E402 - after the path that finds it
    Peaks,
    index_in_child,
    pdftotext_parallel,
    summary,
)


def cpu_seconds(children_only: bool = False) -> float:
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = kids.ru_utime + kids.ru_stime
    if not children_only:
        me = resource.getrusage(resource.RUSAGE_SELF)
        total += me.ru_utime + me.ru_stime
    return total


class StartCounter:
    """Counts every multiprocessing process started in this process (the extraction workers)."""

    def __init__(self) -> None:
        self.count = 0
        original = BaseProcess.start

        def start(process: BaseProcess) -> None:
            self.count += 1
            original(process)

        setattr(BaseProcess, "start", start)  # noqa: B010 - a method, replaced on the class


# -- timing the indexing -----------------------------------------------------------------------


@dataclass
class Timed:
    wall: list[float]
    cpu: list[float]

    def median(self) -> float:
        return statistics.median(self.wall)

    def median_cpu(self) -> float:
        return statistics.median(self.cpu)


def indexer_workers() -> int:
    """How many workers the indexer runs at once on this machine (none is started here)."""
    from agent_core.corpus.extraction import ExtractionPool
    from agent_core.corpus.index import bounds_of

    return ExtractionPool(bounds_of(None)).size


def run_pdftotext(pdfs: list[Path], scratch: Path, parallel: int) -> tuple[float, float]:
    cpu = cpu_seconds(children_only=True)
    wall = pdftotext_parallel(pdfs, scratch, parallel).wall
    return wall, cpu_seconds(children_only=True) - cpu


@contextmanager
def fresh_home(tmp: Path) -> Iterator[Workspace]:
    from agent_core.facade.workspace import Workspace

    ws = Workspace(Path(tempfile.mkdtemp(dir=tmp, prefix="home-")))
    try:
        yield ws
    finally:
        ws.close()


def run_reindex(
    store: Store, root: Path, ocr: Literal["on", "off"] = "on"
) -> tuple[float, float, dict[str, object]]:
    from agent_core.corpus.index import reindex
    from agent_core.home.preferences import Settings

    cpu, started = cpu_seconds(), time.perf_counter()
    status = reindex(store, root, Settings(corpus_ocr=ocr))
    return time.perf_counter() - started, cpu_seconds() - cpu, dict(status)


def index_bytes(store: Store) -> dict[str, int]:
    """Bytes of SQLite pages per corpus table (its indexes counted with it)."""
    with store.read() as conn:
        rows = conn.exec_driver_sql(
            "SELECT s.tbl_name, SUM(d.pgsize) FROM dbstat AS d JOIN sqlite_schema AS s "
            "ON s.name = d.name WHERE s.tbl_name LIKE 'corpus%' GROUP BY s.tbl_name"
        ).all()
    sizes = {"docs": 0, "text": 0, "fts": 0}
    for table, size in rows:
        kind = "fts" if table.startswith("corpus_fts") else "text"
        sizes["docs" if table == "corpus_docs" else kind] += int(size)
    return sizes


def bytes_delta(after: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    return {k: after[k] - before.get(k, 0) for k in after}


def second_reindex(store: Store, root: Path, starts: StartCounter) -> dict[str, float]:
    before, kids, modules = starts.count, cpu_seconds(children_only=True), set(sys.modules)
    wall, _cpu, status = run_reindex(store, root, ocr="off")
    return {
        "ms": round(wall * 1000, 1),
        "processes_started": starts.count - before,
        "modules_imported": len(set(sys.modules) - modules),
        "children_cpu_s": round(cpu_seconds(children_only=True) - kids, 4),
        "pending": float(str(status["pending"])),
    }


def extraction_alone(pdfs: list[Path]) -> float:
    """The extractor alone, in this process, file after file: the parser's own cost."""
    from agent_core.corpus.extraction_worker import ExtractionBounds
    from agent_core.corpus.formats import extract_file

    limits = ExtractionBounds().limits
    started = time.perf_counter()
    for pdf in pdfs:
        extract_file(pdf, "pdf", limits)
    return time.perf_counter() - started


def bench_pdfs(args: argparse.Namespace, tmp: Path, starts: StartCounter) -> dict[str, object]:
    corpus = build_pdfs(args.shorts, args.long_pages).resolve()
    pdfs = sorted(corpus.glob("*.pdf"))
    source = sum(p.stat().st_size for p in pdfs)
    pages = sum(pages_of(p) for p in pdfs)
    ours, theirs, again = Timed([], []), Timed([], []), []
    first_starts: list[int] = []
    quality: dict[str, float] = {}
    sizes: dict[str, int] = {}
    text_chars = 0
    for round_ in range(args.rounds):
        order = ("theirs", "ours") if round_ % 2 == 0 else ("ours", "theirs")
        for who in order:
            if who == "theirs":
                wall, cpu = run_pdftotext(pdfs, tmp, args.workers)
                theirs.wall.append(wall)
                theirs.cpu.append(cpu)
                continue
            with fresh_home(tmp) as ws:
                store = ws.desk_store
                before_bytes, before_starts = index_bytes(store), starts.count
                wall, cpu, status = run_reindex(store, corpus, ocr="off")
                first_starts.append(starts.count - before_starts)
                if status["indexed"] != len(pdfs):
                    print(f"warning: not all indexed: {status}", file=sys.stderr)
                ours.wall.append(wall)
                ours.cpu.append(cpu)
                again.append(second_reindex(store, corpus, starts))
                if round_ == args.rounds - 1:
                    quality = text_quality(store, corpus, pdfs)
                    sizes = bytes_delta(index_bytes(store), before_bytes)
                    from agent_core.storage.tables import corpus as corpus_table

                    with store.read() as conn:
                        text_chars = corpus_table.text_bytes(conn, str(corpus))
    alone = extraction_alone(pdfs)
    mb = source / 1e6
    return {
        "files": len(pdfs),
        "pages": pages,
        "workers": args.workers,
        "source_mb": round(mb, 2),
        "rounds": args.rounds,
        "pdftotext_s": round(theirs.median(), 3),
        "pdftotext_cpu_s": round(theirs.median_cpu(), 3),
        "reindex_s": round(ours.median(), 3),
        "reindex_cpu_s": round(ours.median_cpu(), 3),
        "ratio": round(ours.median() / theirs.median(), 2),
        "ratio_cpu": round(ours.median_cpu() / theirs.median_cpu(), 2),
        "all_ratios": [round(o / t, 2) for o, t in zip(ours.wall, theirs.wall, strict=True)],
        "pdftotext_mb_s": round(mb / theirs.median(), 2),
        "reindex_mb_s": round(mb / ours.median(), 2),
        "extract_alone_s": round(alone, 3),
        "workers_started_first": first_starts,
        "quality": quality,
        "index_bytes": sizes,
        "text_chars": text_chars,
        "index_per_source_byte": round(sum(sizes.values()) / source, 3),
        "second": median_second(again),
    }


def median_second(runs: list[dict[str, float]]) -> dict[str, float]:
    return {
        "ms": statistics.median(r["ms"] for r in runs),
        "processes_started": max(r["processes_started"] for r in runs),
        "modules_imported": max(r["modules_imported"] for r in runs),
        "children_cpu_s": max(r["children_cpu_s"] for r in runs),
        "pending": max(r["pending"] for r in runs),
    }


# -- peak memory per process ------------------------------------------------------------------


def bench_memory(args: argparse.Namespace, tmp: Path) -> dict[str, dict[str, object]]:
    """pdftotext at the indexer's parallelism and the indexer (OCR off and on; an older tree's
    beside it with --before), each in processes of its own, in a rotating order every round."""
    corpus = build_pdfs(args.shorts, args.long_pages).resolve()
    pdfs = sorted(corpus.glob("*.pdf"))
    trees = [("", REPO)] + ([("before: ", Path(args.before).resolve())] if args.before else [])
    contenders: dict[str, Callable[[], Peaks]] = {
        f"pdftotext, {args.workers} at once": lambda: pdftotext_parallel(pdfs, tmp, args.workers)
    }
    for label, tree in trees:
        for ocr in ("off", "on"):
            contenders[f"{label}indexer, OCR {ocr}"] = functools.partial(
                index_in_child, tree, corpus, tmp, ocr
            )
    runs: dict[str, list[Peaks]] = {name: [] for name in contenders}
    names = list(contenders)
    for round_ in range(args.memory_rounds):
        shift = round_ % len(names)
        order = names[shift:] + names[:shift]
        for name in reversed(order) if round_ % 2 else order:
            runs[name].append(contenders[name]())
    return {name: summary(found) for name, found in runs.items()}


def memory_rows(memory: dict[str, dict[str, object]]) -> list[tuple[str, str, str, str]]:
    def kind(found: dict[str, object], name: str) -> str:
        k = found.get(name)
        if not isinstance(k, dict):
            return ""
        big, mid, count = k["largest_mb"], k["median_mb"], k["processes"]
        return (
            f"{name} {big[0]:.1f} MB ({big[1]:.1f}-{big[2]:.1f}; median process {mid[0]:.1f} "
            f"MB, {count[0]:g} processes)"
        )

    rows = []
    for name, found in memory.items():
        wall = found["wall_s"]
        assert isinstance(wall, list)
        kinds = "; ".join(
            filter(None, (kind(found, k) for k in ("parent", "worker", "tesseract", "pdftotext")))
        )
        rows.append(
            (
                f"peak resident memory per process: {name}",
                "the largest process of each kind, median of rounds (range)",
                f"{kinds}; wall {wall[0]:.2f} s ({wall[1]:.2f}-{wall[2]:.2f})",
                "report",
            )
        )
    return rows


# -- the text corpus and its searches ------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_search(args: argparse.Namespace, tmp: Path, starts: StartCounter) -> dict[str, object]:
    from agent_core.corpus.search import fts_query, search

    paragraphs = sqlite_paragraphs()
    root = (tmp / "text-corpus").resolve()
    source = build_text_corpus(root, paragraphs, args.docs)
    queries = make_queries(paragraphs)
    with fresh_home(tmp) as ws:
        store = ws.desk_store
        before = index_bytes(store)
        index_s, index_cpu, status = run_reindex(store, root)
        sizes = bytes_delta(index_bytes(store), before)
        again = [second_reindex(store, root, starts) for _ in range(3)]

        def ours(q: str) -> float:
            started = time.perf_counter()
            with store.read() as conn:
                search(conn, root, q, 5)
            return time.perf_counter() - started

        bare_sql = "SELECT rowid FROM corpus_fts WHERE corpus_fts MATCH ? ORDER BY rank LIMIT 5"

        def bare(q: str) -> float:
            match = fts_query(q)
            started = time.perf_counter()
            with store.read() as conn:
                if match:
                    conn.exec_driver_sql(bare_sql, (match,)).all()
            return time.perf_counter() - started

        for q in queries[:20]:  # warm the page cache and the statement cache
            ours(q)
        mine: dict[str, list[float]] = {q: [] for q in queries}
        theirs: dict[str, list[float]] = {q: [] for q in queries}
        rng = random.Random(5)
        for round_ in range(args.search_rounds):
            for i, q in enumerate(rng.sample(queries, len(queries))):
                pair: list[tuple[dict[str, list[float]], Callable[[str], float]]] = [
                    (mine, ours), (theirs, bare)
                ]  # fmt: skip
                for into, timer in pair if (i + round_) % 2 else pair[::-1]:
                    into[q].append(timer(q))
        with store.read() as conn:
            slowest = max(queries, key=lambda q: statistics.median(mine[q]))
            slowest_hits = len(search(conn, root, slowest, 5))
    ms_ours = [statistics.median(v) * 1000 for v in mine.values()]
    ms_bare = [statistics.median(v) * 1000 for v in theirs.values()]
    return {
        "documents": status["indexed"],
        "source_mb": round(source / 1e6, 1),
        "index_s": round(index_s, 2),
        "index_cpu_s": round(index_cpu, 2),
        "docs_per_s": round(args.docs / index_s),
        "queries": len(queries),
        "rounds": args.search_rounds,
        "p50_ms": round(percentile(ms_ours, 0.5), 2),
        "p95_ms": round(percentile(ms_ours, 0.95), 2),
        "max_ms": round(max(ms_ours), 2),
        "bare_p50_ms": round(percentile(ms_bare, 0.5), 2),
        "bare_p95_ms": round(percentile(ms_bare, 0.95), 2),
        "slowest_query": slowest,
        "slowest_hits": slowest_hits,
        "index_bytes": sizes,
        "index_per_source_byte": round(sum(sizes.values()) / source, 3),
        "second": median_second(again),
    }


# -- the report ----------------------------------------------------------------------------------


def table(
    pdf: dict[str, object], text: dict[str, object], memory: dict[str, dict[str, object]]
) -> list[str]:
    p, t = pdf, text
    q = p["quality"]
    ps, ts = p["second"], t["second"]
    pb, tb = p["index_bytes"], t["index_bytes"]
    assert isinstance(q, dict) and isinstance(ps, dict) and isinstance(ts, dict)
    assert isinstance(pb, dict) and isinstance(tb, dict)

    def mib(sizes: dict[str, int]) -> str:
        return ", ".join(
            f"{k} {v / 1e6:.1f} MB" if v >= 100_000 else f"{k} {v / 1000:.0f} KB"
            for k, v in sizes.items()
        )

    rows = [
        ("measure", "compared with", "measured", "target"),
        (
            f"indexing {p['files']} PDFs ({p['pages']} pages, {p['source_mb']} MB) into a fresh "
            f"home, OCR off, {p['workers']} workers, median of rounds",
            f"pdftotext, {p['workers']} processes at once: {p['pdftotext_s']} s "
            f"({p['pdftotext_mb_s']} MB/s), CPU {p['pdftotext_cpu_s']} s",
            f"{p['reindex_s']} s ({p['reindex_mb_s']} MB/s) = **{p['ratio']}x** "
            f"(rounds: {p['all_ratios']}); CPU {p['reindex_cpu_s']} s = {p['ratio_cpu']}x; "
            f"the extractor alone in one process {p['extract_alone_s']} s",
            "at most 2x pdftotext's time",
        ),
        (
            f"text of {q['pages']} pages against pdftotext's",
            "pdftotext's words (multiset)",
            f"{q['theirs_in_ours'] * 100:.1f}% of its words in ours (worst page "
            f"{q['theirs_in_ours_min'] * 100:.1f}%); {q['ours_in_theirs'] * 100:.1f}% of ours in "
            f"its (worst {q['ours_in_theirs_min'] * 100:.1f}%)",
            "report",
        ),
        (
            f"search at {t['documents']:,} documents ({t['source_mb']} MB of Markdown, 2-8 KB "
            f"each), {t['queries']} queries x {t['rounds']} rounds",
            f"bare FTS5 MATCH ORDER BY rank LIMIT 5: p95 {t['bare_p95_ms']} ms "
            f"(p50 {t['bare_p50_ms']} ms)",
            f"p95 **{t['p95_ms']} ms** (p50 {t['p50_ms']} ms, slowest {t['max_ms']} ms: "
            f"`{t['slowest_query']}`)",
            "p95 at most 50 ms",
        ),
        (
            "index bytes per source byte, PDFs",
            f"{p['source_mb']} MB of PDF",
            f"{p['index_per_source_byte']} ({mib(pb)}; {p['text_chars']:,} characters of text)",
            "report",
        ),
        (
            "index bytes per source byte, Markdown",
            f"{t['source_mb']} MB of Markdown",
            f"{t['index_per_source_byte']} ({mib(tb)})",
            "report",
        ),
        (
            f"indexing the {t['documents']:,} Markdown documents",
            "",
            f"{t['index_s']} s ({t['docs_per_s']} documents/s), CPU {t['index_cpu_s']} s",
            "report",
        ),
        (
            f"second reindex, nothing changed: {p['files']} PDFs",
            f"first reindex {p['reindex_s']} s, workers started {p['workers_started_first']}",
            f"{ps['ms']} ms; processes started {ps['processes_started']:g}, modules imported "
            f"{ps['modules_imported']:g}, children CPU {ps['children_cpu_s']:g} s, "
            f"pending {ps['pending']:g}",
            "at once, no worker",
        ),
        (
            f"second reindex, nothing changed: {t['documents']:,} Markdown files",
            f"first reindex {t['index_s']} s",
            f"{ts['ms']} ms; processes started {ts['processes_started']:g}",
            "at once, no worker",
        ),
        *memory_rows(memory),
    ]
    lines = [f"| {' | '.join(map(str, r))} |" for r in rows]
    return [lines[0], "| --- | --- | --- | --- |", *lines[1:]]


def write_readme(block: list[str]) -> None:
    text = README.read_text(encoding="utf-8")
    body = "\n".join([BEGIN, *block, END])
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + body + text[text.index(END) + len(END) :]
    else:
        text = text.rstrip() + "\n\n## Corpus: documents\n\n" + body + "\n"
    README.write_text(text, encoding="utf-8")


def profile_reindex(args: argparse.Namespace, tmp: Path) -> None:
    """pyinstrument of one fresh reindex of the PDFs (this process: walk, hash, write) and of
    the extractor alone (what a worker does)."""
    from pyinstrument import Profiler

    corpus = build_pdfs(args.shorts, args.long_pages).resolve()
    for title, work in (
        ("reindex, this process", lambda: _profiled_reindex(tmp, corpus)),
        ("extract_file in this process", lambda: extraction_alone(sorted(corpus.glob("*.pdf")))),
    ):
        profiler = Profiler(interval=0.001)
        profiler.start()
        work()
        profiler.stop()
        print(f"\n== pyinstrument: {title}\n")
        print(profiler.output_text(unicode=True, color=False, show_all=False))


def _profiled_reindex(tmp: Path, corpus: Path) -> None:
    with fresh_home(tmp) as ws:
        run_reindex(ws.desk_store, corpus)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--rounds", type=int, help="indexing rounds (default 5, quick 2)")
    parser.add_argument("--write-readme", action="store_true", help="rewrite the README section")
    parser.add_argument("--profile", action="store_true", help="pyinstrument one reindex")
    parser.add_argument("--before", help="a worktree of an older commit: its indexer beside")
    parser.add_argument("--memory-rounds", type=int, help="memory rounds (default 3, quick 1)")
    parser.add_argument("--only-memory", action="store_true", help="the memory rows alone")
    args = parser.parse_args()
    args.workers = indexer_workers()
    args.memory_rounds = args.memory_rounds or (1 if args.quick else 3)
    args.shorts, args.long_pages = (10, 60) if args.quick else (50, 300)
    args.docs = 1000 if args.quick else 10_000
    args.search_rounds = 2 if args.quick else 3
    args.rounds = args.rounds or (2 if args.quick else 5)
    load_before = os.getloadavg()
    starts = StartCounter()
    with tempfile.TemporaryDirectory(prefix="bench-corpus-") as name:
        tmp = Path(name)
        if args.profile:
            profile_reindex(args, tmp)
            return 0
        if args.only_memory:
            memory = bench_memory(args, tmp)
            load_after = os.getloadavg()
            print(f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
            for row in memory_rows(memory):
                print(" | ".join(row))
            print(json.dumps({"benchmark": "corpus-memory", "memory": memory}))
            return 0
        pdf = bench_pdfs(args, tmp, starts)
        text = bench_search(args, tmp, starts)
        memory = bench_memory(args, tmp)
    load_after = os.getloadavg()
    stamp = (
        f"Measured {date.today().isoformat()} on {os.cpu_count()} cores"
        f"{' (quick sizes)' if args.quick else ''}, Python {sys.version.split()[0]}; load "
        f"average {load_before[0]:.1f} before, {load_after[0]:.1f} after. "
        f"`python benchmarks/bench_corpus.py{' --quick' if args.quick else ''} --write-readme`"
    )
    rows = table(pdf, text, memory)
    print("\n".join([stamp, "", *rows]))
    print(json.dumps({"benchmark": "corpus", "pdf": pdf, "text": text, "memory": memory}))
    if args.write_readme:
        write_readme([stamp, "", *rows])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
