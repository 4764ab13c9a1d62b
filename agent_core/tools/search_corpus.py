"""search_corpus: full-text search of the run's corpus (read tier: allowed).

It only reads the index: the run brought it up to date when it started (a search never walks
the folder nor starts a parser)."""

from __future__ import annotations

import json
from typing import Annotated

from pydantic import Field

from agent_core.contract.statuses import ToolOutcomeStatus
from agent_core.corpus import search as corpus_search
from agent_core.tools.specs import NonBlank, Tier, ToolArgs, ToolEnv, ToolResult, ToolSpec


class SearchArgs(ToolArgs):
    query: Annotated[NonBlank, Field(description="Words to search for.", max_length=500)]
    limit: Annotated[int, Field(description="How many results (1-20).", ge=1, le=20)] = 5


def run(env: ToolEnv, args: SearchArgs) -> ToolResult:
    with env.local_store.read() as conn:
        hits = corpus_search.search(conn, env.scope.corpus, args.query, args.limit)
    outcome = ToolOutcomeStatus.SUCCESS if hits else ToolOutcomeStatus.EMPTY
    return ToolResult(
        outcome,
        json.dumps({"results": hits}, ensure_ascii=False),
        {"hits": len(hits), "sources_found": [h["source_id"] for h in hits]},
    )


SPEC = ToolSpec(
    name="search_corpus",
    tier=Tier.READ,
    description="Full-text search of the local corpus (Markdown, text, PDF, Word, OpenDocument, "
    "HTML, EPUB, RTF). Returns source ids, titles, the best page of a PDF, snippets, scores.",
    args_model=SearchArgs,
    body=run,
)
