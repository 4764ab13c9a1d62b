"""Issue 18, item 4: a run whose owner was recorded under another host name is not stuck forever.

The owner is made for real: `briefdesk-cli run` in a UTS namespace whose host name is "other",
killed by SIGKILL at its second tool call (BRIEFDESK_CRASH_AT), so the run stays `running` with
the owner row (host "other", its pid). From this host, `resume` answers `run_in_progress` and says
how to get out; `resume --take-over` says on stderr who owned it and since when and continues the
run to its next stop; `cancel --take-over` ends it. A live owner on this host (a real process
holding the claim) is never taken over.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_core.cli import main as cli
from tests.drills.drill_support import CLAIMER, DEMO_QUESTION, double_execution_problems
from tests.support.cli import REPO_ROOT, cli_command, cli_env

pytestmark = pytest.mark.slow

OTHER_HOST = "other-host-7"


def call(home: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    """`briefdesk-cli --json ARGS` in this process: (exit code, stdout's one object, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["--home", str(home), "--json", *args])
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, out.getvalue()  # stdout stays one JSON object
    return code, json.loads(lines[0]), err.getvalue()


def owner_row(home: Path, run_id: str) -> tuple[str, str | None, int | None]:
    with contextlib.closing(sqlite3.connect(home / "state.db")) as conn:
        row = conn.execute(
            "SELECT status, owner_host, owner_pid FROM runs WHERE run_id = ?", (run_id,)
        ).fetchone()
    return row[0], row[1], row[2]


def crash_under_other_host(home: Path) -> tuple[str, int]:
    """`briefdesk-cli run` on `home` in a UTS namespace named OTHER_HOST, killed by SIGKILL at
    its second tool call: the run stays `running`, owned by (OTHER_HOST, its pid)."""
    script = f'hostname {OTHER_HOST} && exec "$@"'
    proc = subprocess.run(
        ["unshare", "--uts", "sh", "-c", script, "sh",
         *cli_command("--home", str(home), "--json", "run", "--question", DEMO_QUESTION)],
        env=cli_env(BRIEFDESK_CRASH_AT="before_tool:2"),
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode in (-signal.SIGKILL, 128 + signal.SIGKILL), (
        proc.returncode,
        proc.stderr,
    )
    with contextlib.closing(sqlite3.connect(home / "state.db")) as conn:
        (run_id,) = conn.execute("SELECT run_id FROM runs").fetchone()
    status, host, pid = owner_row(home, run_id)
    assert (status, host) == ("running", OTHER_HOST)
    assert pid is not None
    return run_id, pid


@pytest.fixture(scope="module")
def crashed_elsewhere(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, int]:
    """A home whose run was left `running` by a process on host OTHER_HOST, killed mid-run."""
    home = tmp_path_factory.mktemp("elsewhere") / "home"
    return (home, *crash_under_other_host(home))


@pytest.fixture
def home_elsewhere(
    crashed_elsewhere: tuple[Path, str, int], tmp_path: Path
) -> tuple[Path, str, int]:
    """A fresh copy of that home (database, WAL and folders) for one test to change."""
    template, run_id, pid = crashed_elsewhere
    home = tmp_path / "home"
    shutil.copytree(template, home)
    return home, run_id, pid


def test_resume_refuses_with_the_way_out_and_take_over_continues_the_run(
    home_elsewhere: tuple[Path, str, int],
) -> None:
    home, run_id, pid = home_elsewhere
    code, listed, _ = call(home, "runs")
    [run] = listed["runs"]
    assert run["status"] == "running"
    assert run["owner"]["host"] == OTHER_HOST and run["owner"]["this_host"] is False
    since = run["owner"]["since"]

    code, refused, _ = call(home, "resume", run_id)
    assert (code, refused["error"]["code"]) == (2, "run_in_progress")
    message = refused["error"]["message"]
    assert OTHER_HOST in message and str(pid) in message and since in message
    assert f"resume {run_id} --take-over" in message
    code, kept, _ = call(home, "runs", "delete", run_id)
    assert (code, kept["error"]["code"]) == (2, "run_not_finished")
    assert owner_row(home, run_id) == ("running", OTHER_HOST, pid)  # refusals change nothing

    code, resumed, stderr = call(home, "resume", run_id, "--take-over")
    assert code == 0, resumed
    assert resumed["status"] == "waiting_approval"  # continued to its next stop
    assert OTHER_HOST in stderr and str(pid) in stderr and since in stderr
    assert owner_row(home, run_id) == ("waiting_approval", None, None)

    _, timeline, _ = call(home, "timeline", run_id)
    events = timeline["events"]
    kinds = [e["kind"] for e in events if e["kind"].startswith("run_")]
    assert kinds == ["run_started", "run_interrupted", "run_resumed"]
    [handover] = [e for e in events if e["kind"] == "run_interrupted"]
    assert handover["data"]["previous_owner_host"] == OTHER_HOST
    assert handover["data"]["previous_owner_pid"] == pid
    assert handover["data"]["taken_over_by"]
    assert double_execution_problems(events) == []
    _, audit, _ = call(home, "audit", "--run", run_id)
    assert [e for e in audit["entries"] if e.get("entry") == "take_over"]


def test_cancel_ends_a_run_owned_elsewhere_only_with_take_over(
    home_elsewhere: tuple[Path, str, int],
) -> None:
    home, run_id, pid = home_elsewhere
    code, refused, _ = call(home, "cancel", run_id, "--reviewer", "ada")
    assert (code, refused["error"]["code"]) == (2, "run_in_progress")
    assert f"cancel {run_id} --take-over" in refused["error"]["message"]
    assert owner_row(home, run_id) == ("running", OTHER_HOST, pid)

    code, cancelled, stderr = call(home, "cancel", run_id, "--reviewer", "ada", "--take-over")
    assert (code, cancelled["status"]) == (0, "cancelled")
    assert OTHER_HOST in stderr and str(pid) in stderr
    assert owner_row(home, run_id) == ("cancelled", None, None)
    code, deleted, _ = call(home, "runs", "delete", run_id)
    assert (code, deleted) == (0, {"api": 1, "deleted": run_id})


@pytest.fixture
def live_owner(home: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """A run claimed by a real live process on this host."""
    from agent_core.facade.workspace import Workspace

    ws = Workspace(home)
    try:
        run_id = ws.create_run(DEMO_QUESTION)
    finally:
        ws.close()
    proc = subprocess.Popen(
        [sys.executable, "-c", CLAIMER, str(home), run_id],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env(), cwd=REPO_ROOT,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "claimed", proc.stderr
        yield run_id, proc
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def test_a_live_owner_on_this_host_is_never_taken_over(
    home: Path, live_owner: tuple[str, subprocess.Popen[str]]
) -> None:
    run_id, proc = live_owner
    before = owner_row(home, run_id)
    assert before[0] == "running" and before[2] == proc.pid
    code, refused, stderr = call(home, "resume", run_id, "--take-over")
    assert (code, refused["error"]["code"]) == (2, "run_in_progress")
    assert str(proc.pid) in refused["error"]["message"]
    assert "--take-over" not in refused["error"]["message"]  # no way out past a live owner
    assert stderr == ""
    # cancel --take-over asks the live owner to stop at its next boundary; it keeps the run.
    code, asked, _ = call(home, "cancel", run_id, "--take-over")
    assert (code, asked["status"]) == (0, "running")
    assert owner_row(home, run_id) == before
