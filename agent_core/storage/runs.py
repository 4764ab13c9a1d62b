"""Run rows: the run state container, its status and its owning process."""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, insert, select, update

from agent_core.canonical import now_iso
from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.statuses import RunStatus
from agent_core.storage.schema import runs


@dataclass(frozen=True)
class Owner:
    """The process driving a run: host, pid and process start time (pids get reused)."""

    host: str
    pid: int
    started: float

    @staticmethod
    def current() -> Owner:
        return Owner(socket.gethostname(), os.getpid(), process_start_time(os.getpid()) or 0.0)

    def is_alive(self) -> bool:
        if self.host != socket.gethostname():
            return True  # another machine's process: we cannot tell, so never steal it
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        started = process_start_time(self.pid)
        if started is None:
            return True
        if _is_zombie(self.pid):
            return False
        return abs(started - self.started) < 1e-6


def process_start_time(pid: int) -> float | None:
    """Start time in clock ticks since boot (Linux /proc); None where unavailable."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return float(fields[19])  # field 22 overall: starttime


def _is_zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def insert_run(conn: Connection, **values: Any) -> None:
    now = now_iso()
    conn.execute(insert(runs).values(created_at=now, updated_at=now, **values))


def get_run_row(conn: Connection, run_id: str) -> Any:
    row = conn.execute(select(runs).where(runs.c.run_id == run_id)).first()
    if row is None:
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"No run {run_id!r} in this home.")
    return row


def update_run(conn: Connection, run_id: str, **values: Any) -> None:
    conn.execute(update(runs).where(runs.c.run_id == run_id).values(updated_at=now_iso(), **values))


def list_run_rows(conn: Connection) -> list[Any]:
    return list(conn.execute(select(runs).order_by(runs.c.created_at.desc(), runs.c.run_id)))


def owner_of(row: Any) -> Owner | None:
    if row.owner_pid is None:
        return None
    return Owner(row.owner_host, int(row.owner_pid), float(row.owner_started or 0.0))


def effective_status(row: Any) -> RunStatus:
    """A `running` run whose owner died is shown as interrupted, at once."""
    status = RunStatus(row.status)
    if status is RunStatus.RUNNING:
        owner = owner_of(row)
        if owner is None or not owner.is_alive():
            return RunStatus.INTERRUPTED
    return status


def run_state(row: Any) -> dict[str, Any]:
    return dict(json.loads(row.state_json))


def limits(row: Any) -> dict[str, Any]:
    return dict(json.loads(row.limits_json))
