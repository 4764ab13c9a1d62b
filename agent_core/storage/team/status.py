"""`db status`: which store a home uses, its schema revision, and whether it answers.

It only looks. Opening a store the way a command does would migrate it (and a team database
that is away would refuse the command with `storage_unavailable`); the status must answer in
exactly that case, so an unreachable server or a refused login is `reachable: false` with what
to check, never an error. No Alembic import, no Agents SDK: one connection, one query.
"""

from __future__ import annotations

from typing import TypedDict

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.storage.location import StoreKind, StoreLocation
from agent_core.storage.migrate import home as migrate
from agent_core.storage.migrate import revisions
from agent_core.storage.postgres import PostgresStore


class StoreStatusView(TypedDict):
    """`db status` as the CLI prints it under `store`."""

    kind: str
    """`sqlite` (the home's own file) or `postgresql` (a team database)."""
    revision: str | None
    """The schema revision the store holds; null when it cannot be read or is not yet
    initialised (a new home, an empty database: both are initialised on first use)."""
    reachable: bool
    """False: the server cannot be reached or refuses the login (see `message`)."""
    url: str
    """The store's URL, never its password."""
    desk: str
    """This installation's desk id (the runs it drives carry it)."""
    message: str | None
    """What a person should know: why it is unreachable, an upgrade to come; null when the
    store is reachable and at the revision this BriefDesk writes."""


def probe(location: StoreLocation, *, desk: str) -> StoreStatusView:
    """Look at the store at `location` (never creating, migrating or locking it)."""
    if location.kind is StoreKind.SQLITE:
        return _probe_sqlite(location, desk)
    return _probe_team(location, desk)


def _view(
    location: StoreLocation, desk: str, revision: str | None, reachable: bool, message: str | None
) -> StoreStatusView:
    return StoreStatusView(
        kind=str(location.kind),
        revision=revision,
        reachable=reachable,
        url=location.shown,
        desk=desk,
        message=message,
    )


def _probe_sqlite(location: StoreLocation, desk: str) -> StoreStatusView:
    path = location.db_path
    assert path is not None
    try:
        revision = migrate.current_revision(path)  # a read-only sqlite3 look
    except BriefDeskError as exc:  # damaged, locked, unreadable: it answers, but not well
        return _view(location, desk, None, True, exc.message)
    return _view(location, desk, revision, True, _revision_note(revision, "home"))


def _probe_team(location: StoreLocation, desk: str) -> StoreStatusView:
    from agent_core.storage.migrate.team import stored_revision

    store = PostgresStore(location)  # no connection yet: the read below is the only one
    try:
        with store.read() as conn:
            revision = stored_revision(conn)
    except BriefDeskError as exc:
        # Unreachable, refused login, no such database: the answer is "not reachable". A
        # server that answers but will not show its tables (not_authorized) or holds tables
        # without a version (storage_corrupt) is reachable, and the message says what is wrong.
        reachable = exc.code not in (ErrorCode.STORAGE_UNAVAILABLE, ErrorCode.STORAGE_LOCKED)
        return _view(location, desk, None, reachable, exc.message)
    finally:
        store.dispose()
    return _view(location, desk, revision, True, _revision_note(revision, "database"))


def _revision_note(revision: str | None, what: str) -> str | None:
    head = revisions.declared_head() or revisions.head_revision()
    if revision == head:
        return None
    if revision is None:
        by_whom = " (by a role that owns the database)" if what == "database" else ""
        return f"The {what} is not initialised yet: BriefDesk creates it on first use{by_whom}."
    if revision not in revisions.known_revisions():
        return (
            f"Schema {revision} was written by a newer BriefDesk (this one writes {head}): "
            "upgrade BriefDesk on this desk to use it."
        )
    return f"Schema {revision} is upgraded to {head} the next time a command opens it."
