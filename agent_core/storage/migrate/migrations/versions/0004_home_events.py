"""Events of the home itself: `events.run_id` may be null.

A stray file that appears while no run watches is flagged on the home (the contract: "an event
of the home itself has run_id null"), not appended to an unrelated finished run. Before this
revision such events were stored with `run_id` "" (the column was NOT NULL); they become null,
and so do the matching `artifact_sightings` rows.

SQLite cannot drop a NOT NULL constraint in place: batch mode copies the table (rows and their
`seq` values are kept, so cursors held by followers stay valid).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.alter_column("run_id", existing_type=sa.String(), nullable=True)
    op.execute("UPDATE events SET run_id = NULL WHERE run_id = ''")
    op.execute("UPDATE artifact_sightings SET run_id = NULL WHERE run_id = ''")


def downgrade() -> None:
    op.execute("UPDATE events SET run_id = '' WHERE run_id IS NULL")
    op.execute("UPDATE artifact_sightings SET run_id = '' WHERE run_id IS NULL")
    with op.batch_alter_table("events") as batch:
        batch.alter_column("run_id", existing_type=sa.String(), nullable=False)
