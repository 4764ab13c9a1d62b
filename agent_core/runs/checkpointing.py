"""Checkpoints at tool boundaries: A before a tool runs, B after its result is confirmed."""

from __future__ import annotations

import json
from functools import lru_cache

from sqlalchemy import Connection

from agent_core import RUNTIME_VERSION
from agent_core.contract.events import EventKind
from agent_core.home.clock import now_iso
from agent_core.runs.context import RunContext
from agent_core.runs.progress import RunLimits
from agent_core.storage.tables.checkpoints import insert_checkpoint, save_state_string
from agent_core.storage.tables.timeline import append_event


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

    The SDK RunState of the pause that led here (if not yet saved) and the conversation's
    turns not yet stored are written in the same transaction, so checkpoint A is one commit.
    `confirmed`: the idempotency key this boundary confirmed (checkpoint B of a call that ran).
    """
    run_id = ctx.run_id
    progress = ctx.record.progress.to_json()
    progress["active_s"] = round(ctx.active_seconds(), 3)
    at = now_iso()  # one clock reading for the blob, the row and the event
    pending = ctx.take_unsaved_state()
    if pending is not None:
        ctx.digest_saved(save_state_string(conn, run_id, pending, at=at))
    # The turns the conversation took since the last checkpoint (a saved RunState older than
    # them is cleared), so a resume continues from here.
    ctx.stage_transcript(conn, state_saved=pending is not None)
    sequence = insert_checkpoint(
        conn,
        sequence=ctx.next_sequence(conn),
        run_id=run_id,
        boundary=boundary,
        call_id=call_id,
        next_step=next_step,
        run_state_json=json.dumps(progress),
        budgets_json=_limits_json(ctx.facts.limits),
        confirmed_json=json.dumps([confirmed]) if confirmed else "[]",
        runtime_version=RUNTIME_VERSION,
        state_digest=ctx.saved_digest(conn),  # known: read once a run, not at each boundary
        created_at=at,
    )
    append_event(
        conn,
        run_id,
        EventKind.CHECKPOINT_SAVED,
        data={
            "sequence": sequence,
            "boundary": boundary,
            "call_id": call_id,
            "next_step": next_step,
        },
        at=at,
    )


@lru_cache(maxsize=16)
def _limits_json(limits: RunLimits) -> str:
    """The budgets of a checkpoint row: a run's limits are frozen, and the same at every one."""
    return json.dumps(limits.to_json())
