"""The calls a model made, one row each, recorded by the gate as they arrive: their order in
the run (the tool-call budget counts them) and whether a boundary refused them."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, bindparam, select

from agent_core.home.clock import now_iso
from agent_core.storage.dialect_insert import insert_for
from agent_core.storage.prepared import Prepared
from agent_core.storage.schema import tool_calls


@dataclass(frozen=True)
class ToolCallRow:
    run_id: str
    call_id: str
    idx: int
    turn: int
    tool: str
    raw_args: str
    decision: str | None
    """`deny` once a boundary refused the call."""
    code: str | None
    """The refusal's error code."""
    created_at: str


# Compiled once per dialect (SQLite and PostgreSQL each build their ON CONFLICT): a model turn
# records each of its calls.
_RECORD_CALL: dict[str, Prepared] = {}


def record_call(
    conn: Connection, run_id: str, call_id: str, *, idx: int, turn: int, tool: str, raw_args: str
) -> bool:
    """Record a call once; False when its id is already on record (a replayed turn)."""
    prepared = _RECORD_CALL.get(conn.dialect.name)
    if prepared is None:
        names = ("run_id", "call_id", "idx", "turn", "tool", "raw_args", "created_at")
        statement = (
            insert_for(conn, tool_calls)
            .values({name: bindparam(name) for name in names})
            .on_conflict_do_nothing()
        )
        prepared = _RECORD_CALL[conn.dialect.name] = Prepared(statement)
    inserted = prepared(
        conn,
        run_id=run_id,
        call_id=call_id,
        idx=idx,
        turn=turn,
        tool=tool,
        raw_args=raw_args,
        created_at=now_iso(),
    ).rowcount
    return inserted == 1


def get_call(conn: Connection, run_id: str, call_id: str) -> ToolCallRow | None:
    row = conn.execute(
        select(tool_calls).where(tool_calls.c.run_id == run_id, tool_calls.c.call_id == call_id)
    ).first()
    if row is None:
        return None
    return ToolCallRow(
        run_id=row.run_id,
        call_id=row.call_id,
        idx=int(row.idx),
        turn=int(row.turn),
        tool=row.tool,
        raw_args=row.raw_args,
        decision=row.decision,
        code=row.code,
        created_at=row.created_at,
    )


def deny_call(conn: Connection, run_id: str, call_id: str, code: str) -> None:
    conn.execute(
        tool_calls.update()
        .where(tool_calls.c.run_id == run_id, tool_calls.c.call_id == call_id)
        .values(decision="deny", code=code)
    )
