"""search_corpus: full-text search of the run's corpus (read tier: allowed)."""

from __future__ import annotations

import json
from typing import Annotated

from pydantic import Field

from agent_core.contract.statuses import ToolOutcomeStatus
from agent_core.corpus import index as research
from agent_core.tools.specs import NonBlank, Tier, ToolArgs, ToolEnv, ToolResult, ToolSpec


class SearchArgs(ToolArgs):
    query: Annotated[NonBlank, Field(description="Words to search for.", max_length=500)]
    limit: Annotated[int, Field(description="How many results (1-20).", ge=1, le=20)] = 5


def run(env: ToolEnv, args: SearchArgs) -> ToolResult:
    corpus = env.scope.corpus
    with env.local_store.read() as conn:
        current = research.index_is_current(conn, corpus)
        hits = research.search(conn, corpus, args.query, args.limit) if current else None
    if hits is None:  # a file changed: index it (a write), then search
        with env.local_store.write() as conn:
            research.sync_index(conn, corpus)
        with env.local_store.read() as conn:
            hits = research.search(conn, corpus, args.query, args.limit)
    outcome = ToolOutcomeStatus.SUCCESS if hits else ToolOutcomeStatus.EMPTY
    return ToolResult(
        outcome,
        json.dumps({"results": hits}, ensure_ascii=False),
        {"hits": len(hits), "sources_found": [h["source_id"] for h in hits]},
    )


SPEC = ToolSpec(
    name="search_corpus",
    tier=Tier.READ,
    description="Full-text search of the local corpus. Returns source ids, titles, snippets, "
    "scores.",
    args_model=SearchArgs,
    body=run,
)
