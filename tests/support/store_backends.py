"""The two stores a home can use, for the test groups that run on both (issue 14, item 6).

`sqlite`: the home's own `state.db`, the default. `postgresql`: a fresh team database on the
session's real PostgreSQL server, named by the home's `db.url` setting, the way a desk is set
up; the home's SQLite file then keeps this desk's settings only. Everything else (a Workspace,
`briefdesk-cli`, a forked driver) finds the store through the home, as the app does, so a test
written against a home runs unchanged on either.

Each database is a copy of the session's migrated template (tests/support/pg.py), named with
the backend's prefix, so the fixture drops every database of its test at once afterwards,
those a child process made too. A process a test starts (the crash sweep's driver) prepares
homes of its own: it rebuilds the backend with `from_child_env`, from what `child_env` gave it,
and never migrates a template itself.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from pathlib import Path

from tests.support import pg_cluster
from tests.support.pg import PgServer

STORE_BACKENDS = ("sqlite", "postgresql")
TEMPLATE_ENV = "BRIEFDESK_TEST_PG_TEMPLATE"
PREFIX_ENV = "BRIEFDESK_TEST_PG_PREFIX"


@dataclass(frozen=True)
class StoreBackend:
    name: str  # one of STORE_BACKENDS
    server: PgServer | None = None  # postgresql only: the server,
    template: str = ""  # the migrated database each new one copies,
    prefix: str = ""  # and how the names of this test's databases start

    def prepare(self, home: Path) -> Path:
        """Make `home` use this backend's store; returns it. For PostgreSQL: a fresh team
        database (migrated) named by the home's `db.url` setting."""
        if self.name == "postgresql":
            use_team_database(home, self._new_database())
        return home

    def _new_database(self) -> str:
        assert self.server is not None
        name = f"{self.prefix}{uuid.uuid4().hex[:12]}"
        with self.server.admin() as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
        return self.server.url(name)

    def drop_databases(self) -> None:
        """Drop every database made with this prefix (each copy takes several MB), ending the
        sessions a killed process may have left."""
        if self.server is None:
            return
        with self.server.admin() as conn:
            names = [
                str(row[0])
                for row in conn.execute(
                    "SELECT datname FROM pg_database WHERE starts_with(datname, %s)",
                    (self.prefix,),
                )
            ]
            for name in names:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def app_env(self) -> dict[str, str]:
        """What a process of the app needs to open a home on this backend: for PostgreSQL its
        password source, PGPASSFILE (libpq's headless one; the URL on disk has no password)."""
        if self.server is None:
            return {}
        return {"PGPASSFILE": str(self.server.passfile)}

    def child_env(self) -> dict[str, str]:
        """What a child process needs to prepare homes of its own on this backend:
        `from_child_env` reads it back."""
        if self.server is None:
            return {}
        return {
            **self.app_env(),
            pg_cluster.URL_ENV: self.server.admin_url,
            pg_cluster.PASSFILE_ENV: str(self.server.passfile),
            TEMPLATE_ENV: self.template,
            PREFIX_ENV: self.prefix,
        }

    @staticmethod
    def from_child_env(name: str) -> StoreBackend:
        if name != "postgresql":
            return StoreBackend(name)
        env = os.environ
        server = PgServer(env[pg_cluster.URL_ENV], Path(env[pg_cluster.PASSFILE_ENV]), None)
        return StoreBackend(name, server, env[TEMPLATE_ENV], env[PREFIX_ENV])


def use_team_database(home: Path, url: str) -> None:
    """The home's `db.url` setting names the team database (no password: PGPASSFILE has it);
    then the home, opened as the app opens it, really is on that database."""
    from agent_core.facade.workspace import Workspace

    setup = Workspace(home)
    try:
        setup.set_setting("db.url", url)
    finally:
        setup.close()
    check = Workspace(home)
    try:
        assert check.team_mode and check.store.kind == "postgresql", check.store.location.shown
    finally:
        check.close()


def store_backend(name: str) -> StoreBackend:
    """The backend for this test session: PostgreSQL starts (or finds) the session's server,
    which skips the test without one, and fails it under CI=true (tests/support/pg.py)."""
    if name != "postgresql":
        return StoreBackend(name)
    from tests.support import pg

    server = pg.server()
    return StoreBackend(name, server, pg.TEMPLATE, f"bk{uuid.uuid4().hex[:8]}")
