"""The FTS5 full-text indexes the migrations create by raw SQL (schema.py cannot describe them).

test_schema_drift.py leaves these tables out of its comparison; this is where they are held to
their shape (columns, which ones are searchable, tokenizer) and shown to work after upgrade.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection, text

from agent_core.home.config import Home
from agent_core.storage.migrate.home import open_store
from agent_core.storage.store import Store

# name -> (columns in order, searchable columns, the CREATE statement the app relies on)
FTS_TABLES = {
    "memories_fts": (
        ["memory_id", "value"],
        {"value"},
        "CREATE VIRTUAL TABLE memories_fts USING fts5(memory_id UNINDEXED, value)",
    ),
    # Since 0003: `cjk` holds the character bigrams of Chinese and Japanese text.
    "corpus_fts": (
        ["corpus_root", "source_id", "title", "body", "cjk"],
        {"title", "body", "cjk"},
        "CREATE VIRTUAL TABLE corpus_fts USING fts5(corpus_root UNINDEXED, source_id UNINDEXED, "
        "title, body, cjk, tokenize='porter unicode61')",
    ),
}
SHADOW_SUFFIXES = {"data", "idx", "content", "docsize", "config"}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(Home(tmp_path / "home").db_path)
    yield opened
    opened.dispose()


def _matches(conn: Connection, table: str, query: str, column: str) -> list[str]:
    rows = conn.execute(text(f"SELECT {column} FROM {table} WHERE {table} MATCH :q"), {"q": query})
    return sorted(str(value) for value in rows.scalars())


def test_fts_tables_exist_with_their_columns_and_tokenizer(store: Store) -> None:
    with store.read() as conn:
        listed = {
            str(row.name): str(row.type)
            for row in conn.exec_driver_sql("PRAGMA table_list").all()
            if str(row.name).startswith(tuple(FTS_TABLES))
        }
        for name, (columns, _, create_sql) in FTS_TABLES.items():
            assert listed.pop(name) == "virtual"
            sql = conn.execute(
                text("SELECT sql FROM sqlite_master WHERE name = :n"), {"n": name}
            ).scalar_one()
            assert sql == create_sql  # columns, UNINDEXED flags and tokenizer, as shipped
            info = conn.exec_driver_sql(f"PRAGMA table_info({name})").all()
            assert [str(row.name) for row in info] == columns
            for suffix in SHADOW_SUFFIXES:
                assert listed.pop(f"{name}_{suffix}") == "shadow"
        assert listed == {}  # nothing else hides under these names


def test_memories_fts_indexes_and_matches(store: Store) -> None:
    with store.write() as conn:
        conn.execute(
            text("INSERT INTO memories_fts(memory_id, value) VALUES (:i, :v)"),
            [
                {"i": "m1", "v": "Prefers briefs in British English"},
                {"i": "m2", "v": "Running the weekly report on Fridays"},
            ],
        )
    with store.read() as conn:
        assert _matches(conn, "memories_fts", "british", "memory_id") == ["m1"]
        assert _matches(conn, "memories_fts", "weekly AND fridays", "memory_id") == ["m2"]
        # unicode61 without porter: no stemming, so "run" does not find "Running".
        assert _matches(conn, "memories_fts", "run", "memory_id") == []
        # memory_id is stored, not indexed: searching it finds nothing.
        assert _matches(conn, "memories_fts", "m1", "memory_id") == []


def test_corpus_fts_stems_and_ranks(store: Store) -> None:
    rows = [
        ("/c", "a.md", "Checkpoints", "Runs resume from checkpoints after crashes."),
        ("/c", "b.md", "Approvals", "A person approves risky writes, then checkpoints follow."),
        ("/other", "a.md", "Checkpoints elsewhere", "Another corpus resuming runs."),
    ]
    with store.write() as conn:
        conn.execute(
            text(
                "INSERT INTO corpus_fts(corpus_root, source_id, title, body) "
                "VALUES (:r, :s, :t, :b)"
            ),
            [{"r": r, "s": s, "t": t, "b": b} for r, s, t, b in rows],
        )
    with store.read() as conn:
        # porter: "resuming", "resume" and "resumed" share a stem; "approving" finds "approves".
        assert _matches(conn, "corpus_fts", "resumed", "corpus_root") == ["/c", "/other"]
        assert _matches(conn, "corpus_fts", "approving", "source_id") == ["b.md"]
        assert _matches(conn, "corpus_fts", "title:checkpoint", "corpus_root") == ["/c", "/other"]
        # the research tool's query: one corpus root, best first (a.md has the word twice)
        ranked = conn.execute(
            text(
                "SELECT source_id FROM corpus_fts WHERE corpus_fts MATCH :m "
                "AND corpus_root = :r ORDER BY bm25(corpus_fts), source_id"
            ),
            {"m": "checkpoints", "r": "/c"},
        ).scalars()
        assert list(ranked) == ["a.md", "b.md"]
        # corpus_root is stored, not indexed.
        assert _matches(conn, "corpus_fts", "other", "source_id") == []


def test_corpus_fts_finds_chinese_and_japanese_words_by_their_bigrams(store: Store) -> None:
    from agent_core.corpus.index import fts_query
    from agent_core.storage.cjk_text import index_terms

    rows = [
        ("a.md", "检查点是运行状态的持久化快照。"),
        ("b.md", "审批请求必须设置有效期，过期按拒绝处理。"),
        ("c.md", "チェックポイントは実行の状態を保存します。"),
        ("d.md", "The runtime keeps a ledger of every side effect."),
    ]
    with store.write() as conn:
        conn.execute(
            text(
                "INSERT INTO corpus_fts(corpus_root, source_id, title, body, cjk) "
                "VALUES ('/c', :s, '', :b, :g)"
            ),
            [{"s": s, "b": b, "g": index_terms(b)} for s, b in rows],
        )
    with store.read() as conn:

        def found(query: str) -> list[str]:
            return _matches(conn, "corpus_fts", fts_query(query), "source_id")

        # Without the bigram column, unicode61 keeps a whole CJK clause as one token:
        assert _matches(conn, "corpus_fts", 'body:"检查点"', "source_id") == []
        assert found("检查点") == ["a.md"]  # a three-character word
        assert found("快照") == ["a.md"]  # a two-character word (trigrams would miss it)
        assert found("审批") == ["b.md"]
        assert found("期") == ["b.md"]  # a one-character query
        assert found("チェックポイント") == ["c.md"]  # Japanese katakana
        assert found("状态 ledger") == ["a.md", "d.md"]  # mixed scripts: any term may match
        assert found("幂等键") == []
