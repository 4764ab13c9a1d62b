"""PostgreSQL engines for team mode (psycopg 3), and its failures as stable codes.

Writers queue on one transaction-level advisory lock, taken as each write transaction begins:
the equivalent of SQLite's BEGIN IMMEDIATE. Every write of the team then commits in the order
it began, so an event's `seq` (a sequence) is committed in increasing order and a follower that
reads `seq > last` never skips one that commits late; conditional updates (the first reviewer
wins) behave exactly as on SQLite. Reads take no lock.

Each write transaction that changed something ends with one `pg_notify` (`notify_changes`):
NOTIFY is delivered at commit only, in commit order, so other desks' listeners
(storage/listen.py) hear of exactly the commits that happened.

An unreachable server, a refused login or a dropped connection is `storage_unavailable`, with
the host and what to check. A connection the server dropped is never handed out again.
"""

from __future__ import annotations

import select
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import QueuePool

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.home.secrets import REDACTOR
from agent_core.storage import schema, store
from agent_core.storage.location import StoreLocation
from agent_core.storage.team import changes

if TYPE_CHECKING:
    import psycopg

schema.add_postgresql_options()  # the tables as PostgreSQL's dialect (loaded here) spells them

# pg_advisory_xact_lock keys: "BDW1" (one writer at a time), "BDM1" (migrations).
WRITER_LOCK_KEY = 0x42445731
MIGRATION_LOCK_KEY = 0x42444D31
CONNECT_TIMEOUT_S = 5
IDLE_IN_TRANSACTION_MS = 15_000


def connect_args() -> dict[str, str | int]:
    """libpq options: answer fast when the server is away, notice a dead connection, and wait
    for a lock as long as SQLite's busy timeout before `storage_locked`."""
    return {
        "connect_timeout": CONNECT_TIMEOUT_S,
        "keepalives": 1,
        "keepalives_idle": 5,
        "keepalives_interval": 2,
        "keepalives_count": 3,
        "application_name": "briefdesk",
        # A desk frozen or cut off mid-transaction would hold the team's writer lock: the
        # server ends such a session after IDLE_IN_TRANSACTION_MS (ours last milliseconds).
        "options": f"-c lock_timeout={store.BUSY_TIMEOUT_MS} "
        f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}",
    }


def make_engine(location: StoreLocation, *, writer: bool) -> Engine:
    engine = create_engine(
        location.url,
        connect_args=connect_args(),
        poolclass=QueuePool,
        pool_size=4,
        max_overflow=8,
        pool_pre_ping=True,  # a server restart leaves dead sockets in the pool
        # INSERT ... ON CONFLICT DO NOTHING tells "first" by its rowcount, which SQLAlchemy
        # keeps for psycopg only when asked.
        execution_options={"preserve_rowcount": True},
        # A read is one snapshot, as SQLite's read transaction is: a view built from several
        # queries never mixes two moments. Writers stay READ COMMITTED: each statement then
        # sees every commit made before the writer lock was granted.
        isolation_level="READ COMMITTED" if writer else "REPEATABLE READ",
    )

    store.refuse_inherited_connections(engine)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: psycopg.Connection[object], _record: object) -> None:
        # The password libpq logged in with, wherever it found it (the URL, PGPASSWORD, a
        # passfile): a secret BriefDesk holds, so it is masked by value at every door.
        REDACTOR.add(dbapi_conn.info.password)

    if writer:

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            driver = conn.connection.driver_connection
            assert driver is not None  # a connection that is beginning is open
            driver.execute("SELECT pg_advisory_xact_lock(%s)", (WRITER_LOCK_KEY,))

        @event.listens_for(engine, "before_execute")
        def _on_execute(
            conn: Connection,
            statement: object,
            multiparams: object,
            params: Mapping[str, object],
            _options: object,
        ) -> None:
            # Whoever writes `runs`, the commit's notice names the run (see storage/changes.py).
            changes.note_runs_statement(conn, statement, multiparams, params)

    return engine


def notify_changes(conn: Connection, origin: str) -> None:
    """The transaction's last statement: tell the other desks what it changed (delivered at
    its commit; nothing if it rolls back). On the driver, as the writer lock is taken.
    `origin`: the committing Store's token (its own listener knows of it already)."""
    payload = changes.payload_of(conn, origin)
    if payload is not None:
        driver = conn.connection.driver_connection
        assert driver is not None  # inside the committing transaction: open
        driver.execute("SELECT pg_notify(%s, %s)", (changes.CHANNEL, payload))


# SQLSTATE classes and codes (PostgreSQL appendix A).
_UNAVAILABLE_CLASSES = ("08", "57", "53")  # connection, operator intervention, resources
_LOGIN_REFUSED = ("28000", "28P01", "3D000")  # bad role/auth, bad password, no such database
_NOT_AUTHORIZED = "42501"  # insufficient_privilege (a grant, a row policy)
_LOCKED = ("55P03", "40P01", "57014")  # lock_not_available, deadlock, query_canceled (timeout)
_DISK_FULL = "53100"


def translate_error(exc: BaseException, location: StoreLocation) -> BriefDeskError | None:
    """Map a PostgreSQL failure to a stable code; None when it is not a storage condition."""
    import psycopg

    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    if not isinstance(orig, psycopg.Error):
        return None
    state = getattr(orig, "sqlstate", None) or ""
    detail = " ".join(str(orig).split())[:300]
    if state == _DISK_FULL:
        from agent_core.contract.errors import storage_full

        return storage_full(f"The database server at {location.host} is out of disk space.")
    if state == _NOT_AUTHORIZED:
        return BriefDeskError(
            ErrorCode.NOT_AUTHORIZED,
            f"The database refused this change for the role {location.url.username!r}: "
            f"{detail}. Ask the team's administrator for a grant.",
        )
    if state in _LOCKED:
        return BriefDeskError(
            ErrorCode.STORAGE_LOCKED,
            f"The database at {location.host} stayed locked by another desk for "
            f"{store.BUSY_TIMEOUT_MS / 1000:g} s. Try again.",
        )
    if (
        state in _LOGIN_REFUSED
        or state[:2] in _UNAVAILABLE_CLASSES
        or isinstance(orig, psycopg.OperationalError)
    ):
        return unavailable(location, *_why_unavailable(state, detail, location))
    if state == "25006":  # read_only_sql_transaction: a standby, or a read-only database
        return BriefDeskError(
            ErrorCode.STORAGE_READ_ONLY,
            f"The database at {location.host} accepts no writes (a standby or read-only "
            "database). Point --db at the primary server.",
        )
    return None


# libpq reports a failed login or an unreachable server before any SQLSTATE exists (the
# error's sqlstate is None): its words are all there is to tell them apart.
_LOGIN_WORDS = ("password authentication failed", "no password supplied", "pg_hba.conf")
_DROPPED_STATES = ("57P01", "57P02", "08006", "08003")  # shut down, crashed, connection lost
_DROPPED_WORDS = (
    "server closed the connection",
    "connection is closed",
    "connection is lost",
    "terminating connection",
    "consuming input failed",
    "connection reset",
    "ssl syscall",
)


def _why_unavailable(state: str, detail: str, location: StoreLocation) -> tuple[str, str]:
    """(what happened, what to check) in words, for `unavailable`."""
    text = detail.lower()
    user, database = location.url.username or "(your OS user)", location.url.database
    key = location.key_name
    if state == "3D000" or ("database" in text and "does not exist" in text):
        return (
            f"the server at {location.host} has no database {database!r} ({detail})",
            "Check the database name at the end of the URL, or ask the team's administrator "
            "to create it",
        )
    if (
        state in ("28000", "28P01")
        or any(w in text for w in _LOGIN_WORDS)
        or ("role" in text and "does not exist" in text)
    ):
        return (
            f"the server at {location.host} refused the login of {user!r} ({detail})",
            f"Check the user name in the URL and its password: the keyring entry {key} "
            f"(briefdesk-cli keys set {key}), or PGPASSFILE / PGPASSWORD where they are set",
        )
    if state in _DROPPED_STATES or any(w in text for w in _DROPPED_WORDS):
        return (
            f"the connection to the server at {location.host} was dropped ({detail})",
            f"Check that the server at {location.host} is running (it may be restarting) and "
            "reachable from this desk",
        )
    if state == "57P03":  # cannot_connect_now: starting up, shutting down, in recovery
        return (
            f"the server at {location.host} is not accepting connections yet ({detail})",
            "Wait for it to finish starting, or check its log",
        )
    if state[:2] == "53":
        return (
            f"the server at {location.host} is out of resources ({detail})",
            "Ask its administrator to check max_connections and memory",
        )
    return (
        f"the server at {location.host} cannot be reached ({detail or 'no answer'})",
        f"Check that it is running and reachable from this desk: the host and port "
        f"{location.host}, a firewall or VPN between them",
    )


def unavailable(location: StoreLocation, why: str, check: str | None = None) -> BriefDeskError:
    """`storage_unavailable`: the host, why, and what to check; never a traceback.

    Retryable: nothing is lost (the failed transaction rolled back whole), and a run stopped by
    it continues with `resume` once the server answers again."""
    check = check or (
        f"Check that the server at {location.host} is running and reachable from this desk"
    )
    error = BriefDeskError(
        ErrorCode.STORAGE_UNAVAILABLE,
        f"The team database {location.shown} cannot be used: {why.rstrip('.?! ')}. {check}. "
        "Nothing was lost: runs continue once it answers again.",
        host=location.host,
    )
    error.retryable = True
    return error


class PostgresStore(store.Store):
    """The store of a team: a write engine and a read engine over its PostgreSQL database."""

    def __init__(self, location: StoreLocation) -> None:
        self.db_path = Path(location.shown)  # for messages only: there is no file
        super().__init__(
            location,
            write_engine=make_engine(location, writer=True),
            read_engine=make_engine(location, writer=False),
            check_held=True,  # a server may drop an idle connection
        )

    def translate_error(self, exc: BaseException) -> BriefDeskError | None:
        return translate_error(exc, self.location)

    def is_driver_error(self, exc: BaseException) -> bool:
        """A psycopg error raised on the driver itself (the prepared hot path, a dropped
        server)."""
        return type(exc).__module__.startswith("psycopg") and isinstance(exc, Exception)

    def before_commit(self, conn: Connection) -> None:
        # Other desks' windows hear of each commit (NOTIFY is delivered at commit only).
        notify_changes(conn, self.origin)

    def _gone_quiet(self, conn: Connection, engine: Engine) -> bool:
        """True when the server closed a held connection while it was idle (a restart, an
        administrator), so the next transaction opens a new one instead of failing: what the
        pool's pre-ping does at checkout, which a held connection does not go through again.

        Between transactions the server has nothing to say to us; if the socket is readable
        it said goodbye (or closed it), and only then is a real ping worth its round trip.
        """
        try:
            dbapi = conn.connection.dbapi_connection
            if dbapi is None:
                return True
            readable, _, _ = select.select([dbapi.fileno()], [], [], 0)
            return bool(readable) and not engine.dialect.do_ping(dbapi)
        except Exception:  # the ping failed, or the socket is gone: a new connection
            return True

    def integrity_check(self) -> str:
        """PostgreSQL checks its pages itself: a round trip shows the server answers."""
        with self.read() as conn:
            conn.exec_driver_sql("SELECT 1")
        return "ok"
