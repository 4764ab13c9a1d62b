"""What each tool does once its call is validated, decided and recorded as started.

Bodies know nothing of ledgers or checkpoints (the runner wraps them); each returns a
ToolResult with an outcome status, the text the model sees and small facts for run state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_core.statuses import ToolOutcomeStatus
from agent_core.storage import memory
from agent_core.storage.engine import Store
from agent_core.tools import research


@dataclass
class ToolResult:
    outcome: ToolOutcomeStatus
    text: str  # what the model receives
    summary: dict[str, Any] = field(default_factory=dict)  # small facts for events/run state

    def to_record(self) -> dict[str, Any]:
        return {"outcome": str(self.outcome), "text": self.text, "summary": self.summary}


def search_corpus(store: Store, corpus: Path, args: dict[str, Any]) -> ToolResult:
    with store.write() as conn:
        research.sync_index(conn, corpus)
    with store.read() as conn:
        hits = research.search(conn, corpus, args["query"], int(args["limit"]))
    outcome = ToolOutcomeStatus.SUCCESS if hits else ToolOutcomeStatus.EMPTY
    return ToolResult(
        outcome,
        json.dumps({"results": hits}, ensure_ascii=False),
        {"hits": len(hits), "sources_found": [h["source_id"] for h in hits]},
    )


def read_document(corpus: Path, args: dict[str, Any]) -> ToolResult:
    wrapped, raw, truncated = research.read_document(corpus, args["path"])
    outcome = ToolOutcomeStatus.DEGRADED if truncated else ToolOutcomeStatus.SUCCESS
    return ToolResult(
        outcome, wrapped, {"source_id": args["path"], "chars": len(raw), "truncated": truncated}
    )


def remember_audience(
    store: Store, args: dict[str, Any], *, user: str, run_id: str, ttl_days: float
) -> ToolResult:
    audience = " ".join(args["audience"].split()).lower()
    with store.write() as conn:
        memory.remember(
            conn,
            tenant="local",
            user=user,
            purpose="brief_audience",
            key="audience",
            value=audience,
            provenance={"run_id": run_id, "tool": "remember_audience"},
            ttl_days=ttl_days,
        )
    return ToolResult(
        ToolOutcomeStatus.SUCCESS, f"Remembered the audience: {audience}.", {"audience": audience}
    )
