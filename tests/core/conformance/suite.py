"""The storage conformance suite: what every checkpoint/state backend must do.

Each test takes the `backend` fixture (a StorageBackend on a fresh home; see backends.py) and
works through the storage API the app uses, with real files and real processes.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent_core import RUNTIME_VERSION
from agent_core.facade.workspace import Workspace
from agent_core.storage.tables.checkpoints import Checkpoint, ResumeStatus, save_state_string
from tests.core.conformance.backends import (
    DEMO_QUESTION,
    StorageBackend,
    insert_run,
    release,
    spawn_writer,
    wait_ready,
)
from tests.support.cli import CliRunner

OLD_RUNTIME = "briefdesk-runtime/0"


def _cp(
    run_id: str,
    *,
    boundary: str = "A",
    call_id: str | None = None,
    version: str = RUNTIME_VERSION,
    digest: str | None = None,
    n: int = 0,
) -> Checkpoint:
    return Checkpoint(
        run_id=run_id,
        boundary=boundary,
        next_step=f"step {n}",
        run_state={"n": n},
        budgets={"max_turns": 50},
        runtime_version=version,
        call_id=call_id,
        state_digest=digest,
    )


def _save(backend: StorageBackend, cp: Checkpoint) -> Checkpoint:
    with backend.store.write() as conn:
        return backend.checkpoints.save(conn, cp)


# -- save / latest / resume ----------------------------------------------------------------


def test_save_numbers_checkpoints_per_run_from_one(backend: StorageBackend) -> None:
    insert_run(backend, "run-a")
    insert_run(backend, "run-b")
    with backend.store.write() as conn:
        seqs_a = [backend.checkpoints.save(conn, _cp("run-a", n=i)).sequence for i in range(3)]
        seq_b = backend.checkpoints.save(conn, _cp("run-b")).sequence
    assert seqs_a == [1, 2, 3]
    assert seq_b == 1
    assert backend.checkpoints.count("run-a") == 3


def test_latest_is_the_newest_checkpoint_of_that_run(backend: StorageBackend) -> None:
    insert_run(backend, "run-a")
    insert_run(backend, "run-b")
    _save(backend, _cp("run-a", boundary="A", call_id="c1", n=1))
    _save(backend, _cp("run-b", boundary="A", call_id="x1", n=1))
    _save(backend, _cp("run-a", boundary="B", call_id="c1", n=2))
    for i in range(5):  # many newer rows of another run must not shadow run-a's latest
        _save(backend, _cp("run-b", boundary="B", call_id=f"x{i}", n=10 + i))
    _save(backend, _cp("run-a", boundary="A", call_id="c2", n=3))

    latest_a = backend.checkpoints.latest("run-a")
    assert latest_a is not None
    assert (latest_a.sequence, latest_a.boundary, latest_a.call_id) == (3, "A", "c2")
    assert latest_a.run_state == {"n": 3}
    latest_b = backend.checkpoints.latest("run-b")
    assert latest_b is not None and (latest_b.sequence, latest_b.call_id) == (6, "x4")
    assert backend.checkpoints.latest("run-nobody") is None


def test_latest_round_trips_every_field(backend: StorageBackend) -> None:
    insert_run(backend, "run-a")
    saved = _save(
        backend,
        Checkpoint(
            run_id="run-a",
            boundary="B",
            next_step="model",
            run_state={"turns": 2, "sources_read": ["a.md", "b.md"], "nested": {"x": [1, 2]}},
            budgets={"max_turns": 7, "max_tool_calls": 9},
            runtime_version=RUNTIME_VERSION,
            confirmed=["key-1", "key-2"],
            call_id="call-9",
            state_digest="d" * 64,
        ),
    )
    got = backend.checkpoints.latest("run-a")
    assert got == saved
    assert got.created_at and got.confirmed == ["key-1", "key-2"]
    assert got.budgets == {"max_turns": 7, "max_tool_calls": 9}


def test_resume_answers_not_found_ready_and_migration_required(backend: StorageBackend) -> None:
    insert_run(backend, "run-a")
    assert backend.checkpoints.resume("run-a", RUNTIME_VERSION).status is ResumeStatus.NOT_FOUND

    with backend.store.write() as conn:
        digest = save_state_string(conn, "run-a", '{"state": 1}')
        backend.checkpoints.save(conn, _cp("run-a", digest=digest, n=1))
    ready = backend.checkpoints.resume("run-a", RUNTIME_VERSION)
    assert ready.status is ResumeStatus.READY
    assert ready.checkpoint is not None and ready.checkpoint.sequence == 1
    assert ready.state_string == '{"state": 1}'

    other = backend.checkpoints.resume("run-a", "briefdesk-runtime/99")
    assert other.status is ResumeStatus.MIGRATION_REQUIRED
    assert other.state_string is None  # old state is never handed to new code

    _save(backend, _cp("run-a", version=OLD_RUNTIME, n=2))  # the latest one decides
    assert (
        backend.checkpoints.resume("run-a", RUNTIME_VERSION).status
        is ResumeStatus.MIGRATION_REQUIRED
    )


def test_only_the_latest_run_state_is_kept(backend: StorageBackend) -> None:
    insert_run(backend, "run-a")
    for n in range(1, 4):
        with backend.store.write() as conn:
            digest = save_state_string(conn, "run-a", json.dumps({"state": n}))
            backend.checkpoints.save(conn, _cp("run-a", digest=digest, n=n))
    assert backend.scalar("SELECT count(*) FROM blobs WHERE run_id = 'run-a'") == 1
    point = backend.checkpoints.resume("run-a", RUNTIME_VERSION)
    assert point.state_string == '{"state": 3}'


# -- the agent on top of the store ----------------------------------------------------------


def _brief_results(ws: Workspace, run_id: str) -> list[dict[str, Any]]:
    return [
        e for e in ws.timeline(run_id) if e["kind"] == "tool_result" and e["tool"] == "save_brief"
    ]


def test_resumed_checkpoint_never_reruns_an_approved_tool(backend: StorageBackend) -> None:
    ws = backend.workspace()
    try:
        run = ws.start_run(DEMO_QUESTION)
        assert run["status"] == "waiting_approval", run
        (proposal,) = run["approvals"]
        assert proposal["tool"] == "save_brief"
        ws.approve(proposal["id"], reviewer="alice")
        run_id = run["run_id"]
        assert ws.resume(run_id)["status"] == "succeeded"
        brief = Path(proposal["target"])
        before = brief.stat()
        content = brief.read_bytes()

        assert ws.resume(run_id)["status"] == "succeeded"  # an ended run: nothing happens
        assert ws.resume(run_id)["status"] == "succeeded"
        # As if its process had died after the write: the run goes back to its checkpoint.
        assert (
            backend.execute("UPDATE runs SET status = 'interrupted' WHERE run_id = :r", r=run_id)
            == 1
        )
        assert ws.resume(run_id)["status"] == "succeeded"

        after = brief.stat()
        assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
        assert brief.read_bytes() == content
        assert sorted(p.name for p in brief.parent.iterdir()) == [brief.name]
        results = _brief_results(ws, run_id)
        assert [r["data"]["executed"] for r in results].count(True) == 1
        # The forced resume really went through the tool boundary and replayed the result.
        assert any(r["data"]["executed"] is False for r in results)
    finally:
        ws.close()


def _snapshot(backend: StorageBackend, run_id: str) -> dict[str, list[tuple[Any, ...]]]:
    tables = ("runs", "events", "checkpoints", "approvals", "ledger", "tool_calls")
    shot = {t: backend.rows(f"SELECT * FROM {t} WHERE run_id = :r", r=run_id) for t in tables}
    shot["blobs"] = backend.rows("SELECT digest, size FROM blobs WHERE run_id = :r", r=run_id)
    return shot


def test_checkpoint_of_another_runtime_is_refused_and_nothing_changes(
    backend: StorageBackend,
) -> None:
    ws = backend.workspace()
    try:
        run = ws.start_run(DEMO_QUESTION)
        run_id = run["run_id"]
        assert run["status"] == "waiting_approval"
        ws.approve(run["approvals"][0]["id"], reviewer="alice")
    finally:
        ws.close()
    latest = backend.checkpoints.latest(run_id)
    assert latest is not None
    backend.execute(
        "UPDATE checkpoints SET runtime_version = :v WHERE run_id = :r AND sequence = :s",
        v=OLD_RUNTIME,
        r=run_id,
        s=latest.sequence,
    )
    assert (
        backend.checkpoints.resume(run_id, RUNTIME_VERSION).status
        is ResumeStatus.MIGRATION_REQUIRED
    )
    before = _snapshot(backend, run_id)
    artifacts = sorted(p.name for p in (backend.home / "artifacts").rglob("*"))

    proc = CliRunner(backend.home)("resume", run_id)  # a real process, as a person runs it
    body = json.loads(proc.stdout)
    assert proc.code != 0
    assert body["api"] == 1 and body["error"]["code"] == "migration_required", body
    assert "Traceback" not in proc.stderr
    assert _snapshot(backend, run_id) == before
    assert sorted(p.name for p in (backend.home / "artifacts").rglob("*")) == artifacts


# -- several processes ----------------------------------------------------------------------


def test_two_processes_writing_at_once_never_meet_a_locked_database(
    backend: StorageBackend,
) -> None:
    for run_id in ("run-w1", "run-w2", "run-shared"):
        insert_run(backend, run_id)
    writers = [
        spawn_writer(backend, "counter", own, "run-shared", "300") for own in ("run-w1", "run-w2")
    ]
    for proc in writers:
        wait_ready(proc)
    for proc in writers:
        release(proc)
    outputs = [proc.communicate(timeout=120) for proc in writers]
    for proc, (out, err) in zip(writers, outputs, strict=True):
        assert proc.returncode == 0, err
        assert "locked" not in (out + err).lower()
        assert out.strip() == "done 300"
    for own in ("run-w1", "run-w2"):
        turns = [
            json.loads(r[0])["turn"]
            for r in backend.rows(
                "SELECT data_json FROM events WHERE run_id = :r ORDER BY seq", r=own
            )
        ]
        assert turns == list(range(1, 301))
    shared = json.loads(backend.scalar("SELECT state_json FROM runs WHERE run_id = 'run-shared'"))
    assert shared["counter"] == 600  # every read-modify-write was serialised: none lost
    assert backend.store.integrity_check() == "ok"


def test_writer_killed_mid_loop_leaves_a_sound_database(
    backend: StorageBackend, backend_factory: Callable[[Path], StorageBackend]
) -> None:
    insert_run(backend, "run-k")
    proc = spawn_writer(backend, "checkpoints", "run-k")
    wait_ready(proc)
    release(proc)
    assert proc.stdout is not None
    last = 0
    deadline = time.monotonic() + 60
    while last < 40 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        last = int(line)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert last >= 40, "the writer did not get going"

    backend.close()
    reopened = backend_factory(backend.home)
    try:
        assert reopened.store.integrity_check() == "ok"
        latest = reopened.checkpoints.latest("run-k")
        assert latest is not None and latest.sequence >= last
        point = reopened.checkpoints.resume("run-k", RUNTIME_VERSION)
        assert point.status is ResumeStatus.READY
        # The state blob (checksummed on read) belongs to the latest committed checkpoint.
        assert json.loads(point.state_string or "{}")["state"] == latest.run_state["n"]
        saved_events = reopened.scalar(
            "SELECT count(*) FROM events WHERE run_id = 'run-k' AND kind = 'checkpoint_saved'"
        )
        assert saved_events == latest.sequence  # each event committed with its checkpoint
    finally:
        reopened.close()


# -- reads ----------------------------------------------------------------------------------


def test_a_read_transaction_sees_one_moment_whatever_commits_meanwhile(
    backend: StorageBackend,
) -> None:
    """A view is built from several queries in one read (a run's row, then its pending
    proposals): they must not mix two moments, or a decision committed in between shows a run
    waiting for approval with nothing to approve. SQLite's read transaction is one snapshot
    from its first read; PostgreSQL's default (read committed) gives each statement its own."""
    from agent_core.storage.tables import runs as run_rows

    insert_run(backend, "run-moment", status="waiting_approval")
    # Another connection, as another process would hold it.
    other = type(backend.store)(backend.store.location)
    try:
        with backend.store.read() as conn:
            before = run_rows.get_run_row(conn, "run-moment").question
            with other.write() as elsewhere:
                row = run_rows.get_run_row(elsewhere, "run-moment")
                run_rows.update_run(elsewhere, row, replace(row, question="changed elsewhere"))
            after = run_rows.get_run_row(conn, "run-moment").question
        assert (before, after) == ("conformance", "conformance")
        with backend.store.read() as conn:  # the next read sees the commit
            assert run_rows.get_run_row(conn, "run-moment").question == "changed elsewhere"
    finally:
        other.dispose()
