"""The offline model's brief: query-focused, extractive, cited, and a pure function of its input.

1. Every prose sentence of the documents read is a candidate, except those that speak to the
   assistant or order it to act (instructions.py): those are never quoted.
2. Candidates are scored by BM25 against the question's terms (the sentence itself), plus a
   share for question terms in the document's title and the sentence's heading (its context),
   a bonus for a paragraph's first sentence, a bonus for one whose subject is a rare term of
   the question (more when it says what the term is or means: "Atomic commit means ..."), and
   a mild prior for the document's search rank. A sentence must share a term with the question.
3. Maximal marginal relevance picks the points among those scoring at least a fifth of the
   best: each next point is the most relevant one that repeats least of what is already
   picked (a near-duplicate is never picked), so three points never say the same thing. When
   all come from one document, the best sentence of another one that shares a term with the
   question joins them: at least two sources whenever the documents read allow it.
4. The best points make a one-paragraph answer; the rest are key points, grouped by source in
   document order; then what the documents read leave open, then the sources.

A reviewer's change request (review_notes.py) reaches here as `focus` (named points: their
terms join the question's, and sentences that use them rank first) and as tighter limits on
points and open questions (a shorter brief); the note's own words are never quoted.

Headings follow the question's script: a question in Chinese gets a brief in Chinese (the
quoted sentences are the documents' own, so their language is the corpus's).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from agent_core.corpus.pages import citation
from agent_core.models.brief_text import BriefText, question_words, text_for
from agent_core.models.instructions import is_instruction
from agent_core.models.sentences import Sentence, document_sentences, terms

MAX_POINTS = 8
ANSWER_SENTENCES = 2
MAX_WORDS = 600  # the points' words: the brief stays well under 800
MAX_BRIEF_WORDS = 800  # the whole brief, open questions and sources included, stays under
MIN_RELATIVE_SCORE = 0.2
CONTEXT_WEIGHT = 0.5  # a title or heading match counts half as much as one in the sentence
DOC_RANK_DECAY = 0.1  # the search's order of the documents, as a mild prior
LEAD_BONUS = 1.2  # a paragraph's first sentence usually states what the paragraph is about
MMR_LAMBDA = 0.7
NEAR_DUPLICATE = 0.6
BM25_K1, BM25_B = 1.2, 0.75
FOCUS_BOOST = 3.0  # a sentence on a point the reviewer named outranks the question's others
SUBJECT_BONUS = 0.8  # at most: a sentence whose subject is the question's rarest term
DEFINITION_BONUS = 0.6  # and more when it says what that term is or means


@dataclass(frozen=True)
class SourceDoc:
    """A document the model read: its source id, title and text."""

    source_id: str
    title: str
    body: str


@dataclass(frozen=True)
class Unread:
    """A search hit the model did not read (named under open questions)."""

    source_id: str
    title: str


@dataclass(frozen=True)
class Candidate:
    sentence: Sentence
    terms: Counter[str]
    relevance: float


def _idf(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def rank_sentences(
    question: str, docs: list[SourceDoc], focus: tuple[str, ...] = ()
) -> list[Candidate]:
    """Every relevant, non-instruction sentence of `docs`, best first (ties: reading order);
    sentences on a `focus` point first."""
    focus_terms = {t for point in focus for t in terms(point)}
    query = list(dict.fromkeys([*terms(question), *sorted(focus_terms)]))
    pool = [
        (s, Counter(terms(s.text)), set(terms(doc.title + " " + s.heading)))
        for rank, doc in enumerate(docs)
        for s in document_sentences(doc.source_id, rank, doc.body)
        if not is_instruction(s.text)
    ]
    if not pool or not query:
        return []
    n = len(pool)
    avg_len = sum(sum(c.values()) for _, c, _ in pool) / n or 1.0
    idf = {t: _idf(n, sum(1 for _, c, _ in pool if t in c)) for t in query}
    subjects = _subject_weights(idf, docs)
    scored: list[Candidate] = []
    for sentence, counts, context in pool:
        length = sum(counts.values())
        own = sum(
            idf[t]
            * counts[t]
            * (BM25_K1 + 1)
            / (counts[t] + BM25_K1 * (1 - BM25_B + BM25_B * length / avg_len))
            for t in query
            if counts[t]
        )
        if own <= 0:
            continue  # shares no term with the question
        ctx = CONTEXT_WEIGHT * sum(idf[t] for t in query if t in context)
        prior = (LEAD_BONUS if sentence.lead else 1.0) / (1 + DOC_RANK_DECAY * sentence.doc_rank)
        if focus_terms & counts.keys():
            prior *= FOCUS_BOOST
        prior *= _about(sentence.text, subjects)
        scored.append(Candidate(sentence, counts, (own + ctx) * prior))
    scored.sort(key=lambda c: (-c.relevance, c.sentence.doc_rank, c.sentence.position))
    return scored


# "Atomic commit means ...", "A hot journal is a ...", "The VACUUM command rebuilds ...": a
# sentence that opens with a term of the question is about it, and one whose subject (its first
# words) goes on to say what it is or means defines it: what a person would underline.
_OPENING = re.compile(r"^(?:(?:A|An|The)\s+)?([^\W\d_][\w-]*)((?:\s+[\w-]+){0,5})")
# "... was created to address these concerns", "... is documented here": it leans on what is
# around it, so no one underlines it alone.
_POINTING = re.compile(r"\b(?:these|those|here|above|below)\b", re.I)
_DEFINES = re.compile(
    r"^(?:\s+[\w-]+){0,3}?\s+(?:(?:is|are)\s+(?:a|an|the|one|said|like)|means?|refers|denotes)\b",
    re.I,
)


def _subject_weights(idf: dict[str, float], docs: list[SourceDoc]) -> dict[str, float]:
    """Each question term as a sentence's subject, 0-1: by how rare it is among the sentences,
    and none for a term most titles of the documents read hold ("SQLite" in SQLite's manual:
    the corpus's name, not what the question asks about)."""
    rarest = max(idf.values(), default=0.0) or 1.0
    titles = [set(terms(d.title)) for d in docs]
    return {
        t: 0.0
        if len(docs) >= 2 and 2 * sum(t in title for title in titles) > len(docs)
        else (w / rarest) ** 2
        for t, w in idf.items()
    }


def _about(text: str, subjects: dict[str, float]) -> float:
    """The bonus of a sentence whose subject is a term of the question (`subjects`' weight),
    more when it defines that term."""
    opening = _OPENING.match(text)
    lead = terms(opening.group(1)) if opening else []
    if not opening or not lead or not subjects.get(lead[0]) or _POINTING.search(text):
        return 1.0
    defines = bool(_DEFINES.match(opening.group(2)))
    return 1.0 + (SUBJECT_BONUS + (DEFINITION_BONUS if defines else 0.0)) * subjects[lead[0]]


def _cosine(a: Counter[str], b: Counter[str]) -> float:
    dot = sum(v * b[t] for t, v in a.items() if t in b)
    if not dot:
        return 0.0
    return dot / math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))


def select_points(ranked: list[Candidate], limit: int = MAX_POINTS) -> list[Candidate]:
    """Maximal marginal relevance over the candidates scoring at least a fifth of the best one,
    then at least two sources when another document shares a term with the question (every
    candidate does: rank_sentences keeps no sentence that shares none)."""
    if not ranked:
        return []
    top = ranked[0].relevance
    picked: list[Candidate] = []
    left = [c for c in ranked if c.relevance >= MIN_RELATIVE_SCORE * top]
    while left and len(picked) < limit:
        best: tuple[float, int] | None = None
        for i, c in enumerate(left):
            overlap = max((_cosine(c.terms, p.terms) for p in picked), default=0.0)
            if overlap >= NEAR_DUPLICATE:
                continue
            value = MMR_LAMBDA * c.relevance / top - (1 - MMR_LAMBDA) * overlap
            if best is None or value > best[0]:
                best = (value, i)
        if best is None:
            break
        picked.append(left.pop(best[1]))
    sources = {c.sentence.source_id for c in picked}
    other = next((c for c in ranked if c.sentence.source_id not in sources), None)
    if len(sources) < 2 and other is not None:
        if len(picked) >= limit:
            picked.pop()
        picked.append(other)
    return picked


def _cited(c: Candidate) -> str:
    return f"{c.sentence.text} {citation(c.sentence.source_id, c.sentence.page)}"


def _within_words(points: list[Candidate], budget: int) -> list[Candidate]:
    kept: list[Candidate] = []
    used = 0
    for c in points:
        words = len(c.sentence.text.split()) + sum(1 for ch in c.sentence.text if ord(ch) > 0x2E80)
        if kept and used + words > budget:
            break
        kept.append(c)
        used += words
    return kept


def open_questions(
    question: str,
    audience: str | None,
    docs: list[SourceDoc],
    points: list[Candidate],
    unread: list[Unread],
    t: BriefText,
) -> list[str]:
    """What the documents read leave open: question words they never use, a single source,
    and search hits that were not read."""
    known = {term for d in docs for term in terms(d.title + " " + d.body)}
    lines = [
        t.not_mentioned(word)
        for word in question_words(question, audience)
        if not set(terms(word)) & known
    ][:3]
    if len({c.sentence.source_id for c in points}) == 1:
        lines.append(t.one_source)
    lines += [t.not_read(u.source_id, u.title) for u in unread[:3]]
    return lines or [t.nothing_open]


def compose_brief(
    question: str,
    docs: list[SourceDoc],
    audience: str | None,
    unread: list[Unread] | None = None,
    *,
    focus: tuple[str, ...] = (),
    max_points: int = MAX_POINTS,
    max_open: int | None = None,
) -> str:
    """The brief's Markdown: answer paragraph, key points, open questions, sources.

    `focus`, `max_points` and `max_open` (open questions listed) follow a reviewer's notes."""
    t = text_for(question)
    ranked = rank_sentences(question, docs, focus)
    points = _within_words(select_points(ranked, max_points), MAX_WORDS)
    while True:
        brief = _render(question, docs, audience, unread or [], points, focus, max_open, t)
        if len(points) <= ANSWER_SENTENCES or _words(brief) < MAX_BRIEF_WORDS:
            return brief
        points = points[:-1]  # the least relevant key point goes first


def _words(text: str) -> int:
    return len(text.split()) + sum(1 for ch in text if ord(ch) > 0x2E80)


def _render(
    question: str,
    docs: list[SourceDoc],
    audience: str | None,
    unread: list[Unread],
    points: list[Candidate],
    focus: tuple[str, ...],
    max_open: int | None,
    t: BriefText,
) -> str:
    """The brief's Markdown: the answer paragraph is the best points (the sentences that
    answer the question), then the rest grouped by source in document order."""
    answer, rest = points[:ANSWER_SENTENCES], points[ANSWER_SENTENCES:]
    order = {sid: i for i, sid in enumerate(dict.fromkeys(c.sentence.source_id for c in points))}
    rest.sort(key=lambda c: (order[c.sentence.source_id], c.sentence.position))
    lines = [t.title(question), ""]
    if audience:
        lines += [t.audience(audience), ""]
    lines += [t.answer_heading, ""]
    lines.append(" ".join(_cited(c) for c in answer) if answer else t.nothing_found)
    if rest:
        lines += ["", t.key_points_heading, ""]
        lines += [f"- {_cited(c)}" for c in rest]
    lines += ["", t.open_heading, ""]
    asked = " ".join([question, *focus])  # a named point the documents lack is said so
    left_open = open_questions(asked, audience, docs, points, unread, t)
    lines += [f"- {line}" for line in left_open[:max_open]]
    lines += ["", t.sources_heading, ""]
    titles = {d.source_id: d.title or d.source_id for d in docs}
    lines += [f"- [{sid}] {titles[sid]}" for sid in order]
    return "\n".join(lines) + "\n"
