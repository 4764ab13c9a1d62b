"""The layers hold: `lint-imports` keeps every contract in pyproject.toml ([tool.importlinter]),
and each contract bites: in a copy of the code, the forbidden import added for it breaks it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")  # the venv's console script

# (file of the copy, forbidden import appended to it, contract it breaks)
VIOLATIONS = (
    ("desktop/bridge.py", "from agent_core.storage import timeline", "desktop-through-facade"),
    ("agent_core/contract/canonical.py", "import PySide6", "core-without-qt"),
    ("agent_core/tools/policy.py", "import agent_core.models", "core-layers"),
    ("agent_core/storage/tables/timeline.py", "import agent_core.facade.workspace", "core-layers"),
    ("agent_core/home/limits.py", "import agent_core.storage.store", "core-layers"),
    ("agent_core/runs/record.py", "import agent_core.storage.schema", "schema-only-in-storage"),
)


def lint_imports(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(cwd)}  # analyse the packages in `cwd`, not elsewhere
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_import_contract_is_kept() -> None:
    result = lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr


def test_each_contract_breaks_on_a_forbidden_import(tmp_path: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("agent_core", "desktop"):
        shutil.copytree(REPO / package, tmp_path / package, ignore=ignore)
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    clean = lint_imports(tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr  # the copy itself is fine
    for relative, line, _contract in VIOLATIONS:
        with (tmp_path / relative).open("a", encoding="utf-8") as handle:
            handle.write(f"\n{line}  # noqa\n")
    for relative, line, contract in VIOLATIONS:
        broken = lint_imports(tmp_path, "--contract", contract)
        output = broken.stdout + broken.stderr
        assert broken.returncode == 1, output
        importer = relative.removesuffix(".py").replace("/", ".")
        assert f"{importer} -> {line.split()[1]}" in output, output  # named, with its line


def test_a_new_unit_outside_every_layer_breaks_the_layers(tmp_path: Path) -> None:
    """The layers contract is exhaustive: a top-level unit that no layer names is an error."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "agent_core", tmp_path / "agent_core", ignore=ignore)
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "agent_core" / "stray").mkdir()
    (tmp_path / "agent_core" / "stray" / "__init__.py").write_text("")
    broken = lint_imports(tmp_path, "--contract", "core-layers")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "agent_core.stray" in broken.stdout + broken.stderr
