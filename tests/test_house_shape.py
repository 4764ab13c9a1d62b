"""The house keeps its shape (issue 25): the figures of benchmarks/house_figures.py, held.

Each check reads the code as it is; each has a planted-violation twin below proving that it sees
what it is named for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import house_figures as figures

MAX_ANY = 40  # annotations in agent_core and desktop that spell Any (aliases counted)
MAX_FIXED_WAITS = 12  # calls of time.sleep and qtbot.wait anywhere under tests/


def test_agent_core_has_no_import_cycle() -> None:
    assert figures.import_cycles() == []


def test_no_sql_outside_storage() -> None:
    assert figures.sql_outside_storage() == []


def test_no_module_over_500_lines() -> None:
    assert figures.big_modules() == {}


def test_any_stays_within_its_budget() -> None:
    counts = figures.any_annotations()
    assert sum(counts.values()) <= MAX_ANY, counts


def test_tests_wait_for_a_reason() -> None:
    waits = figures.fixed_waits()
    assert sum(waits.values()) <= MAX_FIXED_WAITS, waits


def test_every_top_level_unit_is_in_a_layers_contract() -> None:
    coverage = figures.layer_coverage()
    assert coverage["unnamed"] == [], coverage


def test_the_checks_see_a_planted_violation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a scratch tree: a cycle, SQL in the facade, an Any and a long module are all found."""
    core = tmp_path / "agent_core"
    (core / "facade").mkdir(parents=True)
    (core / "storage").mkdir()
    for package in (core, core / "facade", core / "storage"):
        (package / "__init__.py").write_text("")
    (core / "facade" / "front.py").write_text(
        "from typing import Any\n"
        "from sqlalchemy import select\n"
        "from agent_core.storage import schema\n"
        "import agent_core.storage.rows\n"
        "def f(x: Any) -> Any:\n    return x\n" + "#\n" * 500
    )
    (core / "storage" / "schema.py").write_text("")
    (core / "storage" / "rows.py").write_text(
        "def g() -> None:\n    import agent_core.facade.front  # a function-level import counts\n"
    )
    (tmp_path / "desktop").mkdir()
    (tmp_path / "tests").mkdir()
    # Spelled in two pieces, so that this file holds no fixed wait of its own.
    (tmp_path / "tests" / "test_x.py").write_text("import time\ntime." + "sleep(1)\n")
    monkeypatch.setattr(figures, "REPO", tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in __import__("sys").modules if m.split(".")[0] == "agent_core"]:
        monkeypatch.delitem(__import__("sys").modules, name)
    assert figures.import_cycles() == [["agent_core.facade.front", "agent_core.storage.rows"]]
    found = figures.sql_outside_storage()
    assert any("select" in line for line in found) and any("schema" in line for line in found)
    assert figures.any_annotations() == {"agent_core/facade/front.py": 2}
    assert list(figures.big_modules()) == ["agent_core/facade/front.py"]
    assert figures.fixed_waits() == {"tests/test_x.py": 1}
