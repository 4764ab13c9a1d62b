"""Run rows: the run state container, its status, its desk and its owning process."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, insert, select, update

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.statuses import RunStatus
from agent_core.home.clock import now_iso
from agent_core.storage.owner import Owner
from agent_core.storage.schema import runs
from agent_core.storage.team.leases import Leases


def insert_run(conn: Connection, **values: Any) -> None:
    now = now_iso()
    conn.execute(insert(runs).values(created_at=now, updated_at=now, **values))


def get_run_row(conn: Connection, run_id: str) -> Any:
    row = conn.execute(select(runs).where(runs.c.run_id == run_id)).first()
    if row is None:
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"No run {run_id!r} in this home.")
    return readable(row)


def readable(row: Any) -> Any:
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


def update_run(conn: Connection, run_id: str, **values: Any) -> None:
    conn.execute(update(runs).where(runs.c.run_id == run_id).values(updated_at=now_iso(), **values))


def list_run_rows(conn: Connection, run_ids: list[str] | None = None) -> list[Any]:
    """Every run (or the given ones that exist), newest first."""
    query = select(runs).order_by(runs.c.created_at.desc(), runs.c.run_id)
    if run_ids is not None:
        query = query.where(runs.c.run_id.in_(run_ids))
    return list(conn.execute(query))


def owner_of(row: Any) -> Owner | None:
    if row.owner_pid is None:
        return None
    return Owner(row.owner_host, int(row.owner_pid), float(row.owner_started or 0.0))


def other_desk(row: Any, desk: str | None) -> bool:
    """True when the run belongs to a desk other than `desk` (team mode; a row from before
    desks, with none, belongs to whichever desk drives it next)."""
    return desk is not None and row.desk is not None and row.desk != desk


def owner_live(row: Any, leases: Leases | None = None) -> bool:
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


def effective_status(row: Any, leases: Leases | None = None) -> RunStatus:
    """A `running` run whose owner died (or whose desk's lease lapsed) shows as interrupted."""
    status = RunStatus(row.status)
    if status is RunStatus.RUNNING and not owner_live(row, leases):
        return RunStatus.INTERRUPTED
    return status


def run_state(row: Any) -> dict[str, Any]:
    return dict(json.loads(row.state_json))


def limits(row: Any) -> dict[str, Any]:
    return dict(json.loads(row.limits_json))
