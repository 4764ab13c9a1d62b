"""Open a team's PostgreSQL database, initialising or upgrading it under an advisory lock.

The same Alembic history as a home's SQLite file. Desks starting at once queue on
`pg_advisory_xact_lock` (a crashed holder releases it with its connection), and PostgreSQL runs
the whole upgrade in one transaction, so a failed one leaves the database as it was: no file
copy is made (the server's own backups cover it). An empty database is initialised on first
use by a role that may create tables in it (its owner); migrations never create roles.
"""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.storage import postgres
from agent_core.storage.location import StoreLocation
from agent_core.storage.migrate import revisions
from agent_core.storage.store import Store
from agent_core.storage.team import desk_roles


def stored_revision(conn: Connection) -> str | None:
    """The database's schema revision; None for an empty database (no BriefDesk tables)."""
    if conn.exec_driver_sql("SELECT to_regclass('alembic_version')").scalar() is None:
        if conn.exec_driver_sql("SELECT to_regclass('runs')").scalar() is not None:
            raise BriefDeskError(
                ErrorCode.STORAGE_CORRUPT,
                "The team database holds BriefDesk tables but no schema version (its "
                "alembic_version table is missing), so it cannot be upgraded safely; nothing "
                "was changed.",
            )
        return None
    found = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    return None if found is None else str(found)


def open_team_store(location: StoreLocation) -> Store:
    store = postgres.PostgresStore(location)
    try:
        with store.read() as conn:
            revision = stored_revision(conn)
        if revision is not None and revision == revisions.declared_head():
            return store  # up to date: no Alembic import
        known = revisions.known_revisions()
        _refuse_too_new(location, revision, known)
        if revision != known[-1]:
            _upgrade(store, location, known)
    except BaseException:
        store.dispose()
        raise
    return store


def _upgrade(store: Store, location: StoreLocation, known: tuple[str, ...]) -> None:
    try:
        with store.write() as conn:  # the writer lock too: no desk writes mid-upgrade
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({postgres.MIGRATION_LOCK_KEY})")
            revision = stored_revision(conn)  # again, inside the lock: someone may have won
            _refuse_too_new(location, revision, known)
            if revision != known[-1]:
                revisions.run_migrations(conn, known[-1])
                desk_roles.reapply(conn)  # desks' own roles: privileges on any new table
    except BriefDeskError as exc:
        if exc.code == ErrorCode.NOT_AUTHORIZED:
            raise BriefDeskError(
                ErrorCode.NOT_AUTHORIZED,
                f"The role {location.url.username!r} may not create or change BriefDesk's "
                f"tables in {location.shown}. Start BriefDesk once with the database owner's "
                "role to initialise or upgrade it (see the README's team set-up).",
            ) from None
        raise


def _refuse_too_new(location: StoreLocation, revision: str | None, known: tuple[str, ...]) -> None:
    if revision is not None and revision not in known:
        raise BriefDeskError(
            ErrorCode.STORAGE_TOO_NEW,
            f"The team database {location.shown} was written by a newer BriefDesk (schema "
            f"{revision}; this app knows up to {known[-1]}). Upgrade BriefDesk on this desk.",
        )
