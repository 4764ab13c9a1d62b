"""Run rows: the run state container, its status, its desk and its owning process.

Every statement on the `runs` table is built here. A run's status is written by two functions
only: `insert_run` (a new row) and `move_status` (a conditional move, called by the
lifecycle's status writer, runs/transitions.py); `update_run` refuses `status`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TypedDict, Unpack

from sqlalchemy import Connection, insert, select, update

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.contract.statuses import RunStatus
from agent_core.home.clock import now_iso
from agent_core.storage.owner import Owner
from agent_core.storage.schema import runs
from agent_core.storage.team.leases import Leases


@dataclass(frozen=True)
class RunRow:
    """One row of `runs`, as stored (the status is checked by `readable`, not here)."""

    run_id: str
    thread_id: str
    status: str
    question: str
    model: str
    mode: str
    corpus_dir: str
    artifacts_dir: str
    limits_json: str
    state_json: str
    state_digest: str | None
    question_pending: str | None
    output: str | None
    error_json: str | None
    cancel_requested: int
    owner_host: str | None
    owner_pid: int | None
    owner_started: float | None
    created_at: str
    updated_at: str
    desk: str | None


class RunChanges(TypedDict, total=False):
    """The columns `update_run` may change: every one but the key, the status and the stamps."""

    thread_id: str
    question: str
    model: str
    mode: str
    corpus_dir: str
    artifacts_dir: str
    limits_json: str
    state_json: str
    state_digest: str | None
    question_pending: str | None
    output: str | None
    error_json: str | None
    cancel_requested: int
    owner_host: str | None
    owner_pid: int | None
    owner_started: float | None
    desk: str | None


class NewRun(RunChanges, total=False):
    """A new row's columns (`run_id` is passed apart; a missing status is `created`)."""

    status: str


@dataclass(frozen=True)
class RunHolding:
    """Who holds a run, as `check_held` compares it (team mode)."""

    status: str
    desk: str | None
    owner_host: str | None
    owner_pid: int | None


_COLUMNS = tuple(RunRow.__dataclass_fields__)


def _run_row(row: object) -> RunRow:
    return RunRow(**{name: getattr(row, name) for name in _COLUMNS})


def insert_run(conn: Connection, run_id: str, **values: Unpack[NewRun]) -> None:
    now = now_iso()
    status = values.pop("status", str(RunStatus.CREATED))
    conn.execute(
        insert(runs).values(run_id=run_id, status=status, created_at=now, updated_at=now, **values)
    )


def get_run_row(conn: Connection, run_id: str) -> RunRow:
    row = conn.execute(select(runs).where(runs.c.run_id == run_id)).first()
    if row is None:
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"No run {run_id!r} in this home.")
    return readable(_run_row(row))


def readable(row: RunRow) -> RunRow:
    """`row` when this app can read it, else `storage_corrupt` saying what is wrong (an unknown
    status, malformed JSON, a bad owner): a bad row is refused where it is touched, and the
    rest of the home stays usable. (State and limits are checked where they are loaded.)"""
    what = "status"
    try:
        RunStatus(row.status)
        what = "error"
        error = json.loads(row.error_json) if row.error_json else None
        if error is not None and not isinstance(error, dict):
            raise TypeError("not a JSON object")
        what = "owner"
        owner_of(row)
    except (TypeError, ValueError) as exc:
        raise BriefDeskError(
            ErrorCode.STORAGE_CORRUPT,
            f"Run {row.run_id} holds a row this app cannot read: its {what} ({exc}). The "
            "other runs are not affected.",
        ) from None
    return row


def update_run(conn: Connection, run_id: str, **values: Unpack[RunChanges]) -> None:
    """Change a run's columns other than its status (only the lifecycle moves a status)."""
    if "status" in values:  # the type refuses it too; this keeps untyped callers honest
        raise ValueError("update_run cannot set a status: a lifecycle transition does")
    conn.execute(update(runs).where(runs.c.run_id == run_id).values(updated_at=now_iso(), **values))


def move_status(
    conn: Connection,
    run_id: str,
    *,
    expected: RunStatus,
    target: RunStatus,
    changes: RunChanges,
) -> bool:
    """The one status write after creation: `expected` -> `target`, only when the run still
    is `expected`. Returns whether the row moved. Called by runs/transitions.py only."""
    result = conn.execute(
        update(runs)
        .where(runs.c.run_id == run_id, runs.c.status == str(expected))
        .values(status=str(target), updated_at=now_iso(), **changes)
    )
    return result.rowcount == 1


def record_answer(conn: Connection, run_id: str, *, state_before: str, state_after: str) -> bool:
    """Store a waiting run's answered state, only when nobody changed it since `state_before`
    was read (of two answers racing, one wins). Not a status change: the run waits on."""
    result = conn.execute(
        update(runs)
        .where(
            runs.c.run_id == run_id,
            runs.c.status == str(RunStatus.WAITING_INPUT),
            runs.c.state_json == state_before,
        )
        .values(state_json=state_after, question_pending=None, updated_at=now_iso())
    )
    return result.rowcount == 1


def set_desk(conn: Connection, run_id: str, desk: str) -> None:
    """Move a run to `desk` without touching anything else (a take-over of a resting run)."""
    conn.execute(update(runs).where(runs.c.run_id == run_id).values(desk=desk))


def request_cancel(conn: Connection, run_id: str) -> None:
    conn.execute(update(runs).where(runs.c.run_id == run_id).values(cancel_requested=1))


def cancel_requested(conn: Connection, run_id: str) -> bool:
    value = conn.execute(select(runs.c.cancel_requested).where(runs.c.run_id == run_id)).scalar()
    return bool(value)


def holding_of(conn: Connection, run_id: str) -> RunHolding | None:
    """Only the columns `check_held` compares: it runs first in every write of a driver."""
    row = conn.execute(
        select(runs.c.status, runs.c.desk, runs.c.owner_host, runs.c.owner_pid).where(
            runs.c.run_id == run_id
        )
    ).first()
    if row is None:
        return None
    return RunHolding(
        status=str(row.status), desk=row.desk, owner_host=row.owner_host, owner_pid=row.owner_pid
    )


def list_run_rows(conn: Connection, run_ids: list[str] | None = None) -> list[RunRow]:
    """Every run (or the given ones that exist), newest first."""
    query = select(runs).order_by(runs.c.created_at.desc(), runs.c.run_id)
    if run_ids is not None:
        query = query.where(runs.c.run_id.in_(run_ids))
    return [_run_row(row) for row in conn.execute(query)]


def waiting_question_rows(conn: Connection) -> list[RunRow]:
    """Runs waiting for a person's answer to their question (the inbox's questions)."""
    query = select(runs).where(
        runs.c.status == "waiting_input", runs.c.question_pending.is_not(None)
    )
    return [_run_row(row) for row in conn.execute(query)]


def owner_of(row: RunRow) -> Owner | None:
    if row.owner_pid is None:
        return None
    return Owner(row.owner_host or "", int(row.owner_pid), float(row.owner_started or 0.0))


def other_desk(row: RunRow, desk: str | None) -> bool:
    """True when the run belongs to a desk other than `desk` (team mode; a row from before
    desks, with none, belongs to whichever desk drives it next)."""
    return desk is not None and row.desk is not None and row.desk != desk


def owner_live(row: RunRow, leases: Leases | None = None) -> bool:
    """Does the recorded owner of this run still drive it, as far as the reader can tell?

    On a home's own file (`leases` None) and for the reader's own desk: the owner process
    (host, pid, start time), so a restarted desk resumes its own crashed run at once. For
    another desk's run in team mode: that desk's lease, whatever machine looks.
    """
    owner = owner_of(row)
    if owner is None:
        return False
    if leases is None or row.desk is None or row.desk == leases.viewer:
        return owner.is_alive()
    return leases.live(row.desk) is not None


def effective_status(row: RunRow, leases: Leases | None = None) -> RunStatus:
    """A `running` run whose owner died (or whose desk's lease lapsed) shows as interrupted."""
    status = RunStatus(row.status)
    if status is RunStatus.RUNNING and not owner_live(row, leases):
        return RunStatus.INTERRUPTED
    return status


def running_rows(conn: Connection) -> list[RunRow]:
    """The runs recorded as `running` (their owners may have died since)."""
    query = select(runs).where(runs.c.status == str(RunStatus.RUNNING))
    return [_run_row(row) for row in conn.execute(query)]


def run_state(row: RunRow) -> JsonObject:
    return _json_object(row.state_json)


def limits(row: RunRow) -> JsonObject:
    return _json_object(row.limits_json)


def _json_object(text: str) -> JsonObject:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise BriefDeskError(ErrorCode.STORAGE_CORRUPT, "A run holds JSON that is not an object.")
    return value
