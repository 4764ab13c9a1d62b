"""The order of the brief writer's ranking, scored on its own (issue 40).

The brief's figures (tests/eval/harness.py) barely move when the sentence ranking is reversed:
maximal marginal relevance re-picks by relevance whatever order it is handed, so 19 of 27
briefs changed and no floor noticed. These figures read the ranking itself, as a search
engine's evaluation does: over the sentences of the documents the model read, in the order
`rank_sentences` gives them, where does the first gold sentence come (reciprocal rank), and how
many of the first few carry a gold or relevant label (precision at k)?
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from agent_core.models.brief_writer import SourceDoc, rank_sentences
from agent_core.models.offline import document_body
from agent_core.storage.store import Store
from tests.eval.case_types import EvalCase
from tests.eval.harness import flat_text, play

TOP_K = 5


@dataclass(frozen=True)
class RankScore:
    case: EvalCase
    ranked: int
    """Sentences ranked (each shares a term with the question)."""
    first_gold: int | None
    """1-based rank of the first sentence holding a gold fragment (None: none does)."""
    top_supported: int
    """Of the first TOP_K sentences, those holding a gold or relevant fragment."""
    top: int

    @property
    def reciprocal_rank(self) -> float:
        return 1 / self.first_gold if self.first_gold else 0.0


@dataclass
class RankFigures:
    """Means over the cases of one suite."""

    scores: list[RankScore] = field(default_factory=list)

    @property
    def mean_reciprocal_rank(self) -> float:
        return sum(s.reciprocal_rank for s in self.scores) / len(self.scores)

    @property
    def precision_at_k(self) -> float:
        return sum(s.top_supported / s.top for s in self.scores if s.top) / len(self.scores)


def documents_read(question: str, corpus: Path, store: Store) -> list[SourceDoc]:
    """The documents the offline model read before proposing its brief, in the order it read
    them, titled as its search named them (each document's first read: the whole document,
    or a long PDF's first pages)."""
    _brief, calls = play(question, corpus, store)
    titles: dict[str, str] = {}
    bodies: dict[str, str] = {}
    for call in calls:
        output = call.output or ""
        if call.tool == "search_corpus":
            for hit in json.loads(output)["results"]:
                titles[hit["source_id"]] = hit["title"]
        elif call.tool == "read_document" and output.startswith("<untrusted_document"):
            bodies.setdefault(str(call.args["path"]), document_body(output))
    return [SourceDoc(sid, titles.get(sid, ""), body) for sid, body in bodies.items()]


def rank_score(case: EvalCase, store: Store) -> RankScore:
    docs = documents_read(case.question, case.corpus, store)
    ranked = [flat_text(c.sentence.text) for c in rank_sentences(case.question, docs)]
    gold = [flat_text(g) for g in case.gold]
    accepted = [flat_text(label) for label in case.gold + case.relevant]
    first = next((i for i, s in enumerate(ranked, 1) if any(g in s for g in gold)), None)
    top = ranked[:TOP_K]
    return RankScore(
        case=case,
        ranked=len(ranked),
        first_gold=first,
        top_supported=sum(1 for s in top if any(a in s for a in accepted)),
        top=len(top),
    )


def rank_figures(scores: list[RankScore]) -> dict[str, RankFigures]:
    out: dict[str, RankFigures] = {}
    for s in scores:
        out.setdefault(s.case.suite.value, RankFigures()).scores.append(s)
    return out
