"""The search's second look: what a person would call the obvious document comes first.

FTS5's bm25 ranks a small corpus by its rarest query word: for "What belongs in an audit log
for agent actions?" the two documents that happen to say "belongs" outrank the one titled
"Audit Logs and Observability" (filed as `audit-logs-and-observability.txt`), because every
document of an agents corpus says "agent", "log" and "action". A candidate is therefore scored
again by the share of the query's words in its title and file name, in its headings, and by the
query's neighbouring words standing together in its text ("audit log"), added to its bm25
relative to the best candidate's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import PurePosixPath

from agent_core.storage.cjk_text import CJK_RUN
from agent_core.storage.tables.corpus import Match

TITLE_WEIGHT = 2.5  # every query word in the title or file name: 2.5 times the best bm25
HEADING_WEIGHT = 0.1  # headings repeat the body's words: a light touch (more hurt the docs suite)
TOGETHER_WEIGHT = 0.5
MIN_FOR_COMMON = 4  # candidates needed before a word in most titles is called common
NEAR_WORDS = 2  # "audit log", "audit and event log": at most this many words between
TOGETHER_SCAN_CHARS = 30_000
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_HEADING_LINE = re.compile(r"^#{1,6}\s+(.+)$", re.M)


@dataclass(frozen=True)
class Ranked:
    """A candidate of the search with its score (higher is better)."""

    source_id: str
    page: int | None
    title: str
    head: str
    score: float


def _stem(word: str) -> str:
    """Enough to compare "logs" with "log" and "actions" with "action" (the index stems by
    Porter; here only titles, names and headings are compared)."""
    word = word.lower()
    for suffix in ("ies", "es", "s", "ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)][:6]
    return word[:6]


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(CJK_RUN.sub(" ", text))}


def _share(terms: dict[str, float], text: str) -> float:
    """The weighted share of the query's terms (word stems, CJK grams) that `text` holds."""
    total = sum(terms.values())
    if not total:
        return 0.0
    stems = _stems(text)
    return sum(w for t, w in terms.items() if t in stems or t in text) / total


def _weights(words: list[str], grams: list[str], found: list[Match]) -> dict[str, float]:
    """Each query term counts once, except a term most candidates' titles hold ("sqlite" in
    an SQLite corpus): it tells none of them apart."""
    names = [f"{m.title} {_name(m.source_id)}" for m in found]
    stems = [_stems(n) for n in names]
    out: dict[str, float] = {}
    for term in [_stem(w) for w in words] + grams:
        held = sum(1 for n, s in zip(names, stems, strict=True) if term in s or term in n)
        out[term] = 0.0 if len(found) >= MIN_FOR_COMMON and held * 2 > len(found) else 1.0
    return out


def _name(source_id: str) -> str:
    return PurePosixPath(source_id).stem.replace("-", " ").replace("_", " ")


def _together(words: list[str], grams: list[str], text: str) -> float:
    """The share of the query's neighbouring word pairs that stand together in `text`."""
    pairs = [
        re.compile(
            rf"\b{re.escape(_stem(a))}\w*(?:\W+\w+){{0,{NEAR_WORDS}}}?\W+{re.escape(_stem(b))}",
            re.I,
        )
        for a, b in pairwise(words)
    ]
    phrases = [a + b[1:] for a, b in pairwise(grams) if a[1:] == b[:1]]
    if not pairs and not phrases:
        return 0.0
    scan = text[:TOGETHER_SCAN_CHARS]
    found = sum(1 for p in pairs if p.search(scan)) + sum(1 for p in phrases if p in scan)
    return found / (len(pairs) + len(phrases))


def rerank(found: list[Match], words: list[str], grams: list[str]) -> list[Ranked]:
    """`found` (bm25 order) ranked again, best first."""
    if not found:
        return []
    best = max(-m.rank for m in found) or 1.0
    weights = _weights(words, grams, found)
    scored: list[Ranked] = []
    for m in found:
        name = _name(m.source_id)
        headings = " ".join(_HEADING_LINE.findall(m.head))
        score = (
            -m.rank / best
            + TITLE_WEIGHT * _share(weights, f"{m.title} {name}")
            + HEADING_WEIGHT * _share(weights, headings)
            + TOGETHER_WEIGHT * _together(words, grams, m.head)
        )
        scored.append(Ranked(m.source_id, m.page, m.title, m.head, score))
    order = {m.source_id: i for i, m in enumerate(found)}
    scored.sort(key=lambda r: (-r.score, order[r.source_id]))
    return scored
