"""The owning process's copy of one run: its progress (cached: only the owner writes it), its
limits and folders. Status changes go through runs/lifecycle.py, never through here."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Unpack

from sqlalchemy import Connection

from agent_core.runs.progress import ProgressChanges, RunLimits, RunProgress
from agent_core.storage.store import Store
from agent_core.storage.tables import runs as run_rows


@dataclass(frozen=True)
class RunFacts:
    """What does not change while a run lives, typed: its folders, mode, model and limits (a
    projection of the record, storage/tables/runs.py `RunRow`, read once by the owner)."""

    run_id: str
    thread_id: str
    question: str
    model: str
    mode: str
    corpus: Path
    artifacts: Path
    limits: RunLimits
    desk: str | None = None
    """The desk the run belonged to when loaded (None: a row from before desks)."""

    @staticmethod
    def of(row: run_rows.RunRow) -> RunFacts:
        return RunFacts(
            run_id=row.run_id,
            thread_id=row.thread_id,
            question=row.question,
            model=row.model,
            mode=row.mode,
            corpus=Path(row.corpus_dir),
            artifacts=Path(row.artifacts_dir),
            limits=RunLimits.loads(row.limits_json),
            desk=row.desk,
        )


class RunRecord:
    """Only the owner of a running run writes its progress, so it is cached here.

    So is the run's cancel flag as the owner last saw it (`cancel_seen`): every progress write
    reads it back in the same statement, and a reload reads it with the row, so a cancel asked
    from another process is seen at the next boundary with no read transaction of its own. It
    starts False: the claim, after this record is made, clears a flag left from before."""

    def __init__(self, store: Store, run_id: str) -> None:
        self.store = store
        self.run_id = run_id
        with store.read() as conn:
            row = run_rows.get_run_row(conn, run_id)
        self.facts = RunFacts.of(row)
        self.progress = RunProgress.loads(row.state_json).checked()  # budgets compare these
        self.cancel_seen = False

    def poll_cancel(self) -> bool:
        """Read the flag now, in a read transaction of its own (a wait with no write in it)."""
        with self.store.read() as conn:
            return self.read_cancel(conn)

    def read_cancel(self, conn: Connection) -> bool:
        """Read the flag in the caller's transaction."""
        self.cancel_seen = run_rows.cancel_requested(conn, self.run_id)
        return self.cancel_seen

    def advance(self, conn: Connection, **changes: Unpack[ProgressChanges]) -> RunProgress:
        """Write the next version of the progress in the caller's transaction."""
        self.progress = self.progress.advance(**changes)
        self.cancel_seen = run_rows.save_progress(conn, self.run_id, self.progress.dumps())
        return self.progress

    def reload(self) -> None:
        """Someone else (an `answer`) may have written while the run was waiting."""
        with self.store.read() as conn:
            row = run_rows.get_run_row(conn, self.run_id)
            self.progress = RunProgress.loads(row.state_json).checked()
            self.cancel_seen = row.cancel_requested
