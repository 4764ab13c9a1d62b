"""Issue 12, item 6 (stray files): an event of the home itself has run_id null.

A stray file that appears while no run watches is flagged on the home (`run_id` null, as the
contract allows), not appended to an unrelated finished run, and never written on a run that
no process has claimed yet (that run's first event stays `run_started`, issue 18 item 9). One
that appears while a run is in progress is recorded on that run, as before. Revision 0004 makes
`events.run_id` nullable and turns the old home-level events (stored with run_id "") into nulls.

The watcher is the desktop's (`Workspace.watch_artifacts`, no run of its own) with a real
watchdog observer; files are written by a real subprocess; rows are read back with sqlite3.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent_core.artifacts.watcher import ArtifactWatcher
from agent_core.cli.main import main
from agent_core.facade.workspace import Workspace
from agent_core.storage.migrate.home import upgrade
from desktop.follower import read_changes
from tests.support import waiting

QUESTION = "How do checkpoints make agent runs durable?"
WRITE = "import sys; open(sys.argv[1], 'w').write(sys.argv[2])"


def rows(db: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def unexpected_rows(db: Path, name: str) -> list[tuple[Any, ...]]:
    """(run_id, path) of every artifact_unexpected event about the file called `name`."""
    found = rows(db, "SELECT run_id, data_json FROM events WHERE kind = 'artifact_unexpected'")
    return [
        (run_id, json.loads(data)["path"])
        for run_id, data in found
        if Path(json.loads(data)["path"]).name == name
    ]


def wait_until(condition: Callable[[], object], timeout: float = 30.0) -> None:
    waiting.wait_until(
        condition, timeout=timeout, interval=0.05, message="timed out waiting for the watcher"
    )


def drop(path: Path, content: str) -> None:
    subprocess.run([sys.executable, "-c", WRITE, str(path), content], check=True, timeout=30)


def test_a_stray_file_while_no_run_watches_is_a_home_event(
    ws: Workspace, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished = ws.start_run(QUESTION)
    ws.approve(finished["approvals"][0]["id"], reviewer="alice")
    assert ws.resume(finished["run_id"])["status"] == "succeeded"
    not_started = ws.create_run(QUESTION)  # `run` made it, then died before driving it
    artifacts = home / "artifacts"
    watcher = ws.watch_artifacts()
    try:
        assert isinstance(watcher, ArtifactWatcher)  # its first scan is what this waits for
        assert watcher.scanned.wait(60)
        drop(artifacts / "stray.txt", "nobody approved this")
        wait_until(lambda: unexpected_rows(home / "state.db", "stray.txt"))

        assert unexpected_rows(home / "state.db", "stray.txt") == [
            (None, str(artifacts / "stray.txt"))
        ]
        assert [e["data"]["path"] for e in ws.home_events()] == [str(artifacts / "stray.txt")]
        assert all(e["run_id"] is None for e in ws.home_events())
        assert "artifact_unexpected" not in [e["kind"] for e in ws.timeline(finished["run_id"])]
        assert ws.timeline(not_started) == []

        # A run in progress on that folder gets what appears while it waits, as before.
        waiting = ws.start_run(QUESTION)
        assert waiting["status"] == "waiting_approval"
        drop(artifacts / "during.txt", "written while a run waits")
        wait_until(lambda: unexpected_rows(home / "state.db", "during.txt"))
        assert unexpected_rows(home / "state.db", "during.txt") == [
            (waiting["run_id"], str(artifacts / "during.txt"))
        ]
    finally:
        watcher.stop()

    # The run nobody had claimed starts with its own run_started.
    assert ws.drive(not_started)["status"] == "waiting_approval"
    assert ws.timeline(not_started)[0]["kind"] == "run_started"

    # `timeline RUN` of the finished run does not show the home's event.
    capsys.readouterr()
    assert main(["--home", str(home), "--json", "timeline", finished["run_id"]]) == 0
    shown = json.loads(capsys.readouterr().out)["events"]
    assert "stray.txt" not in json.dumps(shown)
    assert main(["--home", str(home), "--json", "timeline", "--home-events"]) == 0
    home_shown = json.loads(capsys.readouterr().out)["events"]
    assert [(e["run_id"], e["data"]["path"]) for e in home_shown] == [
        (None, str(artifacts / "stray.txt"))
    ]

    # The desktop's poll reads a null-run event without asking for a run named None.
    changes = read_changes(ws, 0, [])
    events, asked = changes.events, changes.asked
    stray = [e for e in events if e["kind"] == "artifact_unexpected"]
    assert [e["data"]["path"] for e in stray if e["run_id"] is None] == [
        str(artifacts / "stray.txt")
    ]
    assert asked == sorted({finished["run_id"], waiting["run_id"], not_started})


def test_revision_0004_makes_run_id_nullable_and_old_home_events_null(tmp_path: Path) -> None:
    db = tmp_path / "home" / "state.db"
    db.parent.mkdir(parents=True)
    upgrade(db, "0003")
    conn = sqlite3.connect(db)  # what the 0003 app wrote for a stray file outside any run
    conn.execute(
        "INSERT INTO events (seq, run_id, kind, at, tool, data_json) VALUES (?, ?, ?, ?, ?, ?)",
        (7, "", "artifact_unexpected", "2026-01-01T00:00:00+00:00", None, '{"path": "/x"}'),
    )
    conn.execute(
        "INSERT INTO events (seq, run_id, kind, at, tool, data_json) VALUES (?, ?, ?, ?, ?, ?)",
        (8, "run-a", "run_started", "2026-01-01T00:00:01+00:00", None, "{}"),
    )
    conn.commit()
    conn.close()

    upgrade(db)

    assert rows(db, "SELECT seq, run_id FROM events ORDER BY seq") == [(7, None), (8, "run-a")]
    notnull = {name: flag for _, name, _, flag, _, _ in rows(db, "PRAGMA table_info(events)")}
    assert notnull["run_id"] == 0
    assert ("ix_events_run_id",) in rows(db, "SELECT name FROM sqlite_master WHERE type='index'")
    ws = Workspace(db.parent)
    try:
        assert [(e["seq"], e["run_id"]) for e in ws.home_events()] == [(7, None)]
    finally:
        ws.close()
