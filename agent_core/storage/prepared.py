"""Statements of the hot path, compiled once per dialect and run straight on the driver.

A checkpoint is written at every tool boundary. Building a Core statement, computing its cache
key and setting up a result object cost more than the durable commit itself (see
benchmarks/bench_checkpoint.py), so those few statements are compiled once from the same Table
objects (one schema, any dialect) and executed on the DB-API cursor of the caller's connection,
inside the transaction SQLAlchemy manages. Errors are the driver's own (`sqlite3.Error`,
`psycopg.Error`), which `Store` maps to stable codes as it does for every statement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from sqlalchemy import Connection
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement
from sqlalchemy.sql.expression import Executable

Param = str | int | float | bytes | None


class DriverCursor(Protocol):
    """What the hot path reads back from a DB-API cursor."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> tuple[object, ...] | None: ...


# One compiled form: SQL text, bind names in positional order (None for named paramstyles),
# and the values fixed in the statement itself (a LIMIT, a constant), which are binds too; a
# bind the caller leaves out is None, as SQLAlchemy would send it.
_Compiled = tuple[str, tuple[str, ...] | None, dict[str, object]]


class Prepared:
    """One statement; `keys` names the columns of an INSERT given without `.values()`."""

    def __init__(self, statement: Executable, keys: Sequence[str] | None = None) -> None:
        self.statement = statement
        self.keys = list(keys) if keys is not None else None
        self._compiled: dict[str, _Compiled] = {}

    def _compile(self, conn: Connection) -> _Compiled:
        statement = self.statement
        assert isinstance(statement, ClauseElement)  # an INSERT, UPDATE or SELECT of a Table
        compiled = statement.compile(dialect=conn.dialect, column_keys=self.keys)
        assert isinstance(compiled, SQLCompiler)
        order = compiled.positiontup
        if order is None:  # named paramstyle: every bind, in one dict
            found: _Compiled = (compiled.string, None, dict(compiled.params))
        else:
            fixed = {k: v for k, v in compiled.params.items() if v is not None}
            found = (compiled.string, tuple(order), fixed)
        self._compiled[conn.dialect.name] = found
        return found

    def __call__(self, conn: Connection, **params: Param) -> DriverCursor:
        # Per call: no statement object, no result object, no dict copy unless constants.
        found = self._compiled.get(conn.dialect.name) or self._compile(conn)
        sql, order, fixed = found
        values: Mapping[str, object] = {**fixed, **params} if fixed else params
        driver = conn.connection.dbapi_connection
        assert driver is not None  # a connection inside a transaction is always open
        cursor = driver.cursor()
        if order is not None:  # qmark / numeric drivers (sqlite3)
            cursor.execute(sql, [values.get(k) for k in order])
        else:
            cursor.execute(sql, values)
        return cursor

    def scalar(self, conn: Connection, **params: Param) -> object:
        """The first column of the first row, or None."""
        row = self(conn, **params).fetchone()
        return None if row is None else row[0]
