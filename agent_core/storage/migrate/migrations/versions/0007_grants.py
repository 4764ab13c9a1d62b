"""Who may decide what: the `grants` table, and on PostgreSQL the database's own guards.

- `grants`: a reviewer may decide proposals of one tool (or all), for targets under one folder
  (or anywhere), through one database role (or any). With no row at all, every reviewer
  decides everything, as before; the app checks grants on both backends.
- On PostgreSQL the database checks them too, for every role that does not own the tables
  (a desk's own, lesser role; see `briefdesk-cli grants desk-role`): triggers on `approvals`,
  `rules` and `runs` refuse, with SQLSTATE 42501 (`not_authorized`), a decision outside the
  role's grants, a forged auto-approval, a remembered rule outside a grant, a revoked rule
  brought back, and a change to what a run may do (its mode, model and folders). The owner
  (and a superuser) is not restricted: it administers the team. Triggers rather than row
  policies because a policy's WITH CHECK sees only the new row: it cannot tell a decision
  (pending -> approved) from a desk's own bookkeeping (approved -> consumed).

The functions pin `search_path` to this schema (then pg_temp, searched last), so a role
cannot hide a temporary `grants` table in front of the real one. Migrations never create
roles or grant privileges: the owner runs `briefdesk-cli grants desk-role ROLE` for that.
A later migration that changes `approvals`, `rules` or `runs` must look at these triggers.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# What a proposal asks: fixed once proposed (only the decision's own columns may change).
_ASKED = (
    "id, run_id, thread_id, call_id, tool, args_json, target, base_hash, risk, reason, "
    "arg_hash, state_version, version, created_at, expires_at, desk, base_digest"
)
_RULE_SCOPE = "id, tool, folder, scope, run_id, created_by, created_at"
_RUN_POWERS = "run_id, thread_id, model, mode, corpus_dir, artifacts_dir, created_at"


def _fields(prefix: str, columns: str) -> str:
    return ", ".join(f"{prefix}.{c.strip()}" for c in columns.split(","))


# `path` lies under `folder` (or is it): the same test as agent_core/storage/tables/grants.py.
_UNDER = (
    "({path} = {folder} OR left({path}, length(rtrim({folder}, '/')) + 1) "
    "= rtrim({folder}, '/') || '/')"
)


def _postgres_guards(schema: str) -> list[str]:
    pinned = f"SET search_path = {schema}, pg_temp"
    refuse = "USING ERRCODE = 'insufficient_privilege'"
    return [
        f"""
CREATE FUNCTION briefdesk_is_admin(target regclass) RETURNS boolean
LANGUAGE sql STABLE {pinned} AS $$
  SELECT pg_has_role(current_user, c.relowner, 'MEMBER') FROM pg_class c WHERE c.oid = target
$$""",
        f"""
CREATE FUNCTION briefdesk_may_decide(who text, what text, path text) RETURNS boolean
LANGUAGE sql STABLE {pinned} AS $$
  SELECT NOT EXISTS (SELECT 1 FROM grants)
      OR EXISTS (
        SELECT 1 FROM grants g
         WHERE g.revoked_at IS NULL
           AND g.reviewer = who
           AND (g.tool IS NULL OR g.tool = what)
           AND (g.folder IS NULL OR {_UNDER.format(path="path", folder="g.folder")})
           AND (g.db_role IS NULL OR g.db_role = current_user))
$$""",
        f"""
CREATE FUNCTION briefdesk_auto_approved(
  p_run text, p_tool text, p_target text, p_risk text, p_by text) RETURNS boolean
LANGUAGE sql STABLE {pinned} AS $$
  SELECT EXISTS (
        SELECT 1 FROM runs r
         WHERE r.run_id = p_run AND p_by = 'policy:' || r.mode
           AND (r.mode = 'dangerouslySkipPermissions'
                OR (r.mode = 'acceptEdits' AND p_risk = 'write')))
      OR EXISTS (
        SELECT 1 FROM rules u
         WHERE u.id = p_by AND u.revoked_at IS NULL AND u.tool = p_tool
           AND (u.scope = 'home' OR u.run_id = p_run)
           AND {_UNDER.format(path="p_target", folder="u.folder")})
$$""",
        f"""
CREATE FUNCTION briefdesk_guard_approvals() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  IF briefdesk_is_admin(TG_RELID) THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NEW.status = 'pending' OR (NEW.status = 'approved' AND briefdesk_auto_approved(
        NEW.run_id, NEW.tool, NEW.target, NEW.risk, NEW.decided_by_rule)) THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'BriefDesk: the role % may propose, not insert proposal % as %',
      current_user, NEW.id, NEW.status {refuse};
  END IF;
  IF ({_fields("NEW", _ASKED)}) IS DISTINCT FROM ({_fields("OLD", _ASKED)}) THEN
    RAISE EXCEPTION 'BriefDesk: the role % may not change what proposal % asks',
      current_user, OLD.id {refuse};
  END IF;
  IF NEW IS NOT DISTINCT FROM OLD
     OR (OLD.status = 'pending' AND NEW.status = 'expired')
     OR (OLD.status = 'approved' AND NEW.status = 'consumed')
     -- an ended run closes what it left pending (run/lifecycle.py), never a waiting one
     OR (OLD.status = 'pending' AND NEW.status = 'cancelled' AND EXISTS (
           SELECT 1 FROM runs r WHERE r.run_id = OLD.run_id
            AND r.status IN ('succeeded', 'cancelled', 'expired', 'failed')))
     OR (OLD.status = 'pending'
         AND NEW.status IN ('approved', 'rejected', 'changes_requested', 'superseded')
         AND briefdesk_may_decide(NEW.reviewer, OLD.tool, OLD.target)) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'BriefDesk: the role % may not make proposal % (% of %) % as reviewer %: '
    'no grant covers it', current_user, OLD.id, OLD.tool, coalesce(OLD.target, 'no target'),
    NEW.status, coalesce(NEW.reviewer, 'nobody') {refuse};
END
$$""",
        f"""
CREATE FUNCTION briefdesk_guard_rules() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  IF briefdesk_is_admin(TG_RELID) THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NEW.revoked_at IS NOT NULL
       OR briefdesk_may_decide(NEW.created_by, NEW.tool, NEW.folder) THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'BriefDesk: the role % may not remember % under % for reviewer %: '
      'no grant covers it', current_user, NEW.tool, NEW.folder, NEW.created_by {refuse};
  END IF;
  IF ({_fields("NEW", _RULE_SCOPE)}) IS NOT DISTINCT FROM ({_fields("OLD", _RULE_SCOPE)})
     AND (NEW.revoked_at IS NOT DISTINCT FROM OLD.revoked_at
          OR (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'BriefDesk: the role % may revoke rule %, not change it',
    current_user, OLD.id {refuse};
END
$$""",
        f"""
CREATE FUNCTION briefdesk_guard_runs() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  IF briefdesk_is_admin(TG_RELID) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'BriefDesk: the role % may not change the mode, model or folders of run %',
    current_user, OLD.run_id {refuse};
END
$$""",
        "CREATE TRIGGER briefdesk_guard BEFORE INSERT OR UPDATE ON approvals "
        "FOR EACH ROW EXECUTE FUNCTION briefdesk_guard_approvals()",
        "CREATE TRIGGER briefdesk_guard BEFORE INSERT OR UPDATE ON rules "
        "FOR EACH ROW EXECUTE FUNCTION briefdesk_guard_rules()",
        # Only when those columns change: a run's row is updated at every step, and the
        # WHEN test costs far less than calling the function (0.4 ms a row, measured).
        "CREATE TRIGGER briefdesk_guard BEFORE UPDATE ON runs FOR EACH ROW "
        f"WHEN (({_fields('NEW', _RUN_POWERS)}) IS DISTINCT FROM ({_fields('OLD', _RUN_POWERS)})) "
        "EXECUTE FUNCTION briefdesk_guard_runs()",
    ]


_DROP_POSTGRES_GUARDS = [
    "DROP TRIGGER IF EXISTS briefdesk_guard ON runs",
    "DROP TRIGGER IF EXISTS briefdesk_guard ON rules",
    "DROP TRIGGER IF EXISTS briefdesk_guard ON approvals",
    "DROP FUNCTION IF EXISTS briefdesk_guard_runs()",
    "DROP FUNCTION IF EXISTS briefdesk_guard_rules()",
    "DROP FUNCTION IF EXISTS briefdesk_guard_approvals()",
    "DROP FUNCTION IF EXISTS briefdesk_auto_approved(text, text, text, text, text)",
    "DROP FUNCTION IF EXISTS briefdesk_may_decide(text, text, text)",
    "DROP FUNCTION IF EXISTS briefdesk_is_admin(regclass)",
]


def upgrade() -> None:
    op.create_table(
        "grants",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("reviewer", sa.String(), nullable=False),
        sa.Column("tool", sa.String(), nullable=True),
        sa.Column("folder", sa.Text(), nullable=True),
        sa.Column("db_role", sa.String(), nullable=True),
        sa.Column("created_by", sa.String(), nullable=False),
        sa.Column("created_at", sa.String(), nullable=False),
        sa.Column("revoked_at", sa.String(), nullable=True),
    )
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        schema = bind.exec_driver_sql("SELECT quote_ident(current_schema())").scalar_one()
        for statement in _postgres_guards(str(schema)):
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in _DROP_POSTGRES_GUARDS:
            op.execute(statement)
    op.drop_table("grants")
