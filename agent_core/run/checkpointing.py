"""Checkpoints at tool boundaries: A before a tool runs, B after its result is confirmed."""

from __future__ import annotations

from sqlalchemy import Connection, select

from agent_core import RUNTIME_VERSION
from agent_core.events import EventKind
from agent_core.run.context import RunContext
from agent_core.storage.checkpoints import Checkpoint, CheckpointStore
from agent_core.storage.ledger import confirmed_keys
from agent_core.storage.schema import runs
from agent_core.storage.timeline import append_event


def save_checkpoint(
    ctx: RunContext, conn: Connection, boundary: str, call_id: str | None, next_step: str
) -> None:
    """One checkpoint row and its `checkpoint_saved` event, in the caller's transaction."""
    progress = ctx.record.progress.to_json()
    progress["active_s"] = round(ctx.active_seconds(), 3)
    digest = conn.execute(select(runs.c.state_digest).where(runs.c.run_id == ctx.run_id)).scalar()
    saved = CheckpointStore(ctx.store).save(
        conn,
        Checkpoint(
            run_id=ctx.run_id,
            boundary=boundary,
            next_step=next_step,
            run_state=progress,
            budgets=ctx.facts.limits.to_json(),
            runtime_version=RUNTIME_VERSION,
            confirmed=confirmed_keys(conn, ctx.run_id),
            call_id=call_id,
            state_digest=digest,
        ),
    )
    append_event(
        conn,
        ctx.run_id,
        EventKind.CHECKPOINT_SAVED,
        data={
            "sequence": saved.sequence,
            "boundary": boundary,
            "call_id": call_id,
            "next_step": next_step,
        },
    )
