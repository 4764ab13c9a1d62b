"""What each transition of a run implies, done in the caller's write transaction.

Each function does everything its transition implies, so a run can never be half-moved: the
status and owner fields, the timeline event, the approval and audit rows (a cancel closes
pending proposals as `cancelled`, on record, never as `rejected`), and at every end the
release of the owner and the pruning of checkpoints to the latest one. The status itself is
moved by runs/transitions.py only; a transition its table forbids raises `IllegalTransition`.

Desks (team mode, a PostgreSQL store): a run belongs to the desk that created it, and is
resumed or cancelled only there (`run_owned_elsewhere`). Another desk takes it over only once
the owner desk's lease has lapsed (storage/leases.py); the run then moves to that desk. Each
write of a driving process first checks that its desk still holds the run
(runs/ownership.py `check_held`), so a desk whose run was taken over meanwhile stops at its
next boundary without writing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from sqlalchemy import Connection

from agent_core import RUNTIME_VERSION
from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.errors import BriefDeskError, ErrorCode, ErrorJSON
from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonObject
from agent_core.contract.statuses import ApprovalStatus, RunStatus
from agent_core.contract.views import OwnerView
from agent_core.runs.ownership import in_progress, owned_elsewhere, owner_view
from agent_core.runs.progress import RunProgress
from agent_core.runs.transitions import (
    TRANSITIONS,
    IllegalTransition,
    Transition,
    is_retryable,
    move,
)
from agent_core.storage.owner import Owner
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import audit
from agent_core.storage.tables import checkpoints as checkpoint_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.timeline import append_event, has_events
from agent_core.storage.team import leases
from agent_core.tools.registry import TOOLS
from agent_core.tools.specs import Tier

# -- the transitions ------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """What a process learns when it takes a run: how to continue it."""

    started: bool
    """True for a run's first drive (`run_started`), False for a resume (`run_resumed`)."""
    needs_input: bool
    """No saved RunState yet: the run (re)starts from its question instead of a saved state."""


def create(conn: Connection, row: run_rows.RunRow) -> run_rows.RunRow:
    """Store a new run, `created` until a process first drives it (never shown as crashed).
    Returns the run stored: for an agent's session that has one already, that one
    (runs/agent_sessions.py)."""
    if row.status is not RunStatus.CREATED:
        raise ValueError(f"a new run is created, not {row.status}")
    return run_rows.insert_run(conn, row)


def claim(conn: Connection, run_id: str, owner: Owner, *, desk: str | None = None) -> Claim:
    """START or RESUME: this process becomes the run's owner (refuses a live other owner).

    `desk` (team mode): this process's desk. Another desk's run is refused
    (`run_owned_elsewhere`); the run is stamped with the desk, and the desk's lease is taken
    in the same transaction, so the run is never `running` under a desk without a lease.
    """
    row = run_rows.get_run_row(conn, run_id)
    current = row.status
    if run_rows.other_desk(row, desk):
        raise owned_elsewhere(row, leases.Leases.read(conn, desk))
    previous = run_rows.owner_of(row)
    if current is RunStatus.RUNNING and previous not in (None, owner) and previous.is_alive():
        raise in_progress(conn, row, previous)
    if current is RunStatus.FAILED and not is_retryable(row.error):
        raise IllegalTransition(run_id, current, Transition.RESUME)
    transition = Transition.START if current is RunStatus.CREATED else Transition.RESUME
    # A run whose process died before its first checkpoint restarts from its question.
    fresh = (
        not checkpoint_rows.has_checkpoint(conn, run_id)
        and row.state_digest is None
        and not has_events(conn, run_id)
    )
    if current is RunStatus.RUNNING and previous != owner:
        append_event(
            conn,
            run_id,
            EventKind.RUN_INTERRUPTED,
            data={"previous_owner_pid": row.owner_pid},
        )
    claimed = replace(
        row,
        owner_host=owner.host,
        owner_pid=owner.pid,
        owner_started=owner.started,
        cancel_requested=False,
        error_json=None,
    )
    if desk is not None:
        claimed = replace(claimed, desk=desk)  # a row from before desks becomes this desk's
        leases.renew(conn, leases.Holder(desk, owner))
    move(conn, row, transition, claimed)
    kind = EventKind.RUN_STARTED if fresh else EventKind.RUN_RESUMED
    data: JsonObject = {"question": row.question, "model": row.model, "mode": row.mode}
    append_event(conn, run_id, kind, data={**data, "runtime": RUNTIME_VERSION})
    # No saved RunState (the process died before the first pause that saves one, or reads
    # ran without a pause): the run goes on from its stored conversation (runs/transcript.py);
    # recorded results come back from the ledger, never executed again.
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
    move(conn, row, transition, replace(row.released(), state_json=progress.dumps()))
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
    """CANCEL: pending proposals become `cancelled` (event + audit naming `by`).

    A run waiting on a revert drops the revert first (`cancelled`) and gets its status back:
    an ended run stays as it ended; one that had not ended is then cancelled as asked."""
    row = run_rows.get_run_row(conn, run_id)
    if row.status is RunStatus.WAITING_APPROVAL and RunProgress.loads(row.state_json).reverting:
        _close_pending_approvals(conn, run_id, Transition.CANCEL, by=by)
        if end_revert(conn, run_id).is_terminal:
            return
        progress = None  # the state as end_revert left it
    _end(conn, run_id, Transition.CANCEL, progress, by=by, reason=reason, output=output)


# -- a revert (`approvals revert`): a person's proposal, decided and run without the model ---


def wait_revert(conn: Connection, run_id: str, approval_id: str) -> RunStatus:
    """WAIT_REVERT: the run, ended or not, waits on the revert `approval_id`; it remembers
    the status it had (returned) to get it back once the revert is executed or rejected."""
    row = run_rows.get_run_row(conn, run_id)
    current = row.status
    progress = RunProgress.loads(row.state_json)
    waiting = progress.advance(reverting=approval_id, return_to=str(current))
    move(conn, row, Transition.WAIT_REVERT, replace(row, state_json=waiting.dumps()))
    return current


def claim_revert(conn: Connection, run_id: str, owner: Owner, *, desk: str | None) -> None:
    """RUN_REVERT: this process takes the run to execute its approved revert (no model turn:
    no `run_resumed`, its error and output stay as they were)."""
    row = run_rows.get_run_row(conn, run_id)
    if run_rows.other_desk(row, desk):
        raise owned_elsewhere(row, leases.Leases.read(conn, desk))
    previous = run_rows.owner_of(row)
    if row.status is RunStatus.RUNNING and previous not in (None, owner) and previous.is_alive():
        raise in_progress(conn, row, previous)
    if desk is not None:
        leases.renew(conn, leases.Holder(desk, owner))
    claimed = replace(row, owner_host=owner.host, owner_pid=owner.pid, owner_started=owner.started)
    move(conn, row, Transition.RUN_REVERT, claimed)


def end_revert(conn: Connection, run_id: str, revert_id: str | None = None) -> RunStatus:
    """END_REVERT: the revert was executed, refused, rejected or expired; the run gets back
    the status it had before (returned), its owner released. With `revert_id`, only when the
    run still waits on that revert (else nothing changes)."""
    row = run_rows.get_run_row(conn, run_id)
    progress = RunProgress.loads(row.state_json)
    if revert_id is not None and progress.reverting != revert_id:
        return row.status
    back = RunStatus(progress.return_to or RunStatus.INTERRUPTED)
    after = progress.advance(reverting=None, return_to=None)
    move(
        conn, row, Transition.END_REVERT, replace(row.released(), state_json=after.dumps()), to=back
    )
    return back


def expire(conn: Connection, run_id: str, progress: RunProgress | None) -> None:
    _end(conn, run_id, Transition.EXPIRE, progress, by=None)


def release(conn: Connection, run_id: str, owner: Owner) -> bool:
    """RELEASE, only of our own claim: once we stopped, another process may own the run."""
    row = run_rows.get_run_row(conn, run_id)
    if row.status is not RunStatus.RUNNING or run_rows.owner_of(row) != owner:
        return False
    move(conn, row, Transition.RELEASE, row.released())
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
    if row.status is not RunStatus.RUNNING or previous is None:
        return None
    if previous.on_this_host() and previous.is_alive():
        raise in_progress(conn, row, previous)
    view = owner_view(conn, row)
    assert view is not None  # running with an owner
    move(conn, row, Transition.TAKE_OVER, row.released())
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


def _take_from_desk(
    conn: Connection, row: run_rows.RunRow, desk: str, *, by: str
) -> OwnerView | None:
    """TAKE_OVER across desks: refused while the owner desk's lease is live."""
    run_id = row.run_id
    previous_desk = str(row.desk)
    book = leases.Leases.read(conn, desk)
    if book.live(previous_desk) is not None:
        raise owned_elsewhere(row, book)
    status = row.status
    if status.is_terminal:
        return None  # an ended run has nothing to continue; it stays where it is
    lapsed = book.last(previous_desk)
    why = f"its lease lapsed at {lapsed.until}" if lapsed else "it holds no lease"
    view = owner_view(conn, row)
    if status is RunStatus.RUNNING:
        move(conn, row, Transition.TAKE_OVER, replace(row.released(), desk=desk))
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
        run_rows.set_desk(conn, run_id, desk)
    audit.record(
        conn,
        entry="take_over",
        principal=f"person:{by}",
        run_id=run_id,
        detail=f"from desk {previous_desk} ({why}) to desk {desk}",
    )
    return view


def answer(conn: Connection, run_id: str, text: str) -> RunProgress:
    """A person's answer to the question a `waiting_input` run asked: the first one wins.

    Not a status change (the run waits on until `resume`), but the same discipline: a
    conditional update on the state as read, so of two answers racing only one is kept and
    recorded; the other is `question_already_answered` and changes nothing.
    """
    row = run_rows.get_run_row(conn, run_id)
    if row.status is not RunStatus.WAITING_INPUT:
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
    if not run_rows.record_answer(
        conn, run_id, state_before=row.state_json, state_after=answered.dumps()
    ):
        raise already
    append_event(
        conn,
        run_id,
        EventKind.ANSWER_RECEIVED,
        tool=_interaction_tool(),
        data={"call_id": call_id, "question": row.question_pending, "answer": text[:500]},
    )
    return answered


def request_cancel(conn: Connection, run_id: str, *, by: str) -> None:
    """A live owner stops at its next boundary and records the end itself; not a status change."""
    run_rows.request_cancel(conn, run_id)
    audit.record(conn, entry="cancel_requested", principal=f"person:{by}", run_id=run_id, detail=by)


def cancel_requester(conn: Connection, run_id: str) -> str | None:
    """Who asked a running run to stop (its owner records the end, naming them)."""
    return audit.latest_detail(conn, run_id, "cancel_requested")


# -- the machinery --------------------------------------------------------------------------


def _interaction_tool() -> str:
    """The tool a `waiting_input` run asked its question with (the interaction tier's)."""
    return next(spec.name for spec in TOOLS.values() if spec.tier is Tier.INTERACTION)


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
    ended = replace(
        row.released(),
        state_json=progress.advance(next_step="done", waiting_call=None).dumps(),
        output=output,
        error_json=None if error is None else json.dumps(error),
        question_pending=None,
        cancel_requested=False,
    )
    move(conn, row, transition, ended)
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
    expire = transition is Transition.EXPIRE
    how = ApprovalMove.EXPIRE if expire else ApprovalMove.CANCEL_WITH_RUN
    who = by or "briefdesk"
    for pending in approval_rows.list_approvals(conn, status="pending", run_id=run_id):
        closed = approval_rows.move(conn, pending, how, reviewer=None if expire else who)
        approval_rows.append_approval_event(
            conn, closed, EventKind.APPROVAL_DECIDED, reviewer=closed.reviewer
        )
        if not expire:
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
    return checkpoint_rows.prune_to_latest(conn, run_id)
