"""INSERT ... ON CONFLICT for the store's dialect: SQLite and PostgreSQL spell it alike, but
SQLAlchemy builds it from each dialect's own `insert`. PostgreSQL's dialect is imported only
for a PostgreSQL connection: it costs a home's SQLite processes (a hook's read) ~80 ms."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import Connection, Table
from sqlalchemy.dialects import sqlite

if TYPE_CHECKING:
    from sqlalchemy.dialects import postgresql


def insert_for(conn: Connection, table: Table) -> sqlite.Insert | postgresql.Insert:
    """An INSERT of `table` that offers `on_conflict_do_nothing` / `on_conflict_do_update`."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(table)
    return sqlite.insert(table)
