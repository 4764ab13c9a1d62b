"""Statements of the hot path, compiled once per dialect and run straight on the driver.

A checkpoint is written at every tool boundary. Building a Core statement, computing its cache
key and setting up a result object cost more than the durable commit itself (see
benchmarks/bench_checkpoint.py), so those few statements are compiled once from the same Table
objects (one schema, any dialect) and executed on the DB-API cursor of the caller's connection,
inside the transaction SQLAlchemy manages. Errors are the driver's own (`sqlite3.Error`), which
`Store` maps to stable codes as it does for every statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sqlalchemy import Connection
from sqlalchemy.sql.compiler import Compiled
from sqlalchemy.sql.expression import Executable

Param = str | int | float | bytes | None


class DriverCursor(Protocol):
    """What the hot path reads back from a DB-API cursor."""

    lastrowid: int | None
    rowcount: int

    def fetchone(self) -> tuple[object, ...] | None: ...


class Prepared:
    """One statement; `keys` names the columns of an INSERT given without `.values()`."""

    def __init__(self, statement: Executable, keys: Sequence[str] | None = None) -> None:
        self.statement = statement
        self.keys = list(keys) if keys is not None else None
        self._compiled: dict[str, tuple[Compiled, dict[str, object]]] = {}

    def __call__(self, conn: Connection, **params: Param) -> DriverCursor:
        found = self._compiled.get(conn.dialect.name)
        if found is None:
            compiled = self.statement.compile(  # type: ignore[attr-defined]
                dialect=conn.dialect, column_keys=self.keys
            )
            # Values fixed in the statement itself (a LIMIT, a constant) are binds too.
            found = self._compiled[conn.dialect.name] = (compiled, dict(compiled.params))
        compiled, fixed = found
        values = {**fixed, **params}
        order = compiled.positiontup  # type: ignore[attr-defined]
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        if order is not None:  # qmark / numeric drivers (sqlite3)
            cursor.execute(compiled.string, tuple(values[k] for k in order))
        else:
            cursor.execute(compiled.string, values)
        return cursor  # type: ignore[return-value]

    def scalar(self, conn: Connection, **params: Param) -> object:
        """The first column of the first row, or None."""
        row = self(conn, **params).fetchone()
        return None if row is None else row[0]
