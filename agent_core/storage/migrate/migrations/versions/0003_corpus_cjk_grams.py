"""The corpus index finds Chinese and Japanese words: a `cjk` column of character bigrams.

The FTS5 table is rebuilt (a virtual table cannot gain a column) and `corpus_docs` is emptied,
so every existing home reindexes its corpus at its next search; the index is derived data,
rebuilt from the files themselves, and nothing else refers to it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

OLD_CORPUS_FTS = (
    "CREATE VIRTUAL TABLE corpus_fts USING fts5("
    "corpus_root UNINDEXED, source_id UNINDEXED, title, body, tokenize='porter unicode61')"
)
NEW_CORPUS_FTS = (
    "CREATE VIRTUAL TABLE corpus_fts USING fts5("
    "corpus_root UNINDEXED, source_id UNINDEXED, title, body, cjk, tokenize='porter unicode61')"
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":  # the corpus index is on each desk (0002)
        return
    op.execute("DROP TABLE corpus_fts")
    op.execute(NEW_CORPUS_FTS)
    op.execute("DELETE FROM corpus_docs")  # reindex everything at the next search


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP TABLE corpus_fts")
    op.execute(OLD_CORPUS_FTS)
    op.execute("DELETE FROM corpus_docs")
