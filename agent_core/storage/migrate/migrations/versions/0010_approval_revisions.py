"""A proposal says which revision it is: `revision`, `revises`, `revision_note` (contract).

- `revision`: 1 for a first proposal, n+1 after n requests for changes in the same run (a
  revert is revision 1 of its own);
- `revises`: the proposal whose requested changes it answers (or, for a revert, the write it
  undoes); null for a first proposal;
- `revision_note`: that request's text (a revert's reason).

Rows from before this revision read as first proposals. On PostgreSQL the three columns are
fixed once proposed, like the rest of what a proposal asks (0007's guard), for every role but
the owner.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_FIXED = "revision, revises, revision_note"


def upgrade() -> None:
    with op.batch_alter_table("approvals") as batch:
        batch.add_column(
            sa.Column("revision", sa.Integer(), nullable=False, server_default=sa.text("1"))
        )
        batch.add_column(sa.Column("revises", sa.String(), nullable=True))
        batch.add_column(sa.Column("revision_note", sa.Text(), nullable=True))
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    schema = str(bind.exec_driver_sql("SELECT quote_ident(current_schema())").scalar_one())
    new = ", ".join(f"NEW.{c.strip()}" for c in _FIXED.split(","))
    old = ", ".join(f"OLD.{c.strip()}" for c in _FIXED.split(","))
    op.execute(
        f"""
CREATE FUNCTION briefdesk_guard_revision() RETURNS trigger
LANGUAGE plpgsql SET search_path = {schema}, pg_temp AS $$
BEGIN
  IF briefdesk_is_admin(TG_RELID) OR ({new}) IS NOT DISTINCT FROM ({old}) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'BriefDesk: proposal % keeps the revision it was proposed as', OLD.id
    USING ERRCODE = 'insufficient_privilege';
END
$$"""
    )
    op.execute(
        "CREATE TRIGGER briefdesk_revision_guard BEFORE UPDATE ON approvals FOR EACH ROW "
        "EXECUTE FUNCTION briefdesk_guard_revision()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS briefdesk_revision_guard ON approvals")
        op.execute("DROP FUNCTION IF EXISTS briefdesk_guard_revision()")
    with op.batch_alter_table("approvals") as batch:
        batch.drop_column("revision_note")
        batch.drop_column("revises")
        batch.drop_column("revision")
