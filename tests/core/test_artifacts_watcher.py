"""The artifact watcher with a real watchdog observer, real subprocesses and a real database."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from agent_core.artifacts.confirmations import unconfirmed_writes, wait_for_confirmations
from agent_core.artifacts.panel import artifact_states
from agent_core.artifacts.sightings import Sighting
from agent_core.artifacts.watcher import ArtifactWatcher, watching
from agent_core.contract.views import EventView, RunView
from agent_core.facade.watched import drive_watched
from agent_core.facade.workspace import Workspace
from agent_core.storage.schema import artifact_sightings
from agent_core.storage.store import Store
from tests.support.cli import CliRunner, cli_env
from tests.support.typed import present
from tests.support.waiting import wait_until, within

QUESTION = "How do checkpoints make agent runs durable?"
WRITE_PLAIN = "import sys; open(sys.argv[1], 'w').write(sys.argv[2])"
# What atomic_write_nofollow does: a temp file named like ours, then os.replace onto the target.
WRITE_ATOMIC = (
    "import os, sys; d, n = os.path.split(sys.argv[1]);"
    " t = os.path.join(d, '.' + n + '.0123456789abcdef.tmp');"
    " open(t, 'w').write(sys.argv[2]); os.replace(t, sys.argv[1])"
)


@pytest.fixture
def ws(home: Path) -> Iterator[Workspace]:
    workspace = Workspace(home)
    yield workspace
    workspace.close()


def write_in_subprocess(script: str, path: Path, content: str) -> None:
    subprocess.run([sys.executable, "-c", script, str(path), content], check=True, timeout=30)


def artifact_events(ws: Workspace, kind: str | None = None) -> list[EventView]:
    return [
        e for e in ws.timeline() if e["kind"].startswith("artifact_") and kind in (None, e["kind"])
    ]


def wait_for(predicate: Callable[[], object], timeout: float = 5.0) -> None:
    wait_until(predicate, timeout=timeout, interval=0.05)


def unexpected_names(ws: Workspace) -> set[str]:
    return {Path(str(e["data"]["path"])).name for e in artifact_events(ws, "artifact_unexpected")}


def sightings(ws: Workspace) -> list[Any]:
    with ws.store.read() as conn:
        return list(conn.execute(select(artifact_sightings)).all())


def approved_run(ws: Workspace) -> RunView:
    run = ws.start_run(QUESTION)
    ws.approve(run["approvals"][0]["id"], reviewer="alice")
    return run


def test_files_dropped_by_another_process_are_flagged_unexpected(ws: Workspace) -> None:
    run_id = ws.start_run(QUESTION)["run_id"]  # waits for approval; its folder is the home's
    root = ws.home.artifacts
    with watching(ws.store, root):
        write_in_subprocess(WRITE_PLAIN, root / "dropped.txt", "not approved")
        (root / "notes").mkdir()
        write_in_subprocess(WRITE_ATOMIC, root / "notes" / "replaced.md", "# not approved either\n")
        # The sentinel: one observer delivers events in order and a later file settles no
        # sooner, so once it is sighted any wrong extra event (a temp file, a second sighting
        # of the replaced file) has been recorded too.
        write_in_subprocess(WRITE_PLAIN, root / "sentinel.txt", "last")
        wait_for(lambda: "sentinel.txt" in unexpected_names(ws))
    events = artifact_events(ws)
    assert sorted(
        (e["kind"], e["run_id"], Path(str(e["data"]["path"])).name, e["data"]["count"])
        for e in events
    ) == [
        ("artifact_unexpected", run_id, "dropped.txt", 1),
        ("artifact_unexpected", run_id, "replaced.md", 1),
        ("artifact_unexpected", run_id, "sentinel.txt", 1),
    ]
    assert {e["data"]["reason"] for e in events} == {"no_approved_write"}
    assert all(".tmp" not in row.path for row in sightings(ws))


def test_an_approved_write_is_confirmed_once_and_a_rewrite_is_a_duplicate(ws: Workspace) -> None:
    run = approved_run(ws)
    target = Path(present(run["approvals"][0]["target"]))
    with watching(ws.store, ws.home.artifacts):
        assert ws.resume(run["run_id"])["status"] == "succeeded"
        assert wait_for_confirmations(ws.store, run["run_id"], timeout=5.0)
        write_in_subprocess(
            WRITE_ATOMIC, target, target.read_text()
        )  # the same bytes, written again
        wait_for(lambda: len(artifact_events(ws)) >= 2)
    with watching(ws.store, ws.home.artifacts):  # a restart scans again and counts nothing twice
        pass
    events = artifact_events(ws)
    assert [
        (e["kind"], e["run_id"], e["data"]["path"], e["data"]["count"], e["data"]["duplicate"])
        for e in events
    ] == [
        ("artifact_confirmed", run["run_id"], str(target), 1, False),
        ("artifact_confirmed", run["run_id"], str(target), 2, True),
    ]
    [state] = artifact_states(ws.store, ws.home.artifacts)
    assert (state["relative"], state["state"], state["writes_seen"]) == (
        target.relative_to(ws.home.artifacts).as_posix(),
        "duplicate",
        2,
    )


def test_unexpected_writes_go_to_the_watchers_run_or_else_to_the_home(
    ws: Workspace, tmp_path: Path
) -> None:
    run_id = ws.start_run(QUESTION)["run_id"]
    elsewhere = tmp_path / "not-a-run-folder"
    elsewhere.mkdir()
    (elsewhere / "a.txt").write_text("a")
    ArtifactWatcher(ws.store, elsewhere).scan()
    (ws.home.artifacts / "b.txt").write_text("b")
    ArtifactWatcher(ws.store, ws.home.artifacts, run_id=run_id).scan()
    assert [(e["run_id"], Path(str(e["data"]["path"])).name) for e in artifact_events(ws)] == [
        (None, "a.txt"),
        (run_id, "b.txt"),
    ]


class _TellingWatcher(ArtifactWatcher):
    """A watcher that tells when it has tried to record a file (recorded it, or found it
    recorded already): the sentinel of "both observers have tried"."""

    def __init__(self, store: Store, root: Path, tried: Callable[[Path], None]) -> None:
        super().__init__(store, root)
        self._tried = tried

    def _observe(self, path: Path) -> Sighting | None:
        try:
            return super()._observe(path)
        finally:
            self._tried(path)


# The other process: the same watcher, printing each file it has tried to record.
OTHER_WATCHER = """
import pathlib, sys
from agent_core.artifacts.watcher import ArtifactWatcher
from agent_core.storage.migrate.home import open_store

class Telling(ArtifactWatcher):
    def _observe(self, path):
        try:
            return super()._observe(path)
        finally:
            print("tried", path.name, flush=True)

watcher = Telling(open_store(pathlib.Path(sys.argv[1])), pathlib.Path(sys.argv[2])).start()
try:
    print("ready", flush=True)
    sys.stdin.read()
finally:
    watcher.stop()
"""


def test_two_processes_watching_at_once_count_one_write_once(ws: Workspace) -> None:
    code = OTHER_WATCHER
    other = subprocess.Popen(
        [sys.executable, "-c", code, str(ws.home.db_path), str(ws.home.artifacts)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=cli_env(),
    )
    tried_here = threading.Event()
    mine = _TellingWatcher(ws.store, ws.home.artifacts, lambda _path: tried_here.set())
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "ready"
        mine.start()
        try:
            write_in_subprocess(WRITE_PLAIN, ws.home.artifacts / "both-saw-this.txt", "x")
            assert tried_here.wait(10), "this process's watcher never tried to record it"
            told: queue.Queue[str] = queue.Queue()
            stdout = other.stdout
            threading.Thread(target=lambda: told.put(stdout.readline()), daemon=True).start()
            assert told.get(timeout=10).split() == ["tried", "both-saw-this.txt"]
        finally:
            mine.stop()
    finally:
        other.communicate("", timeout=30)
    assert other.returncode == 0
    assert [(e["kind"], e["data"]["count"]) for e in artifact_events(ws)] == [
        ("artifact_unexpected", 1)
    ]
    assert len(sightings(ws)) == 1


def test_a_write_before_a_crash_is_confirmed_exactly_once(ws: Workspace, home: Path) -> None:
    run = approved_run(ws)
    target = Path(present(run["approvals"][0]["target"]))
    cli = CliRunner(home)
    crashed = cli("resume", run["run_id"], env={"BRIEFDESK_CRASH_AT": "after_write_before_confirm"})
    assert crashed.code == -signal.SIGKILL and target.exists()
    assert artifact_events(ws) == []  # nothing watched while it wrote and died
    with watching(ws.store, ws.home.artifacts):  # the start-up scan sees the orphaned write
        resumed = cli("resume", run["run_id"])
        assert resumed.code == 0 and resumed.body["status"] == "succeeded", (
            resumed.stdout + resumed.stderr
        )
        assert wait_for_confirmations(ws.store, run["run_id"], timeout=5.0)
    with watching(ws.store, ws.home.artifacts):
        pass
    events = artifact_events(ws)
    assert [(e["kind"], e["run_id"], e["data"]["path"], e["data"]["count"]) for e in events] == [
        ("artifact_confirmed", run["run_id"], str(target), 1),
    ]
    executed = [
        e
        for e in ws.timeline(run["run_id"])
        if e["kind"] == "tool_result" and e["tool"] == "save_brief"
    ]
    assert [e["data"]["executed"] for e in executed] == [True]


def test_wait_for_confirmations_is_false_until_a_watcher_has_seen_the_write(ws: Workspace) -> None:
    run = approved_run(ws)
    assert ws.resume(run["run_id"])["status"] == "succeeded"  # nobody watching
    assert wait_for_confirmations(ws.store, run["run_id"], timeout=0.3) is False
    ArtifactWatcher(ws.store, ws.home.artifacts).scan()
    assert wait_for_confirmations(ws.store, run["run_id"], timeout=0.3) is True


def test_drive_watched_confirms_the_runs_own_write_before_it_returns(ws: Workspace) -> None:
    run = approved_run(ws)
    assert drive_watched(ws, run["run_id"])["status"] == "succeeded"
    assert unconfirmed_writes(ws.store, run["run_id"]) == []
    events = artifact_events(ws)
    assert [(e["kind"], e["data"]["count"]) for e in events] == [("artifact_confirmed", 1)]
    (ws.home.artifacts / "late.txt").write_text("written after the run ended")
    assert drive_watched(ws, run["run_id"])["status"] == "succeeded"
    assert artifact_events(ws) == events  # resuming an ended run watches nothing, changes nothing


def test_a_write_is_sighted_while_more_writes_keep_arriving_beside_it(
    ws: Workspace, tmp_path: Path
) -> None:
    """A folder's own "modified" event is no reason to sight every file in it again: that
    postponed each file's sighting until the writing stopped (seconds, for a busy run)."""
    root = tmp_path / "busy-artifacts"
    folder = root / "briefs"
    folder.mkdir(parents=True)
    run_id = ws.start_run("busy folder", artifacts=str(root))["run_id"]
    first = folder / "first.md"
    with watching(ws.store, root, run_id=run_id):
        first.write_text("stray\n")
        sighted_while_writing = False
        for i in range(200):  # a steady stream of files beside it, one every 25 ms (5 s at most)
            (folder / f"next-{i:03d}.md").write_text(f"{i}\n")
            if within(lambda: "first.md" in unexpected_names(ws), timeout=0.025, interval=0.025):
                sighted_while_writing = True
                break
    assert sighted_while_writing, "the first file was sighted only after the writes stopped"
