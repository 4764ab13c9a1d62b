"""bench_peers.py's counters read real databases and files right (issue 29): a commit is a
write transaction that ends, whoever opened the connection; a line twice is a duplicate."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from benchmarks import peers_workload as wl


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> wl.CommitCounter:
    # Put the real functions back after the test: install() replaces them process-wide.
    monkeypatch.setattr(sqlite3, "connect", sqlite3.connect)
    monkeypatch.setattr(sqlite3.dbapi2, "connect", sqlite3.dbapi2.connect)
    c = wl.CommitCounter()
    c.install()
    return c


def test_commits_count_write_transactions_only(counter: wl.CommitCounter, tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "a.db", isolation_level=None)
    conn.execute("CREATE TABLE t (x INTEGER)")  # autocommit: one commit
    conn.execute("BEGIN")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.execute("INSERT INTO t VALUES (2)")
    conn.execute("COMMIT")  # one transaction, two writes: one commit
    conn.execute("BEGIN")
    conn.execute("SELECT * FROM t").fetchall()
    conn.execute("COMMIT")  # nothing written: no commit
    conn.execute("BEGIN")
    conn.execute("INSERT INTO t VALUES (3)")
    conn.execute("ROLLBACK")
    conn.close()
    assert counter.commits == 2


def test_commits_through_python_and_sqlalchemy_transactions(
    counter: wl.CommitCounter, tmp_path: Path
) -> None:
    legacy = sqlite3.connect(tmp_path / "b.db")  # implicit BEGIN before the INSERT
    legacy.execute("CREATE TABLE t (x INTEGER)")
    legacy.execute("INSERT INTO t VALUES (1)")
    legacy.commit()
    legacy.close()
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'b.db'}")
    with engine.begin() as conn:  # SQLAlchemy connects through sqlite3.dbapi2
        conn.execute(sa.text("INSERT INTO t VALUES (2)"))
    engine.dispose()
    assert counter.commits == 3


def test_live_bytes_grow_with_rows(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x BLOB)")
    conn.commit()
    before = wl.live_bytes(db)
    conn.executemany("INSERT INTO t VALUES (?)", [(b"x" * 4000,) for _ in range(10)])
    conn.commit()
    after = wl.live_bytes(db)
    conn.close()
    assert after - before >= 40_000


def test_line_counts_finds_duplicates_and_losses(tmp_path: Path) -> None:
    log = tmp_path / "lines.txt"
    for line in (1, 2, 2, 4, 4, 4):
        wl.append_line(log, line)
    assert wl.line_counts(log, 5) == (3, 2)  # 2 once extra, 4 twice extra; 3 and 5 lost


def test_growth_pairs_each_long_round_with_the_short_one_of_the_same_round() -> None:
    from benchmarks import peers_report

    # Two rounds ran both sizes (the machine slow, then fast); three more ran the short one only,
    # fast. Each round's own ratio is 1.0; the medians' ratio would say 1.5.
    short = [20.0, 10.0, 10.0, 10.0, 10.0]
    long = [20.0, 10.0]
    assert peers_report.paired(long, short) == 1.0
    assert peers_report.paired([30.0, 10.0], short) == 1.25  # rounds of 1.5x and 1.0x
    assert peers_report.paired([], short) is None


def test_an_idempotent_step_writes_its_effect_once_per_key(tmp_path: Path) -> None:
    # The peers' crash comparison (issue 43): run again after a kill, a step keyed by its
    # identity finds its line and writes nothing; a plain step writes it twice.
    log = tmp_path / "lines.txt"
    wl.append_line(log, 1, key="wf/3")
    wl.append_line(log, 1, key="wf/3")
    wl.append_line(log, 2, key="wf/5")
    wl.append_line(log, 2)
    assert wl.line_counts(log, 3) == (1, 1)  # 2 once extra (the plain one); 3 never written
