"""External agents' runs: one run per coding-agent session.

- `runs.agent`: whose run it is: `briefdesk` for BriefDesk's own (every run before this
  revision), else the coding agent whose hook created it (`claude-code`, `codex`, `gemini`)
  or an MCP client's name.
- `runs.session_id`, `runs.cwd`: the agent's session and the folder it works in (null for
  BriefDesk's own runs).
- A unique index on (`agent`, `session_id`) where `session_id` is set: two hook processes of
  one new session racing to create its run make one run (the loser reads the winner's).

The desk roles' privileges are table-wide (storage/team/desk_roles.py) and 0008's guard on
`runs` checks the desk and the status of a new row, so the new columns need no grant or
trigger of their own.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

_INDEX = "ix_runs_agent_session"


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(
            sa.Column("agent", sa.String(), nullable=False, server_default=sa.text("'briefdesk'"))
        )
        batch.add_column(sa.Column("session_id", sa.String(), nullable=True))
        batch.add_column(sa.Column("cwd", sa.Text(), nullable=True))
    op.create_index(
        _INDEX,
        "runs",
        ["agent", "session_id"],
        unique=True,
        sqlite_where=sa.text("session_id IS NOT NULL"),
        postgresql_where=sa.text("session_id IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index(_INDEX, table_name="runs")
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("cwd")
        batch.drop_column("session_id")
        batch.drop_column("agent")
