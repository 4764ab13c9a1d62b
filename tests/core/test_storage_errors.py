"""A locked, read-only or corrupt database answers storage_locked / storage_read_only /
storage_corrupt through the CLI as a JSON error, never a traceback.

Read-only as root: permission bits do not stop root, so the database file is made immutable
(`chattr +i`, FS_IMMUTABLE_FL on ext4/xfs/btrfs; root needs CAP_LINUX_IMMUTABLE): the kernel
then refuses every open for writing, whoever asks, which is what SQLite meets on a read-only
file. As a normal user, `chmod a-w` does the same.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from agent_core.facade.workspace import Workspace
from agent_core.storage.migrate.home import upgrade
from tests.support.ci import require_or_skip
from tests.support.cli import CliResult, CliRunner

FAST_BUSY = {"BRIEFDESK_BUSY_TIMEOUT_MS": "300"}


def _assert_error(result: CliResult, code: str) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.code != 0
    assert result.body.get("api") == 1, result.stdout
    assert result.body["error"]["code"] == code, result.body
    assert result.body["error"]["message"]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _settle(home: Path) -> Path:
    """A home whose state.db holds everything (no WAL pending): all connections closed."""
    Workspace(home).close()
    db = home / "state.db"
    assert not (home / "state.db-wal").exists() or (home / "state.db-wal").stat().st_size == 0
    return db


# -- locked ---------------------------------------------------------------------------------

LOCKER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
conn.execute("UPDATE settings SET key = key")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""


def test_a_database_locked_by_another_process_answers_storage_locked(
    home: Path, cli: CliRunner
) -> None:
    _settle(home)
    locker = subprocess.Popen(
        [sys.executable, "-c", LOCKER, str(home / "state.db")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
        started = time.monotonic()
        result = cli("settings", "set", "reviewer", "bob", env=FAST_BUSY)
        _assert_error(result, "storage_locked")
        assert time.monotonic() - started < 8  # the lowered busy timeout, not the 10 s default
        assert cli("runs", env=FAST_BUSY).body == {"api": 1, "runs": []}  # WAL: readers go on
    finally:
        assert locker.stdin is not None
        locker.stdin.write("\n")
        locker.stdin.flush()
        locker.wait(timeout=10)
    assert cli("settings", "get", "reviewer").body["settings"]["reviewer"] != "bob"
    assert cli("settings", "set", "reviewer", "bob").code == 0  # free again: it works


# -- read-only ------------------------------------------------------------------------------


@contextmanager
def _read_only(path: Path) -> Iterator[None]:
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    chattr = shutil.which("chattr")
    made = (
        chattr is not None
        and subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode == 0
    )
    if not made:
        message = "cannot make a file read-only for root (needs chattr and CAP_LINUX_IMMUTABLE)"
        require_or_skip(message)
    try:
        yield
    finally:
        subprocess.run([str(chattr), "-i", str(path)], check=True)


def test_a_read_only_database_answers_storage_read_only(home: Path, cli: CliRunner) -> None:
    db = _settle(home)
    before = _sha256(db)
    with _read_only(db):
        with pytest.raises(OSError):  # really read-only, even for this (root) process
            open(db, "r+b").close()
        _assert_error(cli("settings", "set", "reviewer", "bob"), "storage_read_only")
        assert cli("runs").body == {"api": 1, "runs": []}  # reading still works
    assert _sha256(db) == before


def test_a_read_only_old_database_that_needs_migrating_answers_storage_read_only(
    home: Path, cli: CliRunner
) -> None:
    home.mkdir(parents=True)
    db = home / "state.db"
    upgrade(db, "0001")
    before = _sha256(db)
    with _read_only(db):
        _assert_error(cli("runs"), "storage_read_only")
        _assert_error(cli("runs"), "storage_read_only")
    assert _sha256(db) == before
    assert not list(home.glob("state.db.bak-*"))  # failed attempts leave no copies behind


# -- corrupt --------------------------------------------------------------------------------


def _page_size(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("PRAGMA page_size").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize("where", ["header", "pages"])
def test_a_corrupt_database_answers_storage_corrupt(home: Path, cli: CliRunner, where: str) -> None:
    db = _settle(home)
    page = _page_size(db)
    data = bytearray(db.read_bytes())
    if where == "header":
        data[:100] = b"\xde\xad\xbe\xef" * 25  # the magic string and header fields
    else:
        data[page:] = b"\x5a" * (len(data) - page)  # every b-tree page after the schema's
    db.write_bytes(bytes(data))

    for args in (("runs",), ("settings", "set", "reviewer", "bob"), ("timeline", "run-x")):
        _assert_error(cli(*args), "storage_corrupt")
    assert db.read_bytes() == bytes(data)  # nothing tried to "repair" it


def test_storage_errors_never_print_a_traceback_in_text_mode(home: Path) -> None:
    db = _settle(home)
    db.write_bytes(b"this is not a database at all" * 200)
    proc = CliRunner(home).text("runs")  # a real process: what a terminal would show
    assert proc.code != 0
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "storage_corrupt" in proc.stdout
