"""The latest model response of a run, for a resume that must not ask a remote model again.

- `turn_responses`: one row per run (replaced every turn) with the response a model that does
  not replay exactly (a remote endpoint) gave, and a digest of the input it answered. A resume
  after a kill in the middle of that turn is given this response for the same input, so the
  calls it proposed are the ones the ledger already answers, and a remote model's reads need no
  pause. On PostgreSQL it is guarded like the run's other rows (0008's
  `briefdesk_guard_run_rows`).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_responses",
        sa.Column("run_id", sa.String(), primary_key=True),
        sa.Column("input_digest", sa.String(), nullable=False),
        sa.Column("response_json", sa.Text(), nullable=False),
        sa.Column("created_at", sa.String(), nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER briefdesk_desk_guard BEFORE INSERT OR UPDATE OR DELETE "
            "ON turn_responses FOR EACH ROW EXECUTE FUNCTION briefdesk_guard_run_rows()"
        )


def downgrade() -> None:
    op.drop_table("turn_responses")
