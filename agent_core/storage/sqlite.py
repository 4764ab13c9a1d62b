"""The SQLite backend: a home's `state.db`, and its failures as stable codes.

Two processes (the app and `briefdesk-cli`) share one `state.db`. WAL lets readers run beside a
writer; every write transaction starts with BEGIN IMMEDIATE so a writer takes the lock up front
and waits (busy timeout) instead of failing half-way on lock upgrade. Reads use a separate
engine with deferred BEGIN so they never queue behind a writer.

Connections are pooled: opening one and running its PRAGMAs cost about two thirds of a whole
checkpoint when every transaction did it. Other processes on the machine learn of commits by
polling the events table, so a commit tells no one (`Store.before_commit` stays empty).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import ConnectionPoolEntry, QueuePool

from agent_core.contract.errors import BriefDeskError, ErrorCode, storage_full
from agent_core.storage import store
from agent_core.storage.location import StoreLocation, sqlite_location


def _configure(dbapi_conn: sqlite3.Connection) -> None:
    # Take transaction control away from pysqlite so BEGIN is exactly what we issue.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout={store.BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def make_engine(db_path: Path, *, begin: str) -> Engine:
    engine = create_engine(
        f"sqlite:///{db_path}",
        connect_args={"check_same_thread": False, "timeout": store.BUSY_TIMEOUT_MS / 1000},
        # Open once, configured once; one thread at a time per connection (see store.py).
        poolclass=QueuePool,
        pool_size=8,
        max_overflow=24,
        pool_reset_on_return=None,  # every use ends in our own COMMIT or ROLLBACK
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
        _configure(dbapi_conn)

    store.refuse_inherited_connections(engine)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # On the driver: SQLAlchemy's statement path cost more than the BEGIN itself. Its
        # error is the driver's own, which Store maps and recovers from like any other.
        driver = conn.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        driver.execute(begin)

    return engine


def translate_db_error(exc: BaseException, db_path: Path) -> BriefDeskError | None:
    """Map an SQLite failure to a stable code; None when it is not a storage condition."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    if not isinstance(orig, sqlite3.Error):
        return None
    if db_path.is_dir():  # SQLite says only "disk I/O error" (or "unable to open")
        return BriefDeskError(
            ErrorCode.STORAGE_CORRUPT,
            f"{db_path} is a folder, not a database. Move or rename that folder so BriefDesk "
            "can create its database there; the folder was left as it is.",
        )
    text = str(orig).lower()
    if getattr(orig, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in text:
        # Retryable: the failed transaction rolled back whole; once space is freed, `resume`
        # continues the run from its latest checkpoint.
        return storage_full(
            f"The disk holding the BriefDesk database folder {db_path.parent} is full, so "
            "BriefDesk could not save its progress. Free some space there, then resume the run."
        )
    if "locked" in text or "busy" in text:
        return BriefDeskError(
            ErrorCode.STORAGE_LOCKED,
            f"The database {db_path} stayed locked by another process for "
            f"{store.BUSY_TIMEOUT_MS / 1000:g} s. Close the other BriefDesk process or try again.",
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
    if "disk i/o" in text:
        return BriefDeskError(ErrorCode.STORAGE_READ_ONLY, f"Cannot write {db_path}: {orig}")
    return None


class SqliteStore(store.Store):
    """The store of one home: a write engine and a read engine over its `state.db`."""

    def __init__(self, where: Path | StoreLocation) -> None:
        location = where if isinstance(where, StoreLocation) else sqlite_location(where)
        self.db_path = Path(str(location.db_path))
        super().__init__(
            location,
            write_engine=make_engine(self.db_path, begin="BEGIN IMMEDIATE"),
            read_engine=make_engine(self.db_path, begin="BEGIN"),
            check_held=False,  # the file does not go away between transactions
        )

    def translate_error(self, exc: BaseException) -> BriefDeskError | None:
        return translate_db_error(exc, self.db_path)

    def is_driver_error(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.Error)

    def integrity_check(self) -> str:
        with self.read() as conn:
            return str(conn.exec_driver_sql("PRAGMA integrity_check").scalar())
