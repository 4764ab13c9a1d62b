"""PostgreSQL engines for team mode (psycopg 3), and its failures as stable codes.

Writers queue on one transaction-level advisory lock, taken as each write transaction begins:
the equivalent of SQLite's BEGIN IMMEDIATE. Every write of the team then commits in the order
it began, so an event's `seq` (a sequence) is committed in increasing order and a follower that
reads `seq > last` never skips one that commits late; conditional updates (the first reviewer
wins) behave exactly as on SQLite. Reads take no lock.

An unreachable server, a refused login or a dropped connection is `storage_unavailable`, with
the host and what to check. A connection the server dropped is never handed out again.
"""

from __future__ import annotations

import os
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.pool import ConnectionPoolEntry, QueuePool

from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.storage import engine as sqlite_engine
from agent_core.storage.location import StoreLocation

# pg_advisory_xact_lock keys: "BDW1" (one writer at a time), "BDM1" (migrations).
WRITER_LOCK_KEY = 0x42445731
MIGRATION_LOCK_KEY = 0x42444D31
CONNECT_TIMEOUT_S = 5


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
        "options": f"-c lock_timeout={sqlite_engine.BUSY_TIMEOUT_MS}",
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

    return engine


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
        from agent_core.errors import storage_full

        return storage_full(f"The database server at {location.host} is out of disk space.")
    if state in _LOGIN_REFUSED:
        return unavailable(
            location,
            f"the server refused the login ({detail}). Check the user name and database in "
            "the URL, and the password: the keyring entry "
            f"{location.key_name!r} (briefdesk-cli keys set {location.key_name}), PGPASSFILE "
            "or PGPASSWORD",
        )
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
    if state[:2] in _UNAVAILABLE_CLASSES or isinstance(orig, psycopg.OperationalError):
        return unavailable(location, f"{detail or 'the connection was lost'}")
    if state == "25006":  # read_only_sql_transaction: a standby, or a read-only database
        return BriefDeskError(
            ErrorCode.STORAGE_READ_ONLY,
            f"The database at {location.host} accepts no writes (a standby or read-only "
            "database). Point --db at the primary server.",
        )
    return None


def unavailable(location: StoreLocation, why: str) -> BriefDeskError:
    """`storage_unavailable`: the host, why, and what to check; never a traceback."""
    return BriefDeskError(
        ErrorCode.STORAGE_UNAVAILABLE,
        f"The team database {location.shown} cannot be used: {why}. Check that the server at "
        f"{location.host} is running and reachable from this desk; nothing was lost, and runs "
        "resume once it is back.",
        host=location.host,
    )
