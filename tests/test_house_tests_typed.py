"""The tests are typed through the facade, and reach the database only to test it (issue 40).

A workspace is a `Workspace` wherever a test names one, never `Any`; the tests' `Any` stays
within a budget that only falls; mypy checks tests/ (pyproject's [tool.mypy]), and the files
it does not yet hold to their types are a list that only shrinks. Raw SQL (sqlalchemy, the
schema, sqlite3, psycopg, `exec_driver_sql`) is allowed in the files listed below, each group
named for why the database is what it tests or the outside it proves a side effect from.
Each check has a planted-violation twin at the end.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

MAX_TEST_ANY = 366  # `Any` named in the code of tests/ (901 before issue 40)
MAX_MYPY_SKIPPED = 35  # test modules whose errors mypy does not report yet
WORKSPACE_NAME = re.compile(r"^(ws|ws_\w+|\w*workspace\w*)$")
SQL_MODULES = ("sqlalchemy", "agent_core.storage.schema", "sqlite3", "psycopg")

RAW_SQL_ALLOWED = {
    # storage itself: engines, migrations, schema drift, blobs, retention, the backends' suite
    "tests/core/conformance/backends.py",
    "tests/core/test_review_tables.py",
    "tests/core/test_schema_drift.py",
    "tests/core/test_storage_blobs.py",
    "tests/core/test_storage_engine.py",
    "tests/core/test_storage_errors.py",
    "tests/core/test_storage_fts.py",
    "tests/core/test_storage_memory.py",
    "tests/core/test_storage_migrations.py",
    "tests/core/test_storage_pooling.py",
    "tests/core/test_storage_retention.py",
    "tests/core/test_storage_run_state_blob.py",
    "tests/core/test_storage_state.py",
    "tests/test_bench_peers_counting.py",
    "tests/test_house_records.py",
    # the one writer of a status: rows read and raced around the facade on purpose
    "tests/core/test_approval_moves.py",
    "tests/core/test_approvals.py",
    "tests/core/test_lifecycle.py",
    "tests/core/test_revert.py",
    "tests/core/test_runner.py",
    # team mode: the database's own guards, roles, leases and forged rows
    "tests/security/test_forged_approval.py",
    "tests/support/own_cluster.py",
    "tests/support/pg.py",
    "tests/team/test_db_commands.py",
    "tests/team/test_desk_forgery.py",
    "tests/team/test_desks_leases.py",
    "tests/team/test_frozen_writer.py",
    "tests/team/test_grants.py",
    "tests/team/test_mcp_desk_servers.py",
    "tests/team/test_proposal_base.py",
    "tests/team/test_team_outage.py",
    # damaged, old or hostile rows planted as a crash, an old version or an attacker leaves them
    "tests/drills/drill_support.py",
    "tests/drills/lifecycle_support.py",
    "tests/drills/test_checkpoint_versions.py",
    "tests/drills/test_remote_resume.py",
    "tests/reliability/test_rel_bad_rows.py",
    "tests/reliability/test_rel_frozen_writer.py",
    "tests/reliability/test_rel_hardening.py",
    "tests/reliability/test_rel_home_events.py",
    "tests/reliability/test_rel_note_cap.py",
    "tests/reliability/test_rel_numbers.py",
    "tests/reliability/test_rel_take_over.py",
    "tests/reliability/test_rel_turn_bounds.py",
    "tests/reliability/test_rel_watcher_start.py",
    "tests/security/test_door_units.py",
    "tests/security/test_keys_at_every_door.py",
    "tests/security/test_secrets_by_value.py",
    "tests/fixtures/attacks/verdicts.py",
    # side effects proven from outside the process under test: the rows it left
    "tests/core/test_artifacts_watcher.py",
    "tests/core/test_corpus_names.py",
    "tests/core/test_mcp_servers.py",
    "tests/core/test_preferences.py",
    "tests/desktop/test_app_no_gui_io.py",
    "tests/desktop/test_cockpit_demo.py",
    "tests/desktop/test_cockpit_guard.py",
    "tests/desktop/test_cockpit_home_strays.py",
    "tests/desktop/test_cockpit_records.py",
    "tests/desktop/test_cockpit_revise.py",
    "tests/desktop/test_cockpit_text.py",
    "tests/desktop/test_real_input_xvfb.py",
    "tests/desktop/test_rel_take_over_window.py",
    "tests/desktop/test_walkthrough_fixes.py",
    "tests/support/cli.py",
}


def _sources(root: Path) -> dict[str, ast.Module]:
    return {
        p.relative_to(root).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
        for p in sorted((root / "tests").rglob("*.py"))
    }


def _is_any(node: ast.AST | None) -> bool:
    return (isinstance(node, ast.Name) and node.id == "Any") or (
        isinstance(node, ast.Attribute) and node.attr == "Any"
    )


def workspaces_typed_any(root: Path) -> list[str]:
    """Arguments or variables named as a workspace (`ws`, `ws_b`, `workspace`) annotated Any."""
    found = []
    for where, tree in _sources(root).items():
        for node in ast.walk(tree):
            named: list[tuple[str, ast.expr | None, int]] = []
            if isinstance(node, ast.arg):
                named.append((node.arg, node.annotation, node.lineno))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                named.append((node.target.id, node.annotation, node.lineno))
            found += [
                f"{where}:{line}: {name}"
                for name, annotation, line in named
                if WORKSPACE_NAME.match(name) and _is_any(annotation)
            ]
    return sorted(found)


def any_in_tests(root: Path) -> dict[str, int]:
    """`Any` named in each test file's code (annotations, aliases, casts; not in text)."""
    counts = {}
    for where, tree in _sources(root).items():
        n = sum(1 for node in ast.walk(tree) if _is_any(node))
        if n:
            counts[where] = n
    return counts


def mypy_skipped(root: Path) -> list[str]:
    """Test modules pyproject lets mypy check without reporting their errors."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert "tests" in config["files"], "mypy does not check tests/"
    return [
        module
        for override in config.get("overrides", [])
        if override.get("ignore_errors")
        for module in override["module"]
    ]


def raw_sql_files(root: Path) -> set[str]:
    found = set()
    for where, tree in _sources(root).items():
        for node in ast.walk(tree):
            modules: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            if any(m.startswith(SQL_MODULES) for m in modules) or (
                isinstance(node, ast.Attribute) and node.attr == "exec_driver_sql"
            ):
                found.add(where)
    return found


def test_no_test_types_a_workspace_as_any() -> None:
    assert workspaces_typed_any(REPO) == []


def test_the_tests_any_stays_within_its_budget() -> None:
    counts = any_in_tests(REPO)
    assert sum(counts.values()) <= MAX_TEST_ANY, sorted(counts.items(), key=lambda c: -c[1])


def test_mypy_checks_tests_and_its_skipped_list_only_shrinks() -> None:
    skipped = mypy_skipped(REPO)
    assert all(m.startswith("tests.") for m in skipped), skipped
    assert len(skipped) <= MAX_MYPY_SKIPPED, len(skipped)


def test_only_tests_of_the_database_reach_it_raw() -> None:
    found = raw_sql_files(REPO)
    assert sorted(found - RAW_SQL_ALLOWED) == []
    assert sorted(RAW_SQL_ALLOWED - found) == []  # a file that stopped leaves the list


def test_the_checks_see_a_planted_violation(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_x.py").write_text(
        "import typing\nfrom typing import Any\nimport sqlite3\n"
        "def test_a(ws: Any, ws_b: typing.Any, n: Any) -> None:\n"
        "    workspace: Any = ws\n"
        "def test_b(ws) -> None:\n    ws.store.read().exec_driver_sql('SELECT 1')\n"
    )
    (tests / "test_y.py").write_text("from agent_core.storage import schema\n")
    (tests / "test_z.py").write_text("from agent_core.facade.workspace import Workspace\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mypy]\nfiles = ["agent_core"]\n'
        '[[tool.mypy.overrides]]\nmodule = ["tests.test_x"]\nignore_errors = true\n'
    )
    assert workspaces_typed_any(tmp_path) == [
        "tests/test_x.py:4: ws",
        "tests/test_x.py:4: ws_b",
        "tests/test_x.py:5: workspace",
    ]
    assert any_in_tests(tmp_path) == {"tests/test_x.py": 4}
    assert raw_sql_files(tmp_path) == {"tests/test_x.py", "tests/test_y.py"}
    try:
        mypy_skipped(tmp_path)
    except AssertionError as refused:
        assert "does not check tests/" in str(refused)
    else:
        raise AssertionError("a mypy that skips tests/ was not seen")
