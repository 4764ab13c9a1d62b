"""Append and read timeline events. Callers append inside the transaction of the change."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, func, insert, select

from agent_core.canonical import now_iso
from agent_core.events import Event
from agent_core.secrets import REDACTOR
from agent_core.storage.engine import NEW_EVENTS
from agent_core.storage.prepared import Prepared
from agent_core.storage.schema import events

# Compiled once: every tool boundary appends events.
_INSERT_EVENT = Prepared(insert(events), keys=("run_id", "kind", "at", "tool", "data_json"))


def append_event(
    conn: Connection,
    run_id: str,
    kind: str,
    *,
    tool: str | None = None,
    data: dict[str, Any] | None = None,
) -> int:
    payload = REDACTOR.redact_json(data or {})
    at = now_iso()
    result = _INSERT_EVENT(
        conn,
        run_id=run_id,
        kind=str(kind),
        at=at,
        tool=tool,
        data_json=json.dumps(payload, ensure_ascii=False),
    )
    seq = int(result.lastrowid or 0)
    announced = conn.info.get(NEW_EVENTS)
    if announced is not None:  # a Store transaction: followers hear of it after the commit
        announced.append(
            Event(seq=seq, run_id=run_id, kind=str(kind), at=at, tool=tool, data=payload)
        )
    return seq


def _to_event(row: Any) -> Event:
    return Event(
        seq=row.seq,
        run_id=row.run_id,
        kind=row.kind,
        at=row.at,
        tool=row.tool,
        data=json.loads(row.data_json),
    )


def read_events(
    conn: Connection,
    *,
    run_id: str | None = None,
    since: int = 0,
    limit: int | None = None,
) -> list[Event]:
    query = select(events).where(events.c.seq > since).order_by(events.c.seq)
    if run_id is not None:
        query = query.where(events.c.run_id == run_id)
    if limit is not None:
        query = query.limit(limit)
    return [_to_event(row) for row in conn.execute(query)]


def last_seq(conn: Connection) -> int:
    return int(conn.execute(select(func.coalesce(func.max(events.c.seq), 0))).scalar_one())
