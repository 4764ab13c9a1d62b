"""Cut by concept, not by count (issue 40, item 7): no import cycle in desktop or agent_core,
`if TYPE_CHECKING:` imports included (a type-only cycle is still two modules that cannot be
understood apart); a module past 500 lines only when its docstring says which one concept it is;
and import-linter states the direction inside desktop. Each check has a planted twin below.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import grimp
import pytest

from benchmarks import house_figures as figures
from tests.test_import_contracts import REPO, lint_imports


def import_cycles(package: str) -> list[list[str]]:
    """Strongly connected groups of `package`'s modules; every import statement counts: at
    module level, in a function, or under `if TYPE_CHECKING:`."""
    graph = grimp.build_graph(package, exclude_type_checking_imports=False, cache_dir=None)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    return [sorted(group) for group in figures.strongly_connected(edges)]


@pytest.mark.parametrize("package", ["desktop", "agent_core"])
def test_no_import_cycle_type_only_imports_included(package: str) -> None:
    assert import_cycles(package) == []


def test_the_cycle_check_sees_a_type_only_cycle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two modules that know each other only through a type annotation are a cycle."""
    plant = tmp_path / "plant_cycle"
    plant.mkdir()
    (plant / "__init__.py").write_text("")
    (plant / "window.py").write_text("from plant_cycle.part import Part\n")
    (plant / "part.py").write_text(
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from plant_cycle.window import Window\n"
        "class Part:\n"
        "    def __init__(self, window: Window) -> None: ...\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles("plant_cycle") == [["plant_cycle.part", "plant_cycle.window"]]


def test_a_long_module_passes_only_when_it_says_why_it_is_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for package in ("agent_core", "desktop"):
        (tmp_path / package).mkdir()
    body = "x = 1\n" * (figures.MAX_LINES + 1)
    (tmp_path / "desktop" / "counted.py").write_text('"""Long for no reason."""\n' + body)
    (tmp_path / "desktop" / "whole.py").write_text(
        f'"""The window.\n\n{figures.WHOLE} it is one concept, its composition."""\n' + body
    )
    monkeypatch.setattr(figures, "REPO", tmp_path)
    assert list(figures.big_modules()) == ["desktop/counted.py"]


def test_desktop_layer_contracts_break_on_a_type_only_import_back_up(tmp_path: Path) -> None:
    """In a copy of the code, the cycles this item cut come back as type-only imports (the
    follower naming its bridge, the banner its main window, the dialog's buttons their dialog):
    `lint-imports` names each one."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("agent_core", "desktop"):
        shutil.copytree(REPO / package, tmp_path / package, ignore=ignore)
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    planted = {  # file of the copy: (type-only import appended, contract it breaks)
        "desktop/follower.py": ("desktop.bridge", "desktop-layers"),
        "desktop/widgets/banner.py": ("desktop.widgets.main_window", "window-above-its-parts"),
        "desktop/widgets/approval_buttons.py": (
            "desktop.widgets.approval_dialog",
            "window-above-its-parts",
        ),
    }
    for relative, (imported, _contract) in planted.items():
        with (tmp_path / relative).open("a", encoding="utf-8") as handle:
            handle.write(f"\nif TYPE_CHECKING:\n    import {imported}  # noqa\n")
    for relative, (imported, contract) in planted.items():
        broken = lint_imports(tmp_path, "--contract", contract)
        output = broken.stdout + broken.stderr
        assert broken.returncode == 1, output
        importer = relative.removesuffix(".py").replace("/", ".")
        assert f"{importer} -> {imported}" in output, output
