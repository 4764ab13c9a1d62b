"""The MCP tools each run offered its model, and the approval a ledger call last started under.

- `run_mcp_tools`: one row per MCP tool a run listed when it started (its model name, server,
  tool, description, closed input schema, annotations, tier, whether the server's hints were
  trusted, and a hash of all that). Another process builds the tool's spec from it without
  starting the server. On PostgreSQL it is guarded like the run's other rows (0008's
  `briefdesk_guard_run_rows`: a desk's role writes only its own desk's runs' rows).
- `ledger.approval_id`: the approval under which the call last started. An MCP write whose
  outcome is unknown is never run again under the same approval (a person is asked first).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "run_mcp_tools",
        sa.Column("run_id", sa.String(), primary_key=True),
        sa.Column("model_name", sa.String(), primary_key=True),
        sa.Column("server", sa.String(), nullable=False),
        sa.Column("tool", sa.String(), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("input_schema_json", sa.Text(), nullable=False),
        sa.Column("annotations_json", sa.Text(), nullable=False),
        sa.Column("tier", sa.String(), nullable=False),
        sa.Column("trust_hints", sa.Integer(), nullable=False),
        sa.Column("schema_hash", sa.String(), nullable=False),
    )
    with op.batch_alter_table("ledger") as batch:
        batch.add_column(sa.Column("approval_id", sa.String(), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER briefdesk_desk_guard BEFORE INSERT OR UPDATE OR DELETE "
            "ON run_mcp_tools FOR EACH ROW EXECUTE FUNCTION briefdesk_guard_run_rows()"
        )


def downgrade() -> None:
    with op.batch_alter_table("ledger") as batch:
        batch.drop_column("approval_id")
    op.drop_table("run_mcp_tools")
