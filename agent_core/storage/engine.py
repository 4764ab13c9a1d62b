"""Store engines: one writer path, one reader path, stable error codes.

SQLite (the home's `state.db`) is described below; a team's PostgreSQL database gets the same
Store with engines from `storage/postgres.py` (its writers queue on an advisory lock, the
equivalent of BEGIN IMMEDIATE, so both backends commit events in `seq` order).

Two processes (the app and `briefdesk-cli`) share one `state.db`. WAL lets readers run beside a
writer; every write transaction starts with BEGIN IMMEDIATE so a writer takes the lock up front
and waits (busy timeout) instead of failing half-way on lock upgrade. Reads use a separate
engine with deferred BEGIN so they never queue behind a writer.

Connections are pooled: opening one and running its PRAGMAs cost about two thirds of a whole
checkpoint when every transaction did it. A pooled connection is used by one thread at a time
(a checkout is exclusive), and never across `fork`: the child drops the pool it inherited
without closing the parent's connections, and a connection made by another pid is refused at
checkout (SQLAlchemy's documented recipe for multiprocessing).
"""

from __future__ import annotations

import logging
import os
import select
import sqlite3
import threading
import uuid
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.pool import ConnectionPoolEntry, QueuePool

from agent_core.contract.errors import BriefDeskError, ErrorCode, storage_full
from agent_core.contract.events import Event
from agent_core.storage.location import StoreKind, StoreLocation, sqlite_location

log = logging.getLogger(__name__)

# Where a write transaction collects the events it appends, announced once it commits.
NEW_EVENTS = "briefdesk.new_events"
# The runs a write transaction wrote (team mode, storage/changes.py): other desks hear of them
# through PostgreSQL's NOTIFY, with the runs its events name.
CHANGED_RUNS = "briefdesk.changed_runs"

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


# What a forked child inherited (pools, held connections): kept referenced and never used, so
# nothing in the child closes or rolls back a connection that its parent still uses.
_INHERITED: list[object] = []
_STORES: weakref.WeakSet[Store] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for store in list(_STORES):
        store.forget_inherited_connections()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def make_engine(db_path: Path, *, begin: str) -> Engine:
    engine = create_engine(
        f"sqlite:///{db_path}",
        connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
        # Open once, configured once; one thread at a time per connection (see module doc).
        poolclass=QueuePool,
        pool_size=8,
        max_overflow=24,
        pool_reset_on_return=None,  # every use ends in our own COMMIT or ROLLBACK
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, record: ConnectionPoolEntry) -> None:
        _configure(dbapi_conn)
        record.info["pid"] = os.getpid()

    @event.listens_for(engine, "checkout")
    def _on_checkout(_dbapi_conn: Any, record: ConnectionPoolEntry, proxy: Any) -> None:
        if record.info.get("pid") != os.getpid():
            # Made by the process we were forked from: never touch it, open our own.
            _INHERITED.append(record.dbapi_connection)
            record.dbapi_connection = proxy.dbapi_connection = None  # type: ignore[misc]
            raise DisconnectionError("connection made by another process")

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # On the driver: SQLAlchemy's statement path cost more than the BEGIN itself. Its
        # error is the driver's own, which Store maps and recovers from like any other.
        conn.connection.driver_connection.execute(begin)  # type: ignore[union-attr]

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
    if "disk i/o" in text:
        return BriefDeskError(ErrorCode.STORAGE_READ_ONLY, f"Cannot write {db_path}: {orig}")
    return None


def _is_driver_error(exc: BaseException) -> bool:
    """A psycopg error raised on the driver itself (the prepared hot path, a dropped server)."""
    module = type(exc).__module__
    return module.startswith("psycopg") and isinstance(exc, Exception)


class Store:
    """The durable store of one home: a write engine and a read engine over `state.db`, or
    over a team's PostgreSQL database (`location`).

    Each thread keeps one write and one read connection checked out between transactions
    (a transaction on a held connection costs half of a pool checkout); a nested transaction
    on the same thread, which is rare, takes another connection from the pool.
    """

    def __init__(self, where: Path | StoreLocation) -> None:
        self.origin = uuid.uuid4().hex[:16]  # names this Store's commits in team notices
        self.location = where if isinstance(where, StoreLocation) else sqlite_location(where)
        self.kind = self.location.kind
        if self.kind is StoreKind.POSTGRESQL:
            from agent_core.storage import postgres

            self.db_path = Path(self.location.shown)  # for messages only: there is no file
            self.write_engine = postgres.make_engine(self.location, writer=True)
            self.read_engine = postgres.make_engine(self.location, writer=False)
            self._translate: Callable[[BaseException], BriefDeskError | None] = lambda exc: (
                postgres.translate_error(exc, self.location)
            )
            # Other desks' windows hear of each commit (NOTIFY is delivered at commit only).
            self._before_commit: Callable[[Connection], None] | None = lambda conn: (
                postgres.notify_changes(conn, self.origin)
            )
        else:
            self.db_path = Path(str(self.location.db_path))
            self.write_engine = make_engine(self.db_path, begin="BEGIN IMMEDIATE")
            self.read_engine = make_engine(self.db_path, begin="BEGIN")
            self._translate = lambda exc: translate_db_error(exc, self.db_path)
            self._before_commit = None  # one machine: other processes poll the events table
        # SQLite's file does not go away between transactions; a server may.
        self._check_held = self.kind is StoreKind.POSTGRESQL
        self._held = threading.local()
        self._pid = os.getpid()
        # Writers of this process queue here, not in SQLite's busy handler: it sleeps in steps
        # of up to 100 ms, so a thread that writes now and then (the artifact watcher) starved
        # behind a run that commits every few milliseconds. Other processes still meet the
        # busy timeout.
        self._write_lock = threading.RLock()
        self._followers: list[Callable[[list[Event]], None]] = []
        _STORES.add(self)

    def follow_events(self, follower: Callable[[list[Event]], None]) -> Callable[[], None]:
        """Call `follower` with the events of each write transaction of this process, once it
        has committed, on the committing thread (the window needs no poll for its own events).
        Returns the function that stops following."""
        self._followers.append(follower)
        return lambda: self._followers.remove(follower) if follower in self._followers else None

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction; everything in it commits together (state + its events)."""
        with (
            self._write_lock,
            self._translated(),
            self._transaction(self.write_engine, "writer") as conn,
        ):
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self._translated(), self._transaction(self.read_engine, "reader") as conn:
            yield conn

    @contextmanager
    def _transaction(self, engine: Engine, slot: str) -> Iterator[Connection]:
        held = self._held_connection(engine, slot)
        if held.in_transaction():  # nested on this thread: a connection of its own
            with engine.begin() as conn:
                conn.info[NEW_EVENTS], conn.info[CHANGED_RUNS] = [], set()
                try:
                    yield conn
                    self._committing(conn)
                except BaseException:
                    conn.info.pop(NEW_EVENTS, None)
                    raise
                finally:
                    conn.info.pop(CHANGED_RUNS, None)
            self._announce(conn.info.pop(NEW_EVENTS, None))
            return
        try:
            with held.begin():
                held.info[NEW_EVENTS], held.info[CHANGED_RUNS] = [], set()
                yield held
                self._committing(held)
        except BaseException as exc:
            held.info.pop(NEW_EVENTS, None)
            held.info.pop(CHANGED_RUNS, None)
            if isinstance(exc, (DBAPIError, sqlite3.Error)) or _is_driver_error(exc):
                # The database failed, not the caller: start the next transaction afresh. A
                # refusal raised inside (approval_already_resolved, ...) only rolled back.
                setattr(self._held, slot, None)
                held.invalidate()  # not back into the pool: the next one is opened anew
                held.close()
            raise
        held.info.pop(CHANGED_RUNS, None)
        self._announce(held.info.pop(NEW_EVENTS, None))

    def _committing(self, conn: Connection) -> None:
        """Last statement of a transaction that is about to commit (its body did not raise)."""
        if self._before_commit is not None and (conn.info[NEW_EVENTS] or conn.info[CHANGED_RUNS]):
            self._before_commit(conn)

    def _announce(self, events: list[Event] | None) -> None:
        if not events:
            return
        for follower in list(self._followers):
            try:
                follower(events)
            except Exception:  # a follower's failure is its own; the commit stands
                log.exception("an events follower failed")

    def _held_connection(self, engine: Engine, slot: str) -> Connection:
        if os.getpid() != self._pid:
            self.forget_inherited_connections()
        conn: Connection | None = getattr(self._held, slot, None)
        if conn is not None and not conn.closed and self._gone_quiet(conn, engine):
            setattr(self._held, slot, None)
            conn.invalidate()  # the server dropped it: never back into the pool
            conn.close()
            conn = None
        if conn is None or conn.closed:
            conn = engine.connect()
            setattr(self._held, slot, conn)
        return conn

    def _gone_quiet(self, conn: Connection, engine: Engine) -> bool:
        """True when the server closed a held connection while it was idle (a restart, an
        administrator), so the next transaction opens a new one instead of failing: what the
        pool's pre-ping does at checkout, which a held connection does not go through again.

        Between transactions the server has nothing to say to us; if the socket is readable
        it said goodbye (or closed it), and only then is a real ping worth its round trip.
        """
        if not self._check_held or conn.in_transaction():
            return False
        try:
            dbapi = conn.connection.dbapi_connection
            if dbapi is None:
                return True
            readable, _, _ = select.select([dbapi.fileno()], [], [], 0)  # type: ignore[attr-defined]
            return bool(readable) and not engine.dialect.do_ping(dbapi)
        except Exception:  # the ping failed, or the socket is gone: a new connection
            return True

    def forget_inherited_connections(self) -> None:
        """In a forked child: never use (or close) what the parent holds; open our own."""
        _INHERITED.append((self._held, self.write_engine.pool, self.read_engine.pool))
        self._held = threading.local()
        self._write_lock = threading.RLock()  # the parent's may be held by a thread not here
        self.write_engine.pool = self.write_engine.pool.recreate()
        self.read_engine.pool = self.read_engine.pool.recreate()
        self._pid = os.getpid()
        self.origin = uuid.uuid4().hex[:16]  # the parent's listener must hear our commits

    @contextmanager
    def _translated(self) -> Iterator[None]:
        try:
            yield
        except Exception as exc:
            if not (isinstance(exc, (DBAPIError, sqlite3.Error)) or _is_driver_error(exc)):
                raise
            mapped = self._translate(exc)
            if mapped is None:
                raise
            raise mapped from None

    def integrity_check(self) -> str:
        """ "ok" when the database is sound (PostgreSQL checks its pages itself)."""
        if self.kind is StoreKind.POSTGRESQL:
            with self.read() as conn:
                conn.exec_driver_sql("SELECT 1")
            return "ok"
        with self.read() as conn:
            return str(conn.exec_driver_sql("PRAGMA integrity_check").scalar())

    def dispose(self) -> None:
        for slot in ("writer", "reader"):  # this thread's; other threads' return as they end
            conn: Connection | None = getattr(self._held, slot, None)
            if conn is not None:
                setattr(self._held, slot, None)
                conn.close()
        self.write_engine.dispose()
        self.read_engine.dispose()
