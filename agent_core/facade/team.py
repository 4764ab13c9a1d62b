"""The façade's side of team mode: which store a home uses, the team database's password,
`db status` / `db copy`, and hearing other desks' changes.

`Workspace` inherits these, so the window and the CLI still reach everything through the one
façade (`agent_core.facade.workspace`); they live here to keep that module about running and
reviewing. Nothing here imports the Agents SDK.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.notices import ChangeNotice
from agent_core.contract.views import SecretStatusView, StoreView
from agent_core.home.config import Home, resolve_home_dir
from agent_core.home.preferences import Settings
from agent_core.storage.location import (
    DB_ENV,
    StoreKind,
    chosen_db_url,
    parse_db_url,
    with_password,
)
from agent_core.storage.migrate.home import open_store
from agent_core.storage.sqlite import SqliteStore
from agent_core.storage.store import Store
from agent_core.storage.tables import settings as settings_store
from agent_core.storage.team.desks import desk_id

if TYPE_CHECKING:
    from agent_core.storage.team.status import StoreStatusView
    from agent_core.storage.team.store_copy import StoreCopyView


class TeamStoreFacade:
    """Mixed into `Workspace`: what it opened (`store`, `desk_store`, `desk`, `db_option`)."""

    store: Store
    """Runs, timelines, proposals, decisions: the home's SQLite file or the team database."""
    desk_store: Store
    """Always the home's own file: this desk's settings, corpus index and memory."""
    desk: str
    db_option: str | None
    """The `--db` URL this Workspace was opened with (None: environment, setting or home)."""

    @property
    def team_mode(self) -> bool:
        """True when runs live in a team's PostgreSQL database rather than the home's file."""
        return self.store is not self.desk_store

    @property
    def team_desk(self) -> str | None:
        """This desk's id in team mode, where a watcher and settling see only this desk's runs
        (another machine may hold the same paths); None on a home's own file: all are ours."""
        return self.desk if self.team_mode else None

    def listen_changes(self, callback: Callable[[ChangeNotice], None]) -> Callable[[], None]:
        """Team mode: hear every desk's commits (PostgreSQL LISTEN/NOTIFY) on a thread of its
        own, as typed notices, within moments of each commit (`own`: a commit of this
        Workspace, which `follow_events` announced already); `RESYNC` after each (re)connect,
        `LOST` when the server went away. Returns the stop. On the home's SQLite file there is
        nothing to listen to (other processes are polled): the stop does nothing."""
        if not self.team_mode:
            return lambda: None
        from agent_core.storage.team.listen import ChangeListener

        listener = ChangeListener(self.store.location, callback, origin=self.store.origin)
        return listener.start().stop

    @staticmethod
    def store_status(home: str | Path | None = None, *, db: str | None = None) -> StoreStatusView:
        """Which store `home` uses (`db`, $BRIEFDESK_DB, the `db.url` setting, else its SQLite
        file), its schema revision and whether it answers. Opens nothing the way a command
        does (no migration, no new home), so it answers while a team's server is away."""
        from agent_core.storage.location import sqlite_location
        from agent_core.storage.team.status import probe

        url = TeamStoreFacade.chosen_team_db(home, db=db)
        place = Home(resolve_home_dir(home))
        location = sqlite_location(place.db_path) if url is None else parse_db_url(url)
        return probe(with_password(location), desk=desk_id())

    @staticmethod
    def chosen_team_db(home: str | Path | None = None, *, db: str | None = None) -> str | None:
        """The team database URL `home` would use (`db`, $BRIEFDESK_DB, the `db.url`
        setting), None for its SQLite file; read without opening or creating any store."""
        place = Home(resolve_home_dir(home))
        place.check()
        if not place.db_path.exists():  # no home yet: only --db or $BRIEFDESK_DB can name one
            return team_db_url(db, None)
        desk_store = SqliteStore(place.db_path)
        try:
            return team_db_url(db, desk_store)
        finally:
            desk_store.dispose()

    def copy_store(self, to_url: str) -> StoreCopyView:
        """Copy this Workspace's store (runs, timelines, proposals, decisions, blobs, rules,
        audit) into the empty PostgreSQL database `to_url`, then check counts and content
        hashes table by table (agent_core/storage/team/store_copy.py); all or nothing."""
        from agent_core.storage.team.store_copy import copy_store

        target = with_password(parse_db_url(to_url))
        return copy_store(self.store, target, desk=self.desk).to_json()

    def store_view(self) -> StoreView:
        """Where this Workspace's runs live, and this desk's id (what it opened: no I/O)."""
        location = self.store.location
        team = location.kind is StoreKind.POSTGRESQL
        if self.db_option is not None:
            chosen_by = "option"
        elif os.environ.get(DB_ENV, "").strip():
            chosen_by = "environment"
        else:
            chosen_by = "setting" if team else "home"
        return StoreView(
            kind=str(location.kind),
            url=location.shown,
            host=location.host if team else None,
            database=str(location.url.database) if team else None,
            desk=self.desk,
            chosen_by=chosen_by,
        )

    @staticmethod
    def check_db_url(url: str) -> str | None:
        """`url` as the `db.url` setting would store it (None: the home's SQLite file), or
        `invalid_arguments` saying why not (not PostgreSQL, no database, a password in it).
        Pure: no connection, no keyring."""
        parsed = Settings.parse("db.url", url)
        return None if parsed is None else str(parsed)

    @staticmethod
    def db_password_status(url: str) -> SecretStatusView:
        """Whether the keyring holds the password of the team database `url` (never the
        password), and whether PGPASSWORD / PGPASSFILE would be used instead of it."""
        from agent_core.home import secrets

        name = _db_key_name(url)
        status = secrets.key_status(name)
        return SecretStatusView(
            name=name,
            stored=bool(status["stored"]),
            backend=str(status["backend"]),
            overridden_by=_libpq_password_source(),
        )

    @staticmethod
    def set_db_password(url: str, password: str) -> SecretStatusView:
        """Store the password of the team database `url` in the OS keyring, under the entry
        `db.USER.HOST.PORT.DB` that opening the store reads. Never in settings or logs."""
        from agent_core.home import secrets

        name = _db_key_name(url)
        status = secrets.set_key(name, password)
        return SecretStatusView(
            name=name,
            stored=bool(status["stored"]),
            backend=str(status["backend"]),
            overridden_by=_libpq_password_source(),
        )

    def probe_store(
        self, url: str, password: str | None = None, *, open_it: bool = False
    ) -> StoreStatusView:
        """Look at the team database `url` as `db status` does: reachable, its schema revision,
        what to check (`agent_core/storage/team/status.py`; it never migrates). `password`: typed
        but not yet stored; else the keyring, PGPASSFILE or PGPASSWORD. With `open_it`, first
        open it as a desk's first use does (initialising an empty database, upgrading an old
        one), so a failure to open raises its error here instead of in the next window.
        Blocking (up to the connect timeout): call it off the GUI thread. A URL the `db.url`
        setting would refuse is `invalid_arguments`."""
        from agent_core.storage.team.status import probe

        location = parse_db_url(TeamStoreFacade.check_db_url(url) or "")
        if password:
            from agent_core.home.secrets import REDACTOR

            REDACTOR.add(password)  # a message quoting it (a driver's, a log's) shows it masked
            location = replace(location, url=location.url.set(password=password))
        else:
            location = with_password(location)
        if open_it:
            open_store(location).dispose()
        return probe(location, desk=self.desk)


def team_db_url(explicit: str | None, desk_store: Store | None) -> str | None:
    """The team database a home uses: `explicit` (--db), else $BRIEFDESK_DB, else the `db.url`
    setting in `desk_store` (the home's own file; None: not created yet). None: that file is
    the store. An empty `explicit` is refused: `--db=` is a mistake, never "no team"."""
    if explicit is not None and not explicit.strip():
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            "The database URL is empty: give --db postgresql://..., or leave --db out to "
            "use the home's SQLite file.",
        )
    url = chosen_db_url(explicit, None)
    if url is None and desk_store is not None:
        with desk_store.read() as conn:
            url = chosen_db_url(None, settings_store.get_db_url(conn))
    return url


def _db_key_name(url: str) -> str:
    """The keyring entry of the password of the team database `url` (`invalid_arguments` for
    a URL the `db.url` setting would refuse)."""
    name = parse_db_url(TeamStoreFacade.check_db_url(url) or "").key_name
    assert name is not None  # a PostgreSQL location always has one
    return name


def _libpq_password_source() -> str | None:
    """PGPASSWORD or PGPASSFILE when set: opening the store then uses them, not the keyring."""
    for variable in ("PGPASSWORD", "PGPASSFILE"):
        if os.environ.get(variable):
            return variable
    return None
