"""Deleting an ended run: every row that belongs to it, in one transaction.

A run's rows live in nine tables owned by several modules; removing them is one act (`runs
delete`), so it is written once, here, rather than by each caller table by table.
"""

from __future__ import annotations

from sqlalchemy import Connection, delete

from agent_core.storage.schema import (
    approvals,
    artifact_sightings,
    checkpoints,
    events,
    ledger,
    rules,
    run_mcp_tools,
    runs,
    session_items,
    tool_calls,
    turn_responses,
)
from agent_core.storage.tables.blobs import release_run_blobs

# Rows keyed by the run alone; they go before the run row they refer to.
_RUN_OWNED = (
    checkpoints,
    events,
    approvals,
    tool_calls,
    ledger,
    session_items,
    run_mcp_tools,
    turn_responses,
)


def delete_run_rows(conn: Connection, run_id: str) -> None:
    """Delete `run_id` and what is its alone (the caller checked that it has ended).

    Blobs are shared by content: one still used by another run passes to that run. A rule
    remembered "for this run" dies with it; home rules, memories and audit entries stay."""
    release_run_blobs(conn, run_id)
    for table in _RUN_OWNED:
        conn.execute(delete(table).where(table.c.run_id == run_id))
    conn.execute(delete(rules).where(rules.c.scope == "run", rules.c.run_id == run_id))
    conn.execute(delete(artifact_sightings).where(artifact_sightings.c.run_id == run_id))
    conn.execute(delete(runs).where(runs.c.run_id == run_id))
