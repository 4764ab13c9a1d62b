"""Only the lifecycle moves a run's status: read from the code's syntax tree, not from its text.

A run's status is written in two places: `storage/tables/runs.py` (`insert_run` for a new row,
`move_status` for a move) and `move_status` is called only by the lifecycle's status writer,
`runs/transitions.py`; `insert_run` only by the lifecycle's `create`, which gives `created`.
Anything else that touches `runs.status` is an offender: a `replace(row, status=...)` given
to the run update, an insert elsewhere, a SQLAlchemy write of the `runs` table that names
`status` (or takes `**values` it cannot vouch for), or raw SQL that updates runs' status.

The checker is tested on planted violations first, so a checker that sees nothing fails too.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

from tests.support.code_scan import Offence, callee, modules

REPO = Path(__file__).resolve().parents[2]

RUN_TABLE_MODULE = "agent_core/storage/tables/runs.py"
STATUS_WRITER = "agent_core/runs/transitions.py"
CREATOR = "agent_core/runs/lifecycle.py"
# Inside the run table's module: the two functions that may write a status.
WRITING_FUNCTIONS = {"insert_run", "move_status"}
RAW_STATUS_SQL = re.compile(
    r"\b(update\s+\"?runs\"?\s+set\b.*\bstatus\b|insert\s+into\s+\"?runs\"?\b.*\bstatus\b)",
    re.IGNORECASE | re.DOTALL,
)


def _schema_runs_names(tree: ast.Module) -> set[str]:
    """The local names under which `agent_core.storage.schema.runs` is imported."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "agent_core.storage.schema":
            names.update(alias.asname or alias.name for alias in node.names if alias.name == "runs")
    return names


def _is_runs_table(node: ast.expr, aliases: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in aliases
    return isinstance(node, ast.Attribute) and node.attr == "runs"  # schema.runs


def _writes_runs(node: ast.expr, aliases: set[str]) -> bool:
    """Does this statement chain start from `update(runs)` / `insert(runs)` / `runs.update()`?"""
    for inner in ast.walk(node):
        if not isinstance(inner, ast.Call):
            continue
        name = callee(inner)
        if name in ("update", "insert", "insert_for") and any(
            _is_runs_table(arg, aliases) for arg in inner.args
        ):
            return True
        if (
            isinstance(inner.func, ast.Attribute)
            and inner.func.attr in ("update", "insert")
            and _is_runs_table(inner.func.value, aliases)
        ):
            return True
    return False


def _names_status(node: ast.Call) -> str | None:
    """How a `.values(...)` call names the status column, if it does."""
    for keyword in node.keywords:
        if keyword.arg == "status":
            return "values(status=...)"
        if keyword.arg is None:
            return "values(**...)"  # cannot be vouched for outside the table's module
    for arg in node.args:
        if isinstance(arg, ast.Dict):
            for key in arg.keys:
                if isinstance(key, ast.Constant) and key.value == "status":
                    return 'values({"status": ...})'
                if isinstance(key, ast.Attribute) and key.attr == "status":
                    return "values({runs.c.status: ...})"
    return None


def _replaces_status(node: ast.expr) -> bool:
    """Is this argument a `replace(row, status=...)` (the run update's `after`)?"""
    return (
        isinstance(node, ast.Call)
        and callee(node) == "replace"
        and any(k.arg == "status" for k in node.keywords)
    )


def _functions_by_line(tree: ast.Module) -> dict[int, str]:
    owner: dict[int, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if hasattr(inner, "lineno"):
                    owner[inner.lineno] = node.name
    return owner


def offences_in(root: Path) -> list[Offence]:
    """Every place under `root`/agent_core that touches `runs.status` but may not."""
    found: list[Offence] = []
    for where, path in modules(root, "agent_core"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = _schema_runs_names(tree) | {"runs"}
        functions = _functions_by_line(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if RAW_STATUS_SQL.search(node.value):
                    found.append(Offence(where, node.lineno, "raw SQL writing runs.status"))
                continue
            if not isinstance(node, ast.Call):
                continue
            name = callee(node)
            if name == "update_run" and any(_replaces_status(arg) for arg in node.args):
                found.append(Offence(where, node.lineno, "update_run(..., replace(status=...))"))
            elif name == "insert_run" and where not in (CREATOR, RUN_TABLE_MODULE):
                found.append(Offence(where, node.lineno, "insert_run(...) outside create"))
            elif name == "move_status" and where != STATUS_WRITER:
                found.append(Offence(where, node.lineno, "move_status(...)"))
            elif (
                name == "values"
                and isinstance(node.func, ast.Attribute)
                and _writes_runs(node.func.value, aliases)
            ):
                how = _names_status(node)
                function = functions.get(node.lineno) if where == RUN_TABLE_MODULE else None
                allowed = function in WRITING_FUNCTIONS
                if how is not None and not allowed:
                    found.append(Offence(where, node.lineno, f"a runs write with {how}"))
    return found


def test_only_the_lifecycle_status_writer_moves_a_run_status() -> None:
    assert [str(o) for o in offences_in(REPO)] == []


def test_update_run_and_create_refuse_a_status_at_run_time() -> None:
    from dataclasses import replace

    from agent_core.contract.statuses import RunStatus
    from agent_core.runs import lifecycle
    from agent_core.storage.tables import runs as run_rows

    row = run_rows.RunRow(
        run_id="run-x", thread_id="th-x", status=RunStatus.RUNNING, question="q", model="m",
        mode="default", corpus_dir="/c", artifacts_dir="/a", limits_json="{}", state_json="{}",
        created_at="t", updated_at="t",
    )  # fmt: skip
    done = replace(row, status=RunStatus.SUCCEEDED)
    with pytest.raises(ValueError, match="cannot set a status"):
        run_rows.update_run(None, row, done)  # type: ignore[arg-type]  # refused before any SQL
    with pytest.raises(ValueError, match="a new run is created, not running"):
        lifecycle.create(None, row)  # type: ignore[arg-type]


PLANTED = {
    "a status replaced in the run update": (
        "from dataclasses import replace\n"
        "from agent_core.storage.tables import runs as run_rows\n"
        "def f(conn, row):\n    run_rows.update_run(conn, row, replace(row, status='succeeded'))\n"
    ),
    "a run inserted outside the lifecycle's create": (
        "from agent_core.storage.tables import runs as run_rows\n"
        "def f(conn, row):\n    run_rows.insert_run(conn, row)\n"
    ),
    "a schema update naming status": (
        "from sqlalchemy import update\nfrom agent_core.storage.schema import runs\n"
        "def f(conn):\n"
        "    conn.execute(update(runs).where(runs.c.run_id == 'r').values(status='failed'))\n"
    ),
    "an aliased table and a column key": (
        "from agent_core.storage.schema import runs as run_table\n"
        "def f(conn):\n"
        "    conn.execute(run_table.update().values({run_table.c.status: 'failed'}))\n"
    ),
    "a splat it cannot vouch for": (
        "from sqlalchemy import update\nfrom agent_core.storage import schema\n"
        "def f(conn, **values):\n    conn.execute(update(schema.runs).values(**values))\n"
    ),
    "raw SQL": (
        "from sqlalchemy import text\n"
        "def f(conn):\n    conn.execute(text(\"UPDATE runs SET status = 'failed' WHERE 1\"))\n"
    ),
    "the status writer called from elsewhere": (
        "from agent_core.storage.tables import runs as run_rows\n"
        "def f(conn, row):\n    run_rows.move_status(conn, row, row, target=2)\n"
    ),
}


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_the_checker_sees_a_planted_violation(tmp_path: Path, kind: str) -> None:
    """A temp copy of agent_core with one violation planted in a module that may not write."""
    shutil.copytree(
        REPO / "agent_core", tmp_path / "agent_core", ignore=shutil.ignore_patterns("__pycache__")
    )
    assert offences_in(tmp_path) == []
    planted = tmp_path / "agent_core" / "review" / "planted.py"
    planted.write_text(PLANTED[kind], encoding="utf-8")
    offences = offences_in(tmp_path)
    assert [o.path for o in offences] == ["agent_core/review/planted.py"], offences


def test_the_checker_sees_the_old_lifecycle_spelling(tmp_path: Path) -> None:
    """The lifecycle itself wrote `update(runs)...values(status=...)`, which the regex missed."""
    module = tmp_path / "agent_core" / "runs" / "lifecycle.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        "from sqlalchemy import update\nfrom agent_core.storage.schema import runs\n"
        "def _move(conn, run_id, target, **values):\n"
        "    conn.execute(\n        update(runs)\n        .where(runs.c.run_id == run_id)\n"
        "        .values(status=str(target), **values)\n    )\n",
        encoding="utf-8",
    )
    assert [o.what for o in offences_in(tmp_path)] == ["a runs write with values(status=...)"]
