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

import os
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.pool import ConnectionPoolEntry, QueuePool

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.storage import engine as sqlite_engine
from agent_core.storage.location import StoreLocation
from agent_core.storage.team import changes

# pg_advisory_xact_lock keys: "BDW1" (one writer at a time), "BDM1" (migrations).
WRITER_LOCK_KEY = 0x42445731
MIGRATION_LOCK_KEY = 0x42444D31
CONNECT_TIMEOUT_S = 5
IDLE_IN_TRANSACTION_MS = 15_000


def connect_args() -> dict[str, Any]:
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
        "options": f"-c lock_timeout={sqlite_engine.BUSY_TIMEOUT_MS} "
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

    @event.listens_for(engine, "connect")
    def _on_connect(_dbapi_conn: Any, record: ConnectionPoolEntry) -> None:
        record.info["pid"] = os.getpid()

    @event.listens_for(engine, "checkout")
    def _on_checkout(_dbapi_conn: Any, record: ConnectionPoolEntry, proxy: Any) -> None:
        if record.info.get("pid") != os.getpid():  # inherited through fork: never touch it
            sqlite_engine._INHERITED.append(record.dbapi_connection)
            record.dbapi_connection = proxy.dbapi_connection = None  # type: ignore[misc]
            raise DisconnectionError("connection made by another process")

    if writer:

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            driver = conn.connection.driver_connection
            driver.execute("SELECT pg_advisory_xact_lock(%s)", (WRITER_LOCK_KEY,))  # type: ignore[union-attr]

        @event.listens_for(engine, "before_execute")
        def _on_execute(
            conn: Connection,
            statement: object,
            multiparams: Any,
            params: dict[str, Any],
            _options: Any,
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
        driver.execute("SELECT pg_notify(%s, %s)", (changes.CHANNEL, payload))  # type: ignore[union-attr]


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
            f"{sqlite_engine.BUSY_TIMEOUT_MS / 1000:g} s. Try again.",
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
