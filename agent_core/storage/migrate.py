"""Bring `state.db` to the schema this app knows, safely, before anything else touches it.

Alembic runs only when the stored revision is behind (a cheap sqlite3 look first keeps every
CLI command fast). The upgrade happens under an exclusive file lock, so two processes starting
at once cannot both migrate, and after a backup copy of the database. A database written by a
newer app is refused with `storage_too_new` rather than being half-understood.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.storage import engine
from agent_core.storage.engine import Store, translate_db_error

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
# Oldest first; the last one is the head this app writes.
KNOWN_REVISIONS: tuple[str, ...] = ("0001", "0002")
HEAD = KNOWN_REVISIONS[-1]


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
            if row is None:
                return None
            found = conn.execute("SELECT version_num FROM alembic_version").fetchone()
            return None if found is None else str(found[0])
        finally:
            conn.close()
    except sqlite3.Error as exc:
        mapped = translate_db_error(exc, db_path)
        if mapped is None:
            raise
        raise mapped from None


@contextlib.contextmanager
def _exclusive_lock(lock_path: Path) -> Iterator[None]:
    with open(lock_path, "a+b") as handle:
        try:
            import fcntl
        except ImportError:  # Windows: one process per home is the documented limit there
            yield
            return
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


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


def upgrade(db_path: Path, target: str = HEAD) -> None:
    """Upgrade the database to `target` (any known revision), migrating under the lock."""
    from alembic import command
    from alembic.config import Config

    store = Store(db_path)
    try:
        with _exclusive_lock(db_path.with_name(db_path.name + ".migrate.lock")):
            revision = current_revision(db_path)  # again, inside the lock: someone may have won
            if revision == target:
                return
            backup = backup_database(db_path, revision) if revision is not None else None
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
            try:
                with store.write_engine.connect() as conn:
                    cfg.attributes["connection"] = conn
                    command.upgrade(cfg, target)
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


def open_store(db_path: Path) -> Store:
    """Open (creating or upgrading as needed) the store of one home."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    revision = current_revision(db_path)
    if revision is not None and revision not in KNOWN_REVISIONS:
        raise BriefDeskError(
            ErrorCode.STORAGE_TOO_NEW,
            f"{db_path} was written by a newer BriefDesk (schema {revision}; this app knows up "
            f"to {HEAD}). Upgrade BriefDesk to open it; nothing was changed.",
        )
    if revision != HEAD:
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
