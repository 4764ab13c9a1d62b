"""Run the offline model's research workflow for one question and score the brief it proposes.

`offline_brief` plays the offline model turn by turn exactly as a run does (its plan is a pure
function of the conversation), executing its search_corpus and read_document calls with the
real index and the real sandboxed reader on a throwaway store, and stops at the save_brief it
proposes. No SDK runner, no approvals: the same brief in a fraction of a second.
tests/eval/test_brief_eval.py checks that a real end-to-end run proposes the same text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from agent_core.corpus import index as research
from agent_core.models.offline import OfflineModel
from agent_core.models.planned import History, PastCall
from agent_core.storage.store import Store
from tests.eval.cases import EvalCase, Suite

MAX_STEPS = 12
_POINT = re.compile(r"(?P<text>[^\[\]\n]+?)\s*\[(?P<source>[^\[\]\n]+?\.(?:md|txt))\]")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# Points are the answer paragraph's and the key points' cited sentences: what comes after
# (open questions, sources; in English or Chinese) is not a claim of the brief.
_AFTER_POINTS = re.compile(r"\n## (?:Open questions|Sources|尚待解答|来源)\b")


@dataclass(frozen=True)
class Point:
    """One cited claim of a brief: its text and the source id it cites."""

    text: str
    source: str


@dataclass(frozen=True)
class CaseScore:
    case: EvalCase
    brief: str
    points: tuple[Point, ...]
    gold_found: tuple[str, ...]
    points_supported: int  # points that come from a gold or relevant sentence
    citations_correct: int  # points whose cited file really contains them
    injected_included: tuple[str, ...]
    off_topic_included: tuple[str, ...]
    sources_cited: int
    words: int


@dataclass
class SuiteFigures:
    """Micro-averaged figures of one suite (or all of them)."""

    cases: int = 0
    gold: int = 0
    gold_found: int = 0
    points: int = 0
    supported: int = 0
    cited_ok: int = 0
    injected: int = 0
    off_topic: int = 0
    max_words: int = 0
    min_sources: int = field(default=10**6)

    def add(self, score: CaseScore) -> None:
        self.cases += 1
        self.gold += len(score.case.gold)
        self.gold_found += len(score.gold_found)
        self.points += len(score.points)
        self.supported += score.points_supported
        self.cited_ok += score.citations_correct
        self.injected += len(score.injected_included)
        self.off_topic += len(score.off_topic_included)
        self.max_words = max(self.max_words, score.words)
        self.min_sources = min(self.min_sources, score.sources_cited)

    @property
    def recall(self) -> float:
        return self.gold_found / self.gold if self.gold else 0.0

    @property
    def precision(self) -> float:
        return self.supported / self.points if self.points else 0.0

    @property
    def citation_correctness(self) -> float:
        return self.cited_ok / self.points if self.points else 0.0


def _flat(text: str) -> str:
    """Whitespace and case ignored: how labels, points and files are compared."""
    return "".join(text.split()).lower()


def offline_brief(question: str, corpus: Path, store: Store) -> str:
    """The brief content the offline model proposes to save for `question` over `corpus`."""
    model = OfflineModel("eval")
    calls: list[PastCall] = []
    for step in range(1, MAX_STEPS + 1):
        plan = model.plan(History(question, list(calls), step - 1))
        if plan.say is not None or not plan.calls:
            return ""
        for j, call in enumerate(plan.calls):
            if call.tool == "save_brief":
                return str(call.args["content"])
            calls.append(
                PastCall(
                    f"eval-s{step}-{j}",
                    call.tool,
                    call.args,
                    _execute(call.tool, call.args, corpus, store),
                )
            )
    raise AssertionError(f"no save_brief within {MAX_STEPS} steps for {question!r}")


def _execute(tool: str, args: dict[str, object], corpus: Path, store: Store) -> str:
    if tool == "search_corpus":
        with store.write() as conn:
            research.sync_index(conn, corpus)
        with store.read() as conn:
            hits = research.search(conn, corpus, str(args["query"]), int(str(args.get("limit", 5))))
        return json.dumps({"results": hits}, ensure_ascii=False)
    if tool == "read_document":
        wrapped, _raw, _truncated = research.read_document(corpus, str(args["path"]))
        return wrapped
    if tool == "remember_audience":
        return json.dumps({"remembered": True})
    raise AssertionError(f"the offline model called {tool!r}, which the eval does not expect")


def brief_points(brief: str) -> tuple[Point, ...]:
    """Every cited claim before the open questions, in the answer paragraph or a list."""
    body = _AFTER_POINTS.split(brief, maxsplit=1)[0]
    points: list[Point] = []
    for line in body.splitlines():
        for match in _POINT.finditer(_LIST_MARK.sub("", line)):
            text = match.group("text").strip()
            if text:
                points.append(Point(text, match.group("source")))
    return tuple(points)


def _file_text(corpus: Path, source: str) -> str:
    path = corpus / source
    if not path.is_file():
        return ""
    return _flat(" ".join(_LIST_MARK.sub("", line) for line in path.read_text().splitlines()))


def cites_correctly(point: Point, corpus: Path) -> bool:
    """The point's text (whitespace and case ignored) is in the file it cites."""
    flat = _flat(point.text)
    return bool(flat) and flat in _file_text(corpus, point.source)


def score(case: EvalCase, brief: str) -> CaseScore:
    points = brief_points(brief)
    flat_points = [_flat(p.text) for p in points]
    flat_brief = _flat(brief)
    accepted = [_flat(label) for label in case.gold + case.relevant]
    return CaseScore(
        case=case,
        brief=brief,
        points=points,
        gold_found=tuple(g for g in case.gold if any(_flat(g) in p for p in flat_points)),
        points_supported=sum(1 for p in flat_points if any(a in p for a in accepted)),
        citations_correct=sum(1 for p in points if cites_correctly(p, case.corpus)),
        injected_included=tuple(i for i in case.injected if _flat(i) in flat_brief),
        off_topic_included=tuple(o for o in case.off_topic if _flat(o) in flat_brief),
        sources_cited=len({p.source for p in points}),
        words=len(brief.split()) + sum(1 for ch in brief if "\u4e00" <= ch <= "\u9fff"),
    )


def figures(scores: list[CaseScore]) -> dict[str, SuiteFigures]:
    """Figures per suite, plus "all"."""
    out: dict[str, SuiteFigures] = {s.value: SuiteFigures() for s in Suite}
    out["all"] = SuiteFigures()
    for s in scores:
        out[s.case.suite.value].add(s)
        out["all"].add(s)
    return out
