"""`storage/schema.py` (Alembic's target_metadata) describes exactly what the migrations build.

A brand-new home is opened the way the app opens it (`open_store` runs every migration up to
head), then Alembic's autogenerate comparison must find nothing to do. The mutation tests prove
the comparison would notice a difference of each kind we care about, so a green drift test
means agreement, not a blind comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Column, Connection, Index, Integer, MetaData, String, Text, text

from agent_core.home.config import Home
from agent_core.storage import schema
from agent_core.storage.migrate.home import open_store
from agent_core.storage.migrate.revisions import head_revision
from agent_core.storage.store import Store


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    opened = open_store(Home(tmp_path_factory.mktemp("drift") / "home").db_path)
    yield opened
    opened.dispose()


@pytest.fixture
def conn(store: Store) -> Iterator[Connection]:
    with store.read() as connection:
        yield connection


def _fts_tables(conn: Connection) -> set[str]:
    """FTS5 virtual tables and their shadow tables, as SQLite itself classifies them."""
    rows = conn.exec_driver_sql("PRAGMA table_list").all()
    return {str(row.name) for row in rows if row.type in ("virtual", "shadow")}


def _diff(conn: Connection, metadata: MetaData) -> list[tuple[Any, ...]]:
    # The FTS5 tables are made by raw SQL in the migrations: SQLAlchemy cannot describe a
    # virtual table, and reflection sees it (and the _data/_idx/_content/_docsize/_config
    # shadow tables SQLite keeps for it) as plain tables with untyped columns, so they are
    # left out here and checked by tests/core/test_storage_fts.py. alembic_version is
    # Alembic's bookkeeping, not ours (Alembic skips it itself; named here to be explicit).
    fts = _fts_tables(conn) if conn.dialect.name == "sqlite" else set()  # none on PostgreSQL
    skipped = fts | {"alembic_version"}

    def include_name(name: str | None, type_: str, _parents: Any) -> bool:
        return not (type_ == "table" and name in skipped)

    context = MigrationContext.configure(
        conn,
        opts={
            "compare_type": True,
            "compare_server_default": True,
            "include_name": include_name,
        },
    )
    diffs: list[Any] = compare_metadata(context, metadata)
    # Column changes come grouped per column as a list of tuples; flatten them.
    return [op for diff in diffs for op in (diff if isinstance(diff, list) else [diff])]


def test_new_database_is_at_head(conn: Connection) -> None:
    version = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar_one()
    assert version == head_revision()


def test_migrations_build_exactly_the_schema(conn: Connection) -> None:
    assert _diff(conn, schema.metadata) == []


def test_fts_filter_skips_only_the_index_tables(conn: Connection) -> None:
    # The filter must not hide a real table: everything it skips belongs to an FTS5 index.
    skipped = _fts_tables(conn)
    assert skipped, "no FTS5 tables found: the filter would hide nothing and check nothing"
    assert all(name.startswith(("memories_fts", "corpus_fts")) for name in skipped)
    assert not skipped & set(schema.metadata.tables)


def _copy() -> MetaData:
    copy = MetaData()
    for table in schema.metadata.sorted_tables:
        table.to_metadata(copy)
    return copy


def _replace(table: str, column: Column[Any]) -> Callable[[MetaData], None]:
    return lambda md: md.tables[table].append_column(column, replace_existing=True)


def _drop_index(table: str, name: str) -> Callable[[MetaData], None]:
    def mutate(md: MetaData) -> None:
        md.tables[table].indexes -= {ix for ix in md.tables[table].indexes if ix.name == name}

    return mutate


def _add_index(table: str, column: str) -> Callable[[MetaData], None]:
    def mutate(md: MetaData) -> None:
        Index(f"ix_{table}_{column}", md.tables[table].c[column])  # joins its table itself

    return mutate


MUTATIONS: dict[str, tuple[Callable[[MetaData], None], str]] = {
    "type": (_replace("events", Column("kind", Integer, nullable=False)), "modify_type"),
    "text type": (_replace("runs", Column("model", Text, nullable=False)), "modify_type"),
    "nullability": (_replace("events", Column("tool", String, nullable=False)), "modify_nullable"),
    "server default": (
        _replace("runs", Column("cancel_requested", Integer, nullable=False, server_default="1")),
        "modify_default",
    ),
    "missing server default": (
        _replace("runs", Column("cancel_requested", Integer, nullable=False)),
        "modify_default",
    ),
    "new column": (_replace("rules", Column("note", Text, nullable=True)), "add_column"),
    "composite index": (_drop_index("approvals", "ix_approvals_thread_hash"), "remove_index"),
    "column index": (_drop_index("events", "ix_events_run_id"), "remove_index"),
    "extra index": (_add_index("memories", "key"), "add_index"),
    "missing table": (lambda md: md.remove(md.tables["settings"]), "remove_table"),
}


@pytest.mark.parametrize("kind", MUTATIONS)
def test_the_comparison_reports_a_changed_schema(conn: Connection, kind: str) -> None:
    mutate, expected = MUTATIONS[kind]
    altered = _copy()
    mutate(altered)
    assert [op[0] for op in _diff(conn, altered)] == [expected]


def test_the_comparison_reads_the_real_database(store: Store) -> None:
    # A table added behind the metadata's back is reported: the diff reads the file itself.
    with store.write() as conn:
        conn.execute(text("CREATE TABLE drift_probe (id INTEGER PRIMARY KEY)"))
    try:
        with store.read() as conn:
            assert [op[0] for op in _diff(conn, schema.metadata)] == ["remove_table"]
    finally:
        with store.write() as conn:
            conn.execute(text("DROP TABLE drift_probe"))


def test_migrations_build_exactly_the_schema_on_postgresql(pg_url: str) -> None:
    """The same comparison on a team database the migrations built (pg_url: a real server)."""
    from agent_core.storage.location import parse_db_url

    team = open_store(parse_db_url(pg_url))
    try:
        with team.read() as conn:
            assert _diff(conn, schema.metadata) == []
            altered = _copy()  # not blind there either: a table it lacks is reported
            altered.remove(altered.tables["grants"])
            assert [op[0] for op in _diff(conn, altered)] == ["remove_table"]
    finally:
        team.dispose()
