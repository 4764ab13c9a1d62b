"""Issue 18, items 9 and 10: the artifacts watcher's first scan at the start of a run.

- A stray file already in the artifacts folder is recorded on the new run only after the run's
  own `run_started` (it used to come first, so the lifecycle wrote `run_resumed` instead).
- The first scan never holds up the start of a run: it waits in the background for the run's
  claim, then reads the folder.
- A folder full of old files is ONE summary event, not one event per file; fifos, sockets and
  symlinks out of the folder are never counted; a file an ended run of this home wrote is
  confirmed on that run, never called stray.
- A pseudo file system is refused at `run` with a JSON `invalid_arguments` (`/proc/self` used to
  spin at 100 % CPU), and one mounted inside a folder is never walked.

Driven through `briefdesk-cli`'s own `main` in this process (the SDK import is paid once) and
the Workspace facade, with a real watchdog observer, real files and a real proc mount; what
happened is read back from the database with sqlite3.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_core.artifacts.panel import artifact_states
from agent_core.artifacts.watcher import ArtifactWatcher
from agent_core.cli.main import main
from agent_core.facade.workspace import Workspace

QUESTION = "How do checkpoints make agent runs durable?"
OLD_FILES = 5000


def run_cli(home: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    capsys.readouterr()
    code = main(["--home", str(home), "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def rows(home: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(home / "state.db")
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def run_events(home: Path, run_id: str) -> list[tuple[str, dict[str, Any]]]:
    found = rows(home, "SELECT kind, data_json FROM events WHERE run_id = ? ORDER BY seq", run_id)
    return [(kind, json.loads(data)) for kind, data in found]


def fill(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"old-{i:05d}.txt").write_text(f"left here long ago {i}\n")


@pytest.fixture
def ws(home: Path) -> Iterator[Workspace]:
    workspace = Workspace(home)
    yield workspace
    workspace.close()


def test_a_stray_file_already_there_comes_after_run_started(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "artifacts").mkdir(parents=True)
    stray = home / "artifacts" / "stray.txt"
    stray.write_text("nobody approved me\n")

    code, run = run_cli(home, capsys, "run", "--question", QUESTION)

    assert code == 0 and run["status"] == "waiting_approval", run
    events = run_events(home, run["run_id"])
    assert events[0][0] == "run_started"
    assert "run_resumed" not in [kind for kind, _ in events]
    unexpected = [data for kind, data in events if kind == "artifact_unexpected"]
    assert [(d["path"], d["count"], d["reason"]) for d in unexpected] == [
        (str(stray), 1, "no_approved_write")
    ]


def test_a_folder_full_of_old_files_is_one_summary_after_run_started(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "full"
    fill(folder, OLD_FILES)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("not in the artifacts folder\n")
    os.mkfifo(folder / "a-fifo")  # opening it to hash it would block forever
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(folder / "a-socket"))
    (folder / "link-out.txt").symlink_to(outside / "secret.txt")
    (folder / "dir-out").symlink_to(outside)
    try:
        code, run = run_cli(home, capsys, "run", "--question", QUESTION, "--artifacts", str(folder))
    finally:
        listener.close()

    assert code == 0 and run["status"] == "waiting_approval", run
    events = run_events(home, run["run_id"])
    assert events[0][0] == "run_started"
    unexpected = [data for kind, data in events if kind == "artifact_unexpected"]
    assert len(unexpected) == 1, f"{len(unexpected)} artifact_unexpected events"
    [summary] = unexpected
    assert (summary["summary"], summary["path"], summary["count"]) == (True, str(folder), OLD_FILES)
    sighted = [Path(p) for (p,) in rows(home, "SELECT path FROM artifact_sightings")]
    assert len(sighted) == OLD_FILES  # each old file is known (the panel shows it unexpected)
    assert {p.parent for p in sighted} == {folder}
    assert all(p.name.startswith("old-") for p in sighted)  # no fifo, socket or link out


def test_the_run_starts_before_the_first_scan_reads_a_file(ws: Workspace, tmp_path: Path) -> None:
    folder = tmp_path / "big"
    fill(folder, OLD_FILES)
    run_id = ws.create_run(QUESTION, artifacts=str(folder))
    watcher = ArtifactWatcher(ws.store, folder, run_id=run_id).start()
    try:
        # start() returned, and the scan has not read one file: it waits for the run's claim.
        assert rows(ws.home.root, "SELECT count(*) FROM artifact_sightings") == [(0,)]
        assert rows(ws.home.root, "SELECT count(*) FROM events") == [(0,)]
        assert ws.drive(run_id)["status"] == "waiting_approval"
        assert watcher.scanned.wait(120)
    finally:
        watcher.stop()
    kinds = [kind for kind, _ in run_events(ws.home.root, run_id)]
    assert kinds[0] == "run_started"
    assert kinds.count("artifact_unexpected") == 1
    assert rows(ws.home.root, "SELECT count(*) FROM artifact_sightings") == [(OLD_FILES,)]


def test_a_brief_an_ended_run_wrote_is_confirmed_not_stray(
    ws: Workspace, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = ws.start_run(QUESTION)
    ws.approve(first["approvals"][0]["id"], reviewer="alice")
    assert ws.resume(first["run_id"])["status"] == "succeeded"  # written while nothing watched
    brief = Path(str(first["approvals"][0]["target"]))
    fill(home / "artifacts" / "old", 20)

    code, second = run_cli(home, capsys, "run", "--question", QUESTION)

    assert code == 0, second
    confirmed = [d for k, d in run_events(home, first["run_id"]) if k == "artifact_confirmed"]
    assert [(d["path"], d["count"]) for d in confirmed] == [(str(brief), 1)]
    unexpected = [d for k, d in run_events(home, second["run_id"]) if k == "artifact_unexpected"]
    assert [(d["summary"], d["count"]) for d in unexpected] == [(True, 20)]
    assert rows(home, "SELECT verdict FROM artifact_sightings WHERE path = ?", str(brief)) == [
        ("confirmed",)
    ]


@pytest.mark.timeout(120)  # before the fix this never returned
@pytest.mark.parametrize("folder", ["/proc/self", "/sys/kernel", "/dev"])
def test_a_pseudo_file_system_is_refused_at_run(
    home: Path, capsys: pytest.CaptureFixture[str], folder: str
) -> None:
    code, body = run_cli(home, capsys, "run", "--question", QUESTION, "--artifacts", folder)

    assert code == 2
    assert body["error"]["code"] == "invalid_arguments"
    assert "system" in body["error"]["message"]
    assert not home.exists()  # refused before the home is made: nothing half-made


@pytest.fixture
def proc_mount(tmp_path: Path) -> Iterator[Path]:
    """A folder with a real proc file system mounted inside it (CI runs as root)."""
    folder = tmp_path / "with-proc"
    (folder / "proc").mkdir(parents=True)
    (folder / "real.txt").write_text("a real file\n")
    subprocess.run(["mount", "-t", "proc", "proc", str(folder / "proc")], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder / "proc")], check=True)


@pytest.mark.timeout(120)
def test_a_folder_holding_a_proc_mount_is_refused_and_never_walked(
    home: Path, capsys: pytest.CaptureFixture[str], proc_mount: Path
) -> None:
    code, body = run_cli(
        home, capsys, "run", "--question", QUESTION, "--artifacts", str(proc_mount)
    )
    assert (code, body["error"]["code"]) == (2, "invalid_arguments")
    assert str(proc_mount / "proc") in body["error"]["message"]

    ws = Workspace(home)
    try:  # the artifacts panel lists such a folder without entering the proc mount
        listed = [state["relative"] for state in artifact_states(ws.store, proc_mount)]
    finally:
        ws.close()
    assert listed == ["real.txt"]
