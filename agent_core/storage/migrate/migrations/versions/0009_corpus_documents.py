"""The corpus reads PDF, Word, OpenDocument, HTML, EPUB and RTF: pages, statuses, errors.

- `corpus_docs` gains what `corpus list` shows of a document: its `doc_type`, its `pages`
  (paged documents), the `chars` of text indexed, its `status` (`indexed` or `failed`) and, for
  a failed one, `error_code` and `error_message`. `sha256` is now the hash of the file's bytes,
  so a file touched but not changed is not extracted again.
- `corpus_pages` holds the text, one row per page of a paged document (one row, page 0, for
  any other), so `read_document` reads pages by key instead of scanning the full-text table.
- `corpus_fts` is rebuilt as an external-content FTS5 index over `corpus_pages` (the text is
  stored once). Like 0003, `corpus_docs` is emptied: every home reindexes its corpus, which is
  derived data rebuilt from the files themselves.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

S, T, INT = sa.String, sa.Text, sa.Integer

OLD_CORPUS_FTS = (
    "CREATE VIRTUAL TABLE corpus_fts USING fts5("
    "corpus_root UNINDEXED, source_id UNINDEXED, title, body, cjk, tokenize='porter unicode61')"
)
NEW_CORPUS_FTS = (
    "CREATE VIRTUAL TABLE corpus_fts USING fts5(title, body, cjk, content='corpus_pages', "
    "content_rowid='id', tokenize='porter unicode61')"
)
_NEW_COLUMNS = (
    sa.Column("doc_type", S, nullable=False, server_default=sa.text("''")),
    sa.Column("pages", INT),
    sa.Column("chars", INT),
    sa.Column("status", S, nullable=False, server_default="indexed"),
    sa.Column("error_code", S),
    sa.Column("error_message", T),
)


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.execute("DROP TABLE corpus_fts")
    op.execute("DELETE FROM corpus_docs")  # reindex everything at the next refresh
    for column in _NEW_COLUMNS:
        op.add_column("corpus_docs", column)
    op.create_table(
        "corpus_pages",
        sa.Column("id", INT, primary_key=True, autoincrement=True),
        sa.Column("corpus_root", T, nullable=False),
        sa.Column("source_id", T, nullable=False),
        sa.Column("page", INT, nullable=False),
        sa.Column("title", T, nullable=False),
        sa.Column("body", T, nullable=False),
        sa.Column("cjk", T, nullable=False),
    )
    op.create_index(
        "ix_corpus_pages_doc", "corpus_pages", ["corpus_root", "source_id", "page"], unique=True
    )
    if sqlite:
        op.execute(NEW_CORPUS_FTS)


def downgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.execute("DROP TABLE corpus_fts")
    op.drop_index("ix_corpus_pages_doc", "corpus_pages")
    op.drop_table("corpus_pages")
    op.execute("DELETE FROM corpus_docs")
    with op.batch_alter_table("corpus_docs") as batch:
        for column in reversed(_NEW_COLUMNS):
            batch.drop_column(column.name)
    if sqlite:
        op.execute(OLD_CORPUS_FTS)
