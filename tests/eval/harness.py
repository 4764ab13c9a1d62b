"""Run the offline model's research workflow for one question and score the brief it proposes.

`offline_brief` plays the offline model turn by turn exactly as a run does (its plan is a pure
function of the conversation): it brings the index of the corpus up to date once, as a run does
when it starts (`reindex`: every format, PDFs page by page), then executes its search_corpus and
read_document calls with the real index and the real sandboxed reader on a throwaway store, and
stops at the save_brief it proposes. No SDK runner, no approvals: the same brief in a fraction
of a second. tests/eval/test_brief_eval.py checks that a real end-to-end run proposes the same
text.

A point's citation is checked against the text the index holds: `[file.pdf p. 3]` against page
3 of that PDF as extracted, `[file.ext]` against the document's whole text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from agent_core.contract.documents import INDEXED_TYPES
from agent_core.corpus import reading
from agent_core.corpus import search as corpus_search
from agent_core.corpus.index import reindex
from agent_core.corpus.pages import parse_pages
from agent_core.models.offline import OfflineModel
from agent_core.models.planned import History, PastCall
from agent_core.storage.migrate.home import open_store
from agent_core.storage.store import Store
from agent_core.storage.tables import corpus as corpus_table
from tests.eval.case_types import EvalCase, Suite

MAX_STEPS = 12
_SUFFIXES = "|".join(sorted((re.escape(s[1:]) for s in INDEXED_TYPES), key=len, reverse=True))
# A cited sentence: its text, then `[source.ext]` or `[source.pdf p. N]`.
_POINT = re.compile(
    rf"(?P<text>[^\[\]\n]+?)\s*\[(?P<source>[^\[\]\n]+?\.(?:{_SUFFIXES}))"
    rf"(?: p\. (?P<page>\d{{1,6}}))?\]",
    re.I,
)
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# Points are the answer paragraph's and the key points' cited sentences: what comes after
# (open questions, sources; in English or Chinese) is not a claim of the brief.
_AFTER_POINTS = re.compile(r"\n## (?:Open questions|Sources|尚待解答|来源)\b")


@dataclass(frozen=True)
class Point:
    """One cited claim of a brief: its text, the source id it cites, and the page it cites
    (None: a document without pages, or a citation that gives none)."""

    text: str
    source: str
    page: int | None = None


@dataclass(frozen=True)
class CaseScore:
    case: EvalCase
    brief: str
    points: tuple[Point, ...]
    gold_found: tuple[str, ...]
    points_supported: int  # points that come from a gold or relevant sentence
    citations_correct: int  # points whose cited file (page) really contains them
    injected_included: tuple[str, ...]
    off_topic_included: tuple[str, ...]
    sources_cited: int
    words: int
    answer_first: bool = False
    """The answer paragraph (the brief's first) carries a gold fragment."""

    @property
    def recall(self) -> float:
        return len(self.gold_found) / len(self.case.gold) if self.case.gold else 1.0


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
    lowest_recall: float = 1.0  # the worst question's share of its gold sentences found
    answered_first: int = 0  # briefs whose answer paragraph carries a gold fragment

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
        self.lowest_recall = min(self.lowest_recall, score.recall)
        self.answered_first += score.answer_first

    @property
    def recall(self) -> float:
        return self.gold_found / self.gold if self.gold else 0.0

    @property
    def answer_first_rate(self) -> float:
        return self.answered_first / self.cases if self.cases else 0.0

    @property
    def precision(self) -> float:
        return self.supported / self.points if self.points else 0.0

    @property
    def citation_correctness(self) -> float:
        return self.cited_ok / self.points if self.points else 0.0


def flat_text(text: str) -> str:
    """Whitespace and case ignored: how labels, points and files are compared."""
    return "".join(text.split()).lower()


class CorpusStores:
    """One throwaway store per corpus, as each corpus would have in a home of its own: the
    search ranks by statistics of everything its index holds, so one corpus's figures do not
    depend on which other corpora were indexed before it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.opened: dict[Path, Store] = {}

    def __call__(self, corpus: Path) -> Store:
        if corpus not in self.opened:
            self.opened[corpus] = open_store(self.folder / f"corpus-{len(self.opened)}.db")
        return self.opened[corpus]

    def dispose(self) -> None:
        for store in self.opened.values():
            store.dispose()
        self.opened.clear()


def offline_brief(question: str, corpus: Path, store: Store) -> str:
    """The brief content the offline model proposes to save for `question` over `corpus`."""
    return play(question, corpus, store)[0]


def play(question: str, corpus: Path, store: Store) -> tuple[str, list[PastCall]]:
    """The brief the offline model proposes ("" if it proposes none) and the calls it made
    before (its searches and reads, with their outputs)."""
    model = OfflineModel("eval")
    reindex(store, corpus)  # as a run does when it starts: searches only read the index
    calls: list[PastCall] = []
    for step in range(1, MAX_STEPS + 1):
        plan = model.plan(History(question, list(calls), step - 1))
        if plan.say is not None or not plan.calls:
            return "", calls
        for j, call in enumerate(plan.calls):
            if call.tool == "save_brief":
                return str(call.args["content"]), calls
            calls.append(
                PastCall(
                    f"eval-s{step}-{j}",
                    call.tool,
                    call.args,
                    _execute(call.tool, call.args, corpus, store),
                )
            )
    raise AssertionError(f"no save_brief within {MAX_STEPS} steps for {question!r}")


def _execute(tool: str, args: Mapping[str, object], corpus: Path, store: Store) -> str:
    if tool == "search_corpus":
        limit = int(str(args.get("limit", 5)))
        with store.read() as conn:
            hits = corpus_search.search(conn, corpus, str(args["query"]), limit)
        return json.dumps({"results": hits}, ensure_ascii=False)
    if tool == "read_document":
        path, asked = str(args["path"]), args.get("pages")
        pages = parse_pages(str(asked)) if asked is not None else None
        with store.read() as conn:
            return reading.read_document(conn, corpus, path, pages).wrapped
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
            page = match.group("page")
            if text:
                points.append(Point(text, match.group("source"), int(page) if page else None))
    return tuple(points)


def indexed_text(store: Store, corpus: Path, source: str, page: int | None) -> str:
    """The text the index holds of page `page` of `source` (None: of a document without
    pages), list marks dropped, whitespace and case ignored; "" when it holds none."""
    number = page or 0
    with store.read() as conn:
        texts = corpus_table.page_texts(conn, str(corpus), source, number, number)
    body = texts[0][1] if texts else ""
    return flat_text(" ".join(_LIST_MARK.sub("", line) for line in body.splitlines()))


def cites_correctly(point: Point, corpus: Path, store: Store) -> bool:
    """The point's text (whitespace and case ignored) is in what it cites, as indexed (what
    the model read): the page it names of a paged document (a sentence that runs onto the next
    page counts as on the page where it starts), else the document's text."""
    flat = flat_text(point.text)
    cited = indexed_text(store, corpus, point.source, point.page)
    if not flat or flat in cited:
        return bool(flat)
    if point.page is None or not cited:
        return False
    following = indexed_text(store, corpus, point.source, point.page + 1)
    return 0 <= (cited + following).find(flat) < len(cited)


def score(case: EvalCase, brief: str, store: Store) -> CaseScore:
    """The figures of one brief; `store` holds the index its citations are checked against."""
    points = brief_points(brief)
    flat_points = [flat_text(p.text) for p in points]
    flat_brief = flat_text(brief)
    accepted = [flat_text(label) for label in case.gold + case.relevant]
    return CaseScore(
        case=case,
        brief=brief,
        points=points,
        gold_found=tuple(g for g in case.gold if any(flat_text(g) in p for p in flat_points)),
        points_supported=sum(1 for p in flat_points if any(a in p for a in accepted)),
        citations_correct=sum(1 for p in points if cites_correctly(p, case.corpus, store)),
        injected_included=tuple(i for i in case.injected if flat_text(i) in flat_brief),
        off_topic_included=tuple(o for o in case.off_topic if flat_text(o) in flat_brief),
        sources_cited=len({p.source for p in points}),
        words=len(brief.split()) + sum(1 for ch in brief if "\u4e00" <= ch <= "\u9fff"),
        answer_first=any(flat_text(g) in flat_text(answer_paragraph(brief)) for g in case.gold),
    )


_ANSWER = re.compile(r"^## (?:Answer|回答)\n\n(.*?)(?=\n\n## |\Z)", re.S | re.M)


def answer_paragraph(brief: str) -> str:
    """The brief's first paragraph: what it answers before any key point."""
    found = _ANSWER.search(brief)
    return found.group(1) if found else ""


def figures(scores: list[CaseScore]) -> dict[str, SuiteFigures]:
    """Figures per suite, plus "all"."""
    out: dict[str, SuiteFigures] = {s.value: SuiteFigures() for s in Suite}
    out["all"] = SuiteFigures()
    for s in scores:
        out[s.case.suite.value].add(s)
        out["all"].add(s)
    return out
