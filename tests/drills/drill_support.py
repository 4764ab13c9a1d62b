"""What every crash drill checks, read from the outside: timeline rows, ledger rows, files."""

from __future__ import annotations

import hashlib
import itertools
import signal
from collections import Counter
from pathlib import Path
from typing import Any

from sqlalchemy import select, text

from agent_core.contract.views import EventView
from agent_core.facade.workspace import Workspace

DEMO_QUESTION = "How do checkpoints make agent runs durable?"
KILLED_BY_SIGKILL = -signal.SIGKILL  # subprocess returncode of a child killed by SIGKILL


def events_of(ws: Workspace, run_id: str, kind: str | None = None) -> list[EventView]:
    return [e for e in ws.timeline(run_id) if kind is None or e["kind"] == kind]


def kinds(events: list[EventView]) -> list[str]:
    return [e["kind"] for e in events]


def executions_per_call(events: list[EventView]) -> Counter[str]:
    """call_id -> number of tool_result events that claim a real execution."""
    return Counter(
        str(e["data"]["call_id"])
        for e in events
        if e["kind"] == "tool_result" and e["data"].get("executed") is True
    )


def double_execution_problems(events: list[EventView]) -> list[str]:
    """Every call ran at most once, and every call that succeeded ran exactly once."""
    executed = executions_per_call(events)
    succeeded = {
        str(e["data"]["call_id"])
        for e in events
        if e["kind"] == "tool_result" and e["data"].get("outcome") == "success"
    }
    problems = [f"{call} executed {n} times" for call, n in executed.items() if n > 1]
    problems += [
        f"{call} succeeded but never executed" for call in sorted(succeeded) if executed[call] == 0
    ]
    return problems


def turn_problems(events: list[EventView]) -> list[str]:
    """model_turn numbers strictly increase across the run's whole life (resumes included)."""
    turns = [int(str(e["data"]["turn"])) for e in events if e["kind"] == "model_turn"]
    if not turns:
        return ["no model_turn events"]
    return (
        []
        if all(b > a for a, b in itertools.pairwise(turns))
        else [f"model turns not increasing: {turns}"]
    )


def ledger_rows(ws: Workspace, run_id: str) -> list[Any]:
    from agent_core.storage.schema import ledger

    with ws.store.read() as conn:
        return list(
            conn.execute(
                select(ledger).where(ledger.c.run_id == run_id).order_by(ledger.c.started_at)
            )
        )


def full_integrity_check(ws: Workspace) -> str:
    """The string "ok" when the store came through the kills sound, else what is wrong.

    SQLite: every line PRAGMA integrity_check prints (a kill mid-commit must not damage the
    file). PostgreSQL: a killed client cannot damage the server's pages, but it could leave
    its transaction open and the team's writer lock held, which would stall every desk: the
    store answers, and no other session of the database is in a transaction or holds the lock.
    """
    from agent_core.storage.location import StoreKind

    if ws.store.kind is StoreKind.SQLITE:
        with ws.store.read() as conn:
            return "; ".join(str(r[0]) for r in conn.exec_driver_sql("PRAGMA integrity_check"))
    from agent_core.storage.postgres import WRITER_LOCK_KEY

    problems = [] if ws.store.integrity_check() == "ok" else ["the store does not answer"]
    with ws.store.read() as conn:
        open_sessions = conn.execute(
            text(
                "SELECT pid, state FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'"
            )
        ).all()
        lock_holders = conn.execute(
            text(
                "SELECT pid, granted FROM pg_locks WHERE locktype = 'advisory' "
                "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                " AND classid = 0 AND objid = CAST(:key AS oid) AND objsubid = 1"
            ),
            {"key": WRITER_LOCK_KEY},
        ).all()
    problems += [f"session {pid} left {state}" for pid, state in open_sessions]
    problems += [f"session {pid} holds or waits for the writer lock" for pid, _ in lock_holders]
    return "; ".join(problems) or "ok"


def files_under(root: Path) -> list[Path]:
    """Every file below root, hidden temp files included (a leftover would show here)."""
    return sorted(p for p in root.rglob("*") if p.is_file() or p.is_symlink())


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def file_identity(path: Path) -> tuple[int, int]:
    """(inode, mtime in ns): a rewrite, even an atomic one with equal content, changes it."""
    st = path.stat()
    return st.st_ino, st.st_mtime_ns


# A process that claims the run the way a driving process does, then lives on as its owner
# until killed (argv: HOME RUN_ID): it blocks on a signal, not on a timer.
CLAIMER = """
import signal, sys
from agent_core.runs import lifecycle
from agent_core.storage.owner import Owner
from agent_core.facade.workspace import Workspace
ws = Workspace(sys.argv[1])
with ws.store.write() as conn:
    lifecycle.claim(conn, sys.argv[2], Owner.current())
print("claimed", flush=True)
signal.pause()
"""
