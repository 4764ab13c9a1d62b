"""Executing an approved revert (review/revert.py) exactly once, without a model turn.

`resume` of a run that waits on a revert comes here instead of the driver: no Agents SDK, no
model, no RunState. The revert runs inside the side-effect ledger like any write: intent under
an idempotency key (run, the revert's own call id, tool, canonical arguments), the write (or
the removal of a file the reverted write created) in the write fence, then confirmation with
its `tool_result` (`executed: true`), the approval consumed and the run's status given back, in
one transaction. Killed between the write and the confirmation, the run is left `running`
under a dead owner with a `started` ledger row: the next `resume` claims it again and settles
the call by the target's hash (`outcome_unknown`, then `reconciled`), never writing twice.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Connection

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import Approval, is_revert
from agent_core.contract.canonical import arg_hash, idempotency_key, sha256_hex
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import (
    ApprovalStatus,
    RunStatus,
    SideEffectStatus,
    ToolOutcomeStatus,
)
from agent_core.home.preferences import Settings
from agent_core.runs import lifecycle
from agent_core.runs.call_records import clip, tool_result
from agent_core.runs.progress import RunProgress
from agent_core.runs.transitions import Transition, move
from agent_core.storage.owner import Owner
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import audit, ledger
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.timeline import append_event
from agent_core.storage.team.leases import Holder
from agent_core.tools import network, save_brief
from agent_core.tools.specs import ToolEnv, ToolResult, ToolScope


def waiting_revert(store: Store, run_id: str) -> str | None:
    """The revert the run waits on (or was executing when its process died), or None."""
    with store.read() as conn:
        row = run_rows.get_run_row(conn, run_id)
    if row.status not in (RunStatus.WAITING_APPROVAL, RunStatus.RUNNING):
        return None
    return RunProgress.loads(row.state_json).reverting


def run_revert(
    store: Store,
    run_id: str,
    settings: Settings,
    *,
    desk_store: Store | None = None,
    holder: Holder | None = None,
) -> None:
    """Execute the run's approved revert and give the run its status back; nothing while the
    revert is still pending (the run keeps waiting). `target_changed` (after the status is
    given back) when the file changed since the revert was approved."""
    owner = holder.owner if holder is not None else Owner.current()
    with store.write() as conn:
        row = run_rows.get_run_row(conn, run_id)
        revert_id = RunProgress.loads(row.state_json).reverting
        if revert_id is None:
            return
        revert = approval_rows.get_approval(conn, revert_id)
        if revert.status is ApprovalStatus.PENDING:
            return  # a person has not decided yet: the run keeps waiting
        if revert.status is not ApprovalStatus.APPROVED:
            # Rejected, expired or cancelled by another desk, which may not change this
            # desk's run: its status is given back here.
            lifecycle.end_revert(conn, run_id, revert.id)
            return
        _require_a_persons_revert(revert, run_id)
        lifecycle.claim_revert(conn, run_id, owner, desk=holder.desk if holder else None)
        args = dict(revert.args)
        key = idempotency_key(run_id, revert.call_id, revert.tool, args)
        content = args.get("content")
        entry = ledger.get_entry(conn, key)
        if entry is None:
            ledger.start(
                conn, key, run_id=run_id, call_id=revert.call_id, tool=revert.tool,
                arg_hash=arg_hash(revert.tool, args), target=revert.target,
                expected_hash=None if content is None else sha256_hex(str(content)),
            )  # fmt: skip
            shown = {**args, "content": None if content is None else clip(str(content))}
            append_event(
                conn, run_id, EventKind.TOOL_CALLED, tool=revert.tool,
                data={"call_id": revert.call_id, "revert_of": revert.revises, "args": shown},
            )  # fmt: skip
        elif entry.status is not SideEffectStatus.STARTED:
            # Settled before (a refusal records its end in the same transaction): only the
            # status is left to give back.
            lifecycle.end_revert(conn, run_id, revert.id)
            return
    scope = ToolScope(Path(row.corpus_dir), Path(row.artifacts_dir), settings)
    env = ToolEnv(
        store=store, scope=scope, run_id=run_id, call_id=revert.call_id, target=revert.target,
        base_hash=revert.base_hash, desk_store=desk_store, holder=holder,
    )  # fmt: skip
    try:
        result = _settle_or_run(store, env, revert, key, unknown=entry is not None)
    except BriefDeskError as error:
        _record_failure(store, run_id, revert, key, error)
        raise
    except Exception:
        _wait_again(store, run_id, owner)  # outcome unknown: the next resume settles it first
        raise
    with store.write() as conn:
        ledger.finish(
            conn, key, SideEffectStatus.CONFIRMED, str(result.outcome), result.to_record()
        )
        tool_result(
            conn, run_id, revert.tool, revert.call_id, str(result.outcome), executed=True,
            result=result.text, revert_of=revert.revises, **result.summary,
        )  # fmt: skip
        approval_rows.move(conn, revert, ApprovalMove.CONSUME)
        lifecycle.end_revert(conn, run_id, revert.id)


def _require_a_persons_revert(revert: Approval, run_id: str) -> None:
    """Defence in depth, whatever the store let someone write: a revert of this run, approved
    by a person (never by a rule or a mode: review/revert.py makes it pending for one)."""
    if not is_revert(revert) or revert.run_id != run_id or revert.decided_by_rule is not None:
        raise BriefDeskError(
            ErrorCode.NOT_AUTHORIZED,
            f"Approval {revert.id} is no revert of run {run_id} approved by a person; "
            "nothing was written.",
        )


def _settle_or_run(
    store: Store, env: ToolEnv, revert: Approval, key: str, *, unknown: bool
) -> ToolResult:
    content = revert.args.get("content")
    args = None
    if content is not None:
        # Not validated as a model's call: the bytes the store kept (an empty file, or one
        # past the tool's 200,000 characters, goes back as it was).
        args = save_brief.SaveArgs.model_construct(
            relative_path=str(revert.args["relative_path"]), content=str(content)
        )
    if unknown:  # started before a crash, never confirmed: did the effect happen?
        facts = {"call_id": env.call_id, "idempotency_key": key}
        with store.write() as conn:
            append_event(conn, env.run_id, EventKind.OUTCOME_UNKNOWN, tool=revert.tool, data=facts)
        settled = (
            save_brief.reconcile_removal(env) if args is None else save_brief.reconcile(env, args)
        )
        if settled is not None:
            with store.write() as conn:
                append_event(
                    conn, env.run_id, EventKind.RECONCILED, tool=revert.tool,
                    data={**facts, "path": env.target},
                )  # fmt: skip
            return settled
    body: Callable[[], ToolResult] = (
        (lambda: save_brief.remove(env)) if args is None else (lambda: save_brief.run(env, args))
    )
    with network.socket_guard(frozenset()):
        return body()


def _record_failure(
    store: Store, run_id: str, revert: Approval, key: str, error: BriefDeskError
) -> None:
    """A refused revert (the file changed since it was approved, ...): recorded as failed and
    the run gets its status back; a retryable one (the disk is full, the fence is busy) leaves
    the call `started` and the run waiting, so the next `resume` settles it first."""
    with store.write() as conn:
        if error.code == ErrorCode.RUN_OWNED_ELSEWHERE:
            return  # taken over while it ran: the new owner settles it
        if error.retryable:
            _wait_again(store, run_id, None, conn)
            return
        ledger.finish(
            conn, key, SideEffectStatus.FAILED, str(ToolOutcomeStatus.ERROR),
            {"error": error.to_json()},
        )  # fmt: skip
        append_event(
            conn, run_id, EventKind.BLOCKED, tool=revert.tool,
            data={"call_id": revert.call_id, "rule": "revert", "code": error.code,
                  "resource": revert.target, "message": error.message[:300]},
        )  # fmt: skip
        tool_result(
            conn, run_id, revert.tool, revert.call_id, str(ToolOutcomeStatus.ERROR),
            executed=False, code=error.code, revert_of=revert.revises,
        )  # fmt: skip
        audit.record(
            conn, entry="block", principal="system", run_id=run_id, tool=revert.tool,
            resource=revert.target, rule_id="revert", code=error.code, detail=error.message,
        )  # fmt: skip
        lifecycle.end_revert(conn, run_id, revert.id)


def _wait_again(
    store: Store, run_id: str, owner: Owner | None, conn: Connection | None = None
) -> None:
    """Back to waiting on the approved revert, its ledger row still `started`: `resume` settles
    it by the target's hash before it writes again."""
    if conn is None:
        with store.write() as own:
            _wait_again(store, run_id, owner, own)
        return
    row = run_rows.get_run_row(conn, run_id)
    if row.status == RunStatus.RUNNING and (owner is None or run_rows.owner_of(row) == owner):
        move(conn, row, Transition.WAIT_APPROVAL, row.released())
