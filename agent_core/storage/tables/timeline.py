"""Append and read timeline events. Callers append inside the transaction of the change."""

from __future__ import annotations

import json
from typing import cast

from sqlalchemy import Connection, Row, func, insert, select

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import Event
from agent_core.contract.json_types import JsonMapping, JsonObject
from agent_core.home.clock import now_iso
from agent_core.home.secrets import REDACTOR
from agent_core.storage.prepared import Prepared
from agent_core.storage.schema import events
from agent_core.storage.store import NEW_EVENTS

# Compiled once: every tool boundary appends events.
# RETURNING: a driver's lastrowid is SQLite's; both backends return the new seq this way.
_INSERT_EVENT = Prepared(
    insert(events).returning(events.c.seq), keys=("run_id", "kind", "at", "tool", "data_json")
)
# json.dumps(..., ensure_ascii=False) builds an encoder per call; this one is made once.
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def append_event(
    conn: Connection,
    run_id: str | None,
    kind: str,
    *,
    tool: str | None = None,
    data: JsonMapping | None = None,
    at: str | None = None,
) -> int:
    """Append one event (redacted) in the caller's transaction; `at` defaults to now."""
    # Callers hand JSON-able values (the encoder below refuses anything else).
    payload = cast(JsonObject, REDACTOR.redact_json(dict(data or {})))
    at = at or now_iso()
    result = _INSERT_EVENT(
        conn,
        run_id=run_id,
        kind=str(kind),
        at=at,
        tool=tool,
        data_json=_ENCODE(payload),
    )
    row = result.fetchone()
    seq = int(row[0]) if row else 0  # type: ignore[call-overload]
    announced = conn.info.get(NEW_EVENTS)
    if announced is not None:  # a Store transaction: followers hear of it after the commit
        announced.append(
            Event(seq=seq, run_id=run_id, kind=str(kind), at=at, tool=tool, data=payload)
        )
    return seq


_EventRow = Row[tuple[int, str | None, str, str, str | None, str]]


def _to_event(row: _EventRow) -> Event:
    try:
        data = json.loads(row.data_json)
        if not isinstance(data, dict):
            raise TypeError("its data is not a JSON object")
    except (TypeError, ValueError) as exc:
        raise BriefDeskError(
            ErrorCode.STORAGE_CORRUPT,
            f"Event {row.seq} of run {row.run_id!r} holds a row this app cannot read ({exc}).",
        ) from None
    return Event(seq=row.seq, run_id=row.run_id, kind=row.kind, at=row.at, tool=row.tool, data=data)


def read_events(
    conn: Connection,
    *,
    run_id: str | None = None,
    home: bool = False,
    since: int = 0,
    limit: int | None = None,
) -> list[Event]:
    """Events after `since`: of `run_id`, or with `home` only the home's own (run_id null),
    or else all of them."""
    query = select(events).where(events.c.seq > since).order_by(events.c.seq)
    if home:
        query = query.where(events.c.run_id.is_(None))
    elif run_id is not None:
        query = query.where(events.c.run_id == run_id)
    if limit is not None:
        query = query.limit(limit)
    return [_to_event(row) for row in conn.execute(query)]


def last_seq(conn: Connection) -> int:
    return int(conn.execute(select(func.coalesce(func.max(events.c.seq), 0))).scalar_one())


def has_events(conn: Connection, run_id: str) -> bool:
    query = select(events.c.seq).where(events.c.run_id == run_id).limit(1)
    return conn.execute(query).first() is not None


def last_at(conn: Connection, run_id: str, kinds: list[str]) -> str | None:
    """When the run's latest event of one of `kinds` happened (None: it has none)."""
    at = conn.execute(
        select(events.c.at)
        .where(events.c.run_id == run_id, events.c.kind.in_(kinds))
        .order_by(events.c.seq.desc())
        .limit(1)
    ).scalar()
    return None if at is None else str(at)
