"""A team database's URL as a person types it (`--db`, `BRIEFDESK_DB`, the `db.url` setting).

Checked as text, without a database library, so the preferences can refuse a bad URL (or one
carrying a password) below the storage layer. The grammar is SQLAlchemy's (`make_url`): a URL
accepted here is one `agent_core.storage.location` turns into the store's SQLAlchemy URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

from agent_core.contract.errors import BriefDeskError, ErrorCode

# sqlalchemy.engine.url._parse_url's pattern, unchanged: both sides must split a URL alike.
_URL = re.compile(
    r"""
        (?P<name>[\w\+]+)://
        (?:
            (?P<username>[^:/]*)
            (?::(?P<password>[^@]*))?
        @)?
        (?:
            (?:
                \[(?P<ipv6host>[^/\?]+)\] |
                (?P<ipv4host>[^/:\?]+)
            )?
            (?::(?P<port>[^/\?]*))?
        )?
        (?:/(?P<database>[^\?]*))?
        (?:\?(?P<query>.*))?
        """,
    re.X,
)
_POSTGRES_DRIVERS = ("psycopg", "psycopg2")  # psycopg2: what a bare postgresql:// URL names
DEFAULT_PORT = 5432
MAX_HOST_BYTES = 253  # a DNS name (RFC 1035), without its final dot
MAX_LABEL_BYTES = 63


@dataclass(frozen=True)
class DbUrl:
    """The parts of a PostgreSQL URL that decide where it points and whose password it needs."""

    username: str | None
    password: str | None
    host: str | None
    port: int | None
    database: str
    host_is_ipv6: bool = False

    @property
    def key_name(self) -> str:
        """The keyring entry of this login's password."""
        return db_key_name(self.username, self.host, self.port, self.database)


def parse_postgres_url(text: str) -> DbUrl:
    """A PostgreSQL URL (`postgresql://` or `postgresql+psycopg://`) or `invalid_arguments`."""
    parts = _split(text)
    if parts is None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"{shown_raw(text)!r} is not a PostgreSQL URL. Give one such as "
            "postgresql://briefdesk@db.example.org:5432/briefdesk, or leave --db out to use "
            "the SQLite file in the home.",
        )
    if not parts.database:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"{shown_raw(text)!r} names no database: add /DBNAME at its end.",
        )
    if parts.host is not None and not parts.host_is_ipv6:
        _check_host_name(parts.host)
    return parts


def _check_host_name(host: str) -> None:
    """A host name DNS can hold (RFC 1035: 253 bytes, 63 a label), as the resolver will encode
    it (IDNA): psycopg's own resolving raised a UnicodeError on anything else."""
    shown = host if len(host) <= 60 else host[:60] + "…"
    too_long = len(host.encode()) > MAX_HOST_BYTES or any(
        len(label.encode()) > MAX_LABEL_BYTES for label in host.split(".")
    )
    if not too_long:
        try:
            host.encode("idna")
            return
        except UnicodeError:
            pass
    raise BriefDeskError(
        ErrorCode.INVALID_ARGUMENTS,
        f"The database host {shown!r} is no host name: a name has at most {MAX_HOST_BYTES} "
        f"bytes, each of its dot-separated labels 1 to {MAX_LABEL_BYTES}.",
    )


def _split(text: str) -> DbUrl | None:
    """The URL's parts; None when it is no PostgreSQL URL with a usable port."""
    match = _URL.match(text)
    if match is None:
        return None
    name, raw_port = match["name"], match["port"]
    try:
        # As SQLAlchemy reads it: int() of whatever stands after the colon ("" refused too).
        port = None if raw_port is None else int(raw_port)
    except ValueError:
        return None
    backend, plus, driver = name.partition("+")
    if not 0 < (DEFAULT_PORT if port is None else port) < 65536 or backend != "postgresql":
        return None
    if plus and driver.split("+", 1)[0] not in _POSTGRES_DRIVERS:
        return None
    database = match["database"]
    return DbUrl(
        username=None if match["username"] is None else unquote(match["username"]),
        password=None if match["password"] is None else unquote(match["password"]),
        host=match["ipv4host"] or match["ipv6host"],
        port=port,
        database="" if database is None else unquote(database),
        host_is_ipv6=match["ipv6host"] is not None,
    )


def shown_raw(text: str) -> str:
    """A URL that failed to parse, with anything between '://' and '@' hidden."""
    head, sep, rest = text.partition("://")
    if sep and "@" in rest:
        return f"{head}://***@{rest.split('@', 1)[1]}"
    return text


def db_key_name(username: str | None, host: str | None, port: int | None, database: str) -> str:
    """`db.USER.HOST.PORT.DB`: a keyring name (letters, digits, '.', '_', '-') per login."""
    parts = [username or "", host or "localhost", str(port or DEFAULT_PORT), database or ""]
    safe = ["".join(c if c.isalnum() or c in "_-" else "_" for c in p) for p in parts]
    return ("db." + ".".join(safe))[:64]
