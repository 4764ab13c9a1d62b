"""MCP servers run in a sandbox with granted folders; an MCP rule holds for its server only.

- `mcp_servers.roots_json`: the folders granted read-write to the server (`mcp add --root`,
  besides the folders named as its arguments), a JSON list of absolute paths;
  `mcp_servers.network`: 1 when the server may reach the network (`--network`);
  `mcp_servers.sandbox`: 0 only for a server added with `--no-sandbox`.
- `rules.server_digest`: for a remembered MCP rule (`mcp:NAME/TOOL`), a digest of the server
  it was made for (its desk, command, arguments and environment keys as registered): after
  `mcp remove` and `mcp add` of something else under the same name, or on another desk, the
  rule no longer decides. Null for other rules; an MCP rule made before this revision has
  none and never decides again (the person is asked once more).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mcp_servers") as batch:
        batch.add_column(
            sa.Column("roots_json", sa.Text(), nullable=False, server_default=sa.text("'[]'"))
        )
        batch.add_column(
            sa.Column("network", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )
        batch.add_column(
            sa.Column("sandbox", sa.Integer(), nullable=False, server_default=sa.text("1"))
        )
    with op.batch_alter_table("rules") as batch:
        batch.add_column(sa.Column("server_digest", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rules") as batch:
        batch.drop_column("server_digest")
    with op.batch_alter_table("mcp_servers") as batch:
        batch.drop_column("sandbox")
        batch.drop_column("network")
        batch.drop_column("roots_json")
