"""Persistence of approval proposals. A status changes only by `move` (the table of
contract/approval_moves.py, written by one conditional update): the first writer wins."""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict, dataclass, fields

from sqlalchemy import Connection, case, insert, literal, select, update
from sqlalchemy.exc import DBAPIError

from agent_core.contract.approval_moves import (
    DECISION_FIELDS,
    PROPOSED_AS,
    ApprovalMove,
    moved,
)
from agent_core.contract.approvals import Approval, check_decidable
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonMapping, JsonValue
from agent_core.contract.statuses import ApprovalStatus
from agent_core.home.clock import now_iso, utcnow
from agent_core.storage.schema import approvals
from agent_core.storage.tables.timeline import append_event

# SQLSTATE insufficient_privilege: the database's refusal of an early expiry (migration 0015).
_NOT_YET_DUE = "42501"


def new_approval_id() -> str:
    return "ap-" + uuid.uuid4().hex[:12]


def insert_approval(conn: Connection, approval: Approval) -> None:
    """A new proposal: born pending, or approved by a rule or the run's mode (`PROPOSED_AS`);
    any later status only through `move`."""
    if approval.status not in PROPOSED_AS:
        raise ValueError(f"a proposal is not made {approval.status}: it is moved there")
    values = asdict(approval)
    del values["args"]
    values["args_json"] = json.dumps(dict(approval.args), ensure_ascii=False, sort_keys=True)
    values["status"] = str(approval.status)
    conn.execute(insert(approvals).values(values))


def get_approval(conn: Connection, approval_id: str) -> Approval:
    row = conn.execute(select(approvals).where(approvals.c.id == approval_id)).first()
    if row is None:
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"No approval {approval_id!r} in this home.")
    return Approval.from_row(row)


def list_approvals(
    conn: Connection, *, status: str | None = None, run_id: str | None = None
) -> list[Approval]:
    query = select(approvals).order_by(approvals.c.created_at, approvals.c.version)
    if status:
        query = query.where(approvals.c.status == status)
    if run_id:
        query = query.where(approvals.c.run_id == run_id)
    return [Approval.from_row(r) for r in conn.execute(query)]


def pending_by_run(conn: Connection, run_ids: list[str] | None = None) -> dict[str, list[Approval]]:
    """Pending proposals grouped by run, in one query (of the given runs, or of all)."""
    query = (
        select(approvals)
        .where(approvals.c.status == str(ApprovalStatus.PENDING))
        .order_by(approvals.c.created_at, approvals.c.version)
    )
    if run_ids is not None:
        query = query.where(approvals.c.run_id.in_(run_ids))
    grouped: dict[str, list[Approval]] = {}
    for row in conn.execute(query):
        grouped.setdefault(row.run_id, []).append(Approval.from_row(row))
    return grouped


def latest_for_call(conn: Connection, run_id: str, call_id: str) -> Approval | None:
    row = conn.execute(
        select(approvals)
        .where(approvals.c.run_id == run_id, approvals.c.call_id == call_id)
        .order_by(approvals.c.version.desc())
        .limit(1)
    ).first()
    return None if row is None else Approval.from_row(row)


def answering(conn: Connection, approval_id: str) -> Approval | None:
    """The newest proposal that answers `approval_id`'s request for changes (its `revises`)."""
    row = conn.execute(
        select(approvals)
        .where(approvals.c.revises == approval_id)
        .order_by(approvals.c.created_at.desc(), approvals.c.version.desc())
        .limit(1)
    ).first()
    return None if row is None else Approval.from_row(row)


def rejected_in_thread(conn: Connection, thread_id: str, arg_hash: str) -> Approval | None:
    row = conn.execute(
        select(approvals)
        .where(
            approvals.c.thread_id == thread_id,
            approvals.c.arg_hash == arg_hash,
            approvals.c.status == str(ApprovalStatus.REJECTED),
        )
        .limit(1)
    ).first()
    return None if row is None else Approval.from_row(row)


@dataclass(frozen=True)
class DecidedCall:
    """A proposal as `rules suggest` weighs it (review/suggested_rules.py): which call of which
    tool on which target, in whose thread, and who decided it how. A projection of `Approval`
    (its fields, of its types) whose arguments are read only for an external agent's shell
    command (target `shell:CWD`): its rule holds the exact command. Any other call's are
    empty: a write's content may be large, and its rule ignores them."""

    id: str
    run_id: str
    thread_id: str
    call_id: str
    tool: str
    args: JsonMapping
    target: str | None
    arg_hash: str
    status: ApprovalStatus
    reviewer: str | None
    version: int
    revision: int
    revises: str | None
    desk: str | None
    created_at: str


_DECIDED_BY_A_PERSON = (
    ApprovalStatus.APPROVED,
    ApprovalStatus.CONSUMED,
    ApprovalStatus.REJECTED,
    ApprovalStatus.CHANGES_REQUESTED,
    ApprovalStatus.SUPERSEDED,
)


_SHELL_TARGET = "shell:"
"""An external agent's shell command aims at `shell:CWD` (external_agents/proposal_of_call.py)."""


def decided_by_people(conn: Connection) -> list[DecidedCall]:
    """Every proposal no rule or mode decided that a person approved, rejected, sent back or
    replaced (by an edit, or by asking again), oldest first: one query, reading arguments only
    for shell commands (`DecidedCall`)."""
    columns = [approvals.c[f.name] for f in fields(DecidedCall) if f.name != "args"]
    shell_args = case(
        (approvals.c.target.startswith(_SHELL_TARGET, autoescape=True), approvals.c.args_json),
        else_=literal("{}"),
    ).label("args_json")
    query = (
        select(*columns, shell_args)
        .where(
            approvals.c.decided_by_rule.is_(None),
            approvals.c.status.in_([str(s) for s in _DECIDED_BY_A_PERSON]),
        )
        .order_by(approvals.c.created_at, approvals.c.id)
    )
    decided = []
    for row in conn.execute(query):
        values = dict(row._mapping)
        values["args"] = _json_object(values.pop("args_json"))
        values["status"] = ApprovalStatus(row.status)
        decided.append(DecidedCall(**values))
    return decided


def _json_object(text: object) -> JsonMapping:
    """Stored arguments; unreadable ones as none (then no rule can hold the call's command)."""
    try:
        value = json.loads(str(text))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class NextRevision:
    """What the run's next proposal answers (the contract's `revision`, `revises`, `note`)."""

    revision: int
    """n+1 after n requests for changes in the run."""
    revises: str | None
    """The newest request for changes no proposal answered yet; None: none waits."""
    note: str | None
    """That request's text."""


def next_revision(conn: Connection, run_id: str) -> NextRevision:
    """The revision of the run's next proposal, and the request for changes it answers."""
    requests = conn.execute(
        select(approvals.c.id, approvals.c.decision_reason)
        .where(
            approvals.c.run_id == run_id,
            approvals.c.status == str(ApprovalStatus.CHANGES_REQUESTED),
        )
        .order_by(approvals.c.decided_at, approvals.c.created_at)
    ).all()
    if not requests:
        return NextRevision(1, None, None)
    newest = requests[-1]
    answered = conn.execute(
        select(approvals.c.id).where(approvals.c.revises == newest.id).limit(1)
    ).first()
    if answered is not None:
        return NextRevision(len(requests) + 1, None, None)
    return NextRevision(len(requests) + 1, str(newest.id), newest.decision_reason)


def move(
    conn: Connection,
    before: Approval,
    how: ApprovalMove,
    *,
    at: str | None = None,
    reviewer: str | None = None,
    reason: str | None = None,
) -> Approval:
    """The one writer of an approval's status: make `how` from the status (and version)
    `before` was read with, in the caller's transaction, and return the record as written.
    The table refuses an illegal move (`IllegalApprovalMove`); a row that moved meanwhile
    answers with what the winner left (expired, superseded, already resolved)."""
    after = moved(before, how, at=at or now_iso(), reviewer=reviewer, reason=reason)
    if not _write_move(conn, before, after):
        # Someone else won the race: answer with what they left.
        check_decidable(get_approval(conn, before.id), utcnow())
        raise BriefDeskError(
            ErrorCode.APPROVAL_ALREADY_RESOLVED, f"Approval {before.id} was decided elsewhere."
        )
    return after


def _write_move(conn: Connection, before: Approval, after: Approval) -> bool:
    """The only UPDATE of the status column: `after`'s decision fields, if the row is still
    exactly `before` (status and version). False when another writer moved it first."""
    result = conn.execute(
        update(approvals)
        .where(
            approvals.c.id == before.id,
            approvals.c.status == str(before.status),
            approvals.c.version == before.version,
        )
        .values(
            {
                name: str(after.status) if name == "status" else getattr(after, name)
                for name in DECISION_FIELDS
            }
        )
    )
    return result.rowcount == 1


def any_due(conn: Connection) -> bool:
    """Is a pending proposal past its expiry (by the core's clock)? One cheap read."""
    due = conn.execute(
        select(approvals.c.id)
        .where(
            approvals.c.status == str(ApprovalStatus.PENDING), approvals.c.expires_at <= now_iso()
        )
        .limit(1)
    ).first()
    return due is not None


def expire_due(conn: Connection) -> list[Approval]:
    """Move every pending proposal past its expiry (by the core's clock) by `EXPIRE`, under
    the same table and the same conditional write as any move; returns those moved."""
    now = now_iso()
    rows = conn.execute(
        select(approvals).where(
            approvals.c.status == str(ApprovalStatus.PENDING), approvals.c.expires_at <= now
        )
    ).all()
    changed = []
    for row in rows:
        due = Approval.from_row(row)
        after = moved(due, ApprovalMove.EXPIRE, at=now)
        if _expire_one(conn, due, after):
            changed.append(after)
    return changed


def _expire_one(conn: Connection, due: Approval, after: Approval) -> bool:
    """Expire one pending proposal; False when another expired or decided it first.

    In team mode the database lets a desk expire another desk's proposal only once the server's
    clock passed its time (migration 0015): a desk whose clock runs ahead leaves it for later
    (a savepoint keeps the rest of the sweep), never fails the command that swept."""
    if conn.dialect.name != "postgresql":
        return _write_move(conn, due, after)
    try:
        with conn.begin_nested():
            return _write_move(conn, due, after)
    except DBAPIError as exc:
        if getattr(exc.orig, "sqlstate", None) == _NOT_YET_DUE:
            return False
        raise


def append_approval_event(
    conn: Connection,
    approval: Approval,
    kind: str,
    *,
    reviewer: str | None,
    status: str | None = None,
    **extra: JsonValue,
) -> None:
    """The contract's approval event (approval_id, status, reviewer), in the caller's write."""
    data: dict[str, JsonValue] = {
        "approval_id": approval.id,
        "status": status or str(approval.status),
        "reviewer": reviewer,
        **extra,
    }
    append_event(conn, approval.run_id, kind, tool=approval.tool, data=data)
