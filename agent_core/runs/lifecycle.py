"""The only writer of a run's status: a transition table and one function per transition.

Each function runs inside the caller's write transaction and does everything its transition
implies, so a run can never be half-moved: the status and owner fields, the timeline event, the
approval and audit rows (a cancel closes pending proposals as `cancelled`, on record, never as
`rejected`), and at every end the release of the owner and the pruning of checkpoints to the
latest one. A transition that is not in the table raises `IllegalTransition`.

Desks (team mode, a PostgreSQL store): a run belongs to the desk that created it, and is
resumed or cancelled only there (`run_owned_elsewhere`). Another desk takes it over only once
the owner desk's lease has lapsed (storage/leases.py); the run then moves to that desk. Each
write of a driving process first checks that its desk still holds the run (`check_held`), so a
desk whose run was taken over meanwhile stops at its next boundary without writing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from enum import StrEnum

from sqlalchemy import Connection, delete, func, select, update
from sqlalchemy.engine import Row

from agent_core import RUNTIME_VERSION
from agent_core.contract.errors import BriefDeskError, ErrorCode, ErrorJSON
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import ApprovalStatus, RunStatus
from agent_core.contract.views import OwnerView
from agent_core.home.clock import now_iso
from agent_core.runs.progress import RunProgress
from agent_core.storage.schema import audit as audit_table
from agent_core.storage.schema import checkpoints, events, runs
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import audit
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.timeline import append_event
from agent_core.storage.team import leases


class Transition(StrEnum):
    START = "start"
    """First drive of a created run."""
    RESUME = "resume"
    """A process takes over a run that waits, was interrupted or failed retryably."""
    WAIT_APPROVAL = "wait_approval"
    """The driver stops at a proposal a person must decide."""
    WAIT_INPUT = "wait_input"
    """The driver stops at a question a person must answer."""
    SUCCEED = "succeed"
    """The model gave its final answer."""
    FAIL = "fail"
    """An error or a budget ended the run."""
    CANCEL = "cancel"
    """A person cancelled the run, or rejected its write (it ends `cancelled`)."""
    EXPIRE = "expire"
    """Its pending proposal expired before anyone decided."""
    RELEASE = "release"
    """The driving process gives the run back without ending it (it could not continue)."""
    TAKE_OVER = "take_over"
    """A person takes the run from an owner this machine cannot prove alive (recorded under
    another host name, or dead; in team mode, another desk whose lease lapsed): it becomes
    `interrupted` (and this desk's), and the next resume continues it."""


_WAITING = frozenset({RunStatus.WAITING_APPROVAL, RunStatus.WAITING_INPUT})
_NOT_ENDED = frozenset({RunStatus.CREATED, RunStatus.RUNNING, RunStatus.INTERRUPTED, *_WAITING})


@dataclass(frozen=True)
class Rule:
    sources: frozenset[RunStatus]
    target: RunStatus


TRANSITIONS: dict[Transition, Rule] = {
    Transition.START: Rule(frozenset({RunStatus.CREATED}), RunStatus.RUNNING),
    # RUNNING: only when its owner is dead or is this process (checked by `claim`);
    # FAILED: only when its error is retryable (checked by `claim`).
    Transition.RESUME: Rule(
        frozenset({RunStatus.RUNNING, RunStatus.INTERRUPTED, RunStatus.FAILED, *_WAITING}),
        RunStatus.RUNNING,
    ),
    Transition.WAIT_APPROVAL: Rule(frozenset({RunStatus.RUNNING}), RunStatus.WAITING_APPROVAL),
    Transition.WAIT_INPUT: Rule(frozenset({RunStatus.RUNNING}), RunStatus.WAITING_INPUT),
    Transition.SUCCEED: Rule(frozenset({RunStatus.RUNNING}), RunStatus.SUCCEEDED),
    Transition.FAIL: Rule(frozenset({RunStatus.RUNNING}), RunStatus.FAILED),
    Transition.CANCEL: Rule(_NOT_ENDED, RunStatus.CANCELLED),
    Transition.EXPIRE: Rule(
        frozenset({RunStatus.RUNNING, RunStatus.WAITING_APPROVAL}), RunStatus.EXPIRED
    ),
    Transition.RELEASE: Rule(frozenset({RunStatus.RUNNING}), RunStatus.INTERRUPTED),
    Transition.TAKE_OVER: Rule(frozenset({RunStatus.RUNNING}), RunStatus.INTERRUPTED),
}


class IllegalTransition(BriefDeskError):
    """A status change the table does not allow (a bug, or a race lost to another process)."""

    def __init__(self, run_id: str, current: RunStatus, transition: Transition) -> None:
        code = ErrorCode.RUN_NOT_WAITING if current in _NOT_ENDED else ErrorCode.RUN_NOT_FINISHED
        super().__init__(
            code, f"Run {run_id} is {current}: it cannot {transition.value.replace('_', ' ')}."
        )
        self.current = current
        self.transition = transition


def target_of(current: RunStatus, transition: Transition) -> RunStatus:
    """The status `transition` leads to from `current`; raises when the table forbids it."""
    rule = TRANSITIONS[transition]
    if current not in rule.sources:
        raise IllegalTransition("?", current, transition)
    return rule.target


def is_retryable(error: ErrorJSON | None) -> bool:
    return bool(error and error.get("retryable") is True)


# -- the transitions ------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """What a process learns when it takes a run: how to continue it."""

    started: bool
    """True for a run's first drive (`run_started`), False for a resume (`run_resumed`)."""
    needs_input: bool
    """No saved RunState yet: the run (re)starts from its question instead of a saved state."""


def create(conn: Connection, run_id: str, **values: object) -> None:
    """A new run row, `created` until a process first drives it (never shown as crashed)."""
    run_rows.insert_run(conn, run_id=run_id, status=str(RunStatus.CREATED), **values)


def claim(
    conn: Connection, run_id: str, owner: run_rows.Owner, *, desk: str | None = None
) -> Claim:
    """START or RESUME: this process becomes the run's owner (refuses a live other owner).

    `desk` (team mode): this process's desk. Another desk's run is refused
    (`run_owned_elsewhere`); the run is stamped with the desk, and the desk's lease is taken
    in the same transaction, so the run is never `running` under a desk without a lease.
    """
    row = run_rows.get_run_row(conn, run_id)
    current = RunStatus(row.status)
    if run_rows.other_desk(row, desk):
        raise owned_elsewhere(row, leases.Leases.read(conn, desk))
    previous = run_rows.owner_of(row)
    if current is RunStatus.RUNNING and previous not in (None, owner) and previous.is_alive():
        raise in_progress(conn, row, previous)
    if current is RunStatus.FAILED and not is_retryable(_error_of(row)):
        raise IllegalTransition(run_id, current, Transition.RESUME)
    transition = Transition.START if current is RunStatus.CREATED else Transition.RESUME
    has_checkpoint = _exists(conn, select(checkpoints.c.id).where(checkpoints.c.run_id == run_id))
    # A run whose process died before its first checkpoint restarts from its question.
    fresh = (
        not has_checkpoint
        and row.state_digest is None
        and not _exists(conn, select(events.c.seq).where(events.c.run_id == run_id))
    )
    if current is RunStatus.RUNNING and previous != owner:
        append_event(
            conn,
            run_id,
            EventKind.RUN_INTERRUPTED,
            data={"previous_owner_pid": row.owner_pid},
        )
    stamp: dict[str, object] = {}
    if desk is not None:
        stamp["desk"] = desk  # a row from before desks becomes this desk's
        leases.renew(conn, leases.Holder(desk, owner))
    _move(
        conn,
        row,
        transition,
        owner_host=owner.host,
        owner_pid=owner.pid,
        owner_started=owner.started,
        cancel_requested=0,
        error_json=None,
        **stamp,
    )
    kind = EventKind.RUN_STARTED if fresh else EventKind.RUN_RESUMED
    data = {"question": row.question, "model": row.model, "mode": row.mode}
    append_event(conn, run_id, kind, data={**data, "runtime": RUNTIME_VERSION})
    # No saved RunState (the process died before the first pause that saves one, or reads
    # ran without a pause): the run replays from its question; recorded results come back
    # from the ledger, never executed again.
    return Claim(started=fresh, needs_input=row.state_digest is None)


def wait(conn: Connection, run_id: str, status: RunStatus, progress: RunProgress) -> RunStatus:
    """WAIT_APPROVAL or WAIT_INPUT: the run keeps its checkpoint and releases its owner.

    A cancel requested while it was driving wins: the run ends `cancelled` instead of
    waiting (else the request would be lost, and the next resume would clear it).
    Returns the status the run has now.
    """
    transition = {
        RunStatus.WAITING_APPROVAL: Transition.WAIT_APPROVAL,
        RunStatus.WAITING_INPUT: Transition.WAIT_INPUT,
    }[status]
    row = run_rows.get_run_row(conn, run_id)
    if row.cancel_requested:
        by = cancel_requester(conn, run_id)
        cancel(conn, run_id, progress, by=by, reason="cancelled while running")
        return RunStatus.CANCELLED
    _move(conn, row, transition, state_json=progress.dumps(), **_NO_OWNER)
    return status


def succeed(conn: Connection, run_id: str, progress: RunProgress, output: str) -> None:
    _end(conn, run_id, Transition.SUCCEED, progress, output=output, by=None)


def fail(conn: Connection, run_id: str, progress: RunProgress | None, error: ErrorJSON) -> None:
    _end(conn, run_id, Transition.FAIL, progress, error=error, by=None)


def cancel(
    conn: Connection,
    run_id: str,
    progress: RunProgress | None,
    *,
    by: str | None,
    reason: str,
    output: str | None = None,
) -> None:
    """CANCEL: pending proposals become `cancelled` (event + audit naming `by`)."""
    _end(conn, run_id, Transition.CANCEL, progress, by=by, reason=reason, output=output)


def expire(conn: Connection, run_id: str, progress: RunProgress | None) -> None:
    _end(conn, run_id, Transition.EXPIRE, progress, by=None)


def release(conn: Connection, run_id: str, owner: run_rows.Owner) -> bool:
    """RELEASE, only of our own claim: once we stopped, another process may own the run."""
    row = run_rows.get_run_row(conn, run_id)
    if RunStatus(row.status) is not RunStatus.RUNNING or run_rows.owner_of(row) != owner:
        return False
    _move(conn, row, Transition.RELEASE, **_NO_OWNER)
    return True


def take_over(
    conn: Connection, run_id: str, *, by: str, desk: str | None = None
) -> OwnerView | None:
    """TAKE_OVER: a person ends the claim of an owner that cannot be proven alive.

    On this host a live owner (pid and process start time) keeps its run: `run_in_progress`.
    An owner recorded under another host name cannot be seen from here (a renamed machine, a
    container restarted under a new name): the person's explicit request is the proof asked
    for. Returns who owned the run, or None when it had no owner to take over from.

    `desk` (team mode): another desk's run is taken only once that desk's lease has lapsed
    (or it holds none): `run_owned_elsewhere` while it is live. The run then moves to `desk`,
    whatever its status short of ended (a waiting run keeps waiting, now on this desk).
    """
    row = run_rows.get_run_row(conn, run_id)
    if run_rows.other_desk(row, desk):
        assert desk is not None  # other_desk says so
        return _take_from_desk(conn, row, desk, by=by)
    previous = run_rows.owner_of(row)
    if RunStatus(row.status) is not RunStatus.RUNNING or previous is None:
        return None
    if previous.on_this_host() and previous.is_alive():
        raise in_progress(conn, row, previous)
    view = owner_view(conn, row)
    assert view is not None  # running with an owner
    _move(conn, row, Transition.TAKE_OVER, **_NO_OWNER)
    append_event(
        conn,
        run_id,
        EventKind.RUN_INTERRUPTED,
        data={
            "previous_owner_pid": previous.pid,
            "previous_owner_host": previous.host,
            "since": view["since"],
            "taken_over_by": by,
        },
    )
    audit.record(
        conn,
        entry="take_over",
        principal=f"person:{by}",
        run_id=run_id,
        detail=f"process {previous.pid} on {previous.host} since {view['since']}",
    )
    return view


def _take_from_desk(conn: Connection, row: Row[object], desk: str, *, by: str) -> OwnerView | None:
    """TAKE_OVER across desks: refused while the owner desk's lease is live."""
    run_id = str(row.run_id)  # type: ignore[attr-defined]
    previous_desk = str(row.desk)  # type: ignore[attr-defined]
    book = leases.Leases.read(conn, desk)
    if book.live(previous_desk) is not None:
        raise owned_elsewhere(row, book)
    status = RunStatus(row.status)  # type: ignore[attr-defined]
    if status.is_terminal:
        return None  # an ended run has nothing to continue; it stays where it is
    lapsed = book.last(previous_desk)
    why = f"its lease lapsed at {lapsed.until}" if lapsed else "it holds no lease"
    view = owner_view(conn, row)
    if status is RunStatus.RUNNING:
        _move(conn, row, Transition.TAKE_OVER, desk=desk, **_NO_OWNER)
        previous = run_rows.owner_of(row)
        append_event(
            conn,
            run_id,
            EventKind.RUN_INTERRUPTED,
            data={
                "previous_owner_pid": previous.pid if previous else None,
                "previous_owner_host": previous.host if previous else None,
                "previous_desk": previous_desk,
                "since": view["since"] if view else None,
                "taken_over_by": by,
                "desk": desk,
            },
        )
    else:  # created, interrupted or waiting: no status change, only the desk it belongs to
        conn.execute(update(runs).where(runs.c.run_id == run_id).values(desk=desk))
    audit.record(
        conn,
        entry="take_over",
        principal=f"person:{by}",
        run_id=run_id,
        detail=f"from desk {previous_desk} ({why}) to desk {desk}",
    )
    return view


def owned_elsewhere(row: Row[object], book: leases.Leases) -> BriefDeskError:
    """`run_owned_elsewhere`: the run's desk, whether its lease is live (and until when), and,
    once it lapsed, the way out (`--take-over`)."""
    run_id = str(row.run_id)  # type: ignore[attr-defined]
    owner_desk = str(row.desk)  # type: ignore[attr-defined]
    status = run_rows.effective_status(row, book)
    live = book.live(owner_desk)
    if live is not None:
        return BriefDeskError(
            ErrorCode.RUN_OWNED_ELSEWHERE,
            f"Run {run_id} ({status}) belongs to desk {owner_desk!r}, whose lease is live "
            f"until {live.until} (renewed by process {live.pid} on {live.host}). A run is "
            f"resumed and cancelled only by its desk: do it there.",
        )
    lapsed = book.last(owner_desk)
    why = f"whose lease lapsed at {lapsed.until}" if lapsed else "which holds no lease"
    return BriefDeskError(
        ErrorCode.RUN_OWNED_ELSEWHERE,
        f"Run {run_id} ({status}) belongs to desk {owner_desk!r}, {why}. A run is resumed "
        f"and cancelled only by its desk: do it there, or continue it on this desk with "
        f"`briefdesk-cli resume {run_id} --take-over` (or end it with "
        f"`briefdesk-cli cancel {run_id} --take-over`).",
    )


def check_held(conn: Connection, run_id: str, holder: leases.Holder) -> None:
    """Raise `run_owned_elsewhere` unless `holder` still drives the run (team mode).

    Called first in each write transaction of a driving process: under the team's writer
    lock it is serialized with a take-over, so a desk whose run moved meanwhile writes nothing.
    """
    row = conn.execute(
        select(runs.c.status, runs.c.desk, runs.c.owner_host, runs.c.owner_pid).where(
            runs.c.run_id == run_id
        )
    ).first()
    if (
        row is not None
        and row.status == RunStatus.RUNNING
        and row.desk == holder.desk
        and row.owner_host == holder.owner.host
        and row.owner_pid == holder.owner.pid
    ):
        return
    if row is None or row.desk is None or row.desk == holder.desk:
        by = "another process"
    else:
        by = f"desk {row.desk!r}"
    raise BriefDeskError(
        ErrorCode.RUN_OWNED_ELSEWHERE,
        f"Run {run_id} was taken over by {by} while desk {holder.desk!r} drove it; this "
        "process stopped at its boundary without writing.",
    )


def owner_view(conn: Connection, row: Row[object]) -> OwnerView | None:
    """Who drives a `running` run, as recorded, and since when; None for any other run."""
    owner = run_rows.owner_of(row)
    if owner is None or RunStatus(row.status) is not RunStatus.RUNNING:  # type: ignore[attr-defined]
        return None
    claimed = conn.execute(
        select(events.c.at)
        .where(
            events.c.run_id == row.run_id,  # type: ignore[attr-defined]
            events.c.kind.in_([str(EventKind.RUN_STARTED), str(EventKind.RUN_RESUMED)]),
        )
        .order_by(events.c.seq.desc())
        .limit(1)
    ).scalar()
    return OwnerView(
        host=owner.host,
        pid=owner.pid,
        since=str(claimed or row.updated_at),  # type: ignore[attr-defined]
        this_host=owner.on_this_host(),
        desk=row.desk,  # type: ignore[attr-defined]
    )


def in_progress(conn: Connection, row: Row[object], owner: run_rows.Owner) -> BriefDeskError:
    """`run_in_progress` naming the owner and since when, and, for an owner this machine cannot
    see, the way out (`--take-over`)."""
    view = owner_view(conn, row)
    since = f" since {view['since']}" if view else ""
    run_id = str(row.run_id)  # type: ignore[attr-defined]
    if owner.on_this_host():
        return BriefDeskError(
            ErrorCode.RUN_IN_PROGRESS,
            f"Run {run_id} is being driven by process {owner.pid} on {owner.host}{since}.",
        )
    return BriefDeskError(
        ErrorCode.RUN_IN_PROGRESS,
        f"Run {run_id} is recorded as driven by process {owner.pid} on host {owner.host!r}"
        f"{since}; this machine cannot tell whether that process still runs. If it has "
        f"stopped, continue the run here with `briefdesk-cli resume {run_id} --take-over`, "
        f"or end it with `briefdesk-cli cancel {run_id} --take-over`.",
    )


def answer(conn: Connection, run_id: str, text: str) -> RunProgress:
    """A person's answer to the question a `waiting_input` run asked: the first one wins.

    Not a status change (the run waits on until `resume`), but the same discipline: a
    conditional update on the state as read, so of two answers racing only one is kept and
    recorded; the other is `question_already_answered` and changes nothing.
    """
    row = run_rows.get_run_row(conn, run_id)
    if row.status != RunStatus.WAITING_INPUT:
        raise BriefDeskError(
            ErrorCode.RUN_NOT_WAITING, f"Run {run_id} is {row.status}, not waiting_input."
        )
    progress = RunProgress.loads(row.state_json)
    call_id = progress.waiting_call
    if call_id is None:
        raise BriefDeskError(
            ErrorCode.STORAGE_CORRUPT, f"Run {run_id} waits for input on no question."
        )
    already = BriefDeskError(
        ErrorCode.QUESTION_ALREADY_ANSWERED,
        f"The question of run {run_id} has already been answered; the first answer stands "
        f"(see `briefdesk-cli timeline {run_id}`). Resume the run to continue.",
    )
    if progress.answer_for(call_id) is not None:
        raise already
    answered = progress.with_answer(call_id, text)
    result = conn.execute(
        update(runs)
        .where(
            runs.c.run_id == run_id,
            runs.c.status == str(RunStatus.WAITING_INPUT),
            runs.c.state_json == row.state_json,
        )
        .values(state_json=answered.dumps(), question_pending=None, updated_at=now_iso())
    )
    if result.rowcount != 1:
        raise already
    append_event(
        conn,
        run_id,
        EventKind.ANSWER_RECEIVED,
        tool="ask_question",
        data={"call_id": call_id, "question": row.question_pending, "answer": text[:500]},
    )
    return answered


def request_cancel(conn: Connection, run_id: str, *, by: str) -> None:
    """A live owner stops at its next boundary and records the end itself; not a status change."""
    conn.execute(update(runs).where(runs.c.run_id == run_id).values(cancel_requested=1))
    audit.record(conn, entry="cancel_requested", principal=f"person:{by}", run_id=run_id, detail=by)


def cancel_requester(conn: Connection, run_id: str) -> str | None:
    """Who asked a running run to stop (its owner records the end, naming them)."""
    row = conn.execute(
        select(audit_table.c.detail)
        .where(audit_table.c.run_id == run_id, audit_table.c.entry == "cancel_requested")
        .order_by(audit_table.c.id.desc())
        .limit(1)
    ).first()
    return None if row is None else str(row.detail)


# -- the machinery --------------------------------------------------------------------------

_NO_OWNER: dict[str, None] = {"owner_host": None, "owner_pid": None, "owner_started": None}


def _move(conn: Connection, row: Row[object], transition: Transition, **values: object) -> None:
    current = RunStatus(row.status)  # type: ignore[attr-defined]
    run_id = str(row.run_id)  # type: ignore[attr-defined]
    rule = TRANSITIONS[transition]
    if current not in rule.sources:
        raise IllegalTransition(run_id, current, transition)
    result = conn.execute(
        update(runs)
        .where(runs.c.run_id == run_id, runs.c.status == str(current))
        .values(status=str(rule.target), updated_at=now_iso(), **values)
    )
    if result.rowcount != 1:  # unreachable inside one write transaction; kept as a guard
        raise IllegalTransition(run_id, current, transition)


def _end(
    conn: Connection,
    run_id: str,
    transition: Transition,
    progress: RunProgress | None,
    *,
    by: str | None,
    output: str | None = None,
    error: ErrorJSON | None = None,
    reason: str | None = None,
) -> None:
    row = run_rows.get_run_row(conn, run_id)
    progress = progress or RunProgress.loads(row.state_json)
    _move(
        conn,
        row,
        transition,
        state_json=progress.advance(next_step="done", waiting_call=None).dumps(),
        output=output,
        error_json=None if error is None else json.dumps(error),
        question_pending=None,
        cancel_requested=0,
        **_NO_OWNER,
    )
    _close_pending_approvals(conn, run_id, transition, by=by)
    data: dict[str, object] = {"status": str(TRANSITIONS[transition].target)}
    if error:
        data["error"] = error
    if by:
        data["by"] = by
    if reason:
        data["reason"] = reason
    append_event(conn, run_id, EventKind.RUN_FINISHED, data=data)
    prune_checkpoints(conn, run_id)


def _close_pending_approvals(
    conn: Connection, run_id: str, transition: Transition, *, by: str | None
) -> None:
    """An ended run has no pending proposal: each is closed on record, never as a rejection."""
    status = ApprovalStatus.EXPIRED if transition is Transition.EXPIRE else ApprovalStatus.CANCELLED
    who = by or "briefdesk"
    for pending in approval_rows.list_approvals(conn, status="pending", run_id=run_id):
        closed = approval_rows.transition(
            conn,
            pending,
            replace(
                pending,
                status=status,
                reviewer=who if status is ApprovalStatus.CANCELLED else None,
                decided_at=now_iso(),
            ),
        )
        approval_rows.append_approval_event(
            conn, closed, EventKind.APPROVAL_DECIDED, reviewer=closed.reviewer
        )
        if status is ApprovalStatus.CANCELLED:
            audit.record(
                conn,
                entry="decision",
                principal=f"person:{who}" if by else "system",
                run_id=run_id,
                tool=closed.tool,
                arg_hash=closed.arg_hash,
                resource=closed.target,
                decision=str(ApprovalStatus.CANCELLED),
                detail=f"run {transition.value}",
            )


def prune_checkpoints(conn: Connection, run_id: str) -> int:
    """An ended run keeps only its latest checkpoint (resume of an ended run changes nothing)."""
    latest = conn.execute(
        select(func.max(checkpoints.c.sequence)).where(checkpoints.c.run_id == run_id)
    ).scalar()
    if latest is None:
        return 0
    result = conn.execute(
        delete(checkpoints).where(checkpoints.c.run_id == run_id, checkpoints.c.sequence < latest)
    )
    return int(result.rowcount or 0)


def _exists(conn: Connection, query: object) -> bool:
    return conn.execute(query.limit(1)).first() is not None  # type: ignore[attr-defined]


def _error_of(row: Row[object]) -> ErrorJSON | None:
    text = row.error_json  # type: ignore[attr-defined]
    return None if not text else json.loads(text)
