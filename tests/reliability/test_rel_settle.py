"""A confirmation lost to a kill is settled (issue 18, item 6).

`run` waits up to 2 s after the run has ended for its watcher to record `artifact_confirmed`.
Killed in that wait, it leaves a written brief, a confirmed ledger entry, and no
`artifact_confirmed`; no later watcher scans a run's own `--artifacts` folder. `runs`, `run`,
`resume` and the window at start settle such writes of ended runs by path and hash: exactly
one `artifact_confirmed` (count 1) on the run that owns the write, and only while the file
still holds the approved content.

The kill is a real SIGKILL of a `briefdesk-cli run` subprocess at the crash point
`before_watch_confirm`. Other cases make the same state without a process boundary: the
facade's `drive` confirms writes in the ledger and runs no watcher. Proven from the outside:
rows read with sqlite3, stdout JSON, the files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from tests.drills.drill_support import KILLED_BY_SIGKILL
from tests.support.cli import CliRunner
from tests.support.cli import CliRunner as Cli
from tests.support.cli import db_rows as _rows

QUESTION = "How do checkpoints make agent runs durable?"


def _confirmations(home: Path) -> list[tuple[str, dict[str, Any]]]:
    """Every artifact_confirmed event of the home: (run_id, data)."""
    rows = _rows(
        home,
        "SELECT run_id, data_json FROM events WHERE kind = 'artifact_confirmed' ORDER BY seq",
    )
    return [(run_id, json.loads(data)) for run_id, data in rows]


def _written(home: Path, run_id: str) -> tuple[str, str]:
    """(target, expected sha256) of the run's confirmed save_brief, after checking the file."""
    rows = _rows(
        home,
        "SELECT target, expected_hash FROM ledger "
        "WHERE run_id = ? AND tool = 'save_brief' AND status = 'confirmed'",
        run_id,
    )
    assert len(rows) == 1, rows
    target, expected = rows[0]
    assert hashlib.sha256(Path(target).read_bytes()).hexdigest() == expected
    return target, expected


def _settled_once(home: Path, run_id: str) -> None:
    target, expected = _written(home, run_id)
    found = [(rid, data) for rid, data in _confirmations(home) if data["path"] == target]
    assert [rid for rid, _ in found] == [run_id], found
    assert found[0][1]["count"] == 1 and found[0][1]["content_hash"] == expected


@pytest.fixture
def cli_json(home: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(home, capsys)


@pytest.fixture
def unwatched(home: Path, tmp_path: Path) -> Iterator[Any]:
    """Makes ended runs whose brief is written and confirmed in the ledger, with no watcher:
    the state a kill in the watcher wait leaves. Each gets its own artifacts folder outside the
    home, so no other watcher (the app's, on the home's folder) would ever scan it."""
    ws = Workspace(home)
    made = 0

    def make() -> str:
        nonlocal made
        made += 1
        run_id = ws.create_run(QUESTION, mode="acceptEdits", artifacts=tmp_path / f"out-{made}")
        assert ws.drive(run_id)["status"] == "succeeded"
        return run_id

    try:
        yield make
    finally:
        ws.close()


def test_a_run_killed_while_waiting_for_its_watcher_is_settled_by_runs(
    home: Path, tmp_path: Path, cli: CliRunner, cli_json: Cli
) -> None:
    out = tmp_path / "out"
    killed = cli(
        "run", "--question", QUESTION, "--mode", "acceptEdits", "--artifacts", str(out),
        env={"BRIEFDESK_CRASH_AT": "before_watch_confirm"},
    )  # fmt: skip
    assert killed.code == KILLED_BY_SIGKILL, (killed.code, killed.stdout, killed.stderr)
    [(run_id, status)] = _rows(home, "SELECT run_id, status FROM runs")
    assert status == "succeeded"
    _written(home, run_id)  # the brief is there, confirmed in the ledger ...
    assert _confirmations(home) == []  # ... and no watcher recorded it

    code, listed = cli_json("runs")

    assert code == 0 and [r["run_id"] for r in listed["runs"]] == [run_id]
    _settled_once(home, run_id)
    code, _ = cli_json("runs")  # settled once, never again
    assert code == 0
    _settled_once(home, run_id)


def test_run_and_resume_settle_the_lost_confirmations_of_other_ended_runs(
    home: Path, cli_json: Cli, unwatched: Any
) -> None:
    first = unwatched()
    assert _confirmations(home) == []

    code, same = cli_json("resume", first)  # an ended run: printed unchanged, yet settled

    assert code == 0 and same["status"] == "succeeded"
    _settled_once(home, first)

    second = unwatched()
    code, new = cli_json("run", "--question", "What is a side-effect ledger?", "--mode", "default")

    assert code == 0 and new["status"] == "waiting_approval"
    _settled_once(home, second)
    _settled_once(home, first)


def test_only_a_file_that_holds_the_approved_content_is_confirmed(
    home: Path, cli_json: Cli, unwatched: Any
) -> None:
    run_id = unwatched()
    target, _expected = _written(home, run_id)
    approved = Path(target).read_bytes()
    Path(target).write_text("# Rewritten by hand\n", encoding="utf-8")

    assert cli_json("runs").code == 0
    assert _confirmations(home) == []  # changed since: not what was approved

    Path(target).write_bytes(approved)  # the approved content again, as written
    assert cli_json("runs").code == 0
    _settled_once(home, run_id)


def test_the_window_settles_at_start(qtbot: QtBot, home: Path, unwatched: Any) -> None:
    from tests.desktop.conftest import started_bridge

    run_id = unwatched()
    _written(home, run_id)
    assert _confirmations(home) == []

    with started_bridge(qtbot, home):
        qtbot.waitUntil(lambda: len(_confirmations(home)) == 1, timeout=20_000)

    _settled_once(home, run_id)
