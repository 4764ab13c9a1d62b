"""Search over a large corpus document: FTS5 snippet() against BriefDesk's bounded snippet.

A corpus may hold a huge file (an attacker's or a log). FTS5's snippet() tokenizes every
matching document whole; BriefDesk ranks with bm25 in SQL and cuts the snippet from a bounded
prefix in Python. Both run side by side on the same index, as a ratio.

A Chinese document of the same size is then searched for a two-character word through the
`cjk` bigram column (migration 0003), side by side with the scan a substring search would need
(`instr(body, word)` over every row), and its indexing time is shown.

    python benchmarks/bench_search.py [--mb 2]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    from sqlalchemy import text

    from agent_core.corpus import search as research
    from agent_core.corpus.index import reindex
    from agent_core.facade.workspace import Workspace

    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=2.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        sentence = "Agents checkpoint durable work in a ledger. "
        (corpus / "big.md").write_text("# Big\n\n" + sentence * int(args.mb * 1e6 / len(sentence)))
        ws = Workspace(Path(tmp) / "home")
        reindex(ws.desk_store, corpus)
        match = research.fts_query("durable ledger")
        with ws.desk_store.read() as conn:
            started = time.perf_counter()
            conn.execute(
                text(
                    "SELECT snippet(corpus_fts, 1, '', '', ' … ', 24) FROM corpus_fts "
                    "JOIN corpus_pages AS p ON p.id = corpus_fts.rowid "
                    "WHERE corpus_fts MATCH :m AND p.corpus_root = :r LIMIT 5"
                ),
                {"m": match, "r": str(corpus)},
            ).all()
            fts_snippet = time.perf_counter() - started
            started = time.perf_counter()
            research.search(conn, corpus, "durable ledger", 5)
            ours = time.perf_counter() - started
        ws.close()
    print("| document | FTS5 snippet() | BriefDesk search | ratio |")
    print("| --- | --- | --- | --- |")
    ratio = fts_snippet / ours
    print(f"| {args.mb:g} MB | {fts_snippet * 1000:.0f} ms | {ours * 1000:.1f} ms | {ratio:.0f}x |")
    _chinese(args.mb)


def _chinese(mb: float) -> None:
    from sqlalchemy import text

    from agent_core.corpus import search as research
    from agent_core.corpus.index import reindex
    from agent_core.facade.workspace import Workspace

    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        sentence = "检查点把运行状态写入账本，崩溃以后从最近的记录继续。"
        count = int(mb * 1e6 / len(sentence.encode()))
        (corpus / "big.zh.md").write_text("# 大文档\n\n" + sentence * count, encoding="utf-8")
        for i in range(50):  # other documents, so the scan has rows to read
            (corpus / f"d{i}.zh.md").write_text(f"# 文档{i}\n\n{sentence * 200}", encoding="utf-8")
        ws = Workspace(Path(tmp) / "home")
        started = time.perf_counter()
        reindex(ws.desk_store, corpus)
        indexed = time.perf_counter() - started
        with ws.desk_store.read() as conn:
            started = time.perf_counter()
            hits = research.search(conn, corpus, "账本", 5)
            ours = time.perf_counter() - started
            started = time.perf_counter()
            conn.execute(
                text(
                    "SELECT source_id FROM corpus_pages "
                    "WHERE instr(body, :w) > 0 AND corpus_root = :r"
                ),
                {"w": "账本", "r": str(corpus)},
            ).all()
            scan = time.perf_counter() - started
        ws.close()
    assert hits, "the bigram index found nothing"
    print()
    print("| Chinese corpus | index (reindex) | bigram search | unranked substring scan | ratio |")
    print("| --- | --- | --- | --- | --- |")
    print(
        f"| {mb:g} MB + 50 docs | {indexed * 1000:.0f} ms | {ours * 1000:.1f} ms "
        f"| {scan * 1000:.1f} ms | {scan / ours:.1f}x |"
    )


if __name__ == "__main__":
    main()
