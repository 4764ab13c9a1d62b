"""The corpus index: `corpus_docs` (each file as indexed: size, mtime, hash, status, error),
`corpus_pages` (its text: one row per page of a paged document, page 0 for any other) and
their SQLite FTS5 index `corpus_fts` (external content over `corpus_pages`, with the `cjk`
column of character bigrams, see cjk_text.py).

The full-text half exists only in a desk's own SQLite home (migrations 0002, 0009): a team
database has no corpus. Rows are keyed by the corpus root (its resolved path as text) and the
document's source id.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import (
    ColumnElement,
    Connection,
    Row,
    and_,
    delete,
    func,
    insert,
    select,
    text,
    update,
)

from agent_core.storage import cjk_text
from agent_core.storage.schema import corpus_docs, corpus_pages

# External content: the index forgets a row only when told its old values, read back here.
_FORGET_FTS = text(
    "INSERT INTO corpus_fts(corpus_fts, rowid, title, body, cjk) "
    "SELECT 'delete', id, title, body, cjk FROM corpus_pages "
    "WHERE corpus_root = :r AND source_id = :s"
)
_INDEX_FTS = text(
    "INSERT INTO corpus_fts(rowid, title, body, cjk) "
    "SELECT id, title, body, cjk FROM corpus_pages WHERE corpus_root = :r AND source_id = :s"
)
# FTS5's snippet() tokenizes whole documents (tens of seconds on a 2 MB one): rank with bm25
# here, return a bounded head, and let the caller cut the snippet from it. FTS5 ranks inside
# the index first (its `ORDER BY rank LIMIT` is the fast path); only those few rows are joined
# to their pages, filtered to one corpus root and kept once per document (search_documents).
_SEARCH = text(
    "SELECT p.corpus_root, p.source_id, p.page, p.title,"
    " CASE WHEN p.corpus_root = :r THEN substr(p.body, 1, :scan) END AS head, hit.rank"
    " FROM (SELECT rowid, rank FROM corpus_fts WHERE corpus_fts MATCH :m"
    " ORDER BY rank LIMIT :k) AS hit"
    " JOIN corpus_pages AS p ON p.id = hit.rowid ORDER BY hit.rank, p.source_id, p.page"
)


@dataclass(frozen=True)
class IndexedFile:
    """What the index knows of a file: enough to tell whether it changed since."""

    mtime_ns: int
    size: int
    sha256: str
    """Of the file's bytes."""


@dataclass(frozen=True)
class IndexedDocument:
    """A document's text as it goes into the index."""

    source_id: str
    doc_type: str
    title: str
    file: IndexedFile
    sections: tuple[str, ...]
    """One text per page of a paged document (page N is sections[N-1]); one for any other."""
    paged: bool
    hidden_removed: int = 0
    """Runs of hidden text the extractor left out."""
    ocr_pages: int = 0
    """Pages whose text OCR read."""


@dataclass(frozen=True)
class DocumentRow:
    """One document as `corpus list` shows it."""

    source_id: str
    doc_type: str
    title: str
    file: IndexedFile
    status: str
    pages: int | None
    chars: int | None
    error_code: str | None
    error_message: str | None
    hidden_removed: int = 0
    ocr_pages: int = 0


@dataclass(frozen=True)
class Match:
    source_id: str
    page: int | None
    """1-based page of a paged document; None for any other."""
    title: str
    head: str
    """The page's (or document's) first `scan_chars` characters."""
    rank: float
    """bm25: lower is better."""


def _doc(root: str, source_id: str) -> ColumnElement[bool]:
    return and_(corpus_docs.c.corpus_root == root, corpus_docs.c.source_id == source_id)


def indexed_files(conn: Connection, root: str) -> dict[str, IndexedFile]:
    """Source id -> what the index holds of it (indexed or failed), for the corpus at `root`."""
    c = corpus_docs.c
    rows = conn.execute(
        select(c.source_id, c.mtime_ns, c.size, c.sha256).where(c.corpus_root == root)
    )
    return {r.source_id: IndexedFile(r.mtime_ns, r.size, r.sha256) for r in rows}


def _row(r: Row[tuple[object, ...]]) -> DocumentRow:
    return DocumentRow(
        r.source_id,
        r.doc_type,
        r.title,
        IndexedFile(r.mtime_ns, r.size, r.sha256),
        r.status,
        r.pages,
        r.chars,
        r.error_code,
        r.error_message,
        r.hidden_removed,
        r.ocr_pages,
    )


def document_rows(conn: Connection, root: str) -> dict[str, DocumentRow]:
    rows = conn.execute(select(corpus_docs).where(corpus_docs.c.corpus_root == root))
    return {r.source_id: _row(r) for r in rows}


def document_row(conn: Connection, root: str, source_id: str) -> DocumentRow | None:
    found = conn.execute(select(corpus_docs).where(_doc(root, source_id))).first()
    return _row(found) if found is not None else None


def _forget(conn: Connection, root: str, source_id: str) -> None:
    conn.execute(_FORGET_FTS, {"r": root, "s": source_id})
    conn.execute(
        delete(corpus_pages).where(
            corpus_pages.c.corpus_root == root, corpus_pages.c.source_id == source_id
        )
    )
    conn.execute(delete(corpus_docs).where(_doc(root, source_id)))


def put_document(conn: Connection, root: str, doc: IndexedDocument) -> None:
    """Index `doc`, replacing whatever the index held under its source id."""
    _forget(conn, root, doc.source_id)
    conn.execute(
        insert(corpus_docs).values(
            corpus_root=root,
            source_id=doc.source_id,
            title=doc.title,
            mtime_ns=doc.file.mtime_ns,
            size=doc.file.size,
            sha256=doc.file.sha256,
            doc_type=doc.doc_type,
            pages=len(doc.sections) if doc.paged else None,
            chars=sum(len(s) for s in doc.sections),
            status="indexed",
            hidden_removed=doc.hidden_removed,
            ocr_pages=doc.ocr_pages,
        )
    )
    conn.execute(
        insert(corpus_pages),
        [
            {
                "corpus_root": root,
                "source_id": doc.source_id,
                "page": number if doc.paged else 0,
                "title": doc.title,
                "body": body,
                # The title once, on the first page: a search for it finds the document.
                "cjk": cjk_text.index_terms((doc.title + "\n" if number == 1 else "") + body),
            }
            for number, body in enumerate(doc.sections, start=1)
        ],
    )
    conn.execute(_INDEX_FTS, {"r": root, "s": doc.source_id})


def put_failure(
    conn: Connection,
    root: str,
    source_id: str,
    doc_type: str,
    file: IndexedFile,
    code: str,
    message: str,
) -> None:
    """Record that `source_id` could not be read as it is now (retried when it changes)."""
    _forget(conn, root, source_id)
    conn.execute(
        insert(corpus_docs).values(
            corpus_root=root,
            source_id=source_id,
            title="",
            mtime_ns=file.mtime_ns,
            size=file.size,
            sha256=file.sha256,
            doc_type=doc_type,
            status="failed",
            error_code=code,
            error_message=message,
        )
    )


def touch_document(conn: Connection, root: str, source_id: str, file: IndexedFile) -> None:
    """The file was touched (or copied back) with the same bytes: only its stat changes."""
    conn.execute(
        update(corpus_docs)
        .where(_doc(root, source_id))
        .values(mtime_ns=file.mtime_ns, size=file.size)
    )


def drop_document(conn: Connection, root: str, source_id: str) -> None:
    _forget(conn, root, source_id)


def search_documents(
    conn: Connection, root: str, match: str, limit: int, scan_chars: int
) -> list[Match]:
    """The best `limit` documents for the FTS5 query `match` (each by its best page), best
    first."""
    scan = limit * 4
    while True:
        params = {"m": match, "r": root, "k": scan, "scan": scan_chars}
        rows = conn.execute(_SEARCH, params).all()
        best: dict[str, Match] = {}
        for r in rows:
            if r.corpus_root == root and r.source_id not in best:
                best[r.source_id] = Match(
                    r.source_id, r.page or None, r.title, r.head, float(r.rank)
                )
        # Fewer documents than asked while the index had more matches (pages of one long
        # document, other corpus roots' documents): look further.
        if len(best) >= limit or len(rows) < scan:
            return list(best.values())[:limit]
        scan *= 4


def page_texts(
    conn: Connection, root: str, source_id: str, first: int, last: int
) -> list[tuple[int, str]]:
    """(page, text) of pages `first`..`last` of a document (page 0: an unpaged one's text)."""
    p = corpus_pages.c
    rows = conn.execute(
        select(p.page, p.body)
        .where(p.corpus_root == root, p.source_id == source_id, p.page.between(first, last))
        .order_by(p.page)
    )
    return [(r.page, r.body) for r in rows]


def text_bytes(conn: Connection, root: str) -> int:
    """Characters of text the index holds for `root` (what `corpus_pages` stores)."""
    p = corpus_pages.c
    found = conn.execute(
        select(func.coalesce(func.sum(func.length(p.body) + func.length(p.cjk)), 0)).where(
            p.corpus_root == root
        )
    ).scalar_one()
    return int(found)
