"""Issue 41, items 3-5, on documents made by LibreOffice and pandoc (tests/eval/briefs_corpus.py):
page furniture never reaches a brief, prose is never glued to code, markup or a table row, the
answer paragraph carries the point a person would underline, open questions are questions, and
search finds the obvious document."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_core.corpus import search as corpus_search
from agent_core.corpus.index import corpus_documents
from agent_core.models.offline import key_terms
from agent_core.storage.store import Store
from tests.eval.briefs_corpus import CODE, FURNITURE, build
from tests.eval.case_types import DEMO_CORPUS, Suite
from tests.eval.cases_briefs import brief_cases
from tests.eval.harness import (
    CaseScore,
    CorpusStores,
    SuiteFigures,
    answer_paragraph,
    figures,
    indexed_text,
    offline_brief,
    score,
)

pytestmark = pytest.mark.skipif(
    shutil.which("soffice") is None or shutil.which("pandoc") is None,
    reason="the briefs corpus is made by LibreOffice and pandoc",
)
# Measured before issue 41 (recall 0.67, lowest 0.50, answer-first 6/6) and after (0.89, 0.50,
# 6/6): the floors sit at today's figures.
RECALL_FLOOR, LOWEST_FLOOR, ANSWER_FIRST_FLOOR = 0.85, 0.5, 1.0


@pytest.fixture(scope="module")
def corpus(request: pytest.FixtureRequest) -> Path:
    return build(Path(request.config.cache.mkdir("briefs-corpus")))


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CorpusStores]:
    opened = CorpusStores(tmp_path_factory.mktemp("briefs"))
    yield opened
    opened.dispose()


@pytest.fixture(scope="module")
def scores(corpus: Path, stores: CorpusStores) -> list[CaseScore]:
    return [
        score(c, offline_brief(c.question, c.corpus, stores(c.corpus)), stores(c.corpus))
        for c in brief_cases(corpus)
    ]


@pytest.fixture(scope="module")
def figures_of_suite(scores: list[CaseScore]) -> SuiteFigures:
    return figures(scores)[Suite.BRIEFS.value]


def test_running_headers_footers_and_page_numbers_never_reach_a_brief(
    scores: list[CaseScore], corpus: Path, stores: CorpusStores
) -> None:
    assert [(s.case.question, f) for s in scores for f in FURNITURE if f in s.brief] == []
    # Dropped where the document is indexed: no page of either PDF holds them, nor a bare
    # page number at its start or end.
    store: Store = stores(corpus)
    for doc in corpus_documents(store, corpus.resolve()):
        if doc["type"] != "pdf":
            continue
        assert (doc["pages"] or 0) >= 2
        for page in range(1, (doc["pages"] or 0) + 1):
            text = indexed_text(store, corpus.resolve(), doc["path"], page)
            assert not [f for f in FURNITURE if "".join(f.split()).lower() in text], (page, text)
            assert not re.search(r"[。.]\d+$", text), text


def test_prose_is_never_joined_to_code_markup_or_a_table_row(scores: list[CaseScore]) -> None:
    glued = [(p.text, c) for s in scores for p in s.points for c in CODE if c in p.text]
    assert glued == []
    assert [p.text for s in scores for p in s.points if re.search(r"[<>{}|]", p.text)] == []
    points = [p.text for s in scores for p in s.points]
    # The sentence after the XML example (the page breaks inside the example) stands alone.
    assert "Consumers must ignore elements they do not recognise." in points
    assert not [p for p in points if p.startswith(("Field Meaning", "The run and the approver"))]


def test_the_answer_paragraph_carries_the_gold_point(
    scores: list[CaseScore], figures_of_suite: SuiteFigures
) -> None:
    assert figures_of_suite.answer_first_rate >= ANSWER_FIRST_FLOOR, [
        (s.case.question, answer_paragraph(s.brief)) for s in scores if not s.answer_first
    ]
    assert figures_of_suite.recall >= RECALL_FLOOR, figures_of_suite
    assert figures_of_suite.lowest_recall >= LOWEST_FLOOR, figures_of_suite
    assert figures_of_suite.citation_correctness == 1.0
    assert max(s.words for s in scores) < 800


def test_sentences_across_page_breaks_and_hyphens_are_whole(scores: list[CaseScore]) -> None:
    """The tamper-evidence and correction sentences run over a page break (header between)."""
    found = {g for s in scores for g in s.gold_found}
    assert "Verification walks the chain from the newest event back to the first one" in found
    assert "更正是一条新的事件" in found


def test_open_questions_read_as_questions(scores: list[CaseScore]) -> None:
    for s in scores:
        section = re.split(r"\n## (?:Open questions|尚待解答)\n\n", s.brief)[1].split("\n## ")[0]
        lines = [line for line in section.splitlines() if line.startswith("- ")]
        assert lines and all(re.search(r"[?？]", line) for line in lines), section


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What belongs in an audit log for agent actions?", "audit-logs-and-observability.txt"),
        ("How do checkpoints make agent runs durable?", "durable-agent-execution.md"),
    ],
)
def test_search_finds_the_document_the_question_names(
    stores: CorpusStores, question: str, expected: str
) -> None:
    """bm25 alone ranked the audit document sixth (the rare word "belongs" won)."""
    store = stores(DEMO_CORPUS)
    offline_brief(question, DEMO_CORPUS, store)  # indexes the demo corpus as a run does
    with store.read() as conn:
        hits = corpus_search.search(conn, DEMO_CORPUS, " ".join(key_terms(question)), 5)
    assert hits[0]["source_id"] == expected, [h["source_id"] for h in hits]
