"""Retention: `runs delete` removes a finished run with everything it owns (audit stays); a run
that has not finished is refused; shared blobs outlive one run; logs rotate."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from agent_core.facade.workspace import Workspace
from agent_core.home import logs
from agent_core.storage.tables.blobs import get_blob
from tests.core.conformance.backends import DEMO_QUESTION, REPO_ROOT
from tests.support.cli import CliRunner

FIXTURES = REPO_ROOT / "tests" / "fixtures"
RUN_TABLES = (
    "runs",
    "checkpoints",
    "events",
    "blobs",
    "approvals",
    "ledger",
    "tool_calls",
    "session_items",
)


def _counts(db: Path, run_id: str) -> dict[str, int]:
    conn = sqlite3.connect(db)
    try:
        return {
            t: conn.execute(f"SELECT count(*) FROM {t} WHERE run_id = ?", (run_id,)).fetchone()[0]
            for t in (*RUN_TABLES, "audit")
        }
    finally:
        conn.close()


def _two_runs(home: Path) -> tuple[str, str]:
    """A finished demo run (approved, written, succeeded) and one still waiting for approval."""
    ws = Workspace(home)
    try:
        done = ws.start_run(DEMO_QUESTION)
        ws.approve(done["approvals"][0]["id"], reviewer="alice", reason="fine")
        assert ws.resume(done["run_id"])["status"] == "succeeded"
        waiting = ws.start_run("What are idempotency keys?")
        assert waiting["status"] == "waiting_approval"
        return done["run_id"], waiting["run_id"]
    finally:
        ws.close()


def test_runs_delete_removes_a_finished_run_and_keeps_its_audit(home: Path, cli: CliRunner) -> None:
    done, waiting = _two_runs(home)
    db = home / "state.db"
    before = _counts(db, done)
    assert all(before[t] > 0 for t in RUN_TABLES), before  # the run really owned rows in each
    assert before["audit"] > 0
    other_before = _counts(db, waiting)

    result = cli("runs", "delete", done)
    assert result.code == 0, result.stdout + result.stderr
    assert result.body == {"api": 1, "deleted": done}

    after = _counts(db, done)
    assert {t: after[t] for t in RUN_TABLES} == dict.fromkeys(RUN_TABLES, 0)
    assert after["audit"] == before["audit"]  # who decided what outlives the run
    assert _counts(db, waiting) == other_before
    assert [r["run_id"] for r in cli("runs").body["runs"]] == [waiting]
    assert cli("timeline", done).body["error"]["code"] == "not_found"


def test_deleting_an_unfinished_run_is_refused_and_changes_nothing(
    home: Path, cli: CliRunner
) -> None:
    _, waiting = _two_runs(home)
    before = _counts(home / "state.db", waiting)
    result = cli("runs", "delete", waiting)
    assert result.code != 0
    assert result.body["error"]["code"] == "run_not_finished"
    assert "Traceback" not in result.stderr
    assert _counts(home / "state.db", waiting) == before


def _ledger_blob(ws: Workspace, run_id: str) -> str:
    import json

    with ws.store.read() as conn:
        (raw,) = conn.exec_driver_sql(
            "SELECT result_json FROM ledger WHERE run_id = ? AND tool = 'read_document'", (run_id,)
        ).one()
    return str(json.loads(raw)["blob"])


def test_deleting_a_run_keeps_a_blob_another_run_still_uses(home: Path) -> None:
    script = FIXTURES / "scripts" / "read_long_report.json"
    corpus = FIXTURES / "corpus_long"
    ws = Workspace(home)
    try:
        first, second = (
            ws.create_run("Read the long report.", model=f"scripted:{script}", corpus=corpus)
            for _ in range(2)
        )
        for run_id in (first, second):
            assert ws.drive(run_id)["status"] == "succeeded"
        digest = _ledger_blob(ws, first)
        assert _ledger_blob(ws, second) == digest  # identical bodies share one blob

        ws.delete_run(first)
        with ws.store.read() as conn:
            body = get_blob(conn, digest).decode()  # still there, still verified
        assert "Section 40" in body

        ws.delete_run(second)
        with ws.store.read() as conn:
            left = conn.exec_driver_sql(
                "SELECT count(*) FROM blobs WHERE digest = ?", (digest,)
            ).scalar()
        assert left == 0  # and gone with the last run that used it
    finally:
        ws.close()


def test_logs_rotate_at_one_megabyte_keeping_five_files(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    handler = logs.configure_logging(folder)
    try:
        assert logs.configure_logging(folder) is handler  # idempotent: one handler per folder
        assert logging.getLogger().handlers.count(handler) == 1
        log = logging.getLogger("agent_core.retention_test")
        key = "sk-" + "A1b2C3d4" * 5
        line = "x" * 1900
        for i in range(3_800):  # about 7 MB: more than the six files can hold
            if i % 500 == 0:
                log.warning("provider call with key %s failed", key)
            else:
                log.info("step %d %s", i, line)
        handler.flush()
    finally:
        logs.shutdown_logging()
    assert handler not in logging.getLogger().handlers
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["briefdesk.log", *(f"briefdesk.log.{n}" for n in range(1, 6))]
    for name in files:
        assert (folder / name).stat().st_size <= logs.MAX_BYTES
    text = "".join((folder / n).read_text() for n in files)
    assert key not in text  # redacted before it was written
    assert "[REDACTED]" in text
