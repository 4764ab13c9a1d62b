"""Checkpoints keep one index, on `run_id`: the `(run_id, sequence)` one is dropped.

A checkpoint is written at every tool boundary, and each index on its table is one more page in
that durable commit (benchmarks/bench_checkpoint.py: about 4% of a checkpoint). Every query of
the table looks a run up by `run_id` alone; the run's newest checkpoint is found by rowid, in
the order the `run_id` index already holds, so the second index served nothing.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_checkpoints_run_seq", "checkpoints")


def downgrade() -> None:
    op.create_index("ix_checkpoints_run_seq", "checkpoints", ["run_id", "sequence"])
