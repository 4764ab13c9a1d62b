"""Storage backends under the conformance suite, each built by a factory from a home folder.

A later backend (say, another SQL database behind SQLAlchemy) adds its factory to
BACKEND_FACTORIES; `suite.py` then runs against it unchanged, and so do the child processes in
`writer_child.py`, which rebuild their backend by name. A backend offers the storage API the
app uses (a Store with write()/read() transactions, a CheckpointStore) plus raw SQL for the
tampering a test needs (a status reset, a stale runtime version), which the app never does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import text

from agent_core.contract.statuses import RunStatus
from agent_core.home.clock import now_iso
from agent_core.home.config import Home
from agent_core.runs.progress import RunProgress
from agent_core.storage.migrate.home import open_store
from agent_core.storage.store import Store
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.checkpoints import CheckpointStore

REPO_ROOT = Path(__file__).resolve().parents[3]
DEMO_QUESTION = "How do checkpoints make agent runs durable?"


@dataclass
class StorageBackend:
    name: str
    home: Path
    store: Store
    checkpoints: CheckpointStore
    open_workspace: Callable[[], Any]

    def workspace(self) -> Any:
        return self.open_workspace()

    def execute(self, sql: str, **params: Any) -> int:
        """Raw SQL outside the app's code paths; returns the number of rows changed."""
        with self.store.write() as conn:
            return int(conn.execute(text(sql), params).rowcount)

    def rows(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        with self.store.read() as conn:
            return [tuple(r) for r in conn.execute(text(sql), params)]

    def scalar(self, sql: str, **params: Any) -> Any:
        with self.store.read() as conn:
            return conn.execute(text(sql), params).scalar()

    def close(self) -> None:
        self.store.dispose()


def sqlite_backend(home: Path) -> StorageBackend:
    layout = Home(home)
    layout.ensure()
    store = open_store(layout.db_path)

    def open_workspace() -> Any:
        from agent_core.facade.workspace import Workspace

        return Workspace(home)

    return StorageBackend("sqlite", home, store, CheckpointStore(store), open_workspace)


def postgresql_backend(home: Path) -> StorageBackend:
    """A team database on the session's real PostgreSQL server, chosen by the home's `db.url`
    setting (as a desk would be set up), so a child process given the same home finds it."""
    from agent_core.facade.workspace import Workspace
    from agent_core.storage.location import parse_db_url

    layout = Home(home)
    if not layout.db_path.exists():
        from tests.support import pg

        url = pg.server().create_database()
        setup = Workspace(home)
        setup.set_setting("db.url", url)
        setup.close()
    probe = Workspace(home)
    url = str(probe.settings().db_url)
    probe.close()
    store = open_store(parse_db_url(url))

    def open_workspace() -> Any:
        return Workspace(home)

    return StorageBackend("postgresql", home, store, CheckpointStore(store), open_workspace)


BACKEND_FACTORIES: dict[str, Callable[[Path], StorageBackend]] = {
    "sqlite": sqlite_backend,
    "postgresql": postgresql_backend,
}


def insert_run(backend: StorageBackend, run_id: str, *, status: str = "interrupted") -> None:
    """A run row written the way Workspace.create_run writes it, without the agent."""
    state = {**RunProgress().to_json(), "counter": 0}
    with backend.store.write() as conn:
        run_rows.insert_run(
            conn,
            run_rows.RunRow(
                run_id=run_id,
                thread_id="th-" + run_id,
                status=RunStatus(status),
                question="conformance",
                model="offline",
                mode="default",
                corpus_dir=str(backend.home / "corpus"),
                artifacts_dir=str(backend.home / "artifacts"),
                limits_json=json.dumps(
                    {"max_turns": 50, "max_tool_calls": 100, "max_seconds": 900}
                ),
                state_json=json.dumps(state),
                created_at=now_iso(),
                updated_at=now_iso(),
            ),
        )


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRIEFDESK_")}
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def spawn_writer(backend: StorageBackend, *args: str) -> subprocess.Popen[str]:
    """Start writer_child.py on this backend's home; it prints `ready`, then waits for `go`."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.core.conformance.writer_child",
            backend.name,
            str(backend.home),
            *args,
        ],
        cwd=REPO_ROOT,
        env=child_env(),
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def wait_ready(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if line != "ready":
        proc.kill()
        _, err = proc.communicate(timeout=10)
        raise AssertionError(f"writer child did not start: {line!r}\n{err}")


def release(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()
