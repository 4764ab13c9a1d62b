"""The `briefs` suite's cases (tests/eval/briefs_corpus.py makes the documents): gold points
written from the extracted text; one runs over a page break in each language."""

from __future__ import annotations

from pathlib import Path

from tests.eval.case_types import EvalCase, Suite


def brief_cases(corpus: Path) -> tuple[EvalCase, ...]:
    return (
        EvalCase(
            Suite.BRIEFS,
            "What must every audit event record?",
            corpus,
            gold=(
                "Every audit event records the actor, the action, the target, the time and the "
                "outcome",
            ),
            relevant=("The actor is the run identifier", "Arguments are stored as a hash"),
        ),
        EvalCase(
            Suite.BRIEFS,
            "How long are audit events kept, and can they be edited?",
            corpus,
            gold=(
                "events are kept for at least one year and are never edited in place",
                "A correction is a new event that names the event it corrects",
            ),
            relevant=("Audit events are kept for at least one year, while debug logs",),
            off_topic=("The outage began when a configuration change",),
        ),
        EvalCase(
            Suite.BRIEFS,
            "What should consumers do with event elements they do not recognise?",
            corpus,
            gold=("Consumers must ignore elements they do not recognise.",),
            relevant=("A new element is added only with a new schema version",),
        ),
        EvalCase(
            Suite.BRIEFS,
            "How is tampering with the audit event chain detected?",
            corpus,
            gold=(
                "Each event carries the hash of the event before it",
                "Verification walks the chain from the newest event back to the first one",
            ),
        ),
        EvalCase(
            Suite.BRIEFS,
            "每个审计事件记录哪些内容？",
            corpus,
            gold=("每个审计事件都记录执行者、操作、目标、时间和结果",),
            relevant=("执行者是运行标识以及批准该操作的人",),
        ),
        EvalCase(
            Suite.BRIEFS,
            "审计事件保存多久？",
            corpus,
            gold=("审计事件至少保存一年", "更正是一条新的事件"),
        ),
    )
