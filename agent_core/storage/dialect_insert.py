"""INSERT ... ON CONFLICT for the store's dialect: SQLite and PostgreSQL spell it alike, but
SQLAlchemy builds it from each dialect's own `insert`."""

from __future__ import annotations

from sqlalchemy import Connection, Table
from sqlalchemy.dialects import postgresql, sqlite


def insert_for(conn: Connection, table: Table) -> sqlite.Insert | postgresql.Insert:
    """An INSERT of `table` that offers `on_conflict_do_nothing` / `on_conflict_do_update`."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)
