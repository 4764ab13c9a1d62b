"""A way back (`approvals revert`): a person's proposal that puts an executed write's target
back byte for byte as it was before that write.

The revert is a proposal like any other (`save_brief`, pending, decided by a person in the
window or the CLI), never the model's: it revises the write it undoes (`revises`, revision 1),
its `args` carry the base content kept with that write (`approvals.base_digest`), or a null
`content` when the write created the file (the revert removes it). No rule and no mode decides
it: it is made pending here and never passes the policy (tools/policy.py), and approving it
with `--remember` is refused. The run, ended or not, waits on it (`waiting_approval`, the
status it had kept in its state: runs/lifecycle.py `wait_revert`); `resume` executes it without
a model turn (runs/revert_run.py), and executing or rejecting it gives the run that status back.

Refusals: `target_changed` when the file is no longer what the approved write left (the
ledger's expected hash of that write); `not_revertible` for anything else: not a write, not
executed (pending, rejected, failed), its base not kept (over 4 MiB, or not text), a run that
is running, or one already waiting on a proposal (one decision at a time: decide or cancel
that one first). Reverting a revert is allowed (it is an executed write too); reverting the
same write twice is refused by its own rule, the file is no longer what that write left.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path

from sqlalchemy import Connection

from agent_core.contract.approvals import Approval
from agent_core.contract.canonical import arg_hash, iso, sha256_hex
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonObject
from agent_core.contract.statuses import ApprovalStatus, RunStatus, ToolOutcomeStatus
from agent_core.contract.views import ApprovalView
from agent_core.home.clock import utcnow
from agent_core.home.sandbox import file_sha256
from agent_core.review.decisions import require_reviewer
from agent_core.review.expiry import sweep_expired
from agent_core.review.proposals import approval_view
from agent_core.runs import lifecycle, ownership
from agent_core.runs.progress import RunLimits, RunProgress
from agent_core.runs.transitions import REVERTIBLE_FROM
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import audit, ledger
from agent_core.storage.tables import grants as grant_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.blobs import get_blob
from agent_core.storage.team.leases import Leases
from agent_core.tools.proposal_base import keep_base
from agent_core.tools.registry import spec_for

REVERTED_TOOL = "save_brief"
"""The one tool whose executed writes can be reverted (its base content is kept)."""


def _refused(message: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.NOT_REVERTIBLE, message)


def propose_revert(
    store: Store,
    approval_id: str,
    *,
    reviewer: str,
    reason: str | None = None,
    desk: str | None = None,
) -> ApprovalView:
    """The pending revert of the executed write `approval_id`; its run waits on it.
    `desk`: this desk in team mode (another desk's run: `run_owned_elsewhere`, its file is on
    that desk's machine)."""
    reviewer = require_reviewer(reviewer)
    sweep_expired(store)
    with store.write() as conn:
        write = approval_rows.get_approval(conn, approval_id)
        grant_rows.require(
            conn, reviewer=reviewer, tool=write.tool, path=write.target, doing="revert"
        )
        left = _executed_hash(conn, write)
        row = run_rows.get_run_row(conn, write.run_id)
        if run_rows.other_desk(row, desk):
            raise ownership.owned_elsewhere(row, Leases.read(conn, desk))
        _require_revertible_run(row)
        target = str(write.target)
        now_hash = file_sha256(Path(target))
        if now_hash != left:
            raise BriefDeskError(
                ErrorCode.TARGET_CHANGED,
                f"{target} changed since approval {write.id} wrote it; a revert would "
                "overwrite changes nobody reviewed.",
            )
        args: JsonObject = {
            "relative_path": str(write.args["relative_path"]),
            "content": _base_content(conn, write),
        }
        revert = _revert_row(conn, write, row, args, now_hash, reason)
        approval_rows.insert_approval(conn, revert)
        approval_rows.append_approval_event(
            conn, revert, EventKind.APPROVAL_REQUESTED, reviewer=None, target=target
        )
        lifecycle.wait_revert(conn, write.run_id, revert.id)
        audit.record(
            conn,
            entry="revert_requested",
            principal=f"person:{reviewer}",
            run_id=write.run_id,
            tool=revert.tool,
            arg_hash=revert.arg_hash,
            resource=target,
            decision=str(ApprovalStatus.PENDING),
            detail=f"revert of {write.id}" + (f": {reason}" if reason else ""),
        )
        return approval_view(revert)


def _executed_hash(conn: Connection, write: Approval) -> str | None:
    """The hash the executed write left at its target (None: a removal left no file)."""
    if write.tool != REVERTED_TOOL or write.target is None:
        raise _refused(f"Approval {write.id} is a {write.tool} call, not a write of a file.")
    if write.status is not ApprovalStatus.CONSUMED:
        raise _refused(
            f"Approval {write.id} is {write.status}: only an approved write that was executed "
            "can be reverted."
        )
    entry = ledger.confirmed_for_call(conn, write.run_id, write.call_id)
    if entry is None or entry.outcome != ToolOutcomeStatus.SUCCESS:
        raise _refused(f"Approval {write.id} was never executed: there is nothing to undo.")
    return entry.expected_hash


def _require_revertible_run(row: run_rows.RunRow) -> None:
    status = RunStatus(row.status)
    if status in REVERTIBLE_FROM:
        return
    if status is RunStatus.WAITING_APPROVAL:
        why = "waits on another proposal; decide or cancel that one first"
    else:
        why = f"is {status}; revert its write once it has stopped"
    raise _refused(f"Run {row.run_id} {why}.")


def _base_content(conn: Connection, write: Approval) -> str | None:
    """The target's bytes before the write, as text (None: the write created the file)."""
    if write.base_hash is None:
        return None
    if write.base_digest is None:
        raise _refused(
            f"The content {write.target} had before approval {write.id} was not kept "
            "(over 4 MiB, or from a version before kept bases): it cannot be put back."
        )
    data = get_blob(conn, write.base_digest)
    if sha256_hex(data) != write.base_hash:
        raise BriefDeskError(
            ErrorCode.STORAGE_CORRUPT, f"The kept base of approval {write.id} is damaged."
        )
    try:
        return data.decode("utf-8")  # strict: what is written back is these very bytes
    except UnicodeDecodeError:
        raise _refused(
            f"{write.target} held bytes that are not UTF-8 text before approval {write.id}."
        ) from None


def _revert_row(
    conn: Connection,
    write: Approval,
    row: run_rows.RunRow,
    args: JsonObject,
    now_hash: str | None,
    reason: str | None,
) -> Approval:
    now = utcnow()
    ttl = RunLimits.loads(row.limits_json).approval_ttl
    spec = spec_for(write.tool)
    what = "remove the file it created" if args["content"] is None else "put back its content"
    return Approval(
        id=approval_rows.new_approval_id(),
        run_id=write.run_id,
        thread_id=write.thread_id,
        call_id="revert-" + uuid.uuid4().hex[:12],  # its own call: never the model's
        tool=write.tool,
        args=args,
        target=write.target,
        base_hash=now_hash,
        risk=write.risk,
        reason=f"A person asked to revert approval {write.id}: {what}.",
        arg_hash=arg_hash(write.tool, args),
        state_version=RunProgress.loads(row.state_json).state_version,
        version=1,
        status=ApprovalStatus.PENDING,  # a person decides it: no rule, no mode
        created_at=iso(now),
        expires_at=iso(now + timedelta(seconds=ttl)),
        desk=row.desk,
        base_digest=keep_base(conn, spec, write.target, now_hash, run_id=write.run_id),
        revision=1,
        revises=write.id,
        revision_note=reason,
    )
