"""Full-text search of the corpus index: free text to a safe FTS5 query, ranked hits with a
snippet, one hit per document (its best page).

Words of scripts written without spaces (Chinese, Japanese) are found through the index's `cjk`
column of character bigrams (see storage/cjk_text.py). A search only reads: the index is
brought up to date before a run starts and by the window's watcher (index.py), never here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypedDict

from sqlalchemy import Connection

from agent_core.corpus.relevance import rerank
from agent_core.corpus.stop_words import SEARCH_STOP_WORDS
from agent_core.home.door import mask_incoming
from agent_core.storage import cjk_text
from agent_core.storage.tables import corpus as corpus_table

_WORD = re.compile(r"[\w']{2,}", re.UNICODE)
SNIPPET_SCAN_CHARS = 100_000
SNIPPET_CHARS = 180
POOL_FACTOR, MIN_POOL = 4, 20  # documents ranked again for each one returned


def query_terms(query: str) -> tuple[list[str], list[str]]:
    """(words, CJK grams) of free text: what a search looks for, at most 16 of each. Common
    English words are left out (stop_words.py), unless the query has nothing else."""
    latin = cjk_text.CJK_RUN.sub(" ", query.lower())
    words = [w.replace('"', "") for w in _WORD.findall(latin)]
    content = [w for w in words if w not in SEARCH_STOP_WORDS]
    return (content or words)[:16], cjk_text.query_grams(query)[:16]


def fts_query(query: str) -> str:
    """Free text -> a safe FTS5 query: each word quoted, any word may match (ranked by bm25).

    Chinese or Japanese text is searched by its character bigrams in the `cjk` column.
    """
    words, grams = query_terms(query)
    return " OR ".join([f'"{w}"' for w in words] + [f'cjk:"{g}"' for g in grams])


def fts_title_query(query: str) -> str:
    """The query's words, looked for in the title column only."""
    words, _grams = query_terms(query)
    return " OR ".join(f'title:"{w}"' for w in words)


class SearchHit(TypedDict):
    """One result of search_corpus, as the model reads it."""

    source_id: str
    title: str
    page: int | None
    """The best matching page (1-based) of a paged document; null for any other."""
    snippet: str
    score: float


def search(conn: Connection, root: Path, query: str, limit: int) -> list[SearchHit]:
    match = fts_query(query)
    if not match:
        return []
    words, grams = query_terms(query)
    # bm25 alone ranks by the rarest word ("belongs"), not by what the question is about:
    # a wider pool, with the documents whose title holds a query word, is ranked again
    # (relevance.py) by title, file name, headings and words standing together.
    pool = max(limit * POOL_FACTOR, MIN_POOL)
    found = corpus_table.search_documents(conn, str(root), match, pool, SNIPPET_SCAN_CHARS)
    title_match = fts_title_query(query)
    if title_match:
        known = {m.source_id for m in found}
        found += [
            m
            for m in corpus_table.search_documents(
                conn, str(root), title_match, pool, SNIPPET_SCAN_CHARS
            )
            if m.source_id not in known
        ]
    ranked = rerank(found, words, grams)[:limit]
    return [
        {
            "source_id": m.source_id,
            # Indexed before a key was known (another process): masked on the way out too.
            "title": mask_incoming(m.title),
            "page": m.page,
            "snippet": mask_incoming(make_snippet(m.head, words + grams)),
            "score": round(m.score, 4),
        }
        for m in ranked
    ]


def make_snippet(body: str, words: list[str]) -> str:
    """A short window of `body` around the first query word it contains (or its start)."""
    lowered = body.lower()
    positions = []
    for word in words:
        at = lowered.find(word)
        if at < 0 and len(word) > 5:
            at = lowered.find(word[:5])  # the index stems words: "checkpoints" ~ "checkpoint"
        if at >= 0:
            positions.append(at)
    start = max(0, min(positions) - SNIPPET_CHARS // 3) if positions else 0
    window = " ".join(body[start : start + SNIPPET_CHARS].split())
    prefix = "… " if start else ""
    suffix = " …" if start + SNIPPET_CHARS < len(body) else ""
    return prefix + window + suffix
