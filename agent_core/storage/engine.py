"""SQLite engines: one writer path (BEGIN IMMEDIATE), one reader path, stable error codes.

Two processes (the app and `briefdesk-cli`) share one `state.db`. WAL lets readers run beside a
writer; every write transaction starts with BEGIN IMMEDIATE so a writer takes the lock up front
and waits (busy timeout) instead of failing half-way on lock upgrade. Reads use a separate
engine with deferred BEGIN so they never queue behind a writer.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from agent_core.errors import BriefDeskError, ErrorCode

BUSY_TIMEOUT_ENV = "BRIEFDESK_BUSY_TIMEOUT_MS"
DEFAULT_BUSY_TIMEOUT_MS = 10_000


def busy_timeout_from_env() -> int:
    """How long a connection waits for another process's lock before `storage_locked`.

    The override exists so drills and tests can meet a locked database in well under 10 s.
    """
    raw = os.environ.get(BUSY_TIMEOUT_ENV, "").strip()
    try:
        value = int(raw) if raw else DEFAULT_BUSY_TIMEOUT_MS
    except ValueError:
        return DEFAULT_BUSY_TIMEOUT_MS
    return value if value > 0 else DEFAULT_BUSY_TIMEOUT_MS


BUSY_TIMEOUT_MS = busy_timeout_from_env()


def _configure(dbapi_conn: Any) -> None:
    # Take transaction control away from pysqlite so BEGIN is exactly what we issue.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def make_engine(db_path: Path, *, begin: str) -> Engine:
    engine = create_engine(
        f"sqlite:///{db_path}",
        connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
        # One connection per checkout: short-lived, and never shared across threads or forks.
        poolclass=NullPool,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        _configure(dbapi_conn)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql(begin)

    return engine


def translate_db_error(exc: BaseException, db_path: Path) -> BriefDeskError | None:
    """Map an SQLite failure to a stable code; None when it is not a storage condition."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    if not isinstance(orig, sqlite3.Error):
        return None
    text = str(orig).lower()
    if "locked" in text or "busy" in text:
        return BriefDeskError(
            ErrorCode.STORAGE_LOCKED,
            f"The database {db_path} stayed locked by another process for "
            f"{BUSY_TIMEOUT_MS / 1000:g} s. Close the other BriefDesk process or try again.",
        )
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return BriefDeskError(
            ErrorCode.STORAGE_READ_ONLY,
            f"The database {db_path} cannot be written (read-only file or folder). "
            "Check its permissions or choose another --home.",
        )
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return BriefDeskError(
            ErrorCode.STORAGE_CORRUPT,
            f"The database {db_path} is damaged. A backup may exist beside it "
            "(state.db.bak-*); move the damaged file away to start fresh.",
        )
    if "disk i/o" in text or "disk is full" in text:
        return BriefDeskError(ErrorCode.STORAGE_READ_ONLY, f"Cannot write {db_path}: {orig}")
    return None


class Store:
    """The durable store of one home: a write engine and a read engine over `state.db`."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.write_engine = make_engine(db_path, begin="BEGIN IMMEDIATE")
        self.read_engine = make_engine(db_path, begin="BEGIN")

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction; everything in it commits together (state + its events)."""
        with self._translated(), self.write_engine.begin() as conn:
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self._translated(), self.read_engine.begin() as conn:
            yield conn

    @contextmanager
    def _translated(self) -> Iterator[None]:
        try:
            yield
        except (DBAPIError, sqlite3.Error) as exc:
            mapped = translate_db_error(exc, self.db_path)
            if mapped is None:
                raise
            raise mapped from None

    def integrity_check(self) -> str:
        with self.read() as conn:
            return str(conn.exec_driver_sql("PRAGMA integrity_check").scalar())

    def dispose(self) -> None:
        self.write_engine.dispose()
        self.read_engine.dispose()
