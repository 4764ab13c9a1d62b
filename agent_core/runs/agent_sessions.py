"""The run of an external agent's session: how it is found or made, and how it moves.

One run per agent session (the unique index on `runs (agent, session_id)`): the first hook
call of a session creates it and starts it at once; no process owns it (it runs between the
agent's calls, so it never shows as `interrupted`, and `resume` refuses it: it goes on when
the agent calls again). It waits (`waiting_approval`) while one of its calls waits for a
person, and runs again once none does. It ends `succeeded` when the session ends (or after
`agents.idle_end` seconds without a call), `cancelled` by `cancel RUN_ID`: the session's next
calls are then denied. An ended session that calls again (`claude --resume`) reopens its run.
Every status move is runs/transitions.py's; each one here is one write of the caller's.
lifecycle.py (which loads BriefDesk's tool registry) is imported only to create or end a run:
a hook call of a running session (a read, say) answers without it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from sqlalchemy import Connection

from agent_core import RUNTIME_VERSION
from agent_core.contract.canonical import iso
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import RunStatus
from agent_core.home.clock import now_iso, utcnow
from agent_core.runs.progress import RunLimits, RunProgress
from agent_core.runs.transitions import Transition, move
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.timeline import append_event, read_events
from agent_core.tools.agent_calls.registry import agent_thread

SESSION_ENDED = "the agent's session ended"
IDLE_ENDED = "no call from the agent's session for agents.idle_end"


def session_run(
    conn: Connection, *, agent: str, session_id: str, cwd: str, desk: str | None, run_id: str
) -> run_rows.RunRow:
    """The session's run, created and started (as `run_id`) at its first call, reopened when
    it had ended but not by a person (see module doc); stamped as called now."""
    row = run_rows.agent_session_row(conn, agent, session_id)
    if row is None:
        now = now_iso()
        new = run_rows.RunRow(
            run_id=run_id,
            thread_id=agent_thread(agent, session_id),
            status=RunStatus.CREATED,
            question=f"{agent} session {session_id}",
            model=agent,
            mode="default",
            corpus_dir=cwd,
            artifacts_dir=cwd,
            limits_json=RunLimits().dumps(),
            state_json=RunProgress().dumps(),
            desk=desk,
            created_at=now,
            updated_at=now,
            agent=agent,
            session_id=session_id,
            cwd=cwd,
        )
        from agent_core.runs import lifecycle  # its tool registry only for a session's first call

        row = lifecycle.create(conn, new)
        if row.run_id != run_id:
            return _called(conn, row)  # another hook process of the session made it first
        move(conn, row, Transition.START)
        data = {"agent": agent, "session_id": session_id, "cwd": cwd, "runtime": RUNTIME_VERSION}
        append_event(conn, run_id, EventKind.RUN_STARTED, data=data)
        return run_rows.get_run_row(conn, run_id)
    if row.status is RunStatus.SUCCEEDED:
        move(conn, row, Transition.REOPEN, replace(row, output=None))
        append_event(conn, row.run_id, EventKind.RUN_RESUMED, data={"agent": agent})
        return run_rows.get_run_row(conn, row.run_id)
    return _called(conn, row)


def _called(conn: Connection, row: run_rows.RunRow) -> run_rows.RunRow:
    run_rows.touch(conn, row.run_id)
    return row


def wait_for_person(conn: Connection, run_id: str) -> None:
    """A call of the session waits for a person: the run waits (already waiting: stays)."""
    row = run_rows.get_run_row(conn, run_id)
    if row.status is RunStatus.RUNNING:
        move(conn, row, Transition.WAIT_APPROVAL)


def back_to_work(conn: Connection, run_id: str) -> None:
    """Once none of its calls waits for a person, the waiting run runs again."""
    row = run_rows.get_run_row(conn, run_id)
    if row.status is RunStatus.WAITING_APPROVAL and not approval_rows.list_approvals(
        conn, status="pending", run_id=run_id
    ):
        move(conn, row, Transition.RESUME)


def end_session(conn: Connection, run_id: str, why: str = SESSION_ENDED) -> None:
    """SUCCEED: the session ended; a call still waiting is closed with the run."""
    row = run_rows.get_run_row(conn, run_id)
    if row.status is RunStatus.WAITING_APPROVAL:
        move(conn, row, Transition.RESUME)
    elif row.status is not RunStatus.RUNNING:
        return  # ended already (cancelled by a person, say)
    from agent_core.runs import lifecycle

    lifecycle.succeed(conn, run_id, RunProgress.loads(row.state_json), why)


def end_idle_sessions(conn: Connection, idle_seconds: float) -> list[str]:
    """End every agent's run with no call for `idle_seconds`; returns their ids."""
    before = iso(utcnow() - timedelta(seconds=idle_seconds))
    ended = []
    for row in run_rows.idle_agent_rows(conn, before):
        end_session(conn, row.run_id, IDLE_ENDED)
        ended.append(row.run_id)
    return ended


def cancelled_by(conn: Connection, run_id: str) -> str:
    """Who cancelled the run (its `run_finished` event names them), for the agent's model."""
    for event in reversed(read_events(conn, run_id=run_id)):
        if event.kind == EventKind.RUN_FINISHED:
            by = event.data.get("by")
            return str(by) if by else "a person"
    return "a person"
