"""Issue 18, item 3: a path that cannot be a home (or a run's folder) is refused cleanly.

`--home` that is a file, lies under a file, holds a file named corpus/logs/artifacts, or is a new
home on a read-only mount, and `--artifacts FILE` / `--corpus FILE`, once crashed with a
traceback and an empty stdout. Each answers one JSON error (`invalid_arguments`, or
`storage_read_only` for the read-only mount), exits 2 and leaves the disk as it was. `--home=`
(empty) is refused instead of silently meaning the default home; an empty $BRIEFDESK_HOME counts
as unset. The window (`briefdesk --home FILE`) says why and closes with exit code 2.

The CLI is driven through its own `main` in this process; read-only disks are real tmpfs mounts.
"""

from __future__ import annotations

import json
import logging
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from agent_core.cli.main import main


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every path under root with its bytes (None for a folder): the disk, compared whole."""
    return {
        str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes())
        for p in sorted(root.rglob("*"))
    }


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["--json", *args])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    body = json.loads(captured.out)  # exactly one JSON object, never an empty stdout
    assert isinstance(body, dict) and body["api"] == 1
    return code, body


def refused(capsys: pytest.CaptureFixture[str], code_name: str, *args: str) -> str:
    code, body = cli_json(capsys, *args)
    assert code == 2, body
    assert body["error"]["code"] == code_name, body
    return str(body["error"]["message"])


@contextmanager
def read_only_mount(folder: Path) -> Iterator[Path]:
    """A real read-only tmpfs at `folder` (CI runs as root), always unmounted."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@pytest.fixture(autouse=True)
def default_home_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The platform's default home, moved into the test's folder (and out of the user's)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("BRIEFDESK_HOME", raising=False)
    return tmp_path / "xdg" / "BriefDesk"


def test_a_file_as_home_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    before = _tree(tmp_path)
    assert "is a file" in refused(capsys, "invalid_arguments", "--home", str(afile), "runs")
    assert "lies under" in refused(
        capsys, "invalid_arguments", "--home", str(afile / "sub" / "home"), "runs"
    )
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("name", ["corpus", "logs", "artifacts"])
def test_a_home_holding_a_file_where_its_folder_belongs_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / name).write_text("a file, not a folder")
    before = _tree(tmp_path)
    message = refused(capsys, "invalid_arguments", "--home", str(home), "runs")
    assert repr(name) in message
    assert _tree(tmp_path) == before  # no state.db, no other folder created


def test_a_new_home_on_a_read_only_disk_is_storage_read_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with read_only_mount(tmp_path / "ro") as ro:
        refused(capsys, "storage_read_only", "--home", str(ro), "runs")
        refused(capsys, "storage_read_only", "--home", str(ro / "new" / "home"), "runs")
        assert list(ro.iterdir()) == []


def test_run_folders_that_are_files_or_read_only_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    afile = tmp_path / "brief.txt"
    afile.write_text("mine")
    run = ("--home", str(home), "run", "--question", "How do checkpoints work?")
    assert "is a file" in refused(capsys, "invalid_arguments", *run, "--artifacts", str(afile))
    assert "lies under" in refused(
        capsys, "invalid_arguments", *run, "--artifacts", str(afile / "out")
    )
    assert "is a file" in refused(capsys, "invalid_arguments", *run, "--corpus", str(afile))
    refused(capsys, "not_found", *run, "--corpus", str(tmp_path / "missing"))
    with read_only_mount(tmp_path / "ro") as ro:
        refused(capsys, "storage_read_only", *run, "--artifacts", str(ro / "briefs"))
    assert afile.read_text() == "mine"
    code, body = cli_json(capsys, "--home", str(home), "runs")
    assert code == 0 and body["runs"] == []  # nothing was created by the refusals


@pytest.mark.parametrize(
    "argv",
    [
        ["--home=", "runs"],
        ["--home", "", "runs"],
        ["--home", "  ", "runs"],
        ["runs", "--home="],
        ["--artifacts=", "run", "--question", "q"],
        ["--corpus", "", "run", "--question", "q"],
    ],
)
def test_an_empty_folder_option_is_refused_not_the_default(
    capsys: pytest.CaptureFixture[str], default_home_elsewhere: Path, argv: list[str]
) -> None:
    refused(capsys, "invalid_arguments", *argv)
    assert not default_home_elsewhere.exists(), "an empty option fell back to the default home"


def test_an_empty_briefdesk_home_counts_as_unset(
    capsys: pytest.CaptureFixture[str],
    default_home_elsewhere: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BRIEFDESK_HOME", "")
    code, body = cli_json(capsys, "runs")
    assert code == 0 and body["runs"] == []
    assert (default_home_elsewhere / "state.db").is_file()


def test_the_window_on_a_file_as_home_says_why_and_closes_with_exit_2(
    qtbot: QtBot, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox

    from desktop.app import EXIT_HOME_UNUSABLE, HomeGuard, build_window, start_background

    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    window = build_window(
        afile, QSettings(str(tmp_path / "qs" / "BriefDesk.ini"), QSettings.Format.IniFormat)
    )
    guard = HomeGuard(window)
    window.show()
    qtbot.waitExposed(window)
    with caplog.at_level(logging.WARNING):
        start_background(window, 100)
        qtbot.waitUntil(lambda: window.findChild(QMessageBox) is not None, timeout=20_000)
        box = window.findChild(QMessageBox)
        assert box is not None
        assert "cannot open its home folder" in box.text()
        assert "is a file, not a folder" in box.informativeText()
        assert guard.exit_code == EXIT_HOME_UNUSABLE
        box.accept()
        qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
    assert not any(record.exc_info for record in caplog.records), "a traceback was logged"
    assert afile.read_text() == "mine"
