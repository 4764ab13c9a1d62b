"""The wheel installed away from the checkout, as users install it: into a fresh virtual
environment with pip, and with pipx (the machine's, or one from PyPI). From there, with no
checkout on the path: `--version` from the package metadata, the first CLI session from question
to brief, and the window's `--smoke` under Xvfb."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from tests.packaging.builds import build_wheel
from tests.packaging.conftest import require_program, user_env, xvfb_run_command
from tests.packaging.flow import first_session

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def venv_bin(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv with the wheel and its dependencies (pip's cache makes them quick);
    removed after the module (400 MB)."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    installed = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr[-3000:]
    yield venv / "bin"
    shutil.rmtree(venv, ignore_errors=True)


def check_installed_commands(bin_dir: Path, tmp_path: Path) -> None:
    env = user_env(tmp_path / "user")
    for exe in ("briefdesk", "briefdesk-cli"):
        done = subprocess.run([str(bin_dir / exe), "--version"], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=120)  # fmt: skip
        assert done.stdout == f"{exe} {version('briefdesk')}\n", done.stderr
    first_session(bin_dir / "briefdesk-cli", tmp_path / "home", tmp_path, env)


def check_window_smoke(bin_dir: Path, tmp_path: Path, lang: str = "C.UTF-8") -> dict[str, Any]:
    """`briefdesk --smoke` under Xvfb with LANG=`lang`: its SMOKE report (checked: home open)."""
    xvfb_run = require_program("xvfb-run", "xvfb xauth")
    home = tmp_path / "smoke-home"
    done = subprocess.run(
        [*xvfb_run_command(xvfb_run), str(bin_dir / "briefdesk"), "--smoke", "--home", str(home)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
        env=user_env(tmp_path / "user", QT_QPA_PLATFORM="xcb", LANG=lang),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    (line,) = [ln for ln in done.stdout.splitlines() if ln.startswith("SMOKE ")]
    report: dict[str, Any] = json.loads(line.removeprefix("SMOKE "))
    assert report["store_open"] is True
    assert (home / "state.db").is_file()
    return report


def test_wheel_in_a_fresh_venv_runs_a_brief_from_question_to_file(
    venv_bin: Path, tmp_path: Path
) -> None:
    check_installed_commands(venv_bin, tmp_path)


def test_wheel_in_a_fresh_venv_starts_the_window_under_xvfb_in_chinese(
    venv_bin: Path, tmp_path: Path
) -> None:
    """The wheel carries the translations its build compiled (no ./dev.sh step): under
    LANG=zh_CN.UTF-8 the installed window speaks Chinese."""
    report = check_window_smoke(venv_bin, tmp_path, lang="zh_CN.UTF-8")
    assert report["language"] == "zh_CN", report
    assert "文件(&F)" in report["menus"], report


def _pipx_from_pypi(folder: Path) -> str:
    """No pipx on this machine: the test brings its own (from PyPI, in a throwaway venv), so it
    runs everywhere instead of skipping."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=300)
    got = subprocess.run([str(folder / "bin" / "python"), "-m", "pip", "install", "-q", "pipx"],
                         capture_output=True, text=True, timeout=600)  # fmt: skip
    assert got.returncode == 0, got.stderr[-3000:]
    return str(folder / "bin" / "pipx")


def test_wheel_installed_with_pipx_runs_the_cli_and_the_window(wheel: Path, tmp_path: Path) -> None:
    pipx = shutil.which("pipx") or _pipx_from_pypi(tmp_path / "pipx-tool")
    pipx_env = user_env(tmp_path / "user", PIPX_HOME=str(tmp_path / "pipx"),
                        PIPX_BIN_DIR=str(tmp_path / "bin"))  # fmt: skip
    installed = subprocess.run([pipx, "install", str(wheel)], capture_output=True, text=True,
                               env=pipx_env, cwd=tmp_path, timeout=900)  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr[-3000:]
    try:
        check_installed_commands(tmp_path / "bin", tmp_path)
        assert check_window_smoke(tmp_path / "bin", tmp_path)["language"] == "en"
    finally:
        shutil.rmtree(tmp_path / "pipx", ignore_errors=True)  # its venv: 400 MB
