"""Shared fixtures. Real parts only: a real SQLite home, real subprocesses, real Qt offscreen."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# pytest-qt needs a platform before any QApplication exists; tests that want a real window
# start Xvfb themselves and pass DISPLAY to a subprocess.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.pop("BRIEFDESK_CRASH_AT", None)
os.environ.pop("BRIEFDESK_HOME", None)

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.support.cli import CliRunner  # noqa: E402


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A fresh, not yet initialised home folder."""
    return tmp_path / "home"


@pytest.fixture
def ws(home: Path) -> Iterator[object]:
    from agent_core.workspace import Workspace

    workspace = Workspace(home)
    yield workspace
    workspace.close()


@pytest.fixture
def cli(home: Path) -> CliRunner:
    """Runs `briefdesk-cli` in a real subprocess on the test's home."""
    return CliRunner(home)
