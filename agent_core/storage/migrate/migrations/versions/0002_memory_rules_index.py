"""Long-term memory (+ FTS index), remembered rules, corpus index, artifact sightings.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

S, T, INT = sa.String, sa.Text, sa.Integer


def on_sqlite() -> bool:
    """FTS5 tables exist on SQLite only: a team database holds no corpus index or memory."""
    return op.get_bind().dialect.name == "sqlite"


def upgrade() -> None:
    op.create_table(
        "rules",
        sa.Column("id", S, primary_key=True),
        sa.Column("tool", S, nullable=False),
        sa.Column("folder", T, nullable=False),
        sa.Column("scope", S, nullable=False),
        sa.Column("run_id", S),
        sa.Column("created_by", S, nullable=False),
        sa.Column("created_at", S, nullable=False),
        sa.Column("revoked_at", S),
    )
    op.create_table(
        "memories",
        sa.Column("id", S, primary_key=True),
        sa.Column("tenant", S, nullable=False),
        sa.Column("user", S, nullable=False),
        sa.Column("purpose", S, nullable=False),
        sa.Column("key", S, nullable=False),
        sa.Column("value", T, nullable=False),
        sa.Column("provenance_json", T, nullable=False),
        sa.Column("created_at", S, nullable=False),
        sa.Column("expires_at", S, nullable=False),
        sa.Column("policy_version", INT, nullable=False),
    )
    if on_sqlite():  # memory and the corpus index stay in each desk's own SQLite home
        op.execute("CREATE VIRTUAL TABLE memories_fts USING fts5(memory_id UNINDEXED, value)")
    op.create_table(
        "corpus_docs",
        sa.Column("corpus_root", T, primary_key=True),
        sa.Column("source_id", T, primary_key=True),
        sa.Column("title", T, nullable=False),
        sa.Column("mtime_ns", INT, nullable=False),
        sa.Column("size", INT, nullable=False),
        sa.Column("sha256", S, nullable=False),
    )
    if on_sqlite():
        op.execute(
            "CREATE VIRTUAL TABLE corpus_fts USING fts5("
            "corpus_root UNINDEXED, source_id UNINDEXED, title, body, tokenize='porter unicode61')"
        )
    op.create_table(
        "artifact_sightings",
        sa.Column("path", T, primary_key=True),
        sa.Column("content_hash", S, primary_key=True),
        sa.Column("inode_key", S, primary_key=True),
        sa.Column("run_id", S),
        sa.Column("verdict", S, nullable=False),
        sa.Column("count", INT, nullable=False),
        sa.Column("seen_at", S, nullable=False),
    )
    op.create_index("ix_approvals_thread_hash", "approvals", ["thread_id", "arg_hash"])
    op.create_index("ix_checkpoints_run_seq", "checkpoints", ["run_id", "sequence"])


def downgrade() -> None:
    op.drop_index("ix_checkpoints_run_seq", "checkpoints")
    op.drop_index("ix_approvals_thread_hash", "approvals")
    for name in (
        "artifact_sightings",
        "corpus_fts",
        "corpus_docs",
        "memories_fts",
        "memories",
        "rules",
    ):
        if on_sqlite() or not name.endswith("_fts"):
            op.execute(f"DROP TABLE {name}")
