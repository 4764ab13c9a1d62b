"""What the store does for a run, counted on the driver: syncs, statements, read transactions.

Every sqlite3 connection SQLAlchemy opens while a `StoreCounts` is installed gets a trace
callback (a pool `connect` listener on every engine), so statements run straight on the
driver (storage/prepared.py) are counted as well as SQLAlchemy's. A write transaction is the
store's `BEGIN IMMEDIATE`; one that wrote something and ended in COMMIT is a sync (a durable
commit: WAL `synchronous=FULL` syncs at each). A read transaction is the read engine's
deferred `BEGIN`. Statements are everything else run inside or outside a transaction, but
BEGIN / COMMIT / ROLLBACK and the statements of triggers (traced as `--` comments).

    with StoreCounts() as counts:
        ...  # open the Workspace inside: only connections opened here are traced
    counts.totals  # Tally(syncs=..., write_transactions=..., statements=..., reads=...)

`per_read_call` runs scripted runs of 1 and N+1 search calls (the embedded scripted model)
and divides the difference by N, so a run's start and end are not counted as calls.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import event
from sqlalchemy.pool import ConnectionPoolEntry, Pool

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
SEARCH = {"call": "search_corpus", "args": {"query": "checkpoint", "limit": 1}}


@dataclass
class Tally:
    syncs: int = 0
    """Write transactions that wrote something and committed."""
    write_transactions: int = 0
    """Every BEGIN IMMEDIATE (one that wrote nothing commits without a sync)."""
    statements: int = 0
    """Statements other than BEGIN / COMMIT / ROLLBACK (a trigger's body is its statement's)."""
    reads: int = 0
    """Read transactions (the read engine's deferred BEGIN)."""

    def minus(self, other: Tally) -> Tally:
        return Tally(
            self.syncs - other.syncs,
            self.write_transactions - other.write_transactions,
            self.statements - other.statements,
            self.reads - other.reads,
        )

    def per(self, calls: int) -> dict[str, float]:
        return {
            "syncs": round(self.syncs / calls, 2),
            "write_transactions": round(self.write_transactions / calls, 2),
            "statements": round(self.statements / calls, 2),
            "read_transactions": round(self.reads / calls, 2),
        }


@dataclass
class _Connection:
    """Where one connection is: in a write transaction (and whether it wrote) or not."""

    writing: bool = False
    wrote: bool = False


@dataclass
class StoreCounts:
    totals: Tally = field(default_factory=Tally)
    log: list[str] | None = None
    """With a list here, every traced statement is appended to it (to see what a call runs)."""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __enter__(self) -> StoreCounts:
        event.listen(Pool, "connect", self._on_connect)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        event.remove(Pool, "connect", self._on_connect)

    def snapshot(self) -> Tally:
        with self._lock:
            t = self.totals
            return Tally(t.syncs, t.write_transactions, t.statements, t.reads)

    def _on_connect(self, dbapi_conn: object, _record: ConnectionPoolEntry) -> None:
        if isinstance(dbapi_conn, sqlite3.Connection):
            where = _Connection()
            dbapi_conn.set_trace_callback(lambda sql: self._saw(where, sql))

    def _saw(self, where: _Connection, sql: str) -> None:
        text = sql.lstrip()
        head = text.split(None, 1)[0].upper() if text else ""
        if head.startswith("--"):
            return
        with self._lock:
            if self.log is not None:
                self.log.append(text[:160])
            t = self.totals
            if head == "BEGIN":
                if "IMMEDIATE" in text.upper():
                    t.write_transactions += 1
                    where.writing, where.wrote = True, False
                else:
                    t.reads += 1
            elif head in ("COMMIT", "END"):
                if where.writing and where.wrote:
                    t.syncs += 1
                where.writing = where.wrote = False
            elif head == "ROLLBACK":
                where.writing = where.wrote = False
            else:
                t.statements += 1
                if head in _WRITES or (head == "WITH" and any(w in text.upper() for w in _WRITES)):
                    where.wrote = True


def _script(workdir: Path, calls: int) -> Path:
    path = workdir / f"counted-script-{calls}.json"
    path.write_text(json.dumps([SEARCH] * calls + [{"say": "done"}]))
    return path


def counted_runs(workdir: Path, sizes: list[int], log: list[str] | None = None) -> list[Tally]:
    """What the store did for scripted runs of each number of searches in `sizes`, one home,
    each counted from the claim to the run's end (its creation is not). The home's first
    drive also brings its corpus index up to date: compare later runs."""
    from agent_core.facade.workspace import Workspace

    limits: dict[str, Any] = {"max_turns": 100_000, "max_tool_calls": 100_000}
    tallies: list[Tally] = []
    with StoreCounts() as counts:
        ws = Workspace(workdir / "home-counted")
        try:
            for calls in sizes:
                run_id = ws.create_run(
                    "bench", model=f"scripted:{_script(workdir, calls)}", **limits
                )
                before = counts.snapshot()
                counts.log = log
                run = ws.drive(run_id)
                counts.log = None
                tallies.append(counts.snapshot().minus(before))
                assert run["status"] == "succeeded", run
        finally:
            ws.close()
    return tallies


def per_read_call(workdir: Path, calls: int = 20) -> dict[str, float]:
    """Syncs, statements and read transactions per read call: a run of `calls` + 1 searches
    minus a run of 1, over `calls`."""
    _first, one, many = counted_runs(workdir, [1, 1, calls + 1])  # the first indexes the corpus
    return many.minus(one).per(calls)


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bd-store-counts-") as tmp:
        if "--log" in sys.argv:
            seen: list[str] = []
            counted_runs(Path(tmp), [3], seen)
            print("\n".join(seen))
        print(json.dumps(per_read_call(Path(tmp))))
