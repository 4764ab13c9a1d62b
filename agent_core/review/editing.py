"""Editing a proposal: a reviewer's new arguments become a new version (validated as the
model's call was), and the old one is `superseded`; the dialog checks an edit first without
changing anything, and may approve the edited version in one step.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import Approval, check_decidable, is_revert
from agent_core.contract.canonical import arg_hash
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.json_input import object_argument
from agent_core.contract.json_types import JsonMapping
from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.views import ApprovalView, EditCheckView
from agent_core.home.clock import now_iso, utcnow
from agent_core.home.preferences import Settings
from agent_core.review.decisions import approve, require_reviewer
from agent_core.review.expiry import sweep_expired
from agent_core.review.proposals import approval_view, proposed_elsewhere
from agent_core.review.tool_of import tools_of
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import audit
from agent_core.storage.tables import grants as grant_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.tools.proposal_base import keep_base
from agent_core.tools.specs import ToolScope
from agent_core.tools.validation import validate_call


def edit(
    store: Store,
    settings: Settings,
    approval_id: str,
    *,
    reviewer: str,
    args: JsonMapping | str,
    desk: str | None = None,
) -> ApprovalView:
    """A new pending version with `args` (a JSON object, or its text); the one edited is
    superseded. The grant must cover the target before and after (an edit may move it)."""
    reviewer = require_reviewer(reviewer)
    edited = object_argument(args)  # bounded nesting: 5,000 deep is invalid_arguments too
    sweep_expired(store)
    with store.write() as conn:
        current = approval_rows.get_approval(conn, approval_id)
        grant_rows.require(
            conn, reviewer=reviewer, tool=current.tool, path=current.target, doing="edit"
        )
        check_decidable(current, utcnow())
        _refuse_revert(current)
        row = run_rows.get_run_row(conn, current.run_id)
        tools = tools_of(conn, current.run_id, current.tool)
        normalized, target = validate_call(current.tool, edited, _scope_of(row, settings), tools)
        if target != current.target:  # an edit may move the write: the grant must cover both
            grant_rows.require(
                conn, reviewer=reviewer, tool=current.tool, path=target, doing="edit"
            )
        approval_rows.move(conn, current, ApprovalMove.SUPERSEDE_BY_EDIT, reviewer=reviewer)
        spec = tools.spec_for(current.tool)
        base_hash: str | None
        base_digest: str | None
        if not proposed_elsewhere(current, desk):  # against the file as it is now
            base_hash = spec.base_hash(target)
            base_digest = keep_base(conn, spec, target, base_hash, run_id=current.run_id)
        elif target == current.target:  # another desk's file: the base it was proposed on
            base_hash, base_digest = current.base_hash, current.base_digest
        else:  # moved on a desk that cannot see the new target: its desk refuses any file there
            base_hash = base_digest = None
        new = replace(
            current,
            id=approval_rows.new_approval_id(),
            args=normalized,
            target=target,
            base_hash=base_hash,
            base_digest=base_digest,
            arg_hash=arg_hash(current.tool, normalized),
            version=current.version + 1,
            status=ApprovalStatus.PENDING,
            created_at=now_iso(),
            reason=f"edited by {reviewer}: " + current.reason,
        )
        approval_rows.insert_approval(conn, new)
        approval_rows.append_approval_event(
            conn, current, EventKind.APPROVAL_DECIDED, reviewer=reviewer,
            status="superseded", by=new.id,
        )  # fmt: skip
        approval_rows.append_approval_event(
            conn, new, EventKind.APPROVAL_REQUESTED, reviewer=None,
            target=target, version=new.version,
        )  # fmt: skip
        audit.record(
            conn,
            entry="decision",
            principal=f"person:{reviewer}",
            run_id=current.run_id,
            tool=current.tool,
            arg_hash=new.arg_hash,
            resource=target,
            decision="edited",
            detail=f"{current.id} -> {new.id}",
        )
        return approval_view(new)


def validate_edit(
    store: Store, settings: Settings, approval_id: str, args: JsonMapping | str
) -> EditCheckView:
    """Validate edited arguments exactly as `edit` would, without changing anything."""
    with store.read() as conn:
        approval = approval_rows.get_approval(conn, approval_id)
        row = run_rows.get_run_row(conn, approval.run_id)
        tools = tools_of(conn, approval.run_id, approval.tool)
    try:
        _refuse_revert(approval)
        normalized, target = validate_call(approval.tool, args, _scope_of(row, settings), tools)
    except BriefDeskError as exc:
        return {"ok": False, "error": exc.to_json(), "target": None}
    return {"ok": True, "error": None, "target": target, "args": normalized}


def approve_edited(
    store: Store,
    settings: Settings,
    approval_id: str,
    *,
    reviewer: str,
    args: JsonMapping | str,
    reason: str | None = None,
    desk: str | None = None,
) -> ApprovalView:
    """The dialog's "Approve edited": a new version with these arguments, approved."""
    new = edit(store, settings, approval_id, reviewer=reviewer, args=args, desk=desk)
    return approve(
        store, new["id"], reviewer=reviewer, reason=reason or "approved as edited", desk=desk
    )


def _refuse_revert(approval: Approval) -> None:
    """A revert puts back exact bytes kept by the store: there is nothing to edit in it."""
    if is_revert(approval):
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"Approval {approval.id} is a revert: approve or reject it; it cannot be edited.",
        )


def _scope_of(row: run_rows.RunRow, settings: Settings) -> ToolScope:
    """Where the run's tools may read and write: the same scope its own calls had."""
    return ToolScope(Path(row.corpus_dir), Path(row.artifacts_dir), settings)
