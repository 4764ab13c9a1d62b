"""The corpus index: `corpus_docs` (what was indexed, by size and mtime) and its SQLite FTS5
twin `corpus_fts` (title, body and the `cjk` column of character bigrams, see cjk_text.py).

Both exist only in a desk's own SQLite home (migration 0002): a team database has no corpus.
Rows are keyed by the corpus root (its resolved path as text) and the document's source id.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, delete, insert, select, text, update

from agent_core.storage import cjk_text
from agent_core.storage.schema import corpus_docs

_DELETE_FTS = text("DELETE FROM corpus_fts WHERE corpus_root = :r AND source_id = :s")
_INSERT_FTS = text(
    "INSERT INTO corpus_fts(corpus_root, source_id, title, body, cjk) VALUES (:r, :s, :t, :b, :c)"
)
# FTS5's snippet() tokenizes whole documents (tens of seconds on a 2 MB one): rank with bm25
# here, return a bounded head, and let the caller cut the snippet from it.
_SEARCH = text(
    "SELECT source_id, title, substr(body, 1, :scan) AS head, "
    "bm25(corpus_fts) AS rank FROM corpus_fts "
    "WHERE corpus_fts MATCH :m AND corpus_root = :r ORDER BY rank, source_id LIMIT :n"
)


@dataclass(frozen=True)
class IndexedFile:
    """What the index knows of a file: enough to tell whether it changed since."""

    mtime_ns: int
    size: int


@dataclass(frozen=True)
class IndexedDocument:
    source_id: str
    title: str
    body: str
    mtime_ns: int
    size: int
    sha256: str


@dataclass(frozen=True)
class Match:
    source_id: str
    title: str
    head: str
    """The body's first `scan_chars` characters."""
    rank: float
    """bm25: lower is better."""


def indexed_files(conn: Connection, root: str) -> dict[str, IndexedFile]:
    """Source id -> what the index holds of it, for the corpus at `root`."""
    rows = conn.execute(
        select(corpus_docs.c.source_id, corpus_docs.c.mtime_ns, corpus_docs.c.size).where(
            corpus_docs.c.corpus_root == root
        )
    )
    return {r.source_id: IndexedFile(r.mtime_ns, r.size) for r in rows}


def put_document(conn: Connection, root: str, doc: IndexedDocument, *, known: bool) -> None:
    """Index `doc` (`known`: it was indexed before, so its rows are replaced)."""
    values = {"title": doc.title, "mtime_ns": doc.mtime_ns, "size": doc.size, "sha256": doc.sha256}
    if known:
        conn.execute(
            update(corpus_docs)
            .where(corpus_docs.c.corpus_root == root, corpus_docs.c.source_id == doc.source_id)
            .values(**values)
        )
        conn.execute(_DELETE_FTS, {"r": root, "s": doc.source_id})
    else:
        conn.execute(
            insert(corpus_docs).values(corpus_root=root, source_id=doc.source_id, **values)
        )
    conn.execute(
        _INSERT_FTS,
        {
            "r": root,
            "s": doc.source_id,
            "t": doc.title,
            "b": doc.body,
            "c": cjk_text.index_terms(doc.title + "\n" + doc.body),
        },
    )


def drop_document(conn: Connection, root: str, source_id: str) -> None:
    conn.execute(
        delete(corpus_docs).where(
            corpus_docs.c.corpus_root == root, corpus_docs.c.source_id == source_id
        )
    )
    conn.execute(_DELETE_FTS, {"r": root, "s": source_id})


def search_documents(
    conn: Connection, root: str, match: str, limit: int, scan_chars: int
) -> list[Match]:
    """The best `limit` documents for the FTS5 query `match`, best first."""
    rows = conn.execute(_SEARCH, {"m": match, "r": root, "n": limit, "scan": scan_chars})
    return [Match(r.source_id, r.title, r.head, float(r.rank)) for r in rows]
