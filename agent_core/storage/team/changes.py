"""What a committed write changed, as one small notice other desks hear (team mode).

On PostgreSQL every write transaction that appends events or changes a run sends one
`pg_notify(CHANNEL, payload)` as its last statement (storage/postgres.py), so the notice is
delivered when, and only if, it commits; `storage/listen.py` hears it on another desk. The
payload says what to read again: the newest event `seq` and the runs concerned, never the
changes themselves (NOTIFY payloads are capped at 8000 bytes; the tables are the truth).

Most changes come with an event naming their run, but not all (a run created, a cancel
requested, a status moved by the lifecycle, a run moved to another desk): so every INSERT,
UPDATE or DELETE of `runs` on the team's write engine names its run in the notice too
(`note_runs_statement`, hooked in storage/postgres.py), whoever wrote it. Changes of proposals
always come with an approval event naming their run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from sqlalchemy import Connection, Delete, Insert, Update
from sqlalchemy.sql import operators, visitors
from sqlalchemy.sql.elements import BinaryExpression, BindParameter, ColumnClause

from agent_core.contract.events import Event
from agent_core.contract.json_types import JsonObject, JsonValue
from agent_core.contract.notices import ChangeNotice, NoticeKind
from agent_core.storage.store import CHANGED_RUNS, NEW_EVENTS

CHANNEL = "briefdesk_changes"
PAYLOAD_VERSION = 1
MAX_NAMED_RUNS = 100  # more than this in one commit: the notice says "every run" instead
SOME_RUN = "*"  # a statement changed runs this module could not name: read them all


def note_runs_statement(
    conn: Connection, statement: object, multiparams: object, params: Mapping[str, object] | None
) -> None:
    """Before a statement runs on the write engine: if it writes `runs`, record which runs."""
    if not isinstance(statement, (Insert, Update, Delete)):
        return
    if getattr(statement.table, "name", None) != "runs":
        return
    touched = conn.info.get(CHANGED_RUNS)
    if touched is None:
        return
    batches = multiparams if isinstance(multiparams, (list, tuple)) else ()
    sets = [p for p in batches if isinstance(p, dict)] or [{}]  # executemany: each
    named = [n for one in sets for n in _runs_named(statement, {**one, **(params or {})})]
    touched.update(named if named else (SOME_RUN,))


def _runs_named(statement: Insert | Update | Delete, params: Mapping[str, object]) -> list[str]:
    """The run ids a statement writes: its `run_id` value (INSERT), or the `run_id = X` and
    `run_id IN (...)` terms of its WHERE clause; empty when it names none."""
    if isinstance(statement, Insert):
        value = params["run_id"] if "run_id" in params else statement.compile().params.get("run_id")
        return [str(value)] if value is not None else []
    found: list[str] = []
    where = statement.whereclause
    for node in visitors.iterate(where) if where is not None else ():
        if not isinstance(node, BinaryExpression):
            continue
        left, right = node.left, node.right
        if not (isinstance(left, ColumnClause) and left.name == "run_id"):
            continue
        if not isinstance(right, BindParameter) or node.operator not in (
            operators.eq,
            operators.in_op,
        ):
            continue
        value = right.value if right.value is not None else params.get(right.key)
        values = value if isinstance(value, (list, tuple)) else [value]
        found.extend(str(v) for v in values if v is not None)
    return found


def payload_of(conn: Connection, origin: str) -> str | None:
    """The notice payload for what the transaction on `conn` changed; None: nothing to say."""
    events: list[Event] = conn.info.get(NEW_EVENTS) or []
    touched: set[str] = conn.info.get(CHANGED_RUNS) or set()
    if not events and not touched:
        return None
    names = touched | {e.run_id for e in events if e.run_id is not None}
    named = SOME_RUN not in names and len(names) <= MAX_NAMED_RUNS
    runs: list[JsonValue] | None = [name for name in sorted(names)] if named else None
    body: JsonObject = {
        "v": PAYLOAD_VERSION,
        "origin": origin,
        "seq": max((e.seq for e in events), default=None),
        "events": len(events),
        "runs": runs,
    }
    return json.dumps(body, separators=(",", ":"))


def notice_from(payload: str, origin: str | None) -> ChangeNotice:
    """A received payload as a notice; one this version cannot read asks to read everything."""
    try:
        body = json.loads(payload)
        if not isinstance(body, dict) or body.get("v") != PAYLOAD_VERSION:
            raise ValueError("another payload version")
        runs = body.get("runs")
        seq = body.get("seq")
        return ChangeNotice(
            NoticeKind.CHANGED,
            seq=int(seq) if seq is not None else None,
            run_ids=None if runs is None else tuple(str(r) for r in runs),
            events=int(body.get("events") or 0),
            own=origin is not None and body.get("origin") == origin,
        )
    except (TypeError, ValueError):
        # A newer desk's payload (or a stray NOTIFY on our channel): still a change.
        return ChangeNotice(NoticeKind.CHANGED, run_ids=None)
