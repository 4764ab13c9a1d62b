"""Where a home's store lives: the SQLite file in the home (the default), or a PostgreSQL
database shared by a team (`--db URL`, `BRIEFDESK_DB`, or the `db.url` setting).

A URL is normalised to SQLAlchemy's psycopg 3 form and shown without its password. The password
never sits in a settings file: it comes from the OS keyring (`db_key_name`), else libpq's own
`PGPASSFILE` / `PGPASSWORD` for headless use, or from a `--db` URL typed for this one command.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from agent_core.contract.errors import BriefDeskError
from agent_core.home.db_url import db_key_name as key_name_of
from agent_core.home.db_url import parse_postgres_url

DB_ENV = "BRIEFDESK_DB"
PG_DRIVER = "postgresql+psycopg"


class StoreKind(StrEnum):
    SQLITE = "sqlite"
    """The home's own `state.db`: one desk, nothing to set up."""
    POSTGRESQL = "postgresql"
    """A team's database server: several desks share runs, proposals and decisions."""


@dataclass(frozen=True)
class StoreLocation:
    kind: StoreKind
    url: URL
    """SQLAlchemy URL; for PostgreSQL it may carry a password typed for this command only."""

    @property
    def db_path(self) -> Path | None:
        return Path(str(self.url.database)) if self.kind is StoreKind.SQLITE else None

    @property
    def shown(self) -> str:
        """The URL as people and JSON see it: never the password."""
        if self.kind is StoreKind.SQLITE:
            return f"sqlite:///{self.url.database}"
        return self.url.set(drivername="postgresql").render_as_string(hide_password=True)

    @property
    def host(self) -> str:
        """Where to look when it cannot be reached: host:port (or the socket folder)."""
        if self.kind is StoreKind.SQLITE:
            return str(self.db_path)
        return f"{self.url.host or 'localhost'}:{self.url.port or 5432}"

    @property
    def key_name(self) -> str | None:
        """The keyring entry of this database's password (PostgreSQL only)."""
        return db_key_name(self.url) if self.kind is StoreKind.POSTGRESQL else None


def sqlite_location(db_path: Path) -> StoreLocation:
    return StoreLocation(StoreKind.SQLITE, URL.create("sqlite", database=str(db_path)))


def parse_db_url(raw: str) -> StoreLocation:
    """A PostgreSQL URL (`postgresql://` or `postgresql+psycopg://`) or `invalid_arguments`."""
    text = (raw or "").strip()
    parse_postgres_url(text)  # checked as text below storage, for the preferences too
    return StoreLocation(StoreKind.POSTGRESQL, make_url(text).set(drivername=PG_DRIVER))


def db_key_name(url: URL) -> str:
    """`db.USER.HOST.PORT.DB`: a keyring name (letters, digits, '.', '_', '-') per login."""
    return key_name_of(url.username, url.host, url.port, url.database or "")


def chosen_db_url(explicit: str | None, stored: str | None) -> str | None:
    """The PostgreSQL URL a command uses: `--db`, else $BRIEFDESK_DB, else the `db.url`
    setting; None (or an empty one) means the home's SQLite file."""
    for value in (explicit, os.environ.get(DB_ENV), stored):
        if value is not None and value.strip():
            return value.strip()
    return None


def checked_db_option(explicit: str | None) -> str | None:
    """`explicit` (`--db`), once it (or else $BRIEFDESK_DB) parses: a malformed URL is refused
    before a home is created for it."""
    chosen = chosen_db_url(explicit, None)
    if chosen is not None:
        parse_db_url(chosen)
    return explicit


def with_password(location: StoreLocation) -> StoreLocation:
    """The location with the database password from the OS keyring, when it holds one.

    A URL typed with a password keeps it. `PGPASSWORD` / `PGPASSFILE` set in the environment
    win over the keyring, as `BRIEFDESK_<NAME>_API_KEY` does for model keys (headless use);
    otherwise libpq reads them (and ~/.pgpass) itself when the keyring has nothing.
    """
    name = location.key_name
    if name is None or location.url.password is not None:
        return location
    if os.environ.get("PGPASSWORD") or os.environ.get("PGPASSFILE"):
        return location
    from agent_core.home import secrets

    try:
        password = secrets.get_key(name, timeout=3.0)
    except BriefDeskError:  # no entry, or no keyring here: libpq's own sources remain
        return location
    return StoreLocation(location.kind, location.url.set(password=password))
