"""Team mode: runs and proposals name their desk; desks hold leases; proposals keep their base.

- `runs.desk`, `approvals.desk`: the installation that runs the run (null: a row written before
  this revision, which belongs to the desk of the home it is in).
- `leases`: one row per desk that drives runs, renewed while it does; a run whose desk's lease
  has lapsed is `interrupted`, whatever machine looks (a pid means nothing across machines).
- `approvals.base_digest`: the target's content when proposed, as a blob, so a reviewer on
  another desk sees the same diff as the desk that proposed it.
- `artifact_sightings.desk`: the desk whose watcher saw the write. Two machines may hold the
  same path; a watcher counts and confirms only what its own desk wrote and saw.
- `ix_ledger_status_tool`: settling unconfirmed writes reads the ledger by status and tool.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("desk", sa.String(), nullable=True))
    with op.batch_alter_table("approvals") as batch:
        batch.add_column(sa.Column("desk", sa.String(), nullable=True))
        batch.add_column(sa.Column("base_digest", sa.String(), nullable=True))
    with op.batch_alter_table("artifact_sightings") as batch:
        batch.add_column(sa.Column("desk", sa.String(), nullable=True))
    op.create_table(
        "leases",
        sa.Column("desk", sa.String(), primary_key=True),
        sa.Column("host", sa.String(), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("renewed_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_ledger_status_tool", "ledger", ["status", "tool"])


def downgrade() -> None:
    op.drop_index("ix_ledger_status_tool", "ledger")
    op.drop_table("leases")
    with op.batch_alter_table("artifact_sightings") as batch:
        batch.drop_column("desk")
    with op.batch_alter_table("approvals") as batch:
        batch.drop_column("base_digest")
        batch.drop_column("desk")
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("desk")
