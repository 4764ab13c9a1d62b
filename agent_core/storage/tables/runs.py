"""Run rows: the run record, declared once, and every statement on the `runs` table.

`RunRow` is the one declaration of a run's fields: the table `schema.runs` names the same
columns, the contract's RUN (`RunView`) takes the fields marked `SHOWN` (`shown_fields`), and
`RunHolding` four of them (tests/test_house_records.py holds all three to it). Enums stay
enums in the record (`status` is a RunStatus); the stored text is converted here only.

A write of fields the caller read is `(before, after)`, `after` a `dataclasses.replace` of
`before` (mypy checks replace's keywords against the record): `update_run` and `move_status`
store the fields it changed. A new run is a whole `RunRow` (`insert_run`). The narrow writes
that must not read first are named (`save_progress`, `record_answer`, `set_desk`, ...).

A run's status is written by two functions only: `insert_run` (a new row, given `created` by
the lifecycle) and `move_status` (a conditional move, called by the lifecycle's status writer,
runs/transitions.py); `update_run` refuses a changed status.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

from sqlalchemy import Connection, RowMapping, Select, bindparam, insert, select, update

from agent_core.contract.errors import BriefDeskError, ErrorCode, ErrorJSON
from agent_core.contract.json_types import JsonObject
from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import DamagedRunView
from agent_core.home.clock import now_iso
from agent_core.storage.dialect_insert import insert_for
from agent_core.storage.owner import Owner
from agent_core.storage.prepared import Prepared
from agent_core.storage.schema import runs
from agent_core.storage.team.leases import Leases

log = logging.getLogger(__name__)

BRIEFDESK_AGENT: Final = "briefdesk"
"""RUN `agent` of BriefDesk's own runs (an external agent's run names the agent)."""
SHOWN: Final = "shown"
"""Field metadata: the RUN key (the contract's JSON) this field is shown under."""
DECODED: Final = "decoded"
"""Field metadata: how its stored text becomes the RUN value (a JSON column)."""


def _shown(key: str, decoded: Callable[[str | None], object] | None = None) -> dict[str, object]:
    return {SHOWN: key} if decoded is None else {SHOWN: key, DECODED: decoded}


def _error_of(text: str | None) -> ErrorJSON | None:
    """A stored error (checked to be a JSON object when the row was read)."""
    return None if not text else json.loads(text)


@dataclass(frozen=True, kw_only=True)
class RunRow:
    """A run: one row of `runs`, typed. The one declaration of its fields.

    A field with `SHOWN` metadata is a key of the contract's RUN under that name; the others
    (progress, limits, the SDK state's digest, the owner, a pending cancel) stay in the core.
    A write is `replace(row, ...)`: `update_run` / `move_status` store the fields it changed.
    """

    run_id: str = field(metadata=_shown("run_id"))
    thread_id: str = field(metadata=_shown("thread_id"))
    status: RunStatus = field(metadata=_shown("status"))
    """As stored: the RUN shows a `running` run whose owner died as `interrupted`."""
    question: str = field(metadata=_shown("question"))
    model: str = field(metadata=_shown("model"))
    mode: str = field(metadata=_shown("mode"))
    corpus_dir: str = field(metadata=_shown("corpus"))
    artifacts_dir: str = field(metadata=_shown("artifacts"))
    limits_json: str
    """RunLimits (runs/progress.py), fixed at creation."""
    state_json: str
    """RunProgress (runs/progress.py): turns, calls, evidence, next step."""
    state_digest: str | None = None
    """The latest SDK RunState (blobs.digest); None before the first pause that saves one."""
    question_pending: str | None = field(default=None, metadata=_shown("question_pending"))
    output: str | None = field(default=None, metadata=_shown("output"))
    error_json: str | None = field(default=None, metadata=_shown("error", _error_of))
    """An ErrorJSON object (see `error`), as stored."""
    cancel_requested: bool = False
    owner_host: str | None = None
    owner_pid: int | None = None
    owner_started: float | None = None
    created_at: str = field(metadata=_shown("created_at"))
    updated_at: str = field(metadata=_shown("updated_at"))
    desk: str | None = field(default=None, metadata=_shown("desk"))
    """The installation that runs it (team mode); None for a row from before desks."""
    agent: str = field(default=BRIEFDESK_AGENT, metadata=_shown("agent"))
    """Whose run: `briefdesk`, or the coding agent (or MCP client) whose session it is."""
    session_id: str | None = field(default=None, metadata=_shown("session_id"))
    """The agent's session (one run per agent and session); None for BriefDesk's own."""
    cwd: str | None = field(default=None, metadata=_shown("cwd"))
    """The folder the agent's session works in; None for BriefDesk's own."""

    @property
    def is_agent_run(self) -> bool:
        """An external agent's session: it continues when the agent calls again, never
        through `resume`, and no owner process drives it."""
        return self.agent != BRIEFDESK_AGENT

    @property
    def error(self) -> ErrorJSON | None:
        return _error_of(self.error_json)

    def released(self) -> RunRow:
        """This run with no owner recorded (what every move that stops driving implies)."""
        return replace(self, owner_host=None, owner_pid=None, owner_started=None)


COLUMNS: Final = tuple(f.name for f in fields(RunRow))
"""The record's fields: the columns of `runs`, in the record's order."""
_FIXED: Final = frozenset({"run_id", "status", "created_at", "updated_at"})
"""Never changed by `update_run`: the key, the status (`move_status`) and the stamps."""


@dataclass(frozen=True)
class RunHolding:
    """Who holds a run, as `check_held` compares it: four of the record's fields, read alone
    (it runs first in every write of a driver; `state_json` may be large). Its fields are
    RunRow's, name and type (tests/test_house_records.py holds them)."""

    status: RunStatus
    desk: str | None
    owner_host: str | None
    owner_pid: int | None


def _integer_or_none(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(f"{value!r} is not an integer")
    return int(value)


def _number_or_none(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(f"{value!r} is not a number")
    return float(value)


def _error_text(value: object) -> str | None:
    """A stored error must be a JSON object (or nothing)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not isinstance(json.loads(value), dict):
        raise TypeError("not a JSON object")
    return value


_READ: Final[Mapping[str, Callable[[object], object]]] = {
    "status": lambda value: RunStatus(str(value)),
    "error_json": _error_text,
    "cancel_requested": bool,
    "owner_pid": _integer_or_none,
    "owner_started": _number_or_none,
}
"""The columns whose stored value is not already the record's type."""
_STORED: Final[Mapping[str, Callable[[object], object]]] = {
    "status": str,
    "cancel_requested": lambda flag: 1 if flag else 0,
}
"""The fields stored as another type than the record's (an enum's value, a 0/1 flag)."""


def _typed(run_id: object, stored: RowMapping, names: Iterable[str]) -> dict[str, Any]:
    """The record's values of the `stored` columns `names`; `storage_corrupt` saying what is
    wrong (an unknown status, malformed JSON, a bad owner): a bad row is refused where it is
    touched, and the rest of the home stays usable. (State and limits are checked where they
    are loaded.)"""
    typed: dict[str, Any] = {}
    for name in names:
        try:
            value = stored[name]
            typed[name] = _READ[name](value) if name in _READ else value
        except (TypeError, ValueError) as exc:
            what = name.removesuffix("_json").split("_")[0]  # status, error, owner
            raise BriefDeskError(
                ErrorCode.STORAGE_CORRUPT,
                f"Run {run_id} holds a row this app cannot read: its {what} ({exc}). The "
                "other runs are not affected.",
            ) from None
    return typed


def _run_row(stored: RowMapping) -> RunRow:
    return RunRow(**_typed(stored["run_id"], stored, COLUMNS))


def _stored(values: Mapping[str, object]) -> dict[str, object]:
    """Record values as their columns store them."""
    return {n: _STORED[n](v) if n in _STORED and v is not None else v for n, v in values.items()}


def _changed(before: RunRow, after: RunRow) -> dict[str, object]:
    """The fields `after` (a `replace` of `before`) changed, by name: what a write stores."""
    if after.run_id != before.run_id:
        raise ValueError(f"a write of run {before.run_id} cannot store run {after.run_id}")
    return {
        name: getattr(after, name)
        for name in COLUMNS
        if getattr(after, name) != getattr(before, name)
    }


def shown_fields(row: RunRow) -> dict[str, object]:
    """The RUN keys the record holds, by their contract names (its `SHOWN` fields; enums stay
    enums: they become strings at the JSON edge)."""
    shown: dict[str, object] = {}
    for column in fields(row):
        key = column.metadata.get(SHOWN)
        if key is not None:
            value = getattr(row, column.name)
            decoded = column.metadata.get(DECODED)
            shown[str(key)] = value if decoded is None else decoded(value)
    return shown


def _rows(
    conn: Connection, query: Select[Any], damaged: list[DamagedRunView] | None
) -> list[RunRow]:
    """The readable rows of `query`; an unreadable one is logged and left out (reported in
    `damaged` when given)."""
    found: list[RunRow] = []
    for stored in conn.execute(query):
        try:
            found.append(_run_row(stored._mapping))
        except BriefDeskError as exc:
            log.warning("runs: %s", exc.message)
            if damaged is not None:
                damaged.append(DamagedRunView(run_id=str(stored.run_id), error=exc.to_json()))
    return found


def insert_run(conn: Connection, row: RunRow) -> RunRow:
    """Store a new run, as given (the lifecycle's `create` gives it `created`), and return the
    stored row. An agent session's run is stored only if that session has none yet: the row
    returned is then the one another hook process stored first (the unique index on
    (agent, session_id) decides the race)."""
    values = _stored({n: getattr(row, n) for n in COLUMNS})
    if row.session_id is None:
        conn.execute(insert(runs).values(**values))
        return row
    conn.execute(
        insert_for(conn, runs)
        .values(**values)
        .on_conflict_do_nothing(
            index_elements=["agent", "session_id"],
            index_where=runs.c.session_id.is_not(None),
        )
    )
    found = agent_session_row(conn, row.agent, row.session_id)
    assert found is not None  # inserted, or there already
    return found


def agent_session_row(conn: Connection, agent: str, session_id: str) -> RunRow | None:
    """The run of an agent's session, if it has one."""
    query = select(runs).where(runs.c.agent == agent, runs.c.session_id == session_id)
    found = conn.execute(query).first()
    return None if found is None else _run_row(found._mapping)


def idle_agent_rows(conn: Connection, before: str) -> list[RunRow]:
    """Agents' runs not ended whose last change is older than `before` (an ISO time)."""
    query = select(runs).where(
        runs.c.session_id.is_not(None),
        runs.c.status.in_([str(RunStatus.RUNNING), str(RunStatus.CREATED)]),
        runs.c.updated_at < before,
    )
    return _rows(conn, query, None)


def touch(conn: Connection, run_id: str) -> None:
    """Stamp a run as updated now (an agent's call: its idle time starts again)."""
    conn.execute(update(runs).where(runs.c.run_id == run_id).values(updated_at=now_iso()))


def get_run_row(conn: Connection, run_id: str) -> RunRow:
    row = conn.execute(select(runs).where(runs.c.run_id == run_id)).first()
    if row is None:
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"No run {run_id!r} in this home.")
    return _run_row(row._mapping)


def update_run(conn: Connection, before: RunRow, after: RunRow) -> None:
    """Store the fields `after` (a `replace` of `before`, the row as read) changed, other than
    its status (only the lifecycle moves a status), and stamp the run as updated now."""
    changes = _changed(before, after)
    if "status" in changes:  # untyped callers too: only the status writer moves a status
        raise ValueError("update_run cannot set a status: a lifecycle transition does")
    fixed = _FIXED & set(changes)
    if fixed:
        raise ValueError(f"update_run cannot change {sorted(fixed)}")
    values = {**_stored(changes), "updated_at": now_iso()}
    conn.execute(update(runs).where(runs.c.run_id == before.run_id).values(values))


def move_status(conn: Connection, before: RunRow, after: RunRow, *, target: RunStatus) -> bool:
    """The one status write after creation: `before.status` -> `target`, only when the run
    still is `before.status`, with the other fields `after` (a `replace` of `before`) changed.
    Returns whether the row moved. Called by runs/transitions.py only."""
    changes = _changed(before, after)
    fixed = _FIXED & set(changes)
    if fixed:  # the target is the transition table's to give; the key and stamps are ours
        raise ValueError(f"a move cannot change {sorted(fixed)}")
    values = {**_stored(changes), "status": str(target), "updated_at": now_iso()}
    result = conn.execute(
        update(runs)
        .where(runs.c.run_id == before.run_id, runs.c.status == str(before.status))
        .values(values)
    )
    return result.rowcount == 1


# The owner's hot write, compiled once; it hands back the cancel flag as it stands in this
# transaction, so the driver learns of a cancel asked from another process with no read.
_SAVE_PROGRESS = Prepared(
    update(runs)
    .where(runs.c.run_id == bindparam("rid"))
    .values(state_json=bindparam("state"), updated_at=bindparam("at"))
    .returning(runs.c.cancel_requested)
)
_CANCEL_REQUESTED = Prepared(
    select(runs.c.cancel_requested).where(runs.c.run_id == bindparam("rid"))
)


def save_progress(conn: Connection, run_id: str, state_json: str) -> bool:
    """Store a driven run's progress (RunProgress), whole: its owner's hot write, made without
    reading the row first (only the owner writes it, and a write after a rolled-back one must
    store it again, so no comparison with a cached row decides it). Returns whether a cancel
    is requested (the row's flag, read by the same statement)."""
    row = _SAVE_PROGRESS(conn, rid=run_id, state=state_json, at=now_iso()).fetchone()
    return bool(row and row[0])


def record_answer(conn: Connection, run_id: str, *, state_before: str, state_after: str) -> bool:
    """Store a waiting run's answered state, only when nobody changed it since `state_before`
    was read (of two answers racing, one wins). Not a status change: the run waits on."""
    result = conn.execute(
        update(runs)
        .where(
            runs.c.run_id == run_id,
            runs.c.status == str(RunStatus.WAITING_INPUT),
            runs.c.state_json == state_before,
        )
        .values(state_json=state_after, question_pending=None, updated_at=now_iso())
    )
    return result.rowcount == 1


def set_desk(conn: Connection, run_id: str, desk: str) -> None:
    """Move a run to `desk` without touching anything else (a take-over of a resting run)."""
    conn.execute(update(runs).where(runs.c.run_id == run_id).values(desk=desk))


def request_cancel(conn: Connection, run_id: str) -> None:
    conn.execute(update(runs).where(runs.c.run_id == run_id).values(cancel_requested=1))


def cancel_requested(conn: Connection, run_id: str) -> bool:
    return bool(_CANCEL_REQUESTED.scalar(conn, rid=run_id))


def holding_of(conn: Connection, run_id: str) -> RunHolding | None:
    """Only the columns `check_held` compares: it runs first in every write of a driver."""
    names = [f.name for f in fields(RunHolding)]
    query = select(*(runs.c[name] for name in names)).where(runs.c.run_id == run_id)
    row = conn.execute(query).first()
    return None if row is None else RunHolding(**_typed(run_id, row._mapping, names))


def list_run_rows(
    conn: Connection,
    run_ids: list[str] | None = None,
    damaged: list[DamagedRunView] | None = None,
) -> list[RunRow]:
    """Every readable run (or the given ones that exist), newest first; the unreadable ones
    go to `damaged` when given."""
    query = select(runs).order_by(runs.c.created_at.desc(), runs.c.run_id)
    if run_ids is not None:
        query = query.where(runs.c.run_id.in_(run_ids))
    return _rows(conn, query, damaged)


def waiting_question_rows(conn: Connection) -> list[RunRow]:
    """Runs waiting for a person's answer to their question (the inbox's questions)."""
    query = select(runs).where(
        runs.c.status == str(RunStatus.WAITING_INPUT), runs.c.question_pending.is_not(None)
    )
    return _rows(conn, query, None)


def owner_of(row: RunRow) -> Owner | None:
    if row.owner_pid is None:
        return None
    return Owner(row.owner_host or "", row.owner_pid, row.owner_started or 0.0)


def other_desk(row: RunRow, desk: str | None) -> bool:
    """True when the run belongs to a desk other than `desk` (team mode; a row from before
    desks, with none, belongs to whichever desk drives it next)."""
    return desk is not None and row.desk is not None and row.desk != desk


def owner_live(row: RunRow, leases: Leases | None = None) -> bool:
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


def effective_status(row: RunRow, leases: Leases | None = None) -> RunStatus:
    """A `running` run whose owner died (or whose desk's lease lapsed) shows as interrupted;
    an agent's run has no owner process (it runs between its hook calls)."""
    if row.status is RunStatus.RUNNING and not row.is_agent_run and not owner_live(row, leases):
        return RunStatus.INTERRUPTED
    return row.status


def running_rows(conn: Connection) -> list[RunRow]:
    """The runs recorded as `running` (their owners may have died since)."""
    query = select(runs).where(runs.c.status == str(RunStatus.RUNNING))
    return _rows(conn, query, None)


def run_state(row: RunRow) -> JsonObject:
    return _json_object(row.state_json)


def limits(row: RunRow) -> JsonObject:
    return _json_object(row.limits_json)


def _json_object(text: str) -> JsonObject:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise BriefDeskError(ErrorCode.STORAGE_CORRUPT, "A run holds JSON that is not an object.")
    return value
