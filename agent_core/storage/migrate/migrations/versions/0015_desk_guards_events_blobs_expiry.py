"""A desk's role no longer deletes another desk's timeline, blobs or proposals' time.

0008 bound each desk to its role and guarded runs, proposals, leases and run rows; three paths
stayed open to any desk role (issue 39, item 8). On PostgreSQL, for every role that does not
own the tables (0007's `briefdesk_is_admin`), triggers now refuse with SQLSTATE 42501:

- events: UPDATE (a timeline is append-only) and DELETE of a row that is not of the role's own
  desk's run (home events included). Appending stays open: deciding or answering another
  desk's proposal appends to that run's timeline.
- blobs: UPDATE and DELETE of a blob another desk's run wrote (`blobs.run_id`), and of any
  blob still used by another desk's rows (a run's RunState, a checkpoint's, a proposal's base,
  a ledger's offloaded result): bodies are shared by digest, so a blob a desk wrote may be
  the very bytes another desk's run reads. Handing a blob over to another run (only its
  `run_id` changes: what deleting a run does for a blob another run still uses) stays open.
- approvals: moving another desk's pending proposal to `expired` before its `expires_at` by
  the server's clock. A desk expires its own proposals when its clock says so (a test's
  ManualClock too); deciding by a reviewer a grant covers is unchanged (0007).

Two of 0007's guards are widened for what issue 39 added, under the same rule of one desk:
- `briefdesk_auto_approved`: a remembered MCP rule is scoped `mcp:SERVER/TOOL` (its `folder`),
  not a folder above the target, so it now matches the tool's name too (which server it holds
  for is the app's check, `rules.server_digest`: the database cannot see a desk's servers).
- `briefdesk_guard_approvals`: a desk may supersede its own run's approved proposal with a new
  version (an outcome asked again, a target that changed since approval: runs/reproposal.py).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import importlib

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

_REFUSE = "USING ERRCODE = 'insufficient_privilege'"
_ADMIN = "IF briefdesk_is_admin(TG_RELID) THEN RETURN coalesce(NEW, OLD); END IF;"


def _functions(pinned: str) -> list[str]:
    return [
        f"""
CREATE FUNCTION briefdesk_guard_events() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  {_ADMIN}
  IF TG_OP = 'DELETE' AND OLD.run_id IS NOT NULL AND briefdesk_own_run(OLD.run_id, true) THEN
    RETURN OLD;  -- with its own ended run (storage/tables/run_deletion.py)
  END IF;
  RAISE EXCEPTION 'BriefDesk: the role % may not % event % of %: a timeline is append-only, '
    'and only a run''s own desk deletes it with the run', current_user, lower(TG_OP), OLD.seq,
    coalesce('run ' || OLD.run_id, 'the home') {_REFUSE};
END
$$""",
        # Is the blob `p_digest` used by a row of a run that is not this role's desk's?
        f"""
CREATE FUNCTION briefdesk_blob_used_elsewhere(p_digest text) RETURNS boolean
LANGUAGE sql STABLE {pinned} AS $$
  SELECT EXISTS (SELECT 1 FROM runs r WHERE r.state_digest = p_digest
                   AND NOT briefdesk_own_desk(r.desk, false))
      OR EXISTS (SELECT 1 FROM checkpoints c JOIN runs r ON r.run_id = c.run_id
                  WHERE c.state_digest = p_digest AND NOT briefdesk_own_desk(r.desk, false))
      OR EXISTS (SELECT 1 FROM approvals a JOIN runs r ON r.run_id = a.run_id
                  WHERE a.base_digest = p_digest AND NOT briefdesk_own_desk(r.desk, false))
      OR EXISTS (SELECT 1 FROM ledger l JOIN runs r ON r.run_id = l.run_id
                  WHERE strpos(l.result_json, p_digest) > 0
                    AND NOT briefdesk_own_desk(r.desk, false))
$$""",
        f"""
CREATE FUNCTION briefdesk_guard_blobs() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  {_ADMIN}
  IF OLD.run_id IS NOT NULL AND EXISTS (SELECT 1 FROM runs r WHERE r.run_id = OLD.run_id)
     AND NOT briefdesk_own_run(OLD.run_id, true) THEN
    RAISE EXCEPTION 'BriefDesk: the role % may not % blob % of run %, another desk''s',
      current_user, lower(TG_OP), left(OLD.digest, 12), OLD.run_id {_REFUSE};
  END IF;
  IF TG_OP = 'UPDATE' AND (NEW.digest, NEW.size, NEW.data, NEW.created_at)
       IS NOT DISTINCT FROM (OLD.digest, OLD.size, OLD.data, OLD.created_at) THEN
    RETURN NEW;  -- handed over to a run that still uses it: the bytes stay
  END IF;
  IF briefdesk_blob_used_elsewhere(OLD.digest) THEN
    RAISE EXCEPTION 'BriefDesk: the role % may not % blob %: another desk''s run uses it',
      current_user, lower(TG_OP), left(OLD.digest, 12) {_REFUSE};
  END IF;
  RETURN coalesce(NEW, OLD);
END
$$""",
        f"""
CREATE FUNCTION briefdesk_guard_expiry() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  {_ADMIN}
  IF briefdesk_own_run(OLD.run_id, true)
     OR OLD.expires_at::timestamptz <= clock_timestamp() THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'BriefDesk: the role % may not expire proposal % of another desk''s run '
    'before its time (%)', current_user, OLD.id, OLD.expires_at {_REFUSE};
END
$$""",
    ]


# `mcp__SERVER__TOOL` as a rule's scope `mcp:SERVER/TOOL` (a server name never holds `__`).
_MCP_SCOPE = (
    "'mcp:' || split_part(substr(p_tool, 6), '__', 1) || '/' "
    "|| substr(p_tool, 8 + length(split_part(substr(p_tool, 6), '__', 1)))"
)
_UNDER = (
    "(p_target = u.folder OR left(p_target, length(rtrim(u.folder, '/')) + 1) "
    "= rtrim(u.folder, '/') || '/')"
)


def _widened_0007(pinned: str) -> list[str]:
    grants = importlib.import_module("agent_core.storage.migrate.migrations.versions.0007_grants")
    asked_new = grants._fields("NEW", grants._ASKED)
    asked_old = grants._fields("OLD", grants._ASKED)
    return [
        f"""
CREATE OR REPLACE FUNCTION briefdesk_auto_approved(
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
           AND ({_UNDER}
                OR (left(p_tool, 5) = 'mcp__' AND u.folder = {_MCP_SCOPE})))
$$""",
        f"""
CREATE OR REPLACE FUNCTION briefdesk_guard_approvals() RETURNS trigger
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
      current_user, NEW.id, NEW.status {_REFUSE};
  END IF;
  IF ({asked_new}) IS DISTINCT FROM ({asked_old}) THEN
    RAISE EXCEPTION 'BriefDesk: the role % may not change what proposal % asks',
      current_user, OLD.id {_REFUSE};
  END IF;
  IF NEW IS NOT DISTINCT FROM OLD
     OR (OLD.status = 'pending' AND NEW.status = 'expired')
     OR (OLD.status = 'approved' AND NEW.status = 'consumed')
     -- a new version of its own run's approved call (runs/reproposal.py)
     OR (OLD.status = 'approved' AND NEW.status = 'superseded'
         AND briefdesk_own_run(OLD.run_id, true))
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
    NEW.status, coalesce(NEW.reviewer, 'nobody') {_REFUSE};
END
$$""",
    ]


def _restored_0007(schema: str) -> list[str]:
    grants = importlib.import_module("agent_core.storage.migrate.migrations.versions.0007_grants")
    wanted = ("FUNCTION briefdesk_auto_approved(", "FUNCTION briefdesk_guard_approvals(")
    return [
        statement.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)
        for statement in grants._postgres_guards(schema)
        if statement.lstrip().startswith("CREATE FUNCTION")
        and any(name in statement for name in wanted)
    ]


_TRIGGERS = (
    "CREATE TRIGGER briefdesk_events_guard BEFORE UPDATE OR DELETE ON events "
    "FOR EACH ROW EXECUTE FUNCTION briefdesk_guard_events()",
    "CREATE TRIGGER briefdesk_blobs_guard BEFORE UPDATE OR DELETE ON blobs "
    "FOR EACH ROW EXECUTE FUNCTION briefdesk_guard_blobs()",
    # Only for an expiry: every other change of a proposal skips the call (0007's WHEN habit).
    "CREATE TRIGGER briefdesk_expiry_guard BEFORE UPDATE ON approvals FOR EACH ROW "
    "WHEN (OLD.status = 'pending' AND NEW.status = 'expired') "
    "EXECUTE FUNCTION briefdesk_guard_expiry()",
)
_DROP = (
    "DROP TRIGGER IF EXISTS briefdesk_expiry_guard ON approvals",
    "DROP TRIGGER IF EXISTS briefdesk_blobs_guard ON blobs",
    "DROP TRIGGER IF EXISTS briefdesk_events_guard ON events",
    "DROP FUNCTION IF EXISTS briefdesk_guard_expiry()",
    "DROP FUNCTION IF EXISTS briefdesk_guard_blobs()",
    "DROP FUNCTION IF EXISTS briefdesk_blob_used_elsewhere(text)",
    "DROP FUNCTION IF EXISTS briefdesk_guard_events()",
)


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    schema = str(bind.exec_driver_sql("SELECT quote_ident(current_schema())").scalar_one())
    pinned = f"SET search_path = {schema}, pg_temp"
    for statement in (*_functions(pinned), *_TRIGGERS, *_widened_0007(pinned)):
        op.execute(statement)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        for statement in _DROP:
            op.execute(statement)
        schema = str(bind.exec_driver_sql("SELECT quote_ident(current_schema())").scalar_one())
        for statement in _restored_0007(schema):
            op.execute(statement)
