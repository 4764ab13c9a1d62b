"""The side-effect ledger: intent before the effect, confirmation after, keyed for idempotency."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import Connection, Row, bindparam, func, insert, select, update

from agent_core.contract.json_types import JsonMapping, JsonObject
from agent_core.contract.statuses import SideEffectStatus
from agent_core.home.clock import now_iso
from agent_core.storage.prepared import Prepared
from agent_core.storage.schema import ledger


@dataclass(frozen=True)
class LedgerEntry:
    idempotency_key: str
    run_id: str
    call_id: str
    tool: str
    arg_hash: str
    status: SideEffectStatus
    target: str | None
    expected_hash: str | None
    outcome: str | None
    result: JsonObject | None
    confirmed_at: str | None
    approval_id: str | None = None
    """The approval under which the call last started (None: a read, or an older row)."""


# The ledger's columns, in the table's order (see storage/schema.py).
_LedgerRow = Row[tuple[str, ...]]


def _entry(row: _LedgerRow) -> LedgerEntry:
    return LedgerEntry(
        idempotency_key=row.idempotency_key,
        run_id=row.run_id,
        call_id=row.call_id,
        tool=row.tool,
        arg_hash=row.arg_hash,
        status=SideEffectStatus(row.status),
        target=row.target,
        expected_hash=row.expected_hash,
        outcome=row.outcome,
        result=None if row.result_json is None else json.loads(row.result_json),
        confirmed_at=row.confirmed_at,
        approval_id=row.approval_id,
    )


def get_entry(conn: Connection, key: str) -> LedgerEntry | None:
    row = conn.execute(select(ledger).where(ledger.c.idempotency_key == key)).first()
    return None if row is None else _entry(row)


def confirmed_keys(conn: Connection, run_id: str) -> list[str]:
    rows = conn.execute(
        select(ledger.c.idempotency_key)
        .where(ledger.c.run_id == run_id, ledger.c.status == SideEffectStatus.CONFIRMED)
        .order_by(ledger.c.confirmed_at)
    )
    return [r[0] for r in rows]


# Compiled once: a read call writes its intent and its confirmation at every call.
_START = Prepared(
    insert(ledger),
    keys=(
        "idempotency_key", "run_id", "call_id", "tool", "arg_hash", "status", "target",
        "expected_hash", "started_at", "approval_id",
    ),
)  # fmt: skip
_FINISH = Prepared(
    update(ledger)
    .where(ledger.c.idempotency_key == bindparam("key"))
    .values(
        status=bindparam("status"),
        outcome=bindparam("outcome"),
        result_json=bindparam("result"),
        confirmed_at=bindparam("at"),
    )
)


def start(
    conn: Connection,
    key: str,
    *,
    run_id: str,
    call_id: str,
    tool: str,
    arg_hash: str,
    target: str | None = None,
    expected_hash: str | None = None,
    approval_id: str | None = None,
) -> None:
    _START(
        conn,
        idempotency_key=key,
        run_id=run_id,
        call_id=call_id,
        tool=tool,
        arg_hash=arg_hash,
        status=SideEffectStatus.STARTED.value,
        target=target,
        expected_hash=expected_hash,
        started_at=now_iso(),
        approval_id=approval_id,
    )


def restart(conn: Connection, key: str, approval_id: str) -> None:
    """A started call of unknown outcome runs again, under a person's newer approval."""
    conn.execute(
        update(ledger)
        .where(ledger.c.idempotency_key == key, ledger.c.status == SideEffectStatus.STARTED)
        .values(approval_id=approval_id, started_at=now_iso())
    )


def finish(
    conn: Connection, key: str, status: SideEffectStatus, outcome: str, result: JsonMapping
) -> None:
    _FINISH(
        conn,
        key=key,
        status=SideEffectStatus(status).value,
        outcome=outcome,
        result=json.dumps(result, ensure_ascii=False),
        at=now_iso(),
    )


def count_unfailed(
    conn: Connection, run_id: str, tool: str, *, exclude_call: str | None = None
) -> int:
    """Entries of `tool` in the run that did not fail (a budget counts them). With
    `exclude_call`: only those started before that call's own entry (ties by call id), so that
    parallel calls that all started before any finished do not each count the others and all
    refuse: the first ones within the budget run, the rest are refused, whatever the timing."""
    query = select(func.count()).where(
        ledger.c.run_id == run_id,
        ledger.c.tool == tool,
        ledger.c.status != str(SideEffectStatus.FAILED),
    )
    if exclude_call is not None:
        query = query.where(ledger.c.call_id != exclude_call)
        mine = conn.execute(
            select(ledger.c.started_at).where(
                ledger.c.run_id == run_id, ledger.c.tool == tool, ledger.c.call_id == exclude_call
            )
        ).first()
        if mine is not None:
            query = query.where(
                (ledger.c.started_at < mine.started_at)
                | ((ledger.c.started_at == mine.started_at) & (ledger.c.call_id < exclude_call))
            )
    return int(conn.execute(query).scalar_one())


def confirmed_for_call(conn: Connection, run_id: str, call_id: str) -> LedgerEntry | None:
    """The call's confirmed entry (its one real execution), or None: never confirmed."""
    row = conn.execute(
        select(ledger).where(
            ledger.c.run_id == run_id,
            ledger.c.call_id == call_id,
            ledger.c.status == str(SideEffectStatus.CONFIRMED),
        )
    ).first()
    return None if row is None else _entry(row)
