"""Editing a proposal: a reviewer's new arguments become a new version (validated as the
model's call was), and the old one is `superseded`; the dialog checks an edit first without
changing anything, and may approve the edited version in one step.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sqlalchemy import Connection

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import Approval, check_decidable, is_revert
from agent_core.contract.canonical import arg_hash
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.json_input import object_argument
from agent_core.contract.json_types import JsonMapping, JsonObject
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
from agent_core.storage.tables.blobs import put_blob
from agent_core.tools.agent_calls.files import file_hash, read_text
from agent_core.tools.agent_calls.kinds import CallKind
from agent_core.tools.agent_calls.registry import agent_of_thread, tools_for
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
        agent = agent_of_thread(current.thread_id)
        tools = tools_of(conn, current.run_id, current.tool)
        if agent is not None:
            normalized, target = _agent_call(agent, current, edited, row)
        else:
            scope = _scope_of(row, settings)
            normalized, target = validate_call(current.tool, edited, scope, tools)
        if target != current.target:  # an edit may move the write: the grant must cover both
            grant_rows.require(
                conn, reviewer=reviewer, tool=current.tool, path=target, doing="edit"
            )
        approval_rows.move(conn, current, ApprovalMove.SUPERSEDE_BY_EDIT, reviewer=reviewer)
        base_hash: str | None
        base_digest: str | None
        if agent is not None:  # an agent's file: its base as it is now, kept for every desk
            base_hash, base_digest = _agent_base(conn, current.run_id, target)
        elif not proposed_elsewhere(current, desk):  # against the file as it is now
            spec = tools.spec_for(current.tool)
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
        agent = agent_of_thread(approval.thread_id)
        if agent is not None:
            normalized, target = _agent_call(agent, approval, object_argument(args), row)
        else:
            scope = _scope_of(row, settings)
            normalized, target = validate_call(approval.tool, args, scope, tools)
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


def _agent_call(
    agent: str, current: Approval, edited: JsonObject, row: run_rows.RunRow
) -> tuple[JsonObject, str | None]:
    """An external agent's edited tool input, taken as the person wrote it (the agent checks
    it as its own tool's input), and its target: a file write's (first) file, worked out
    again (an edit of text not in the file is refused here), else the proposal's."""
    tools = tools_for(agent)
    if tools.kind(current.tool, edited) is not CallKind.FILE_WRITE:
        return edited, current.target
    changes = tools.file_changes(current.tool, edited, row.cwd or "/", read_text)
    return edited, changes[0].path if changes else current.target


def _agent_base(conn: Connection, run_id: str, target: str | None) -> tuple[str | None, str | None]:
    """An agent's file target: its hash now and its content kept (None, None: no file)."""
    if target is None or not target.startswith("/"):
        return None, None
    text = read_text(target)
    if text is None:
        return None, None
    return file_hash(target), put_blob(conn, text.encode("utf-8"), run_id=run_id)


def _scope_of(row: run_rows.RunRow, settings: Settings) -> ToolScope:
    """Where the run's tools may read and write: the same scope its own calls had."""
    return ToolScope(Path(row.corpus_dir), Path(row.artifacts_dir), settings)
