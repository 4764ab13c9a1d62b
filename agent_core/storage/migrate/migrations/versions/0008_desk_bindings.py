"""Each desk is driven by one database role: a desk's role writes only its own desk's runs.

- `desk_bindings`: which role drives each desk id. On PostgreSQL the database fills it itself:
  the first role that writes a run or a lease of a desk nobody drives yet is bound to it
  (trust on first use; `db_role` is always `current_user`, never what the client sent), and
  only the owner changes or removes a binding. An owner's own lease binds its desk too, so no
  desk role can take an owner-driven desk's id. SQLite has no roles: there the table stays
  empty and nothing below applies.
- `audit.db_role`: the role that wrote each audit row, stamped by the database (a desk role
  can still add rows, but no longer in another's name).

On PostgreSQL, for every role that does not own the tables (see 0007), triggers refuse with
SQLSTATE 42501:
- runs: INSERT for a desk not bound to the role (or for no desk), or of anything but a new
  run (status `created`, no rows left under its id); DELETE of another desk's run, or of a
  run that has not ended (so a waiting run cannot come back in another mode); UPDATE of
  its question or limits (0007 guards mode, model and folders); UPDATE of another desk's run
  except the three things one desk does for another: answering its question (the answer only),
  expiring it once its proposal expired, and taking it over to the role's own desk once its desk's
  lease lapsed (server clock; nothing else changes);
- approvals: a proposal (version 1) for another desk's run; one inserted already decided
  after a request for changes in its run (a revision: a person decides it); a later
  version unless it is a pending edit that follows a superseded version (what `approvals
  edit` writes); a second copy of a version; marking another desk's approval consumed;
  deleting another desk's;
- leases: any write to another desk's lease;
- checkpoints, tool_calls, ledger, session_items: any write to another desk's run's rows
  (except pruning an ended run's older checkpoints, which an expiry on any desk does);
- rules: a DELETE, except a run's own rules with its run; grants: any write (read-only by
  privilege already); audit: UPDATE and DELETE (append-only by privilege already).

The executor checks approvals again on its own (run/approval_binding.py): this is the
database's half. A later migration that changes these tables must look at these triggers.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_REFUSE = "USING ERRCODE = 'insufficient_privilege'"
_ENDED = "('succeeded', 'cancelled', 'expired', 'failed')"
# What a run asks and may do, beyond 0007's mode, model and folders: fixed once created.
_FIXED = "question, limits_json"
_OWNER = "owner_host, owner_pid, owner_started"
_BOOKS = "state_json, state_digest, question_pending, output, error_json, cancel_requested"
_LEASE_LIVE = (
    "EXISTS (SELECT 1 FROM leases l WHERE l.desk = {desk} "
    "AND l.expires_at > extract(epoch FROM clock_timestamp()))"
)
_NOW_ISO = (
    "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS') || '+00:00'"
)
_RUN_ROW_TABLES = ("checkpoints", "tool_calls", "ledger", "session_items")
# Rows of a run id that a new run must not find (a deleted run's leftovers).
_LEFT_BEHIND = (
    "("
    + " OR ".join(
        f"EXISTS (SELECT 1 FROM {t} x WHERE x.run_id = NEW.run_id)"
        for t in ("approvals", "events", *_RUN_ROW_TABLES)
    )
    + ")"
)
_GUARDED = ("runs", "approvals", "leases", *_RUN_ROW_TABLES, "rules", "grants", "audit")


def _fields(prefix: str, columns: str) -> str:
    return ", ".join(f"{prefix}.{c.strip()}" for c in columns.split(","))


def _same(columns: str) -> str:
    return f"({_fields('NEW', columns)}) IS NOT DISTINCT FROM ({_fields('OLD', columns)})"


def _functions(pinned: str) -> list[str]:
    return [
        f"""
CREATE FUNCTION briefdesk_desk_role(p_desk text) RETURNS text
LANGUAGE sql STABLE {pinned} AS $$
  SELECT db_role FROM desk_bindings WHERE desk = p_desk
$$""",
        # Is `p_desk` driven by this role? With `p_bind`, a desk nobody drives yet becomes
        # this role's (through desk_bindings' own trigger, which stamps current_user).
        f"""
CREATE FUNCTION briefdesk_own_desk(p_desk text, p_bind boolean) RETURNS boolean
LANGUAGE plpgsql {pinned} AS $$
DECLARE
  bound text;
BEGIN
  IF p_desk IS NULL THEN
    RETURN false;
  END IF;
  bound := briefdesk_desk_role(p_desk);
  IF bound IS NULL AND p_bind THEN
    INSERT INTO desk_bindings (desk, db_role, bound_at)
      VALUES (p_desk, current_user, {_NOW_ISO}) ON CONFLICT (desk) DO NOTHING;
    bound := briefdesk_desk_role(p_desk);
  END IF;
  RETURN coalesce(bound = current_user::text, false);
END
$$""",
        f"""
CREATE FUNCTION briefdesk_own_run(p_run text, p_bind boolean) RETURNS boolean
LANGUAGE plpgsql {pinned} AS $$
DECLARE
  run_desk text;
BEGIN
  SELECT r.desk INTO run_desk FROM runs r WHERE r.run_id = p_run;
  RETURN briefdesk_own_desk(run_desk, p_bind);
END
$$""",
        # An answer and nothing else: the waited-for call gets its first answer (see
        # RunProgress.with_answer); every other field of the run state stays as it was.
        f"""
CREATE FUNCTION briefdesk_only_answered(p_old text, p_new text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE {pinned} AS $$
DECLARE
  o jsonb;
  n jsonb;
  asked text;
  before jsonb;
BEGIN
  o := p_old::jsonb;  -- in the body, not DECLARE: only here does EXCEPTION catch a bad cast
  n := p_new::jsonb;
  asked := o ->> 'waiting_call';
  before := coalesce(o -> 'answers', '{{}}'::jsonb);
  IF asked IS NULL OR before ? asked OR jsonb_typeof(n -> 'answers' -> asked) <> 'string' THEN
    RETURN false;
  END IF;
  RETURN (n - 'answers' - 'next_step' - 'state_version')
           = (o - 'answers' - 'next_step' - 'state_version')
     AND n -> 'answers' = before || jsonb_build_object(asked, n -> 'answers' -> asked);
EXCEPTION WHEN others THEN  -- not a run state at all: not an answer either
  RETURN false;
END
$$""",
        # The run state an ended run keeps (`_end` in run/lifecycle.py): done, waiting on nothing.
        f"""
CREATE FUNCTION briefdesk_only_ended(p_old text, p_new text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE {pinned} AS $$
DECLARE
  o jsonb;
  n jsonb;
BEGIN
  o := p_old::jsonb;
  n := p_new::jsonb;
  RETURN (n - 'next_step' - 'waiting_call' - 'state_version')
           = (o - 'next_step' - 'waiting_call' - 'state_version')
     AND n ->> 'next_step' = 'done' AND n ->> 'waiting_call' IS NULL;
EXCEPTION WHEN others THEN
  RETURN false;
END
$$""",
    ]


def _run_guard(pinned: str) -> str:
    old_lease_live = _LEASE_LIVE.format(desk="OLD.desk")
    return f"""
CREATE FUNCTION briefdesk_guard_run_desk() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  IF briefdesk_is_admin(TG_RELID) THEN
    RETURN coalesce(NEW, OLD);
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NOT briefdesk_own_desk(NEW.desk, true) THEN
      RAISE EXCEPTION 'BriefDesk: the role % creates runs only for its own desk, not for '
        'desk % (driven by role %)', current_user, coalesce(NEW.desk, '(none)'),
        coalesce(briefdesk_desk_role(NEW.desk), 'none') {_REFUSE};
    END IF;
    -- Only a fresh run: a run deleted and inserted again (in another mode, say) would carry
    -- its proposals, calls and checkpoints into powers nobody gave them.
    IF NEW.status = 'created' AND NOT {_LEFT_BEHIND} THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'BriefDesk: the role % may create run % only new (status created, no '
      'rows left under its id)', current_user, NEW.run_id {_REFUSE};
  END IF;
  IF TG_OP = 'DELETE' THEN
    IF briefdesk_own_desk(OLD.desk, true) AND OLD.status IN {_ENDED} THEN
      RETURN OLD;
    END IF;
    IF briefdesk_own_desk(OLD.desk, true) THEN
      RAISE EXCEPTION 'BriefDesk: the role % deletes only ended runs; run % is %',
        current_user, OLD.run_id, OLD.status {_REFUSE};
    END IF;
    RAISE EXCEPTION 'BriefDesk: the role % may not delete run % of desk %',
      current_user, OLD.run_id, coalesce(OLD.desk, '(none)') {_REFUSE};
  END IF;
  IF NEW IS NOT DISTINCT FROM OLD THEN
    RETURN NEW;
  END IF;
  IF NOT {_same(_FIXED)} THEN
    RAISE EXCEPTION 'BriefDesk: the role % may not change the question or limits of run %',
      current_user, OLD.run_id {_REFUSE};
  END IF;
  IF NEW.desk IS DISTINCT FROM OLD.desk THEN
    -- A take-over, to this role's desk: a row from before desks goes to whichever desk
    -- drives it next; another desk's run only once that desk's lease lapsed, and only
    -- its desk, its owner (none now) and `running` -> `interrupted` change.
    IF briefdesk_own_desk(NEW.desk, true) AND (OLD.desk IS NULL OR (
         OLD.status NOT IN {_ENDED} AND NOT {old_lease_live} AND {_same(_BOOKS)}
         AND ({_fields("NEW", _OWNER)}) IS NOT DISTINCT FROM (NULL, NULL, NULL)
         AND (NEW.status = OLD.status
              OR (OLD.status = 'running' AND NEW.status = 'interrupted')))) THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'BriefDesk: the role % may not move run % from desk % to desk %: a run '
      'is taken over only to the role''s own desk, once its desk''s lease has lapsed',
      current_user, OLD.run_id, coalesce(OLD.desk, '(none)'),
      coalesce(NEW.desk, '(none)') {_REFUSE};
  END IF;
  IF briefdesk_own_desk(OLD.desk, false) THEN
    RETURN NEW;
  END IF;
  -- What one desk does for another: answer its question ...
  IF OLD.status = 'waiting_input' AND NEW.status = 'waiting_input'
     AND OLD.question_pending IS NOT NULL AND NEW.question_pending IS NULL
     AND {_same("state_digest, output, error_json, cancel_requested, " + _OWNER)}
     AND briefdesk_only_answered(OLD.state_json, NEW.state_json) THEN
    RETURN NEW;
  END IF;
  -- ... or end it as expired once its proposal expired (the sweep of any desk).
  IF OLD.status = 'waiting_approval' AND NEW.status = 'expired'
     AND EXISTS (SELECT 1 FROM approvals a WHERE a.run_id = OLD.run_id AND a.status = 'expired')
     AND NEW.state_digest IS NOT DISTINCT FROM OLD.state_digest
     AND NEW.output IS NULL AND NEW.error_json IS NULL AND NEW.question_pending IS NULL
     AND ({_fields("NEW", _OWNER)}) IS NOT DISTINCT FROM (NULL, NULL, NULL)
     AND briefdesk_only_ended(OLD.state_json, NEW.state_json) THEN
    RETURN NEW;
  END IF;
  -- A desk nobody drives yet (a database upgraded to this revision) becomes this role's.
  IF briefdesk_desk_role(OLD.desk) IS NULL AND briefdesk_own_desk(OLD.desk, true) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'BriefDesk: the role % may not change run % of desk % (driven by role %)',
    current_user, OLD.run_id, coalesce(OLD.desk, '(none)'),
    coalesce(briefdesk_desk_role(OLD.desk), 'none') {_REFUSE};
END
$$"""


def _approval_guard(pinned: str) -> str:
    return f"""
CREATE FUNCTION briefdesk_guard_approval_desk() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  IF briefdesk_is_admin(TG_RELID) THEN
    RETURN coalesce(NEW, OLD);
  END IF;
  IF TG_OP = 'DELETE' THEN
    IF briefdesk_own_run(OLD.run_id, true) THEN
      RETURN OLD;
    END IF;
    RAISE EXCEPTION 'BriefDesk: the role % may not delete proposal % of another desk''s run',
      current_user, OLD.id {_REFUSE};
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF OLD.status = 'approved' AND NEW.status = 'consumed'
       AND NOT briefdesk_own_run(OLD.run_id, true) THEN
      RAISE EXCEPTION 'BriefDesk: only the desk of its run runs approval %',
        OLD.id {_REFUSE};
    END IF;
    RETURN NEW;
  END IF;
  IF NEW.desk IS NOT NULL AND NEW.desk IS DISTINCT FROM
       (SELECT r.desk FROM runs r WHERE r.run_id = NEW.run_id) THEN
    RAISE EXCEPTION 'BriefDesk: proposal % names desk %, not its run''s',
      NEW.id, NEW.desk {_REFUSE};
  END IF;
  IF EXISTS (SELECT 1 FROM approvals a WHERE a.run_id = NEW.run_id
               AND a.call_id = NEW.call_id AND a.version >= NEW.version) THEN
    RAISE EXCEPTION 'BriefDesk: call % of run % already has a proposal of version % or later',
      NEW.call_id, NEW.run_id, NEW.version {_REFUSE};
  END IF;
  -- After a request for changes only a person decides (tools/policy.py: a revision asks).
  IF NEW.status <> 'pending' AND EXISTS (SELECT 1 FROM approvals a WHERE a.run_id = NEW.run_id
       AND a.status = 'changes_requested') THEN
    RAISE EXCEPTION 'BriefDesk: proposal % answers a request for changes: it is proposed '
      'pending, for a person', NEW.id {_REFUSE};
  END IF;
  IF NEW.version = 1 THEN  -- the model's call: proposed by its run's desk only
    IF briefdesk_own_run(NEW.run_id, true) THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'BriefDesk: the role % may not propose calls of run %, another desk''s',
      current_user, NEW.run_id {_REFUSE};
  END IF;
  -- A later version is a person's edit: pending, after the version it superseded.
  IF NEW.status = 'pending' AND EXISTS (
       SELECT 1 FROM approvals p WHERE p.run_id = NEW.run_id AND p.call_id = NEW.call_id
          AND p.version = NEW.version - 1 AND p.status = 'superseded'
          AND p.tool = NEW.tool AND p.thread_id = NEW.thread_id
          AND p.reviewer IS NOT NULL) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'BriefDesk: proposal % (version %) is no edit of a superseded version %',
    NEW.id, NEW.version, NEW.version - 1 {_REFUSE};
END
$$"""


def _small_guards(pinned: str) -> list[str]:
    admin = "IF briefdesk_is_admin(TG_RELID) THEN RETURN coalesce(NEW, OLD); END IF;"
    return [
        f"""
CREATE FUNCTION briefdesk_guard_bindings() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  {admin}
  IF TG_OP = 'INSERT' THEN  -- a role binds a desk only to itself
    NEW.db_role := current_user;
    NEW.bound_at := {_NOW_ISO};
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'BriefDesk: desk % is driven by role %; only the database owner changes '
    'that', OLD.desk, OLD.db_role {_REFUSE};
END
$$""",
        f"""
CREATE FUNCTION briefdesk_guard_leases() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  IF briefdesk_is_admin(TG_RELID) THEN
    IF TG_OP <> 'DELETE' THEN  -- an owner-driven desk is bound too: no desk role takes its id
      PERFORM briefdesk_own_desk(NEW.desk, true);
    END IF;
    RETURN coalesce(NEW, OLD);
  END IF;
  IF (TG_OP = 'UPDATE' AND NEW.desk IS DISTINCT FROM OLD.desk)
     OR NOT briefdesk_own_desk(coalesce(NEW.desk, OLD.desk), true) THEN
    RAISE EXCEPTION 'BriefDesk: the role % holds only its own desk''s lease, not desk %''s '
      '(driven by role %)', current_user, coalesce(OLD.desk, NEW.desk),
      coalesce(briefdesk_desk_role(coalesce(OLD.desk, NEW.desk)), 'none') {_REFUSE};
  END IF;
  RETURN coalesce(NEW, OLD);
END
$$""",
        f"""
CREATE FUNCTION briefdesk_guard_run_rows() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
DECLARE
  rid text;
BEGIN
  {admin}
  IF TG_OP = 'UPDATE' AND NEW.run_id IS DISTINCT FROM OLD.run_id THEN
    RAISE EXCEPTION 'BriefDesk: a row of % never moves to another run', TG_TABLE_NAME {_REFUSE};
  END IF;
  rid := CASE WHEN TG_OP = 'DELETE' THEN OLD.run_id ELSE NEW.run_id END;
  IF briefdesk_own_run(rid, true) THEN
    RETURN coalesce(NEW, OLD);
  END IF;
  IF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'checkpoints' THEN  -- an ended run keeps its latest
    IF EXISTS (SELECT 1 FROM runs r WHERE r.run_id = rid AND r.status IN {_ENDED})
       AND OLD.sequence < (SELECT max(c.sequence) FROM checkpoints c WHERE c.run_id = rid) THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'BriefDesk: the role % writes % only of its own desk''s runs, not of run %',
    current_user, TG_TABLE_NAME, rid {_REFUSE};
END
$$""",
        f"""
CREATE FUNCTION briefdesk_guard_rule_delete() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  {admin}
  IF OLD.scope = 'run' AND briefdesk_own_run(OLD.run_id, true) THEN  -- with its run
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'BriefDesk: the role % may revoke rule %, not delete it',
    current_user, OLD.id {_REFUSE};
END
$$""",
        f"""
CREATE FUNCTION briefdesk_guard_grants() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  {admin}
  RAISE EXCEPTION 'BriefDesk: only the database owner changes grants' {_REFUSE};
END
$$""",
        f"""
CREATE FUNCTION briefdesk_guard_audit() RETURNS trigger
LANGUAGE plpgsql {pinned} AS $$
BEGIN
  {admin}
  IF TG_OP = 'INSERT' THEN  -- who wrote it, whatever the row says
    NEW.db_role := current_user;
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'BriefDesk: the audit log is append-only' {_REFUSE};
END
$$""",
    ]


def _triggers() -> list[str]:
    every = "BEFORE INSERT OR UPDATE OR DELETE"
    on = {
        "runs": (every, "briefdesk_guard_run_desk"),
        "approvals": (every, "briefdesk_guard_approval_desk"),
        "leases": (every, "briefdesk_guard_leases"),
        "rules": ("BEFORE DELETE", "briefdesk_guard_rule_delete"),
        "grants": (every, "briefdesk_guard_grants"),
        "audit": (every, "briefdesk_guard_audit"),
        "desk_bindings": (every, "briefdesk_guard_bindings"),
        **{table: (every, "briefdesk_guard_run_rows") for table in _RUN_ROW_TABLES},
    }
    # Beside 0007's `briefdesk_guard` where a table has both: either refusal stops the write.
    return [
        f"CREATE TRIGGER briefdesk_desk_guard {when} ON {table} FOR EACH ROW "
        f"EXECUTE FUNCTION {function}()"
        for table, (when, function) in on.items()
    ]


_FUNCTIONS = (
    "briefdesk_guard_audit()",
    "briefdesk_guard_grants()",
    "briefdesk_guard_rule_delete()",
    "briefdesk_guard_run_rows()",
    "briefdesk_guard_leases()",
    "briefdesk_guard_bindings()",
    "briefdesk_guard_approval_desk()",
    "briefdesk_guard_run_desk()",
    "briefdesk_only_ended(text, text)",
    "briefdesk_only_answered(text, text)",
    "briefdesk_own_run(text, boolean)",
    "briefdesk_own_desk(text, boolean)",
    "briefdesk_desk_role(text)",
)


def upgrade() -> None:
    op.create_table(
        "desk_bindings",
        sa.Column("desk", sa.String(), primary_key=True),
        sa.Column("db_role", sa.String(), nullable=False),
        sa.Column("bound_at", sa.String(), nullable=False),
    )
    with op.batch_alter_table("audit") as batch:
        batch.add_column(sa.Column("db_role", sa.String(), nullable=True))
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    schema = str(bind.exec_driver_sql("SELECT quote_ident(current_schema())").scalar_one())
    pinned = f"SET search_path = {schema}, pg_temp"
    for statement in [
        *_functions(pinned),
        _run_guard(pinned),
        _approval_guard(pinned),
        *_small_guards(pinned),
        *_triggers(),
    ]:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in (*_GUARDED, "desk_bindings"):
            op.execute(f"DROP TRIGGER IF EXISTS briefdesk_desk_guard ON {table}")
        for function in _FUNCTIONS:
            op.execute(f"DROP FUNCTION IF EXISTS {function}")
    with op.batch_alter_table("audit") as batch:
        batch.drop_column("db_role")
    op.drop_table("desk_bindings")
