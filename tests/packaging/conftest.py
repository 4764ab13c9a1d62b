"""Fixtures for testing what the packaging builds: the app bundle, the wheel in a fresh venv.

Everything here runs the built artefacts as a user would: from a temp folder, with a minimal
environment (no PYTHONPATH, no BRIEFDESK_* variables, a HOME of its own), never the checkout.
A missing build tool or system program skips a test on a developer's machine and fails it under
CI=true, where every packaging test must run.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.ci import in_ci

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "packaging" / "briefdesk.spec"
BUNDLE_ENV = "BRIEFDESK_TEST_BUNDLE"  # reuse a bundle built by `./dev.sh package` (dist/briefdesk)


def require(condition: bool, reason: str) -> None:
    """Skip without `condition`, or fail under CI=true (CI must run every packaging test)."""
    if condition:
        return
    if in_ci():
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)


def require_program(name: str, debian_package: str) -> str:
    found = shutil.which(name)
    require(
        found is not None, f"{name} is not installed (Debian: apt-get install {debian_package})"
    )
    assert found is not None
    return found


def xvfb_run_command(xvfb_run: str) -> list[str]:
    """`xvfb-run -a`, searching for a free display from a number of this pytest worker's own:
    two workers starting xvfb-run at once would otherwise both pick the first free one."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    first = 100 + 20 * (int(worker) if worker.isdigit() else 0)
    return [xvfb_run, "-a", "-n", str(first)]


def user_env(user_home: Path, **extra: str) -> dict[str, str]:
    """A bare user's environment: PATH to the system only, its own HOME, nothing of ours."""
    user_home.mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(user_home),
        "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": str(user_home / ".config"),
        "XDG_DATA_HOME": str(user_home / ".local" / "share"),
        "XDG_CACHE_HOME": str(user_home / ".cache"),
    }
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The one-folder bundle, built once per session from packaging/briefdesk.spec into a temp
    folder (nothing lands in the checkout; removed after the session), or the one named by
    $BRIEFDESK_TEST_BUNDLE (say dist/briefdesk from `./dev.sh package`)."""
    given = os.environ.get(BUNDLE_ENV)
    if given:
        yield Path(given).resolve()
        return
    require(
        importlib.util.find_spec("PyInstaller") is not None,
        "PyInstaller is not installed (pip install -e '.[package]', or ./dev.sh package)",
    )
    out = tmp_path_factory.mktemp("bundle")
    built = subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
         "--distpath", str(out / "dist"), "--workpath", str(out / "work"), str(SPEC)],
        cwd=out, capture_output=True, text=True, timeout=1500,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-4000:]
    shutil.rmtree(out / "work")  # PyInstaller's work files: a few hundred MB nobody reads again
    yield out / "dist" / "briefdesk"
    shutil.rmtree(out, ignore_errors=True)  # 215 MB; pytest keeps its last temp folders
