"""`db copy`: move a home's store into an empty team database, nothing lost, and prove it.

What is copied: every table a team shares (`TEAM_TABLES`): runs with their timelines,
checkpoints, session items, tool calls, proposals, side-effect ledger, blobs, remembered rules,
grants, the audit log and the watcher's sightings, ids and `seq` numbers as they are. What stays:
the desk's own tables (`DESK_TABLES`: its preferences, which include `db.url` itself; its
long-term memory; its corpus index, whose full-text half exists only in SQLite), which a desk
keeps in its home's file in team mode too, and `leases` (liveness of desks on the source,
which means nothing to another database).

All or nothing: the copy is one transaction on the target, holding the team's writer lock.
The source is read in one read transaction (one snapshot), in batches. Before the commit,
each table is read back from the target and compared with what was read from the source: row
count and a content hash (sha256 over the sorted digests of canonically encoded rows, so
neither side's collation decides the order). Any difference rolls the whole copy back.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypedDict

from sqlalchemy import Connection, Float, Table, insert, select, text
from sqlalchemy.types import TypeEngine

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonValue
from agent_core.contract.statuses import RunStatus
from agent_core.storage.location import StoreKind, StoreLocation
from agent_core.storage.schema import (
    approvals,
    artifact_sightings,
    audit,
    blobs,
    checkpoints,
    corpus_docs,
    corpus_pages,
    desk_bindings,
    events,
    grants,
    leases,
    ledger,
    mcp_servers,
    memories,
    rules,
    run_mcp_tools,
    runs,
    session_items,
    settings,
    tool_calls,
    turn_responses,
)
from agent_core.storage.store import Store
from agent_core.storage.tables import runs as run_rows

TEAM_TABLES: tuple[Table, ...] = (
    runs,
    events,
    checkpoints,
    session_items,
    tool_calls,
    approvals,
    ledger,
    run_mcp_tools,
    turn_responses,
    blobs,
    rules,
    grants,
    audit,
    artifact_sightings,
)
"""Copied, in this order (no foreign keys: the order only makes a report read naturally)."""

DESK_TABLES: tuple[Table, ...] = (settings, memories, corpus_docs, corpus_pages, mcp_servers)
"""Stay in the home: a desk keeps its preferences, memory, corpus index and MCP servers in team
mode too."""

NOT_COPIED: tuple[Table, ...] = (leases, desk_bindings)
"""Liveness of the source's desks, and which roles drive them: a new database starts with
none (the database binds each desk to the role that first drives it)."""

# Rows whose desk is null were written before team mode and belong to the desk of their home:
# the desk that copies them (the contract's "runs are resumed only by their desk").
_STAMPED_WITH_DESK = frozenset({"runs", "approvals"})

BATCH_ROWS = 500
BATCH_BYTES = 8 << 20  # blobs can be large: a batch stops at ~8 MB whatever its row count


class StoreCopyView(TypedDict):
    """`db copy` as the CLI prints it."""

    copied: dict[str, int]
    """Rows copied, per table."""
    verified: bool
    """Counts and content hashes of every table matched on both sides (else nothing is kept)."""
    to: str
    """The target database's URL, without its password."""
    source: str
    """The store copied from (the home's SQLite file, or the database the command opened)."""


@dataclass(frozen=True)
class TableCheck:
    """What one side holds of one table: how many rows, and the hash of their content."""

    rows: int
    digest: str


@dataclass(frozen=True)
class CopyReport:
    copied: dict[str, TableCheck]
    to: StoreLocation
    source: StoreLocation

    def to_json(self) -> StoreCopyView:
        return StoreCopyView(
            copied={name: check.rows for name, check in self.copied.items()},
            verified=True,  # a report exists only for a copy whose checks all passed
            to=self.to.shown,
            source=self.source.shown,
        )


def copy_store(source: Store, target_location: StoreLocation, *, desk: str) -> CopyReport:
    """Copy `source` into the empty team database at `target_location` (migrated first)."""
    from agent_core.storage.migrate.home import open_store

    if target_location.kind is not StoreKind.POSTGRESQL:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "db copy --to takes a PostgreSQL URL.")
    if _same_database(source.location, target_location):
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"{target_location.shown} is the store this command opened: copy into another "
            "database.",
        )
    target = open_store(target_location)  # an empty database is initialised here
    try:
        with target.write() as out:
            _refuse_not_empty(out, target_location)
            with source.read() as src:
                _one_snapshot(src)
                _refuse_live_runs(src, desk)
                sent = {t.name: _copy_table(src, out, t, desk) for t in TEAM_TABLES}
            _reset_sequences(out)
            for table in TEAM_TABLES:  # read back before the commit: a difference keeps nothing
                _verify(table, sent[table.name], _check_table(_rows_of(out, table), table))
    finally:
        target.dispose()
    return CopyReport(sent, target_location, source.location)


def _verify(table: Table, sent: TableCheck, found: TableCheck) -> None:
    if found == sent:
        return
    what = "its content hash differs" if found.rows == sent.rows else "rows are missing"
    raise BriefDeskError(
        ErrorCode.STORAGE_CORRUPT,
        f"The copy of table {table.name} does not match its source ({sent.rows} rows sent, "
        f"{found.rows} read back: {what}). Nothing was kept in the target database; the "
        "source is unchanged.",
    )


def _same_database(a: StoreLocation, b: StoreLocation) -> bool:
    if a.kind is not b.kind:
        return False
    keys = ("host", "port", "database")
    return all(getattr(a.url, k) == getattr(b.url, k) for k in keys)


def _refuse_not_empty(conn: Connection, where: StoreLocation) -> None:
    for table in TEAM_TABLES:
        if conn.execute(select(text("1")).select_from(table).limit(1)).first() is not None:
            raise BriefDeskError(
                ErrorCode.DATABASE_NOT_EMPTY,
                f"{where.shown} already holds BriefDesk data (its table {table.name} has rows): "
                "db copy only fills an empty database, so nothing of a team is overwritten or "
                "mixed. Create a new database for the copy; nothing was changed.",
            )


def _one_snapshot(conn: Connection) -> None:
    """Every table read as of one moment. SQLite's deferred read transaction is a snapshot
    from its first read; PostgreSQL's default (read committed) is not, so ask for it."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")


def _refuse_live_runs(conn: Connection, desk: str) -> None:
    """A run being driven now would go on writing to the source after the copy was taken."""
    from agent_core.storage.team.leases import seen_from

    book = seen_from(conn, desk)  # a team database as the source: its desks' leases
    for row in run_rows.running_rows(conn):
        if run_rows.effective_status(row, book) is RunStatus.RUNNING:
            raise BriefDeskError(
                ErrorCode.RUN_IN_PROGRESS,
                f"Run {row.run_id} is running now: let it stop (or cancel it), then copy, so "
                "nothing it writes afterwards is left behind. Nothing was copied.",
            )


def _rows_of(conn: Connection, table: Table) -> Iterator[dict[str, object]]:
    # yield_per: the source streams (a server-side cursor on PostgreSQL), never whole tables.
    result = conn.execute(select(table).execution_options(yield_per=BATCH_ROWS))
    for row in result:
        yield dict(row._mapping)


def _copy_table(src: Connection, out: Connection, table: Table, desk: str) -> TableCheck:
    stamp = table.name in _STAMPED_WITH_DESK
    digests: list[bytes] = []
    batch: list[dict[str, object]] = []
    size = 0
    for values in _rows_of(src, table):
        if stamp and values.get("desk") is None:
            values["desk"] = desk
        digests.append(_row_digest(table, values))
        batch.append(values)
        size += sum(len(v) for v in values.values() if isinstance(v, (bytes, str)))
        if len(batch) >= BATCH_ROWS or size >= BATCH_BYTES:
            out.execute(insert(table), batch)
            batch, size = [], 0
    if batch:
        out.execute(insert(table), batch)
    return _summary(digests)


def _check_table(rows: Iterator[dict[str, object]], table: Table) -> TableCheck:
    return _summary([_row_digest(table, values) for values in rows])


def _summary(digests: list[bytes]) -> TableCheck:
    whole = hashlib.sha256()
    for digest in sorted(digests):
        whole.update(digest)
    return TableCheck(len(digests), whole.hexdigest())


def _row_digest(table: Table, values: dict[str, object]) -> bytes:
    """sha256 of one row, encoded the same whatever the backend returned it as."""
    encoded = [_canonical(values[column.name], column.type) for column in table.columns]
    return hashlib.sha256(json.dumps(encoded, ensure_ascii=False).encode("utf-8")).digest()


def _canonical(value: object, kind: TypeEngine[object]) -> JsonValue:
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"bytes": hashlib.sha256(bytes(value)).hexdigest()}
    if isinstance(kind, Float) and isinstance(value, (int, float)):
        return {"float": float(value).hex()}  # exact: no decimal rounding on either side
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, (int, str)):
        return value
    return {type(value).__name__: str(value)}


def _reset_sequences(conn: Connection) -> None:
    """Ids were copied as they were: each id sequence continues past the largest, so the next
    event, checkpoint or audit entry written on the team database gets a new number."""
    for table in TEAM_TABLES:
        column = table.autoincrement_column
        if column is None:
            continue
        conn.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence(:table, :column), "
                f'COALESCE((SELECT MAX("{column.name}") FROM "{table.name}"), 0) + 1, false)'
            ),
            {"table": table.name, "column": column.name},
        )
