"""Reviewing proposals: list, decide, edit, expire, remember; every change is one transaction.

The Workspace facade delegates here. Transitions are the pure functions of approvals.py,
persisted with conditional updates (storage/approvals.py) so the first reviewer wins.
"""

from __future__ import annotations

import json
import logging
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, insert, select

from agent_core.contract.canonical import arg_hash
from agent_core.contract.errors import BriefDeskError, ErrorCode, ErrorJSON
from agent_core.contract.events import EventKind
from agent_core.contract.json_input import object_argument
from agent_core.contract.statuses import ApprovalStatus, RunStatus
from agent_core.contract.views import ApprovalView, DamagedRunView, RuleView, RunView
from agent_core.home.clock import now_iso, utcnow
from agent_core.home.preferences import Settings
from agent_core.review.transitions import (
    Approval,
    check_decidable,
    decide,
    is_expired,
    required_note,
)
from agent_core.runs import lifecycle
from agent_core.storage.engine import Store
from agent_core.storage.schema import approvals, rules
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import audit
from agent_core.storage.tables import grants as grant_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.team.leases import Leases, seen_from
from agent_core.tools.proposal_base import base_text, keep_base
from agent_core.tools.registry import spec_for
from agent_core.tools.specs import ToolScope

log = logging.getLogger(__name__)


def run_json(
    conn: Connection,
    row: Any,
    pending: list[Approval] | None = None,
    *,
    desk: str | None = None,
    book: Leases | None = None,
) -> RunView:
    """RUN as the contract shows it; `pending`: its pending proposals, when already loaded.

    `desk`: the desk looking (team mode), `book`: the leases it judges other desks' runs by
    (read here when not given)."""
    run_rows.readable(row)  # a row this app cannot read is `storage_corrupt`, not a traceback
    if pending is None:
        pending = approval_rows.list_approvals(conn, status="pending", run_id=row.run_id)
    if book is None:
        book = seen_from(conn, desk)
    status = run_rows.effective_status(row, book)
    # Past its time a proposal is expired, whether or not a sweep has written it yet: a read
    # shows the truth without writing (the sweep records it, with its events).
    now = utcnow()
    live = [a for a in pending if not is_expired(a, now)]
    if status is RunStatus.WAITING_APPROVAL and pending and not live:
        status = RunStatus.EXPIRED
    data: RunView = {
        "run_id": row.run_id,
        "thread_id": row.thread_id,
        "status": str(status),
        "question": row.question,
        "model": row.model,
        "mode": row.mode,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "approvals": [approval_view(a) for a in live],
        "question_pending": row.question_pending if status is RunStatus.WAITING_INPUT else None,
        "output": row.output,
        "error": json.loads(row.error_json) if row.error_json else None,
        "corpus": row.corpus_dir,
        "artifacts": row.artifacts_dir,
        "desk": row.desk,
    }
    # Only its own desk continues a run: on another desk, `resume` would refuse it.
    data["ready_to_continue"] = _ready_to_continue(
        status, row, bool(pending), data["error"]
    ) and not run_rows.other_desk(row, desk)
    # Who drives it: for a person deciding whether to take over an owner on another host.
    data["owner"] = lifecycle.owner_view(conn, row) if status is RunStatus.RUNNING else None
    return data


def _ready_to_continue(
    status: RunStatus, row: Any, has_pending: bool, error: ErrorJSON | None
) -> bool:
    """Would `resume` continue this run now? (A decision made in another process changes no
    status: the run still waits, with nothing left to decide.)"""
    if status is RunStatus.WAITING_APPROVAL:
        return not has_pending
    if status is RunStatus.WAITING_INPUT:
        return row.question_pending is None  # `answer` clears it
    if status is RunStatus.FAILED:
        return lifecycle.is_retryable(error)
    return status in (RunStatus.INTERRUPTED, RunStatus.CREATED)


def runs_json(
    conn: Connection,
    run_ids: list[str] | None = None,
    damaged: list[DamagedRunView] | None = None,
    *,
    desk: str | None = None,
) -> list[RunView]:
    """Every run (or the given ones), newest first, with their pending proposals: two queries.

    A run whose row (or one of its proposals) this app cannot read is left out, and reported
    in `damaged` when given: one bad row never hides the rest of the home."""
    rows = run_rows.list_run_rows(conn, run_ids)
    pending: dict[str, list[Approval]] | None
    try:
        pending = approval_rows.pending_by_run(conn, None if run_ids is None else run_ids)
    except BriefDeskError as exc:
        if exc.code != ErrorCode.STORAGE_CORRUPT:
            raise
        pending = None  # a bad proposal: each run reads its own, so only its run is damaged
    book = seen_from(conn, desk)  # one look at the leases for the whole list
    views: list[RunView] = []
    for row in rows:
        try:
            own = None if pending is None else pending.get(row.run_id, [])
            views.append(run_json(conn, row, own, desk=desk, book=book))
        except BriefDeskError as exc:
            if exc.code != ErrorCode.STORAGE_CORRUPT:
                raise
            log.warning("listing runs: %s", exc.message)
            if damaged is not None:
                damaged.append(DamagedRunView(run_id=str(row.run_id), error=exc.to_json()))
    return views


def approval_view(approval: Approval) -> ApprovalView:
    """The contract's APPROVAL plus what its tool's spec tells a reviewer's window: which
    argument is the new content of the target (shown as a diff) and which names the target."""
    spec = spec_for(approval.tool)
    view = approval.to_json()
    if approval.status is ApprovalStatus.PENDING and is_expired(approval, utcnow()):
        view["status"] = str(ApprovalStatus.EXPIRED)  # not yet swept (see run_json)
    view["content_field"] = spec.content_field
    view["path_field"] = spec.path_field
    return view


def sweep_expired(store: Store) -> int:
    """Expire every pending proposal past its time; their runs become `expired`.

    Called by the commands that decide or resume, by the CLI before it shows runs or
    proposals, and by the window on a timer: never inside a read (reads do not write).
    """
    with store.read() as conn:
        due = conn.execute(
            select(approvals.c.id)
            .where(approvals.c.status == "pending", approvals.c.expires_at <= now_iso())
            .limit(1)
        ).first()
    if due is None:
        return 0
    with store.write() as conn:
        changed = approval_rows.expire_due(conn)
        for ap in changed:
            approval_rows.append_approval_event(conn, ap, EventKind.APPROVAL_DECIDED, reviewer=None)
            row = run_rows.get_run_row(conn, ap.run_id)
            if row.status == RunStatus.WAITING_APPROVAL:
                lifecycle.expire(conn, ap.run_id, None)
    return len(changed)


def list_approvals(
    store: Store, *, status: str | None = None, run_id: str | None = None
) -> list[ApprovalView]:
    if status and status not in ApprovalStatus._value2member_map_:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"Unknown approval status {status!r}.")
    # A pending proposal past its time shows as expired (see approval_view): filter on that.
    stored = None if status in (ApprovalStatus.PENDING, ApprovalStatus.EXPIRED) else status
    with store.read() as conn:
        views = [
            approval_view(a)
            for a in approval_rows.list_approvals(conn, status=stored, run_id=run_id)
        ]
    return [v for v in views if status is None or v["status"] == status]


def get_approval(store: Store, approval_id: str) -> ApprovalView:
    with store.read() as conn:
        return approval_view(approval_rows.get_approval(conn, approval_id))


def approve(
    store: Store,
    approval_id: str,
    *,
    reviewer: str,
    reason: str | None = None,
    remember: str | None = None,
    desk: str | None = None,
) -> ApprovalView:
    """Approve; `desk`: the reader's in team mode (another desk's target is not checked here:
    its desk checks it before writing)."""
    if remember not in (None, "run", "home"):
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "--remember takes run or home.")
    return _decide(store, approval_id, ApprovalStatus.APPROVED, reviewer, reason, remember, desk)


def reject(
    store: Store,
    approval_id: str,
    *,
    reviewer: str,
    reason: str | None = None,
    revise: bool = False,
) -> ApprovalView:
    """Reject (the run ends `cancelled`), or with `revise` send it back with the note `reason`:
    `changes_requested`, and the run goes on when resumed (the model reads the note)."""
    if not revise:
        return _decide(store, approval_id, ApprovalStatus.REJECTED, reviewer, reason, None)
    note = required_note(reason)  # before any lookup: a bad command changes nothing
    return _decide(store, approval_id, ApprovalStatus.CHANGES_REQUESTED, reviewer, note, None)


def _decide(
    store: Store,
    approval_id: str,
    status: ApprovalStatus,
    reviewer: str,
    reason: str | None,
    remember: str | None,
    desk: str | None = None,
) -> ApprovalView:
    reviewer = _require_reviewer(reviewer)
    sweep_expired(store)
    with store.write() as conn:
        current = approval_rows.get_approval(conn, approval_id)
        grant_rows.require(
            conn, reviewer=reviewer, tool=current.tool, path=current.target, doing=_DOING[status]
        )
        check_decidable(current, utcnow())
        if status is ApprovalStatus.APPROVED:
            _check_target_unchanged(current, desk)
        after = approval_rows.transition(
            conn,
            current,
            decide(current, status, reviewer=reviewer, reason=reason, now_iso=now_iso()),
        )
        rule_id = _remember(conn, after, reviewer, remember) if remember else None
        approval_rows.append_approval_event(
            conn, after, EventKind.APPROVAL_DECIDED, reviewer=reviewer, rule=rule_id
        )
        audit.record(
            conn,
            entry="decision",
            principal=f"person:{reviewer}",
            run_id=after.run_id,
            tool=after.tool,
            arg_hash=after.arg_hash,
            resource=after.target,
            rule_id=rule_id,
            decision=str(after.status),
            detail=reason,
        )
        return approval_view(after)


# What a decision is called in a refusal ("has no grant to approve save_brief on ...").
_DOING = {
    ApprovalStatus.APPROVED: "approve",
    ApprovalStatus.REJECTED: "reject",
    ApprovalStatus.CHANGES_REQUESTED: "request changes to",
}


def _remember(conn: Connection, approval: Approval, reviewer: str, scope: str) -> str:
    if approval.target is None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, "Only calls with a target can be remembered."
        )
    folder = str(Path(approval.target).parent)
    # A rule decides every later call under its folder: the grant must cover all of it.
    grant_rows.require(conn, reviewer=reviewer, tool=approval.tool, path=folder, doing="remember")
    rule_id = "rule-" + uuid.uuid4().hex[:10]
    conn.execute(
        insert(rules).values(
            id=rule_id,
            tool=approval.tool,
            folder=folder,
            scope=scope,
            run_id=approval.run_id if scope == "run" else None,
            created_by=reviewer,
            created_at=now_iso(),
        )
    )
    return rule_id


def edit(
    store: Store,
    settings: Settings,
    approval_id: str,
    *,
    reviewer: str,
    args: dict[str, Any] | str,
    desk: str | None = None,
) -> ApprovalView:
    from agent_core.tools.validation import validate_call

    reviewer = _require_reviewer(reviewer)
    args = object_argument(args)  # bounded nesting: 5,000 deep is invalid_arguments too
    sweep_expired(store)
    with store.write() as conn:
        current = approval_rows.get_approval(conn, approval_id)
        grant_rows.require(
            conn, reviewer=reviewer, tool=current.tool, path=current.target, doing="edit"
        )
        check_decidable(current, utcnow())
        row = run_rows.get_run_row(conn, current.run_id)
        normalized, target = validate_call(current.tool, args, _scope_of(row, settings))
        if target != current.target:  # an edit may move the write: the grant must cover both
            grant_rows.require(
                conn, reviewer=reviewer, tool=current.tool, path=target, doing="edit"
            )
        approval_rows.transition(
            conn,
            current,
            replace(
                current,
                status=ApprovalStatus.SUPERSEDED,
                reviewer=reviewer,
                decided_at=now_iso(),
            ),
        )
        spec = spec_for(current.tool)
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


def describe_approval(store: Store, approval_id: str, *, desk: str | None = None) -> dict[str, Any]:
    """Everything a reviewer's dialog shows, read off the GUI thread: the proposal, the
    target's text the diff starts from, and whether it changed since the proposal was made.

    On the desk that proposed it (`desk`: the reader's, in team mode) the diff starts from the
    file as it is now, which is what a write would replace. Another desk's machine does not
    hold that file: there the diff starts from the content kept when it was proposed (its
    base blob), the same diff the proposing desk showed, and only the owner desk can tell
    whether its file changed since (`target_changed` stays false here; the owner checks again
    before it writes)."""
    sweep_expired(store)
    with store.read() as conn:
        approval = approval_rows.get_approval(conn, approval_id)
        run = run_json(conn, run_rows.get_run_row(conn, approval.run_id))
        newest = approval_rows.latest_for_call(conn, approval.run_id, approval.call_id)
        elsewhere = proposed_elsewhere(approval, desk, run.get("desk"))
        kept = base_text(conn, approval.base_digest) if elsewhere else None
    spec = spec_for(approval.tool)
    current_text: str | None = None
    current_hash: str | None = None
    shows_content = spec.content_field is not None and approval.target is not None
    compared_with = "file"
    if shows_content and elsewhere:
        current_text = kept
        known = approval.base_hash is None or kept is not None
        compared_with = "proposal_base" if known else "unknown_base"
    elif shows_content:
        current_hash = spec.base_hash(approval.target)
        if current_hash is not None:
            current_text = Path(str(approval.target)).read_text(encoding="utf-8", errors="replace")
    return {
        "approval": approval_view(approval),
        "run": run,
        "current_text": current_text,
        "current_hash": current_hash,
        "compared_with": compared_with,
        "target_changed": shows_content and not elsewhere and current_hash != approval.base_hash,
        "content_field": spec.content_field,
        "path_field": spec.path_field,
        "newest_id": newest.id if newest else approval.id,
        "artifacts_root": run["artifacts"],
    }


def validate_edit(
    store: Store, settings: Settings, approval_id: str, args: dict[str, Any]
) -> dict[str, Any]:
    """Validate edited arguments exactly as `edit` would, without changing anything."""
    from agent_core.tools.validation import validate_call

    with store.read() as conn:
        approval = approval_rows.get_approval(conn, approval_id)
        row = run_rows.get_run_row(conn, approval.run_id)
    try:
        normalized, target = validate_call(approval.tool, args, _scope_of(row, settings))
    except BriefDeskError as exc:
        return {"ok": False, "error": exc.to_json(), "target": None}
    return {"ok": True, "error": None, "target": target, "args": normalized}


def approve_edited(
    store: Store,
    settings: Settings,
    approval_id: str,
    *,
    reviewer: str,
    args: dict[str, Any],
    reason: str | None = None,
    desk: str | None = None,
) -> ApprovalView:
    """The dialog's "Approve edited": a new version with these arguments, approved."""
    new = edit(store, settings, approval_id, reviewer=reviewer, args=args, desk=desk)
    return approve(
        store, new["id"], reviewer=reviewer, reason=reason or "approved as edited", desk=desk
    )


def list_rules(store: Store) -> list[RuleView]:
    with store.read() as conn:
        return [_rule_json(r) for r in conn.execute(select(rules).order_by(rules.c.created_at))]


def revoke_rule(store: Store, rule_id: str) -> RuleView:
    with store.write() as conn:
        row = conn.execute(select(rules).where(rules.c.id == rule_id)).first()
        if row is None:
            raise BriefDeskError(ErrorCode.NOT_FOUND, f"No rule {rule_id!r}.")
        if row.revoked_at is None:
            conn.execute(rules.update().where(rules.c.id == rule_id).values(revoked_at=now_iso()))
        return _rule_json(conn.execute(select(rules).where(rules.c.id == rule_id)).one())


def _rule_json(row: Any) -> RuleView:
    from agent_core.tools.policy import Rule

    return RuleView(
        id=row.id,
        tool=row.tool,
        folder=row.folder,
        scope=row.scope,
        run_id=row.run_id,
        created_by=row.created_by,
        created_at=row.created_at,
        revoked_at=row.revoked_at,
        active=row.revoked_at is None,
        describes=Rule(row.id, row.tool, row.folder, row.scope, row.run_id).describe(),
    )


def _require_reviewer(reviewer: str | None) -> str:
    reviewer = (reviewer or "").strip()
    if not reviewer:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, "A reviewer name is required (--reviewer)."
        )
    return reviewer[:80]


def proposed_elsewhere(approval: Approval, desk: str | None, run_desk: str | None = None) -> bool:
    """True when another desk's run proposed it (team mode: `desk` is the reader's): this
    machine does not hold its target, so only the kept base and the owner's checks count."""
    owner = approval.desk or run_desk
    return desk is not None and owner is not None and owner != desk


def _check_target_unchanged(approval: Approval, desk: str | None = None) -> None:
    if approval.target is None or proposed_elsewhere(approval, desk):
        return  # another desk's file: that desk checks it before it writes (target_changed)
    if spec_for(approval.tool).base_hash(approval.target) != approval.base_hash:
        raise BriefDeskError(
            ErrorCode.TARGET_CHANGED,
            f"{approval.target} changed since this proposal was made; "
            "reject it or edit it to see the new diff.",
        )


def _scope_of(row: Any, settings: Settings) -> ToolScope:
    return ToolScope(Path(row.corpus_dir), Path(row.artifacts_dir), settings)
