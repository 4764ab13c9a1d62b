"""A PostgreSQL cluster of one test's own, to stop and start under a running desk.

Never the session's server (tests/support/pg.py): other tests use that one at the same time.
A cluster costs about a second to create (initdb, no fsync). Its admin logs in through a
passfile that also holds the session server's line, so in-process Workspaces (PGPASSFILE is
read by libpq) reach both, and child processes get it in their environment.

`StoppingPlanner` stands in for the model of a running desk and stops the server between two
of the run's writes, while the run waits for the model's answer.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from agent_core.models.planned import History, TurnPlan
from tests.support import pg_cluster
from tests.support.ci import require_or_skip
from tests.support.fake_openai import offline_planner


@dataclass(frozen=True)
class OwnCluster:
    root: Path
    port: int
    passfile: Path
    """Both servers' admin lines: the session's and this cluster's."""

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{pg_cluster.ADMIN}@127.0.0.1:{self.port}/{database}"

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Like an administrator's restart: connections are ended, the server goes away."""
        pg_cluster.pg_ctl(self.root, "-m", "fast", "-w", "stop")

    def start(self) -> None:
        pg_cluster.pg_ctl(self.root, "-w", "start")


@contextmanager
def own_cluster(monkeypatch: pytest.MonkeyPatch) -> Iterator[OwnCluster]:
    """A cluster of this test's own (stopped and removed afterwards); PGPASSFILE covers it."""
    if pg_cluster.server_bindir() is None:
        require_or_skip("PostgreSQL's server is not installed (apt-get install postgresql)")
    # Not under pytest's tmp_path: the server runs as its own user, who cannot enter it.
    root = Path(tempfile.mkdtemp(prefix="briefdesk-own-pg-"))
    try:
        cluster = pg_cluster.start(root)
        passfile = root / "both.pgpass"
        before = os.environ.get("PGPASSFILE")
        lines = Path(before).read_text() if before and Path(before).is_file() else ""
        passfile.write_text(lines + cluster.passfile.read_text())
        passfile.chmod(0o600)
        monkeypatch.setenv("PGPASSFILE", str(passfile))
        yield OwnCluster(root, cluster.port, passfile)
    finally:
        pg_cluster.stop(root)


class StoppingPlanner:
    """Plays the offline model's workflow; asked for turn `step + 1`, it first notes the run's
    timeline so far and stops the server (once): the run then waits for this answer between
    two of its writes, and its next write finds no server."""

    def __init__(self, cluster: OwnCluster, db: str, step: int = 2) -> None:
        self.cluster, self.db, self.step = cluster, db, step
        self.before: list[tuple[int, str]] | None = None

    def __call__(self, history: History) -> TurnPlan:
        if history.steps_taken == self.step and self.before is None:
            with psycopg.connect(self.cluster.url(self.db)) as conn:
                rows = conn.execute("SELECT seq, kind FROM events ORDER BY seq").fetchall()
            self.before = [(int(seq), str(kind)) for seq, kind in rows]
            self.cluster.stop()
        return offline_planner(history)
