"""A frozen owner never writes twice on a home's own SQLite file either (issue 24, break 4).

On one machine a live owner is never taken over, except one recorded under another host name
(issue 18): made for real here, `briefdesk-cli run` in a UTS namespace named OTHER_HOST. It
freezes itself (SIGSTOP, BRIEFDESK_PAUSE_AT) in its save_brief right after the base-hash check;
this host takes the run over (`resume --take-over`), which writes the brief; then the first
owner wakes. It must find the run taken and write nothing: the brief keeps its inode and mtime,
the ledger its one confirmed row, the timeline its one executed result.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

import pytest

from agent_core.facade.workspace import Workspace
from tests.drills.drill_support import (
    DEMO_QUESTION,
    double_execution_problems,
    file_identity,
    files_under,
    ledger_rows,
    sha256_file,
)
from tests.support.cli import CliRunner, cli_command
from tests.support.frozen import FrozenProcess

pytestmark = pytest.mark.slow

OTHER_HOST = "frozen-host-4"


def _write_locked(db: Path) -> bool:
    """Does some connection hold the file's write lock (a thread frozen mid-transaction)?"""
    with contextlib.closing(sqlite3.connect(db, timeout=0)) as conn:
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return True
        conn.rollback()
        return False


def test_an_owner_under_another_host_name_frozen_after_its_base_check_writes_nothing(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    script = f'hostname {OTHER_HOST} && exec "$@"'
    argv = ["unshare", "--uts", "sh", "-c", script, "sh",
            *cli_command("--home", str(home), "--json", "run", "--question", DEMO_QUESTION,
                         "--mode", "acceptEdits")]  # fmt: skip
    frozen = FrozenProcess(argv, "after_base_check", tmp_path / "wake")
    ws = None
    try:
        frozen.wait_stopped()
        frozen.refreeze_while(lambda: _write_locked(home / "state.db"))
        ws = Workspace(home)
        [run] = ws.list_runs()
        run_id = run["run_id"]
        [row] = [r for r in ledger_rows(ws, run_id) if r.tool == "save_brief"]
        brief = Path(str(row.target))
        assert not brief.exists()

        taken = CliRunner(home)("resume", run_id, "--take-over")
        assert (taken.code, taken.body.get("status")) == (0, "succeeded"), taken
        written = file_identity(brief)

        code, out, err = frozen.wake()
        assert code == 2 and "Traceback" not in err, (code, out, err)
        assert json.loads(out)["error"]["code"] == "run_owned_elsewhere"
        assert file_identity(brief) == written  # the first owner wrote nothing when it woke

        events = ws.timeline(run_id)
        assert double_execution_problems(events) == []
        [row] = [r for r in ledger_rows(ws, run_id) if r.tool == "save_brief"]
        assert row.status == "confirmed"
        executed = [
            e
            for e in events
            if e["kind"] == "tool_result"
            and e["tool"] == "save_brief"
            and e["data"].get("executed") is True
        ]
        assert len(executed) == 1, executed
        assert sha256_file(brief) == row.expected_hash
        assert files_under(brief.parent) == [brief]
        assert ws.get_run(run_id)["status"] == "succeeded"
    finally:
        frozen.kill()
        if ws is not None:
            ws.close()
