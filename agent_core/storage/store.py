"""The durable store: one writer path, one reader path, stable error codes.

`Store` is what every backend shares; `storage/sqlite.py` (a home's `state.db`) and
`storage/postgres.py` (a team's database) subclass it with their engines, their error mapping
and what a commit tells others. Writers of both backends take the database's write lock as the
transaction begins (SQLite's BEGIN IMMEDIATE, PostgreSQL's advisory lock), so events commit in
`seq` order.

Each thread keeps one write and one read connection checked out between transactions (a
transaction on a held connection costs half of a pool checkout); a nested transaction on the
same thread, which is rare, takes another connection from the pool. A pooled connection is used
by one thread at a time, and never across `fork`: the child drops the pool it inherited without
closing the parent's connections, and a connection made by another pid is refused at checkout
(SQLAlchemy's documented recipe for multiprocessing).
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, event
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

from agent_core.contract.errors import BriefDeskError
from agent_core.contract.events import Event
from agent_core.storage.location import StoreKind, StoreLocation

log = logging.getLogger(__name__)

# Where a write transaction collects the events it appends, announced once it commits.
NEW_EVENTS = "briefdesk.new_events"
# The runs a write transaction wrote (team mode, storage/team/changes.py): other desks hear of
# them through PostgreSQL's NOTIFY, with the runs its events name.
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

# What a forked child inherited (pools, held connections): kept referenced and never used, so
# nothing in the child closes or rolls back a connection that its parent still uses.
_INHERITED: list[object] = []
_STORES: weakref.WeakSet[Store] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for store in list(_STORES):
        store.forget_inherited_connections()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def refuse_inherited_connections(engine: Engine) -> None:
    """Hook `engine`'s pool so a connection opened by the process we were forked from is never
    handed out (nor closed) here: the pool opens one of our own instead."""

    @event.listens_for(engine, "connect")
    def _on_connect(_dbapi_conn: object, record: ConnectionPoolEntry) -> None:
        record.info["pid"] = os.getpid()

    @event.listens_for(engine, "checkout")
    def _on_checkout(
        _dbapi_conn: object, record: ConnectionPoolEntry, proxy: PoolProxiedConnection
    ) -> None:
        if record.info.get("pid") != os.getpid():
            _INHERITED.append(record.dbapi_connection)
            # SQLAlchemy's documented recipe; its stubs declare the attribute read-only.
            record.dbapi_connection = proxy.dbapi_connection = None  # type: ignore[misc]
            raise DisconnectionError("connection made by another process")


class Store(ABC):
    """The durable store of one home (`SqliteStore`) or of a team (`PostgresStore`)."""

    kind: StoreKind
    db_path: Path
    """The database file; for PostgreSQL the shown URL, for messages only."""

    def __init__(
        self,
        location: StoreLocation,
        *,
        write_engine: Engine,
        read_engine: Engine,
        check_held: bool,
    ) -> None:
        self.origin = uuid.uuid4().hex[:16]  # names this Store's commits in team notices
        self.location = location
        self.kind = location.kind
        self.write_engine = write_engine
        self.read_engine = read_engine
        # Whether a held connection may have been dropped between transactions (a server may
        # go away; SQLite's file does not).
        self._check_held = check_held
        self._held = threading.local()
        self._pid = os.getpid()
        # Writers of this process queue here, not in SQLite's busy handler: it sleeps in steps
        # of up to 100 ms, so a thread that writes now and then (the artifact watcher) starved
        # behind a run that commits every few milliseconds. Other processes still meet the
        # busy timeout.
        self._write_lock = threading.RLock()
        self._followers: list[Callable[[list[Event]], None]] = []
        _STORES.add(self)

    # What each backend says for itself.

    @abstractmethod
    def translate_error(self, exc: BaseException) -> BriefDeskError | None:
        """The stable code of a database failure; None when it is not a storage condition."""

    @abstractmethod
    def is_driver_error(self, exc: BaseException) -> bool:
        """An error raised by the backend's driver itself (outside SQLAlchemy's wrapping)."""

    @abstractmethod
    def integrity_check(self) -> str:
        """ "ok" when the database is sound."""

    def before_commit(self, conn: Connection) -> None:  # noqa: B027 - most backends need none
        """Last statement of a write transaction that changed something (default: none)."""

    def _gone_quiet(self, conn: Connection, engine: Engine) -> bool:
        """True when a held connection was dropped while idle (only a server drops them)."""
        return False

    # The shared paths.

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

    def _is_database_error(self, exc: BaseException) -> bool:
        return isinstance(exc, DBAPIError) or self.is_driver_error(exc)

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
            if self._is_database_error(exc):
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
        if conn.info[NEW_EVENTS] or conn.info[CHANGED_RUNS]:
            self.before_commit(conn)

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
        if (
            conn is not None
            and not conn.closed
            and self._check_held
            and not conn.in_transaction()
            and self._gone_quiet(conn, engine)
        ):
            setattr(self._held, slot, None)
            conn.invalidate()  # the server dropped it: never back into the pool
            conn.close()
            conn = None
        if conn is None or conn.closed:
            conn = engine.connect()
            setattr(self._held, slot, conn)
        return conn

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
            if not self._is_database_error(exc):
                raise
            mapped = self.translate_error(exc)
            if mapped is None:
                raise
            raise mapped from None

    def dispose(self) -> None:
        for slot in ("writer", "reader"):  # this thread's; other threads' return as they end
            conn: Connection | None = getattr(self._held, slot, None)
            if conn is not None:
                setattr(self._held, slot, None)
                conn.close()
        self.write_engine.dispose()
        self.read_engine.dispose()
