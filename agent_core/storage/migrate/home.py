"""Bring `state.db` to the schema this app knows, safely, before anything else touches it.

Alembic runs only when the stored revision is behind (a cheap sqlite3 look first keeps every
CLI command fast). The upgrade happens under an exclusive file lock, so two processes starting
at once cannot both migrate, and after a backup copy of the database. A database written by a
newer app is refused with `storage_too_new` rather than being half-understood. The revisions
this app knows are the migrations folder's, as Alembic's ScriptDirectory reads them.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout
from sqlalchemy import Connection

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.storage import engine
from agent_core.storage.engine import Store, translate_db_error
from agent_core.storage.location import StoreKind, StoreLocation

MIGRATIONS_DIR = Path(__file__).with_name("migrations")

# Still importable as constants, computed on first use by the module __getattr__ below: loading
# the script directory imports Alembic (~125 ms), too much for every CLI command.
KNOWN_REVISIONS: tuple[str, ...]  # oldest first; the last one is the head this app writes
HEAD: str


def __getattr__(name: str) -> object:
    if name == "KNOWN_REVISIONS":
        return known_revisions()
    if name == "HEAD":
        return head_revision()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def known_revisions() -> tuple[str, ...]:
    """The migrations folder's revisions, oldest first, as Alembic's ScriptDirectory reads them."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(MIGRATIONS_DIR))
    script.get_current_head()  # raises on several heads: the history must stay one line
    return tuple(reversed([s.revision for s in script.walk_revisions()]))


def head_revision() -> str:
    return known_revisions()[-1]


# `revision = "0002"` / `down_revision: str | None = "0001"` at the start of a line.
_DECLARATION = re.compile(r"^(revision|down_revision)\b[^=\n]*=(.*)$", re.MULTILINE)


@functools.cache
def _declared_head() -> str | None:
    """The head as the version files declare it, read as text (well under 1 ms), not by Alembic.

    Used only to recognise an up-to-date database, so that it never pays for the Alembic
    import; every other decision asks `known_revisions()`. Anything not plainly declared once
    (a merge, a computed value, several heads) gives None, and the caller asks Alembic.
    tests/core/test_storage_migrations.py checks that this agrees with ScriptDirectory.
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        if path.name.startswith((".#", "__init__")):  # what ScriptDirectory skips too
            continue
        found = _DECLARATION.findall(path.read_text(encoding="utf-8"))
        if sorted(name for name, _ in found) != ["down_revision", "revision"]:
            return None
        try:
            declared = {name: ast.literal_eval(value.strip()) for name, value in found}
        except (ValueError, SyntaxError):
            return None
        revision, parent = declared["revision"], declared["down_revision"]
        if not isinstance(revision, str) or not (parent is None or isinstance(parent, str)):
            return None
        revisions.add(revision)
        if parent is not None:
            parents.add(parent)
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def declared_head() -> str | None:
    """The head as the version files declare it (no Alembic import); see `_declared_head`."""
    return _declared_head()


def current_revision(db_path: Path) -> str | None:
    if not db_path.exists() or db_path.stat().st_size == 0:
        return None
    try:
        conn = sqlite3.connect(
            f"file:{db_path}?mode=ro", uri=True, timeout=engine.BUSY_TIMEOUT_MS / 1000
        )
        try:
            conn.execute("PRAGMA schema_version").fetchone()  # fails fast on a non-database
            row = conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name='alembic_version'"
            ).fetchone()
            found = (
                None
                if row is None
                else conn.execute("SELECT version_num FROM alembic_version").fetchone()
            )
            if found is None and _has_tables(conn):
                # Migrating it "from nothing" would fail half-way on the existing tables.
                raise BriefDeskError(
                    ErrorCode.STORAGE_CORRUPT,
                    f"{db_path} holds BriefDesk tables but no schema version (its "
                    "alembic_version row is missing), so it cannot be upgraded safely; nothing "
                    "was changed. Restore a backup (state.db.bak-*) or move state.db away to "
                    "start an empty home.",
                )
            return None if found is None else str(found[0])
        finally:
            conn.close()
    except sqlite3.Error as exc:
        mapped = translate_db_error(exc, db_path)
        if mapped is None:
            raise
        raise mapped from None


def _has_tables(conn: sqlite3.Connection) -> bool:
    """Any table besides Alembic's own: a database that is not new."""
    return (
        conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name != 'alembic_version' LIMIT 1"
        ).fetchone()
        is not None
    )


# Generous: the holder may be backing up and migrating a large database.
MIGRATE_LOCK_TIMEOUT_S = 300.0


@contextlib.contextmanager
def _exclusive_lock(lock_path: Path) -> Iterator[None]:
    # flock on POSIX, LockFileEx on Windows: a crashed holder releases it with its process.
    lock = FileLock(lock_path, timeout=MIGRATE_LOCK_TIMEOUT_S)
    try:
        lock.acquire()
    except Timeout:
        raise BriefDeskError(
            ErrorCode.STORAGE_LOCKED,
            f"Another BriefDesk process has been upgrading {lock_path.parent} for over "
            f"{MIGRATE_LOCK_TIMEOUT_S:.0f} s; try again when it has finished.",
        ) from None
    try:
        yield
    finally:
        lock.release()


def backup_database(db_path: Path, revision: str) -> Path:
    """A consistent copy through SQLite's backup API (safe while WAL readers are active)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = db_path.with_name(f"{db_path.name}.bak-{revision}-{stamp}-{os.getpid()}")
    src = sqlite3.connect(db_path)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    return target


def run_migrations(conn: Connection, target: str) -> None:
    """Alembic's upgrade to `target` on an open connection (the caller holds the lock)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, target)


def upgrade(db_path: Path, target: str | None = None) -> None:
    """Upgrade the database to `target` (any known revision; the head by default) under the lock."""
    target = target or head_revision()

    store = Store(db_path)
    try:
        with _exclusive_lock(db_path.with_name(db_path.name + ".migrate.lock")):
            revision = current_revision(db_path)  # again, inside the lock: someone may have won
            if revision == target:
                return
            backup = backup_database(db_path, revision) if revision is not None else None
            try:
                with store.write_engine.connect() as conn:
                    run_migrations(conn, target)
                    conn.commit()
            except Exception:
                # The migration ran in one transaction, now rolled back: the database is as it
                # was, so this attempt's copy is redundant (a read-only or locked database
                # would otherwise gain a new backup on every start).
                if backup is not None:
                    backup.unlink(missing_ok=True)
                raise
    finally:
        store.dispose()


def open_store(where: Path | StoreLocation) -> Store:
    """Open (creating or upgrading as needed) the store of one home, or a team's database."""
    if isinstance(where, StoreLocation):
        if where.kind is StoreKind.POSTGRESQL:
            from agent_core.storage.migrate.team import open_team_store

            return open_team_store(where)
        where = Path(str(where.db_path))
    db_path = where
    db_path.parent.mkdir(parents=True, exist_ok=True)
    revision = current_revision(db_path)
    if revision is not None and revision == _declared_head():
        return Store(db_path)  # up to date: the common case never imports Alembic
    known = known_revisions()
    if revision is not None and revision not in known:
        raise BriefDeskError(
            ErrorCode.STORAGE_TOO_NEW,
            f"{db_path} was written by a newer BriefDesk (schema {revision}; this app knows up "
            f"to {known[-1]}). Upgrade BriefDesk to open it; nothing was changed.",
        )
    if revision != known[-1]:
        try:
            upgrade(db_path)
        except BriefDeskError:
            raise
        except Exception as exc:
            mapped = translate_db_error(exc, db_path) or translate_db_error(
                getattr(exc, "__cause__", None) or exc, db_path
            )
            if mapped is None:
                raise
            raise mapped from None
    return Store(db_path)
