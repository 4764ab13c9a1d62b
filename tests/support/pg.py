"""A real PostgreSQL server for the tests, and a fresh database per test.

`.ci/run` starts a throwaway cluster (tests/support/pg_cluster.py) and exports its admin URL
and passfile; without them the test session starts its own in a temp folder, and stops it at
the end. Without the server's binaries a PostgreSQL test skips, except under CI=true, where it
fails: CI must run it.

Every database is copied from a template migrated once per session (CREATE DATABASE ...
TEMPLATE), so a test gets an initialised team database in a few tens of milliseconds. The
app's processes find the admin password through PGPASSFILE (libpq's own headless source).
"""

from __future__ import annotations

import atexit
import os
import tempfile
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

from tests.support import pg_cluster
from tests.support.ci import require_or_skip
from tests.support.typed import present

# One template per test session: two sessions on one server never drop each other's.
TEMPLATE = f"briefdesk_template_{os.getpid()}"


@dataclass(frozen=True)
class PgServer:
    admin_url: str  # postgresql://bdadmin@127.0.0.1:PORT/postgres
    passfile: Path
    root: Path | None  # the cluster's folder when this session started it (stop/start)

    @property
    def port(self) -> int:
        return int(self.admin_url.rsplit(":", 1)[1].split("/", 1)[0])

    def url(self, database: str, user: str = pg_cluster.ADMIN) -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def admin(self, database: str = "postgres"):  # type: ignore[no-untyped-def]
        """An autocommit psycopg connection as the cluster's superuser."""
        import psycopg

        return psycopg.connect(
            self.url(database), autocommit=True, passfile=str(self.passfile), connect_timeout=10
        )

    def create_database(self, name: str | None = None, *, empty: bool = False) -> str:
        """A new database (initialised from the template unless `empty`); returns its URL."""
        name = name or "t_" + uuid.uuid4().hex[:12]
        with self.admin() as conn:
            if empty:
                conn.execute(f'CREATE DATABASE "{name}"')
            else:
                conn.execute(f'CREATE DATABASE "{name}" TEMPLATE {TEMPLATE}')
        return self.url(name)

    def create_login_role(self, prefix: str = "desk") -> tuple[str, str]:
        """A new LOGIN role with a random password, (name, password); roles are the whole
        cluster's, so the session drops what is left of them at its end."""
        role, password = f"{prefix}_{uuid.uuid4().hex[:8]}", f"pw-{uuid.uuid4().hex}"
        with self.admin() as conn:
            conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
        atexit.register(self._drop_role, role)
        return role, password

    def _drop_role(self, role: str) -> None:
        try:
            with self.admin() as conn:
                conn.execute(f"DROP ROLE IF EXISTS {role}")
        except Exception:  # still granted somewhere, or the server is gone: a throwaway cluster
            pass

    def drop_database(self, url: str) -> None:
        """Drop a test's database, ending any session a killed or lingering process left."""
        name = url.rsplit("/", 1)[1]
        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


_lock = threading.Lock()
_server: PgServer | None = None


def _start_or_find() -> PgServer | None:
    url = os.environ.get(pg_cluster.URL_ENV)
    passfile = os.environ.get(pg_cluster.PASSFILE_ENV)
    if url and passfile:
        return PgServer(url, Path(passfile), _root_of(Path(passfile)))
    if pg_cluster.server_bindir() is None:
        return None
    root = Path(tempfile.mkdtemp(prefix="briefdesk-pg-"))
    cluster = pg_cluster.start(root)
    atexit.register(pg_cluster.stop, root)
    os.environ.update(cluster.env())  # child processes (and nested sessions) reuse it
    return PgServer(cluster.url, cluster.passfile, root)


def _root_of(passfile: Path) -> Path | None:
    """The cluster folder (pg_cluster.py keeps the passfile there), when it is one."""
    root = passfile.parent
    return root if (root / "data").is_dir() else None


def _migrate_template(server: PgServer) -> None:
    from agent_core.storage.location import parse_db_url
    from agent_core.storage.migrate.home import open_store

    with server.admin() as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
        conn.execute(f"CREATE DATABASE {TEMPLATE}")
    open_store(parse_db_url(server.url(TEMPLATE))).dispose()
    atexit.register(_drop_template, server)


def _drop_template(server: PgServer) -> None:
    try:
        with server.admin() as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
    except Exception:  # the server may be gone already (a cluster this session stopped)
        pass


def server() -> PgServer:
    """The session's server (started on first use); skips without one, fails under CI."""
    global _server
    with _lock:
        if _server is None:
            found = _start_or_find()
            if found is None:
                require_or_skip("PostgreSQL's server is not installed (apt-get install postgresql)")
            # libpq's headless password source: the app and its child processes log in with it.
            os.environ["PGPASSFILE"] = str(found.passfile)
            _migrate_template(present(found))
            _server = found
        return present(_server)
