"""A frozen owner never writes twice (issue 24, break 4), on a real PostgreSQL server.

desk-a drives a run in `acceptEdits` (its brief is written without asking) and freezes for real
(SIGSTOP to itself, BRIEFDESK_PAUSE_AT) in the middle of its save_brief: every thread stops, its
lease heartbeat too. The lease lapses on the server's clock, desk-b takes the run over with
`resume --take-over` (or `cancel --take-over`), and only then desk-a wakes. Whatever the moment
it froze at, the brief is written at most once: frozen before the write fence, desk-a finds the
run taken (and ended by desk-b, so no hash could hide a write) and refuses; frozen inside it,
desk-b's write waits for the fence, gives up retryably without writing, desk-a writes on waking
and says so, and desk-b settles desk-a's write by its hash on the next resume. Every check is
from the outside: the file's inode and mtime, the ledger rows, the timeline, the processes' exit
codes and output.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
from tests.support.cli import cli_command
from tests.support.frozen import FrozenProcess
from tests.team.conftest import Desk
from tests.team.desk_support import wait_until

pytestmark = pytest.mark.slow  # real desks: each `run` and `resume` imports the Agents SDK

LEASE_S = "3"


def _holds_the_writer_lock(ws: Workspace) -> bool:
    """Does a session of this database hold the team's writer lock (an advisory lock)? Before
    the take-over only the frozen desk's threads write: one may have frozen mid-transaction."""
    with ws.store.read() as conn:
        return bool(
            conn.exec_driver_sql(
                "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database "
                "WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()"
            ).scalar()
        )


@pytest.fixture
def frozen_desk_a(
    two_desks: tuple[Desk, Desk], tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[tuple[Desk, Desk, FrozenProcess, Any, str]]:
    """desk-a's `run`, frozen at the point the test names (indirect parameter) with its lease
    lapsed and no transaction of it left open; desk-b's Workspace; the run's id."""
    a, b = two_desks
    argv = cli_command("--home", str(a.home), "--json", "run",
                       "--question", DEMO_QUESTION, "--mode", "acceptEdits")  # fmt: skip
    frozen = FrozenProcess(
        argv, request.param, tmp_path / "wake", BRIEFDESK_DESK="desk-a", BRIEFDESK_LEASE_S=LEASE_S
    )
    ws_b = b.workspace()
    try:
        frozen.wait_stopped()
        frozen.refreeze_while(lambda: _holds_the_writer_lock(ws_b))
        [run] = ws_b.list_runs()
        wait_until(
            lambda: ws_b.get_run(run["run_id"])["status"] == "interrupted",
            "desk-a's lease to lapse",
        )
        yield a, b, frozen, ws_b, run["run_id"]
    finally:
        frozen.kill()
        ws_b.close()


def _the_brief(ws: Workspace, run_id: str) -> tuple[Path, Any]:
    """The run's one save_brief ledger row and its target."""
    [row] = [r for r in ledger_rows(ws, run_id) if r.tool == "save_brief"]
    return Path(str(row.target)), row


def _refused_as_taken(code: int, out: str, err: str) -> str:
    """The woken owner's answer: the run is desk-b's now. Returns what it says it did."""
    assert code == 2, (code, out, err)
    assert "Traceback" not in err, err
    error = json.loads(out)["error"]
    assert error["code"] == "run_owned_elsewhere" and "'desk-b'" in error["message"], error
    return str(error["message"])


def _written_once(ws: Workspace, run_id: str, brief: Path, approved: str) -> None:
    """One write of the approved content: one confirmed ledger row, one executed result."""
    events = ws.timeline(run_id)
    assert double_execution_problems(events) == []
    _, row = _the_brief(ws, run_id)
    assert (row.status, row.expected_hash) == ("confirmed", approved)
    executed = [
        e
        for e in events
        if e["kind"] == "tool_result"
        and e["tool"] == "save_brief"
        and e["data"].get("executed") is True
    ]
    assert len(executed) == 1, executed
    assert sha256_file(brief) == approved
    assert files_under(brief.parent) == [brief]  # no temp file left behind


@pytest.mark.parametrize("frozen_desk_a", ["after_base_check"], indirect=True)
def test_an_owner_frozen_after_its_base_check_wakes_to_a_taken_run_and_writes_nothing(
    frozen_desk_a: tuple[Desk, Desk, FrozenProcess, Any, str],
) -> None:
    _a, b, frozen, ws_b, run_id = frozen_desk_a
    brief, _ = _the_brief(ws_b, run_id)
    assert not brief.exists()  # desk-a checked the base (no file yet) and froze

    # desk-b takes the run over and ends it: its outcome differs from desk-a's (no brief at
    # all), so no hash reconcile can hide a write desk-a makes on waking. Only the fence's
    # ownership check stops it: the file is still absent, as desk-a's base check found it.
    taken = b("cancel", run_id, "--take-over", env={"BRIEFDESK_LEASE_S": LEASE_S})
    assert (taken.code, taken.body.get("status")) == (0, "cancelled"), taken

    message = _refused_as_taken(*frozen.wake())
    assert "wrote nothing" in message, message
    assert not brief.exists()  # desk-a wrote nothing when it woke
    assert files_under(brief.parent) == []
    assert _the_brief(ws_b, run_id)[1].status != "confirmed"


@pytest.mark.parametrize("frozen_desk_a", ["in_write_fence"], indirect=True)
def test_an_owner_frozen_inside_the_write_fence_holds_off_the_taker_and_writes_once(
    frozen_desk_a: tuple[Desk, Desk, FrozenProcess, Any, str],
) -> None:
    _a, b, frozen, ws_b, run_id = frozen_desk_a
    brief, row = _the_brief(ws_b, run_id)
    fence = {"BRIEFDESK_LEASE_S": LEASE_S, "BRIEFDESK_WRITE_FENCE_S": "1"}

    # desk-a checked that it owns the run before its lease lapsed, and holds the fence: desk-b
    # cannot even settle the call by the file's hash, and stops retryably, writing nothing.
    taken = b("resume", run_id, "--take-over", env=fence)
    assert (taken.code, taken.body.get("status")) == (1, "failed"), taken
    assert taken.body["error"]["code"] == "target_busy", taken.body
    assert taken.body["error"]["retryable"] is True
    assert not brief.exists()

    # desk-a wakes and makes the one write it had checked, and says so: it cannot record it
    # (the run is desk-b's), and its refused confirmation must not claim it wrote nothing.
    message = _refused_as_taken(*frozen.wake())
    assert f"wrote {brief}" in message, message
    assert "wrote nothing" not in message and "without writing" not in message, message
    written = file_identity(brief)

    settled = b("resume", run_id, env=fence)  # settled by the file's hash, not written again
    assert (settled.code, settled.body.get("status")) == (0, "succeeded"), settled
    assert file_identity(brief) == written
    _written_once(ws_b, run_id, brief, row.expected_hash)
    kinds = [e["kind"] for e in ws_b.timeline(run_id)]
    assert "reconciled" in kinds
