"""An approval's status has one writer (issue 40, item 1), read from the code's syntax tree.

The status column of `approvals` is written in two functions of agent_core/storage/tables/
approvals.py: `insert_approval` makes a proposal (pending, or approved by a rule: it refuses
any other status) and `_write_move` moves one, by the table of contract/approval_moves.py,
with a conditional update. `_write_move` is called by that module's `move` and by the expiry
sweep (`_expire_one`), nowhere else. Anything else is an offender: an update of `approvals`
whose values name the status (or that it cannot vouch for: a splat, a mapping built at run
time), an insert into `approvals` elsewhere, raw SQL that sets an approval's status, or a call
of the writer from another function.

Each check is proven on planted violations first, so a checker that sees nothing fails too;
one of them is the very spelling the sweep used before (a bulk `expired` update).
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

from tests.support.code_scan import Offence, callee, modules

REPO = Path(__file__).resolve().parents[1]

TABLE_MODULE = "agent_core/storage/tables/approvals.py"
WRITER = "_write_move"
MAY_CALL_WRITER = {"move", "_expire_one"}
CREATOR = "insert_approval"
RAW_STATUS_SQL = re.compile(
    r"\b(update\s+\"?approvals\"?\s+set\b[^;]*\bstatus\b|insert\s+into\s+\"?approvals\"?\b)",
    re.IGNORECASE | re.DOTALL,
)
MIGRATIONS = "agent_core/storage/migrate/"  # the triggers name the column; they never write it


def _table_aliases(tree: ast.Module) -> set[str]:
    """The local names of `agent_core.storage.schema.approvals` (and the plain name)."""
    names = {"approvals"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "agent_core.storage.schema":
            names.update(a.asname or a.name for a in node.names if a.name == "approvals")
    return names


def _is_table(node: ast.expr, aliases: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in aliases
    return isinstance(node, ast.Attribute) and node.attr == "approvals"  # schema.approvals


def _statement_on_table(node: ast.expr, aliases: set[str]) -> str | None:
    """`update` or `insert` when this chain starts from one of the approvals table."""
    for inner in ast.walk(node):
        if not isinstance(inner, ast.Call):
            continue
        name = callee(inner)
        if name in ("update", "insert") and any(_is_table(a, aliases) for a in inner.args):
            return name
        func = inner.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in ("update", "insert")
            and _is_table(func.value, aliases)
        ):
            return func.attr
    return None


def _names_status(node: ast.Call) -> str | None:
    """How a `.values(...)` call names the status column, or why it cannot be vouched for."""
    for keyword in node.keywords:
        if keyword.arg == "status":
            return "values(status=...)"
        if keyword.arg is None:
            return "values(**...)"
    for arg in node.args:
        if not isinstance(arg, ast.Dict):
            return "values(<a mapping built at run time>)"
        for key in arg.keys:
            if key is None:
                return "values({**...})"
            if isinstance(key, ast.Constant) and key.value == "status":
                return 'values({"status": ...})'
            if isinstance(key, ast.Attribute) and key.attr == "status":
                return "values({approvals.c.status: ...})"
    return None


def _functions_by_line(tree: ast.Module) -> dict[int, str]:
    owner: dict[int, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if hasattr(inner, "lineno"):
                    owner[inner.lineno] = node.name
    return owner


def offences_in(root: Path) -> list[Offence]:
    """Every place under `root`/agent_core that writes an approval's status but may not."""
    found: list[Offence] = []
    for where, path in modules(root, "agent_core"):
        if where.startswith(MIGRATIONS):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = _table_aliases(tree)
        function = _functions_by_line(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if RAW_STATUS_SQL.search(node.value):
                    found.append(Offence(where, node.lineno, "raw SQL writing approvals"))
                continue
            if not isinstance(node, ast.Call):
                continue
            name = callee(node)
            home = function.get(node.lineno) if where == TABLE_MODULE else None
            if name == WRITER and home not in MAY_CALL_WRITER:
                found.append(Offence(where, node.lineno, f"{WRITER}(...) called from {home}"))
            if not (name == "values" and isinstance(node.func, ast.Attribute)):
                continue
            statement = _statement_on_table(node.func.value, aliases)
            if statement == "insert" and home != CREATOR:
                found.append(Offence(where, node.lineno, "an insert into approvals"))
            elif statement == "update" and home != WRITER:
                how = _names_status(node)
                if how is not None:
                    found.append(Offence(where, node.lineno, f"an approvals update with {how}"))
    return found


def test_only_the_one_writer_writes_an_approval_status() -> None:
    assert [str(o) for o in offences_in(REPO)] == []


def test_the_writer_is_where_the_check_looks_for_it() -> None:
    """The allowances above name real functions: renaming them must not blind the check."""
    tree = ast.parse((REPO / TABLE_MODULE).read_text(encoding="utf-8"))
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {WRITER, CREATOR, *MAY_CALL_WRITER} <= defined


_STORAGE = (
    "from sqlalchemy import insert, text, update\nfrom agent_core.storage.schema import approvals\n"
)
PLANTED = {
    "the sweep's old bulk expiry": (
        TABLE_MODULE,
        "def expire_all(conn, now):\n"
        "    conn.execute(update(approvals).where(approvals.c.status == 'pending')"
        ".values(status='expired', decided_at=now))\n",
    ),
    "the old transition, beside the writer": (
        TABLE_MODULE,
        "def transition(conn, before, after):\n"
        "    conn.execute(update(approvals).where(approvals.c.id == before.id)"
        ".values(status=str(after.status), reviewer=after.reviewer))\n",
    ),
    "an aliased table and a column key": (
        "agent_core/storage/tables/planted.py",
        "from agent_core.storage.schema import approvals as proposals\n"
        "def f(conn):\n"
        "    conn.execute(proposals.update().values({proposals.c.status: 'approved'}))\n",
    ),
    "a splat it cannot vouch for": (
        "agent_core/storage/tables/planted.py",
        "from sqlalchemy import update\nfrom agent_core.storage import schema\n"
        "def f(conn, **values):\n    conn.execute(update(schema.approvals).values(**values))\n",
    ),
    "raw SQL": (
        "agent_core/storage/tables/planted.py",
        "from sqlalchemy import text\ndef f(conn):\n"
        "    conn.execute(text(\"UPDATE approvals SET status = 'consumed' WHERE id = :i\"))\n",
    ),
    "an insert elsewhere": (
        TABLE_MODULE,
        "def insert_decided(conn, values):\n    conn.execute(insert(approvals).values(values))\n",
    ),
    "the writer called from a run": (
        "agent_core/runs/planted.py",
        "from agent_core.storage.tables import approvals as approval_rows\n"
        "def f(conn, a, b):\n    approval_rows._write_move(conn, a, b)\n",
    ),
}


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_the_checker_sees_a_planted_violation(tmp_path: Path, kind: str) -> None:
    """A copy of the table's module, with one violation planted (appended to it, or new)."""
    (tmp_path / TABLE_MODULE).parent.mkdir(parents=True)
    shutil.copy(REPO / TABLE_MODULE, tmp_path / TABLE_MODULE)
    assert offences_in(tmp_path) == []
    where, code = PLANTED[kind]
    target = tmp_path / where
    target.parent.mkdir(parents=True, exist_ok=True)
    before = target.read_text(encoding="utf-8") if target.exists() else _STORAGE
    target.write_text(before + "\n\n" + code, encoding="utf-8")
    offences = offences_in(tmp_path)
    assert [o.path for o in offences] == [where], offences
