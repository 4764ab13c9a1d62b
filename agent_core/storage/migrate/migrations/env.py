"""Alembic environment: always handed an open connection by storage.migrate.

`schema.metadata` is the target: `alembic revision --autogenerate` diffs against it, and
tests/core/test_schema_drift.py checks that the migrations build exactly what it describes.
"""

from __future__ import annotations

from alembic import context

from agent_core.storage import schema

connection = context.config.attributes["connection"]
if connection.dialect.name == "postgresql":
    schema.add_postgresql_options()  # partial indexes, for `--autogenerate` against a server
context.configure(connection=connection, target_metadata=schema.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
