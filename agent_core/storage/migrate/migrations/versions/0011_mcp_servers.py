"""MCP servers a desk has registered (`mcp add`), with the tier overrides of `mcp tier`.

One row per server name: the command and its arguments, the environment it is started with
(`env_json`: `{KEY: {"value": V} | {"keyring": SECRET_NAME}}`, so a keyring secret's value is
never stored, only its name), whether its tools' hints are trusted, and `tiers_json` (tool name
to tier). A desk's own table: it lives in the home's `state.db`, also in team mode.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mcp_servers",
        sa.Column("name", sa.String(), primary_key=True),
        sa.Column("command", sa.Text(), nullable=False),
        sa.Column("args_json", sa.Text(), nullable=False),
        sa.Column("env_json", sa.Text(), nullable=False),
        sa.Column("trust_hints", sa.Integer(), nullable=False, server_default=sa.text("0")),
        sa.Column("tiers_json", sa.Text(), nullable=False, server_default=sa.text("'{}'")),
        sa.Column("created_at", sa.String(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mcp_servers")
