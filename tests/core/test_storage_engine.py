"""The SQLite engines: WAL, synchronous=FULL, busy timeout; BEGIN IMMEDIATE writes, separate reads;
an event commits in the same transaction as the state change it reports."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import text

from agent_core.contract.events import EventKind
from agent_core.contract.statuses import RunStatus
from agent_core.storage import store as store_module
from agent_core.storage.migrate.home import open_store
from agent_core.storage.store import Store
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.timeline import append_event
from tests.core.conformance.backends import insert_run, sqlite_backend

SYNCHRONOUS_FULL = 2


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "state.db")
    yield opened
    opened.dispose()


def _other(db: Path, timeout: float = 0.0) -> sqlite3.Connection:
    """A second, independent connection, as another process would hold it."""
    return sqlite3.connect(db, timeout=timeout, isolation_level=None)


def test_both_engines_use_wal_full_sync_and_a_busy_timeout(store: Store) -> None:
    assert store.write_engine is not store.read_engine
    for eng in (store.write_engine, store.read_engine):
        with eng.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == SYNCHRONOUS_FULL
            busy = conn.exec_driver_sql("PRAGMA busy_timeout").scalar()
            assert busy == store_module.BUSY_TIMEOUT_MS > 0
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    # WAL is a property of the file: a plain connection sees it too.
    other = _other(store.db_path)
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other.close()


def test_busy_timeout_can_be_lowered_through_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(store_module.BUSY_TIMEOUT_ENV, "250")
    assert store_module.busy_timeout_from_env() == 250
    for bad in ("", "soon", "0", "-5"):
        monkeypatch.setenv(store_module.BUSY_TIMEOUT_ENV, bad)
        assert store_module.busy_timeout_from_env() == store_module.DEFAULT_BUSY_TIMEOUT_MS


def test_a_write_transaction_takes_the_write_lock_at_begin(store: Store) -> None:
    other = _other(store.db_path)
    try:
        # Nothing written yet, and still no other writer may start: BEGIN IMMEDIATE.
        with store.write(), pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")  # released at commit
        other.execute("ROLLBACK")
    finally:
        other.close()


def test_reads_take_no_write_lock_and_never_wait_for_a_writer(tmp_path: Path) -> None:
    backend = sqlite_backend(tmp_path / "home")
    insert_run(backend, "run-r")
    db = backend.store.db_path
    try:
        with backend.store.read() as conn:
            first = conn.execute(text("SELECT status FROM runs WHERE run_id='run-r'")).scalar()
            writer = _other(db)
            writer.execute("BEGIN IMMEDIATE")  # would fail at once if the reader held a lock
            writer.execute("UPDATE runs SET status='cancelled' WHERE run_id='run-r'")
            started = time.monotonic()
            again = conn.execute(text("SELECT status FROM runs WHERE run_id='run-r'")).scalar()
            assert time.monotonic() - started < 1.0
            assert again == first == "interrupted"  # the reader's snapshot
            writer.execute("COMMIT")
            writer.close()
        # A reader that starts while another process holds the write lock does not queue.
        blocker = _other(db)
        blocker.execute("BEGIN IMMEDIATE")
        blocker.execute("UPDATE runs SET status='failed' WHERE run_id='run-r'")
        started = time.monotonic()
        with backend.store.read() as conn:
            seen = conn.execute(text("SELECT status FROM runs WHERE run_id='run-r'")).scalar()
        assert time.monotonic() - started < 1.0
        assert seen == "cancelled"
        blocker.execute("ROLLBACK")
        blocker.close()
    finally:
        backend.close()


def _event_count(backend_store: Store, run_id: str) -> int:
    with backend_store.read() as conn:
        return int(
            conn.execute(
                text("SELECT count(*) FROM events WHERE run_id=:r"), {"r": run_id}
            ).scalar_one()
        )


def test_an_event_commits_with_the_state_change_it_reports(tmp_path: Path) -> None:
    backend = sqlite_backend(tmp_path / "home")
    insert_run(backend, "run-t")
    try:
        with pytest.raises(RuntimeError, match="crash between"), backend.store.write() as conn:
            append_event(conn, "run-t", EventKind.RUN_FINISHED, data={"status": "succeeded"})
            row = run_rows.get_run_row(conn, "run-t")  # interrupted
            done = replace(row, state_json=json.dumps({"next_step": "done"}))
            run_rows.move_status(conn, row, done, target=RunStatus.SUCCEEDED)
            raise RuntimeError("crash between the change and the commit")
        assert _event_count(backend.store, "run-t") == 0
        assert backend.scalar("SELECT status FROM runs WHERE run_id='run-t'") == "interrupted"

        with backend.store.write() as conn:  # the same transaction, completed
            append_event(conn, "run-t", EventKind.RUN_FINISHED, data={"status": "succeeded"})
            row = run_rows.get_run_row(conn, "run-t")
            run_rows.move_status(conn, row, row, target=RunStatus.SUCCEEDED)
        assert _event_count(backend.store, "run-t") == 1
        assert backend.scalar("SELECT status FROM runs WHERE run_id='run-t'") == "succeeded"
    finally:
        backend.close()
