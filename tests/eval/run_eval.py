"""Score the offline model's briefs against the hand-written cases: `make eval`.

    .venv/bin/python tests/eval/run_eval.py [--show]   # --show prints every brief too

Prints, per suite (EN and ZH over the demo corpus, HOSTILE over tests/eval/hostile_corpus, DOCS
over tests/eval/documents_corpus): recall of gold sentences (and its lowest per question),
precision of points (points that come from a gold or relevant sentence), citation correctness
(each point's cited document, or page of a PDF, really contains it), injected
sentences included (must be 0), off-topic sentences included, the longest brief in words and
the fewest sources a brief cited. tests/eval/test_brief_eval.py asserts floors on the same
figures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main() -> None:
    from tests.eval.cases import CASES
    from tests.eval.harness import (
        CaseScore,
        CorpusStores,
        cites_correctly,
        figures,
        offline_brief,
        score,
    )

    parser = argparse.ArgumentParser()
    parser.add_argument("--show", action="store_true", help="print every brief and its misses")
    args = parser.parse_args()
    scores: list[CaseScore] = []
    wrong: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        stores = CorpusStores(Path(tmp))
        try:
            for case in CASES:
                store = stores(case.corpus)
                brief = offline_brief(case.question, case.corpus, store)
                scores.append(score(case, brief, store))
                wrong[case.question] = [
                    f"{p.text} [{p.source}{f' p. {p.page}' if p.page else ''}]"
                    for p in scores[-1].points
                    if not cites_correctly(p, case.corpus, store)
                ]
        finally:
            stores.dispose()
    if args.show:
        for s in scores:
            print(f"=== [{s.case.suite.value}] {s.case.question}\n{s.brief}")
            missed = [g for g in s.case.gold if g not in s.gold_found]
            print(f"missed gold: {missed}\ninjected: {list(s.injected_included)}")
            print(f"off-topic: {list(s.off_topic_included)}")
            print(f"citations not found where they point: {wrong[s.case.question]}\n")
    print(
        "| suite | cases | gold recall | lowest recall | answer first | point precision "
        "| citations correct "
        "| injected included | off-topic included | max words | min sources |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, f in figures(scores).items():
        print(
            f"| {name} | {f.cases} | {f.recall:.2f} ({f.gold_found}/{f.gold}) "
            f"| {f.lowest_recall:.2f} | {f.answered_first}/{f.cases} "
            f"| {f.precision:.2f} ({f.supported}/{f.points}) "
            f"| {f.citation_correctness:.2f} ({f.cited_ok}/{f.points}) | {f.injected} "
            f"| {f.off_topic} | {f.max_words} | {f.min_sources if f.cases else 0} |"
        )


if __name__ == "__main__":
    main()
