"""Bring `state.db` to the schema this app knows, safely, before anything else touches it.

Alembic runs only when the stored revision is behind (a cheap sqlite3 look first keeps every
CLI command fast). The upgrade happens under an exclusive file lock, so two processes starting
at once cannot both migrate, and after a backup copy of the database. A database written by a
newer app is refused with `storage_too_new` rather than being half-understood. The revisions
this app knows are the migrations folder's, as Alembic's ScriptDirectory reads them.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.storage import store as store_base
from agent_core.storage.location import StoreKind, StoreLocation
from agent_core.storage.migrate.revisions import (
    declared_head,
    head_revision,
    known_revisions,
    run_migrations,
)
from agent_core.storage.sqlite import SqliteStore, translate_db_error
from agent_core.storage.store import Store

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


def current_revision(db_path: Path) -> str | None:
    if not db_path.exists() or db_path.stat().st_size == 0:
        return None
    try:
        conn = sqlite3.connect(
            f"file:{db_path}?mode=ro", uri=True, timeout=store_base.BUSY_TIMEOUT_MS / 1000
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
    # Imported here: only an upgrade takes it, and every command (a hook's read) opens a store.
    from filelock import FileLock, Timeout

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


def upgrade(db_path: Path, target: str | None = None) -> None:
    """Upgrade the database to `target` (any known revision; the head by default) under the lock."""
    target = target or head_revision()

    store = SqliteStore(db_path)
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
    if revision is not None and revision == declared_head():
        return SqliteStore(db_path)  # up to date: the common case never imports Alembic
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
    return SqliteStore(db_path)
