"""Opening a home: its folders, its own `state.db`, and the store its runs live in.

`Workspace` opens a home this way, and so does `briefdesk-cli hook` without the rest of the
façade: a hook process answers a read in well under a second, so it must not load the tool
registry, review or the corpus that `Workspace`'s domains import (facade/workspace.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from agent_core.contract.errors import BriefDeskError
from agent_core.facade.team import team_db_url
from agent_core.home.config import Home, default_reviewer, resolve_home_dir
from agent_core.home.logs import configure_logging
from agent_core.home.preferences import Settings
from agent_core.home.secrets import watch_secret_names
from agent_core.models.endpoint import KEY_NAME
from agent_core.storage.location import checked_db_option, parse_db_url, with_password
from agent_core.storage.migrate.home import open_store
from agent_core.storage.store import Store
from agent_core.storage.tables import mcp_servers
from agent_core.storage.tables import settings as settings_store
from agent_core.storage.team.desks import desk_id


@dataclass(frozen=True)
class HomeStores:
    """A home, opened: what every command works with."""

    home: Home
    desk: str
    """This installation's id (team mode: whose runs these are)."""
    db_option: str | None
    """The `--db` URL as given (None: environment, setting or the home's file)."""
    desk_store: Store
    """Always the home's own file: this desk's settings, corpus index and memory."""
    store: Store
    """Runs, timelines, proposals, decisions: `desk_store`, or the team's database."""

    @property
    def team_desk(self) -> str | None:
        """This desk's id in team mode; None on the home's own file."""
        return self.desk if self.store is not self.desk_store else None

    def close(self) -> None:
        if self.store is not self.desk_store:
            self.store.dispose()
        self.desk_store.dispose()


def open_home_stores(home: str | Path | None, db: str | None) -> HomeStores:
    """Open (creating or upgrading) `home` and its store: the home's SQLite file, or in team
    mode the PostgreSQL database (`db`, $BRIEFDESK_DB or the `db.url` setting). The keyring
    entries of this desk's secrets are watched from now on (names only: read at the first
    mask, home/secrets.py)."""
    desk = desk_id()  # a bad $BRIEFDESK_DESK is refused before anything is created
    db_option = checked_db_option(db)  # as given: the setting cannot move this store
    opened = Home(resolve_home_dir(home))
    # A new home is made only once its team database (--db, $BRIEFDESK_DB) has answered:
    # a call refused for an unreachable or refusing server creates no home.
    team_first = None if opened.db_path.exists() else _team_store(db, None)
    try:
        opened.ensure()
        configure_logging(opened.logs)
        desk_store = open_store(opened.db_path)
    except BaseException:
        if team_first is not None:
            team_first.dispose()
        raise
    try:
        team = team_first or _team_store(db, desk_store)
    except BaseException:
        desk_store.dispose()
        raise
    # Masked at every door whatever a run's model: the model key and the MCP servers' keys.
    watch_secret_names([KEY_NAME, *mcp_secret_names(desk_store)])
    return HomeStores(opened, desk, db_option, desk_store, team or desk_store)


def _team_store(explicit: str | None, desk_store: Store | None) -> Store | None:
    """The team database this home uses, opened; None when the home's file is the store."""
    url = team_db_url(explicit, desk_store)
    if url is None:
        return None
    location = parse_db_url(url)
    if location.key_name is not None:
        watch_secret_names([location.key_name])
    return open_store(with_password(location))


def desk_settings(desk_store: Store) -> Settings:
    """The stored preferences, with the reviewer always a name (null: the OS user name)."""
    with desk_store.read() as conn:  # preferences are this desk's own
        prefs = settings_store.get_settings(conn)
    return prefs if prefs.reviewer else replace(prefs, reviewer=default_reviewer())


def mcp_secret_names(desk_store: Store) -> list[str]:
    """The keyring entries this desk's servers take `keyring:` values from (names only).
    A server whose row cannot be read is left out: it cannot start either."""
    try:
        with desk_store.read() as conn:
            return keyring_names(mcp_servers.list_all(conn))
    except BriefDeskError:
        return []


def keyring_names(rows: Sequence[mcp_servers.McpServerRow]) -> list[str]:
    return sorted({e.text for row in rows for e in row.env.values() if e.kind == "keyring"})
