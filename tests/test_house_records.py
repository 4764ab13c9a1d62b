"""Each record is declared once (issue 40, item 2): the run is `RunRow`, and the rest follows.

`RunRow` (agent_core/storage/tables/runs.py) is the one declaration of a run's fields. Held
here, each against it: the table `schema.runs` (a column per field, of its type and
nullability), the contract's RUN `RunView` (its keys are the fields marked `SHOWN` plus the
`RUN_COMPUTED` ones, of the same types: a TypedDict cannot be derived, so it is checked),
`RunHolding` (four of its fields, read alone on the hot path), and the writes: no run write
takes untyped keywords (`**values: object` would lose mypy's check of every write; a write is
a `replace` of the row as read, whose keywords mypy checks against the record).

Each check is a function of the declarations, proven on a planted counter-example below, so a
check that sees nothing fails too. One run made through the facade shows that the status stays
a RunStatus up to the JSON edge, where it is its text.
"""

from __future__ import annotations

import ast
import json
import types
from dataclasses import dataclass, field, fields, make_dataclass
from pathlib import Path
from typing import Any, TypedDict, Union, get_args, get_origin, get_type_hints

from sqlalchemy import Column, Integer, MetaData, String, Table, event

from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import RUN_COMPUTED, RunView
from agent_core.facade.workspace import Workspace
from agent_core.storage.schema import runs
from agent_core.storage.tables import runs as run_rows

REPO = Path(__file__).resolve().parents[1]
RUN_WRITERS = (
    "agent_core/storage/tables/runs.py",
    "agent_core/runs/lifecycle.py",
    "agent_core/runs/transitions.py",
    "agent_core/runs/record.py",
)


def _parts(hint: object) -> tuple[type, bool]:
    """(the type, whether None is allowed) of `X` or `X | None`."""
    if get_origin(hint) in (Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        assert len(args) == 1, hint
        return args[0], True
    assert isinstance(hint, type), hint
    return hint, False


def record_against_table(record: type, table: Table) -> list[str]:
    """Where the record's fields and the table's columns differ (names, types, nullability)."""
    hints = get_type_hints(record)
    names = [f.name for f in fields(record)]
    problems = [f"field {n} has no column" for n in names if n not in table.c]
    problems += [f"column {c.name} has no field" for c in table.columns if c.name not in names]
    for name in (n for n in names if n in table.c):
        column = table.c[name]
        kind, optional = _parts(hints[name])
        if not issubclass(kind, column.type.python_type):
            problems.append(f"{name}: {kind.__name__} is stored as {column.type.python_type}")
        if optional != (column.nullable and not column.primary_key):
            problems.append(f"{name}: None allowed {optional}, column nullable {column.nullable}")
    return problems


def record_against_view(record: type, view: type, computed: frozenset[str]) -> list[str]:
    """Where the record's shown fields (with the computed keys) and the view's keys differ, by
    name and type (a decoded field: its decoder's return type)."""
    hints = get_type_hints(record)
    view_hints = get_type_hints(view)
    shown: dict[str, object] = {}
    for f in fields(record):
        key = f.metadata.get(run_rows.SHOWN)
        if key is not None:
            decoded = f.metadata.get(run_rows.DECODED)
            shown[key] = hints[f.name] if decoded is None else get_type_hints(decoded)["return"]
    problems = [f"shown {k} is not a key of the view" for k in shown if k not in view_hints]
    problems += [f"computed {k} is also a field" for k in computed & shown.keys()]
    problems += [
        f"view key {k} is neither shown nor computed"
        for k in view_hints
        if k not in shown and k not in computed
    ]
    problems += [f"computed {k} is not a key of the view" for k in computed - view_hints.keys()]
    problems += [
        f"{k}: the view says {view_hints[k]}, the record {hint}"
        for k, hint in shown.items()
        if k in view_hints and view_hints[k] != hint
    ]
    return problems


def part_against_record(part: type, record: type) -> list[str]:
    """Where a projection's fields are not the record's, name and type."""
    whole = get_type_hints(record)
    return [
        f"{name}: {hint} is not the record's {whole.get(name)}"
        for name, hint in get_type_hints(part).items()
        if whole.get(name) != hint
    ]


def untyped_splats(source: str, where: str) -> list[str]:
    """Functions whose `**` parameter is not typed by a TypedDict (`Unpack[...]`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.kwarg:
            note = node.args.kwarg.annotation
            if note is None or "Unpack[" not in ast.unparse(note):
                found.append(f"{where}:{node.lineno}: {node.name}(**{node.args.kwarg.arg})")
    return found


# -- the house as it is ---------------------------------------------------------------------


def test_the_run_record_is_the_runs_table() -> None:
    assert record_against_table(run_rows.RunRow, runs) == []


def test_the_run_view_is_the_records_shown_fields_and_the_computed_keys() -> None:
    assert record_against_view(run_rows.RunRow, RunView, RUN_COMPUTED) == []


def test_the_holding_read_on_the_hot_path_is_four_of_the_records_fields() -> None:
    assert [f.name for f in fields(run_rows.RunHolding)] == [
        "status",
        "desk",
        "owner_host",
        "owner_pid",
    ]  # `check_held` compares these: never the whole row (state_json may be large)
    assert part_against_record(run_rows.RunHolding, run_rows.RunRow) == []


def test_the_holding_is_read_alone(ws: Workspace) -> None:
    """`holding_of` runs first in every write of a driver: one narrow SELECT, seen as sent."""
    run_id = ws.create_run("What is a lease?")
    sent: list[str] = []
    with ws.store.read() as conn:
        event.listen(conn, "before_cursor_execute", lambda *a: sent.append(str(a[2])))
        holding = run_rows.holding_of(conn, run_id)
    assert holding == run_rows.RunHolding(RunStatus.CREATED, ws.desk, None, None)
    [select] = sent
    assert all(c in select for c in ("status", "desk", "owner_host", "owner_pid")), select
    assert "state_json" not in select and "question" not in select, select


def test_no_run_write_takes_untyped_keywords() -> None:
    found = []
    for where in RUN_WRITERS:
        found += untyped_splats((REPO / where).read_text(encoding="utf-8"), where)
    assert found == []


def test_a_run_keeps_its_status_an_enum_up_to_the_json_edge(ws: Workspace) -> None:
    run_id = ws.create_run("What is a write-ahead log?")
    [view] = ws.list_runs([run_id])
    assert list(view) == list(RunView.__annotations__)  # every key, in the contract's order
    assert type(view["status"]) is RunStatus and view["status"] is RunStatus.CREATED
    assert json.loads(json.dumps(view))["status"] == "created"


# -- each check, on a planted counter-example -----------------------------------------------


def _shown(key: str) -> Any:
    return field(default=None, metadata={run_rows.SHOWN: key})


def test_the_checks_see_a_field_or_a_column_added_to_one_side_only() -> None:
    grown = make_dataclass(
        "Grown",
        [("priority", int | None, _shown("priority"))],
        bases=(run_rows.RunRow,),
        frozen=True,
        kw_only=True,
    )
    assert record_against_table(grown, runs) == ["field priority has no column"]
    wider = Table(
        "runs",
        MetaData(),
        *(Column(c.name, c.type, nullable=c.nullable, primary_key=c.primary_key) for c in runs.c),
        Column("priority", Integer, nullable=True),
    )
    assert record_against_table(run_rows.RunRow, wider) == ["column priority has no field"]
    loose = Table(
        "runs",
        MetaData(),
        *(
            Column(c.name, String if c.name == "owner_pid" else c.type, nullable=True)
            for c in runs.c
            if c.name != "run_id"
        ),
        Column("run_id", String, primary_key=True),
    )
    problems = record_against_table(run_rows.RunRow, loose)
    assert "owner_pid: int is stored as <class 'str'>" in problems
    assert "question: None allowed False, column nullable True" in problems


def test_the_checks_see_a_shown_field_missing_from_the_view_and_a_view_key_of_no_field() -> None:
    grown = make_dataclass(
        "Grown",
        [("priority", int | None, _shown("priority"))],
        bases=(run_rows.RunRow,),
        frozen=True,
        kw_only=True,
    )
    assert record_against_view(grown, RunView, RUN_COMPUTED) == [
        "shown priority is not a key of the view"
    ]

    class WiderView(RunView):
        priority: int

    assert record_against_view(run_rows.RunRow, WiderView, RUN_COMPUTED) == [
        "view key priority is neither shown nor computed"
    ]

    class StrStatus(TypedDict):  # the RUN as it was: a status of `str`, made at the facade
        status: str

    problems = record_against_view(run_rows.RunRow, StrStatus, frozenset())
    assert "status: the view says <class 'str'>, the record <enum 'RunStatus'>" in problems


def test_the_checks_see_a_projection_drifting_and_an_untyped_write() -> None:
    @dataclass
    class Holding:
        status: str  # as it was: a string where the record has a RunStatus
        desk: str | None

    assert part_against_record(Holding, run_rows.RunRow) == [
        "status: <class 'str'> is not the record's <enum 'RunStatus'>"
    ]
    planted = (
        "from typing import Unpack\n"
        "def create(conn, run_id: str, **values: object) -> None: ...\n"
        "def update_run(conn, run_id: str, **changes: Unpack[RunChanges]) -> None: ...\n"
    )
    assert untyped_splats(planted, "lifecycle.py") == ["lifecycle.py:2: create(**values)"]
