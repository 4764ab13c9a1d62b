"""Checkpoints at tool boundaries: A before a tool runs, B after its result is confirmed."""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core import RUNTIME_VERSION
from agent_core.events import EventKind
from agent_core.run.context import RunContext
from agent_core.storage.checkpoints import (
    Checkpoint,
    CheckpointStore,
    save_state_string,
    state_digest,
)
from agent_core.storage.timeline import append_event


def save_checkpoint(
    ctx: RunContext,
    conn: Connection,
    boundary: str,
    call_id: str | None,
    next_step: str,
    *,
    confirmed: str | None = None,
) -> None:
    """One checkpoint row and its `checkpoint_saved` event, in the caller's transaction.

    The SDK RunState of the pause that led here (if not yet saved) is written in the same
    transaction, so checkpoint A is one commit. `confirmed`: the idempotency key this boundary
    confirmed (checkpoint B of a call that ran).
    """
    progress = ctx.record.progress.to_json()
    progress["active_s"] = round(ctx.active_seconds(), 3)
    pending = ctx.take_unsaved_state()
    if pending is not None:
        digest: str | None = save_state_string(conn, ctx.run_id, pending)
    else:
        digest = state_digest(conn, ctx.run_id)
    saved = CheckpointStore(ctx.store).save(
        conn,
        Checkpoint(
            run_id=ctx.run_id,
            boundary=boundary,
            next_step=next_step,
            run_state=progress,
            budgets=ctx.facts.limits.to_json(),
            runtime_version=RUNTIME_VERSION,
            confirmed=[confirmed] if confirmed else [],
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
