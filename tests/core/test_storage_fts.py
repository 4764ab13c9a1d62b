"""The FTS5 full-text indexes the migrations create by raw SQL (schema.py cannot describe them).

test_schema_drift.py leaves these tables out of its comparison; this is where they are held to
their shape (columns, which ones are searchable, tokenizer) and shown to work after upgrade.
Since 0009 `corpus_fts` is an external-content index over `corpus_pages`: it is written only
through agent_core.storage.tables.corpus, which must keep the two in step.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection, text

from agent_core.corpus.search import fts_query
from agent_core.home.config import Home
from agent_core.storage.migrate.home import open_store
from agent_core.storage.store import Store
from agent_core.storage.tables import corpus as corpus_table
from agent_core.storage.tables.corpus import IndexedDocument, IndexedFile

# name -> (columns in order, the CREATE statement the app relies on, its shadow tables)
FTS_TABLES = {
    "memories_fts": (
        ["memory_id", "value"],
        "CREATE VIRTUAL TABLE memories_fts USING fts5(memory_id UNINDEXED, value)",
        {"data", "idx", "content", "docsize", "config"},
    ),
    # Since 0009: the text lives once, in corpus_pages (no `_content` shadow table); `cjk`
    # holds the character bigrams of Chinese and Japanese text (since 0003).
    "corpus_fts": (
        ["title", "body", "cjk"],
        "CREATE VIRTUAL TABLE corpus_fts USING fts5(title, body, cjk, content='corpus_pages', "
        "content_rowid='id', tokenize='porter unicode61')",
        {"data", "idx", "docsize", "config"},
    ),
}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(Home(tmp_path / "home").db_path)
    yield opened
    opened.dispose()


def _matches(conn: Connection, table: str, query: str, column: str) -> list[str]:
    rows = conn.execute(text(f"SELECT {column} FROM {table} WHERE {table} MATCH :q"), {"q": query})
    return sorted(str(value) for value in rows.scalars())


def _put(
    conn: Connection, root: str, source_id: str, title: str, *sections: str, paged: bool = False
) -> None:
    file = IndexedFile(mtime_ns=1, size=sum(len(s) for s in sections), sha256=source_id)
    doc = IndexedDocument(source_id, source_id.rsplit(".", 1)[-1], title, file, sections, paged)
    corpus_table.put_document(conn, root, doc)


def _found(conn: Connection, root: str, match: str) -> list[str]:
    """Source ids `search_documents` returns for the FTS5 query `match`, best first."""
    return [m.source_id for m in corpus_table.search_documents(conn, root, match, 20, 1000)]


def _integrity_check(conn: Connection) -> None:
    """FTS5's own check that the index holds exactly what corpus_pages holds (raises if not)."""
    conn.execute(text("INSERT INTO corpus_fts(corpus_fts) VALUES ('integrity-check')"))


def test_fts_tables_exist_with_their_columns_and_tokenizer(store: Store) -> None:
    with store.read() as conn:
        listed = {
            str(row.name): str(row.type)
            for row in conn.exec_driver_sql("PRAGMA table_list").all()
            if str(row.name).startswith(tuple(FTS_TABLES))
        }
        for name, (columns, create_sql, shadows) in FTS_TABLES.items():
            assert listed.pop(name) == "virtual"
            sql = conn.execute(
                text("SELECT sql FROM sqlite_master WHERE name = :n"), {"n": name}
            ).scalar_one()
            assert sql == create_sql  # columns, UNINDEXED flags, content table and tokenizer
            info = conn.exec_driver_sql(f"PRAGMA table_info({name})").all()
            assert [str(row.name) for row in info] == columns
            for suffix in shadows:
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


def test_corpus_fts_stems_and_ranks_within_one_corpus_root(store: Store) -> None:
    with store.write() as conn:
        _put(conn, "/c", "a.md", "Checkpoints", "Runs resume from checkpoints after crashes.")
        _put(conn, "/c", "b.md", "Approvals", "A person approves risky writes, then checkpoints.")
        _put(conn, "/other", "a.md", "Checkpoints elsewhere", "Another corpus resuming runs.")
    with store.read() as conn:
        # porter: "resuming", "resume" and "resumed" share a stem; "approving" finds "approves".
        assert _found(conn, "/c", "resumed") == ["a.md"]
        assert _found(conn, "/other", "resumed") == ["a.md"]
        assert _found(conn, "/c", "approving") == ["b.md"]
        assert _found(conn, "/c", "title:checkpoint") == ["a.md"]
        # one corpus root, best first (a.md has the word in its title and its body)
        assert _found(conn, "/c", "checkpoints") == ["a.md", "b.md"]
        assert _found(conn, "/c", fts_query("checkpoints")) == ["a.md", "b.md"]
        # the corpus root and the source id are not in the index: searching them finds nothing
        assert _found(conn, "/c", "other") == [] and _found(conn, "/other", "md") == []
        _integrity_check(conn)


def test_replacing_or_dropping_a_document_leaves_no_stale_words(store: Store) -> None:
    """External content: the index forgets a row only when told its old values."""
    with store.write() as conn:
        _put(conn, "/c", "a.md", "Alpha", "zebracorn grazing")
        _put(conn, "/c", "b.md", "Beta", "zebracorn again")
    with store.write() as conn:
        _put(conn, "/c", "a.md", "Alpha", "nothing left here")
        corpus_table.drop_document(conn, "/c", "b.md")
    with store.read() as conn:
        assert _found(conn, "/c", "zebracorn") == []
        assert _found(conn, "/c", "nothing") == ["a.md"]
        assert corpus_table.page_texts(conn, "/c", "b.md", 0, 99) == []
        _integrity_check(conn)


def test_a_paged_document_is_found_by_its_best_page(store: Store) -> None:
    with store.write() as conn:
        _put(
            conn,
            "/c",
            "h.pdf",
            "Handbook",
            "Page one is about zebracorn.",
            "Page two: quokka, quokka and quokka.",
            "Page three names a quokka once.",
            paged=True,
        )
        _put(conn, "/c", "n.md", "Notes", "A quokka note.")
    with store.read() as conn:
        matches = corpus_table.search_documents(conn, "/c", fts_query("quokka"), 10, 1000)
        pages = {m.source_id: m.page for m in matches}
        assert pages == {"h.pdf": 2, "n.md": None}  # one hit per document; page 0 reads None
        assert corpus_table.page_texts(conn, "/c", "h.pdf", 2, 3) == [
            (2, "Page two: quokka, quokka and quokka."),
            (3, "Page three names a quokka once."),
        ]
        assert corpus_table.page_texts(conn, "/c", "n.md", 0, 0) == [(0, "A quokka note.")]


def test_corpus_fts_finds_chinese_and_japanese_words_by_their_bigrams(store: Store) -> None:
    rows = [
        ("a.md", "检查点是运行状态的持久化快照。"),
        ("b.md", "审批请求必须设置有效期，过期按拒绝处理。"),
        ("c.md", "チェックポイントは実行の状態を保存します。"),
        ("d.md", "The runtime keeps a ledger of every side effect."),
    ]
    with store.write() as conn:
        for source_id, body in rows:
            _put(conn, "/c", source_id, "", body)
    with store.read() as conn:

        def found(query: str) -> list[str]:
            return sorted(_found(conn, "/c", fts_query(query)))

        # Without the bigram column, unicode61 keeps a whole CJK clause as one token:
        assert _found(conn, "/c", 'body:"检查点"') == []
        assert found("检查点") == ["a.md"]  # a three-character word
        assert found("快照") == ["a.md"]  # a two-character word (trigrams would miss it)
        assert found("审批") == ["b.md"]
        assert found("期") == ["b.md"]  # a one-character query
        assert found("チェックポイント") == ["c.md"]  # Japanese katakana
        assert found("状态 ledger") == ["a.md", "d.md"]  # mixed scripts: any term may match
        assert found("幂等键") == []
