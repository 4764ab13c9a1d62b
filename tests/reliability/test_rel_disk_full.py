"""Out of disk space is a retryable stop (issue 18, item 5): `storage_full`, `retryable: true`.

Real tmpfs mounts of a small size (CI runs as root), filled with a real file:

- the artifacts folder full when the approved brief is written: the run ends `failed` with
  `storage_full` naming the folder, the ledger leaves the call `started` (its outcome unknown,
  settled by the target's hash on resume), nothing half-written stays in the folder, and after
  space is freed `resume` writes the brief once;
- the database's disk full in the middle of a run, filled by the stand-in model endpoint while
  the run waits for its answer: when the failure can still be recorded the run ends `failed`
  with `storage_full`; when even that cannot be written, the command prints the
  `storage_full` error object (no traceback) and the run, whose process is gone, shows
  `interrupted`. Either way `resume` finishes it once space is freed.

Driven through `briefdesk-cli`'s own `main` in this process (the SDK import is paid once),
except where the dead owner is the point (a real subprocess). Proven from the outside: stdout
JSON, rows read with sqlite3, the files in the folders.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from agent_core.home.logs import shutdown_logging
from agent_core.models.planned import History, PlannedCall, TurnPlan
from tests.support.cli import REPO_ROOT, cli_command, cli_env
from tests.support.cli import CliRunner as Cli
from tests.support.cli import db_rows as _rows
from tests.support.fake_openai import FakeOpenAI, offline_planner

QUESTION = "How do checkpoints make agent runs durable?"
KEY = "sk-test-disk-full-0123456789"
CALL_KINDS = ("tool_called", "outcome_unknown", "reconciled", "tool_result")
ROOM = 340 * 1024  # room left on the home's disk in the recorded case (see that test)


# -- real disks ------------------------------------------------------------------------------


@contextmanager
def tmpfs(mount_point: Path, size: str) -> Iterator[Path]:
    """A real tmpfs of `size` at `mount_point`, unmounted afterwards whatever happened."""
    mount_point.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount_point)],
        check=True,
        capture_output=True,
    )
    try:
        yield mount_point
    finally:
        shutdown_logging()  # a home on the mount keeps its log file open in this process
        if subprocess.run(["umount", str(mount_point)], capture_output=True).returncode:
            subprocess.run(["umount", "-l", str(mount_point)], check=True, capture_output=True)


def fill(folder: Path, *, leave: int = 0) -> Path:
    """Fill the file system of `folder` with one file until ENOSPC; then give back `leave`
    bytes (tmpfs frees the pages of a truncated file). Returns the filler."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        chunk = b"\xa5" * 65536
        while True:
            try:
                os.write(fd, chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                break
        if leave:
            os.ftruncate(fd, max(0, os.fstat(fd).st_size - leave))
    finally:
        os.close(fd)
    stats = os.statvfs(folder)
    free = stats.f_bavail * stats.f_frsize
    assert leave <= free <= leave + stats.f_frsize, (leave, free)
    return filler


# -- reading the outcome ---------------------------------------------------------------------


@pytest.fixture
def cli_json(home: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(home, capsys)


def _events(home: Path, run_id: str) -> list[tuple[str, str | None, dict[str, Any]]]:
    rows = _rows(
        home, "SELECT kind, tool, data_json FROM events WHERE run_id = ? ORDER BY seq", run_id
    )
    return [(kind, tool, json.loads(data)) for kind, tool, data in rows]


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def _save_call(home: Path, run_id: str) -> tuple[str, str, str]:
    """(call_id, target, approved content) of the run's one approved save_brief."""
    rows = _rows(
        home,
        "SELECT call_id, target, args_json FROM approvals "
        "WHERE run_id = ? AND tool = 'save_brief' AND status IN ('approved', 'consumed')",
        run_id,
    )
    assert len(rows) == 1, rows
    call_id, target, args = rows[0]
    return call_id, target, json.loads(args)["content"]


def _written_once(home: Path, run_id: str) -> Path:
    """The run's brief is on disk with exactly the approved bytes, executed exactly once."""
    call_id, target, content = _save_call(home, run_id)
    brief = Path(target)
    assert brief.read_bytes() == content.encode("utf-8")
    executed = [
        data
        for kind, tool, data in _events(home, run_id)
        if kind == "tool_result" and data["call_id"] == call_id and data["executed"] is True
    ]
    assert len(executed) == 1, executed
    status = _rows(
        home, "SELECT status FROM ledger WHERE run_id = ? AND call_id = ?", run_id, call_id
    )
    assert status == [("confirmed",)]
    # The watcher of the run that wrote it (a resumed one too) saw it once (issue 24, item 6).
    seen = [
        (data["count"], data["duplicate"])
        for kind, _tool, data in _events(home, run_id)
        if kind == "artifact_confirmed" and data["path"] == target
    ]
    assert seen == [(1, False)]
    return brief


def _only_run_id(home: Path) -> str:
    rows = _rows(home, "SELECT run_id FROM runs")
    assert len(rows) == 1, rows
    return str(rows[0][0])


# -- the artifacts folder full ---------------------------------------------------------------


def test_full_artifacts_folder_stops_the_run_retryably_and_resume_writes_the_brief_once(
    home: Path, tmp_path: Path, cli_json: Cli
) -> None:
    with tmpfs(tmp_path / "artifacts", "64k") as artifacts:
        filler = fill(artifacts)
        code, run = cli_json(
            "run", "--question", QUESTION, "--mode", "acceptEdits", "--artifacts", str(artifacts)
        )

        assert code == 1 and run["status"] == "failed", run
        assert run["error"]["code"] == "storage_full" and run["error"]["retryable"] is True
        assert str(artifacts) in run["error"]["message"]
        assert "space" in run["error"]["message"]
        assert run["ready_to_continue"] is True
        run_id = run["run_id"]
        call_id, target, _content = _save_call(home, run_id)
        # Not confirmed, not failed: its outcome is unknown, and resume settles it by hash.
        assert _rows(home, "SELECT status FROM ledger WHERE call_id = ?", call_id) == [("started",)]
        for_call = [
            (kind, data)
            for kind, _tool, data in _events(home, run_id)
            if data.get("call_id") == call_id and kind in CALL_KINDS
        ]
        assert [k for k, _ in for_call] == ["tool_called", "outcome_unknown", "tool_result"]
        assert for_call[-1][1]["executed"] is False
        assert for_call[-1][1]["code"] == "storage_full"
        assert _files(artifacts) == [filler]  # no partial brief, no temp file left behind

        filler.unlink()
        code, resumed = cli_json("resume", run_id)

        assert code == 0 and resumed["status"] == "succeeded", resumed
        assert _written_once(home, run_id) == Path(target)
        assert _files(artifacts) == [Path(target)]


# -- the database's disk full ----------------------------------------------------------------


class FillingPlanner:
    """Plays the offline model's workflow; when asked for turn `step + 1`, it first runs
    `before` (once): the run is then waiting for this answer, between two of its writes."""

    def __init__(
        self, step: int, before: Callable[[], object], plan: TurnPlan | None = None
    ) -> None:
        self.step, self.before, self.plan = step, before, plan
        self.filled = False

    def __call__(self, history: History) -> TurnPlan:
        if history.steps_taken == self.step:
            if not self.filled:
                self.filled = True
                self.before()
            if self.plan is not None:
                return self.plan
        return offline_planner(history)


def _use_endpoint(cli_json: Cli, server: FakeOpenAI) -> None:
    code, _ = cli_json("settings", "set", "openai.base_url", server.base_url)
    assert code == 0


def test_database_disk_full_mid_run_is_storage_full_and_resume_finishes_the_run(
    home: Path, tmp_path: Path, cli_json: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk is filled whole while the run waits for the model: the next write fails, and
    so does the write of the failure itself. The process says storage_full and exits; the
    run it owned is seen `interrupted`, and resume finishes it."""
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", KEY)
    artifacts = tmp_path / "briefs-out"
    with tmpfs(home, "8m"):
        planner = FillingPlanner(step=2, before=lambda: fill(home))  # before save_brief
        with FakeOpenAI(planner=planner) as server:
            _use_endpoint(cli_json, server)
            shutdown_logging()  # the run's own process logs there; this one lets go of it
            killed = subprocess.run(
                cli_command("--home", str(home), "--json", "run",
                            "--question", QUESTION, "--model", "openai", "--mode", "acceptEdits",
                            "--artifacts", str(artifacts)),
                capture_output=True, text=True, timeout=180, cwd=REPO_ROOT,
                env=cli_env(BRIEFDESK_OPENAI_API_KEY=KEY),
            )  # fmt: skip

            assert planner.filled
            assert killed.returncode == 2, (killed.stdout, killed.stderr)
            assert "Traceback" not in killed.stderr, killed.stderr
            error = json.loads(killed.stdout)["error"]
            assert error["code"] == "storage_full" and error["retryable"] is True
            assert str(home) in error["message"]
            (home / "filler").unlink()

            code, listed = cli_json("runs")
            assert code == 0
            [run] = listed["runs"]
            assert run["status"] == "interrupted" and run["ready_to_continue"] is True
            assert not artifacts.exists() or _files(artifacts) == []

            code, resumed = cli_json("resume", run["run_id"])

        assert code == 0 and resumed["status"] == "succeeded", resumed
        brief = _written_once(home, run["run_id"])
        assert _files(artifacts) == [brief]


def test_database_disk_full_recorded_as_a_retryable_failure_then_resumed(
    home: Path, tmp_path: Path, cli_json: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Little room left and a large proposal to save: the model's turn (with the call's raw
    arguments, about 200 KB) fits, the approval row (as large) does not, nor the end of the
    run with the pause's saved state (as large again); the end without that state (tens of
    KB) fits in what the failed write left. So the run ends `failed` with storage_full,
    retryable, and resume (space freed) continues it to the brief, once. (Measured: with
    from about 250 to 440 KB of room the run ends this way; below or above it the failure
    cannot be recorded, the case of the test above.)"""
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", KEY)
    artifacts = tmp_path / "briefs-out"
    content = "# A long brief\n\n" + "".join(
        f"- point {i}: {hashlib.sha256(str(i).encode()).hexdigest()}\n" for i in range(2400)
    )
    big_save = TurnPlan(
        calls=[PlannedCall("save_brief", {"relative_path": "briefs/long.md", "content": content})]
    )
    with tmpfs(home, "8m"):
        planner = FillingPlanner(step=2, before=lambda: fill(home, leave=ROOM), plan=big_save)
        with FakeOpenAI(planner=planner) as server:
            _use_endpoint(cli_json, server)
            code, run = cli_json(
                "run", "--question", QUESTION, "--model", "openai", "--mode", "acceptEdits",
                "--artifacts", str(artifacts),
            )  # fmt: skip

            assert planner.filled
            assert code == 1 and run["status"] == "failed", run
            assert run["error"]["code"] == "storage_full" and run["error"]["retryable"] is True
            assert str(home) in run["error"]["message"]
            assert run["ready_to_continue"] is True
            assert _rows(home, "SELECT count(*) FROM ledger WHERE tool = 'save_brief'") == [(0,)]
            (home / "filler").unlink()

            code, resumed = cli_json("resume", run["run_id"])

        assert code == 0 and resumed["status"] == "succeeded", resumed
        brief = _written_once(home, run["run_id"])
        assert brief == artifacts / "briefs" / "long.md"
        assert _files(artifacts) == [brief]
