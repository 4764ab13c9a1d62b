"""The owning process's view of one run row: run state, limits, status changes with events."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, delete, func, select

from agent_core.canonical import now_iso
from agent_core.events import EventKind
from agent_core.statuses import RunStatus
from agent_core.storage import runs as run_rows
from agent_core.storage.engine import Store
from agent_core.storage.schema import checkpoints, runs
from agent_core.storage.timeline import append_event


class RunRecord:
    """Only the owner of a running run writes its run state, so it is cached here."""

    def __init__(self, store: Store, run_id: str) -> None:
        self.store = store
        self.run_id = run_id
        with store.read() as conn:
            row = run_rows.get_run_row(conn, run_id)
        self.state: dict[str, Any] = run_rows.run_state(row)
        self.limits: dict[str, Any] = run_rows.limits(row)
        self.thread_id: str = row.thread_id

    def row(self) -> Any:
        with self.store.read() as conn:
            return run_rows.get_run_row(conn, self.run_id)

    def cancel_requested(self) -> bool:
        with self.store.read() as conn:
            value = conn.execute(
                select(runs.c.cancel_requested).where(runs.c.run_id == self.run_id)
            ).scalar()
        return bool(value)

    def write_state(self, conn: Connection, **changes: Any) -> None:
        self.state.update(changes)
        self.state["state_version"] = int(self.state.get("state_version", 0)) + 1
        run_rows.update_run(conn, self.run_id, state_json=json.dumps(self.state))

    def reload_state(self) -> None:
        """Someone else (an `answer`) may have written while the run was waiting."""
        with self.store.read() as conn:
            self.state = run_rows.run_state(run_rows.get_run_row(conn, self.run_id))

    def stop(self, status: RunStatus, *, active_s: float) -> None:
        """The run waits (or expired): it keeps its checkpoint and releases its owner."""
        with self.store.write() as conn:
            self.write_state(conn, active_s=round(active_s, 3))
            run_rows.update_run(
                conn,
                self.run_id,
                status=str(status),
                owner_host=None,
                owner_pid=None,
                owner_started=None,
            )
            if status is RunStatus.EXPIRED:
                append_event(
                    conn, self.run_id, EventKind.RUN_FINISHED, data={"status": str(status)}
                )

    def finish(
        self,
        status: RunStatus,
        *,
        output: str | None,
        error: dict[str, Any] | None,
        active_s: float,
    ) -> None:
        with self.store.write() as conn:
            self.write_state(conn, active_s=round(active_s, 3), next_step="done")
            run_rows.update_run(
                conn,
                self.run_id,
                status=str(status),
                output=output,
                error_json=None if error is None else json.dumps(error),
                question_pending=None,
                owner_host=None,
                owner_pid=None,
                owner_started=None,
            )
            data: dict[str, Any] = {"status": str(status)}
            if error:
                data["error"] = error
            append_event(conn, self.run_id, EventKind.RUN_FINISHED, data=data)
            prune_checkpoints(conn, self.run_id)

    def release(self) -> None:
        """Give the run back untouched (it could not be driven by this process)."""
        with self.store.write() as conn:
            row = run_rows.get_run_row(conn, self.run_id)
            # Only our own claim: once we stopped, another process may already own the run.
            ours = run_rows.owner_of(row) == run_rows.Owner.current()
            if row.status == RunStatus.RUNNING and ours:
                run_rows.update_run(
                    conn,
                    self.run_id,
                    status=str(RunStatus.INTERRUPTED),
                    owner_host=None,
                    owner_pid=None,
                    owner_started=None,
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


def new_run_state() -> dict[str, Any]:
    """The run state of a run that has not started: counters, evidence, next step."""
    return {
        "turns": 0,
        "tool_calls": 0,
        "sources_found": [],
        "sources_read": [],
        "next_step": "model",
        "active_s": 0.0,
        "answers": {},
        "rejected": False,
        "state_version": 0,
        "created": now_iso(),
    }
