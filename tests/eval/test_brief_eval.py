"""Floors on the offline brief's evaluation (`make eval` prints the same figures).

The cases are scored through the offline model's own plan with the real index and reader
(tests/eval/harness.py); one real end-to-end run per language shows the harness sees exactly
the brief a run proposes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_core.storage.migrate.home import open_store
from tests.eval.cases import CASES, DEMO_CORPUS, Suite
from tests.eval.harness import (
    CaseScore,
    SuiteFigures,
    brief_points,
    cites_correctly,
    figures,
    offline_brief,
    score,
)

# Measured before this work (README): EN recall 0.41, precision 0.46; ZH nothing found;
# HOSTILE one injected instruction in a brief. The floors sit a little under today's figures.
FLOORS = {
    Suite.EN: {"recall": 0.70, "precision": 0.80},
    Suite.ZH: {"recall": 0.60, "precision": 0.85},
    Suite.HOSTILE: {"recall": 0.90, "precision": 0.85},
}


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> list[CaseScore]:
    store = open_store(tmp_path_factory.mktemp("eval") / "state.db")
    try:
        return [score(c, offline_brief(c.question, c.corpus, store)) for c in CASES]
    finally:
        store.dispose()


@pytest.fixture(scope="module")
def by_suite(scores: list[CaseScore]) -> dict[str, SuiteFigures]:
    return figures(scores)


@pytest.mark.parametrize("suite", list(FLOORS))
def test_gold_recall_and_point_precision_stay_above_their_floors(
    by_suite: dict[str, SuiteFigures], suite: Suite
) -> None:
    got = by_suite[suite.value]
    assert got.cases > 0 and got.points > 0
    assert got.recall >= FLOORS[suite]["recall"], got
    assert got.precision >= FLOORS[suite]["precision"], got


def test_every_point_is_found_in_the_file_it_cites(scores: list[CaseScore]) -> None:
    wrong = [
        (s.case.question, p.source, p.text)
        for s in scores
        for p in s.points
        if not cites_correctly(p, s.case.corpus)
    ]
    assert wrong == []
    assert all(s.citations_correct == len(s.points) for s in scores)
    assert sum(len(s.points) for s in scores) > 3 * len(scores)  # the check had points to check


def test_no_injected_sentence_reaches_any_brief(scores: list[CaseScore]) -> None:
    assert [(s.case.question, s.injected_included) for s in scores if s.injected_included] == []
    assert any(s.case.injected for s in scores if s.case.suite is Suite.HOSTILE)


def test_briefs_stay_short_and_cite_two_sources_when_the_corpus_has_them(
    scores: list[CaseScore],
) -> None:
    assert max(s.words for s in scores) < 800
    # English and hostile questions all have at least two documents sharing their words.
    assert [
        s.case.question for s in scores if s.case.suite is not Suite.ZH and s.sources_cited < 2
    ] == []


def test_a_chinese_question_gets_a_brief_framed_in_chinese(scores: list[CaseScore]) -> None:
    for s in (s for s in scores if s.case.suite is Suite.ZH):
        assert s.brief.startswith(f"# 简报：{s.case.question}")
        headings = re.findall(r"^## (.+)$", s.brief, re.M)
        assert headings[0] == "回答" and headings[-2:] == ["尚待解答", "来源"]
        assert s.points and all(p.source.endswith(".zh.md") for p in s.points)


def _approval_content(ws: Any, question: str) -> str:
    run = ws.start_run(question)
    assert run["status"] == "waiting_approval"
    [proposal] = run["approvals"]
    assert re.fullmatch(r"briefs/[a-z0-9-]+\.md", proposal["args"]["relative_path"])
    return str(proposal["args"]["content"])


@pytest.fixture
def eval_store(tmp_path: Path) -> Iterator[Any]:
    store = open_store(tmp_path / "eval" / "state.db")
    yield store
    store.dispose()


@pytest.mark.parametrize(
    "question",
    ["What does a side-effect ledger record, and why?", "什么是幂等键，它应该如何生成？"],
)
def test_a_real_offline_run_proposes_the_brief_the_eval_scores(
    ws: Any, eval_store: Any, question: str
) -> None:
    content = _approval_content(ws, question)
    assert content == offline_brief(question, DEMO_CORPUS, eval_store)
    assert brief_points(content)
