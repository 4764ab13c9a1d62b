"""The house rules, enforced: ruff (lint + format) and mypy stay clean on every commit."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TREES = ["agent_core", "desktop", "tests", "benchmarks"]


def _tool(name: str) -> list[str]:
    beside = Path(sys.executable).with_name(name)
    if beside.exists():
        return [str(beside)]
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed (it is in the test extras)")
    return [found]


def test_ruff_lint_and_format_are_clean() -> None:
    lint = subprocess.run(
        [*_tool("ruff"), "check", *TREES], cwd=REPO, capture_output=True, text=True
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = subprocess.run(
        [*_tool("ruff"), "format", "--check", *TREES], cwd=REPO, capture_output=True, text=True
    )
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def test_mypy_is_clean_on_the_app_code() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
