"""Table definitions used by queries, and Alembic's `target_metadata`.

Migrations (storage/migrations) create and evolve the tables; this module must describe exactly
what they build (tests/core/test_schema_drift.py compares the two). The FTS5 index tables
(`memories_fts`, `corpus_fts`) are created by raw SQL in the migrations and are not described
here: SQLAlchemy cannot express virtual tables (tests/core/test_storage_fts.py checks them instead).
Since revision 0003, `corpus_fts` has a `cjk` column of character bigrams (storage/cjk_text.py).

The four kinds of state stay apart: `runs` (run state), `session_items` (one conversation
thread), `checkpoints` (resume points; the SDK RunState lives in `blobs`, latest only) and
`memories` (long-term, by policy). Rows hold references (source ids, blob digests), never
copies of large bodies.
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    text,
)

metadata = MetaData()

runs = Table(
    "runs",
    metadata,
    Column("run_id", String, primary_key=True),
    Column("thread_id", String, nullable=False, index=True),
    Column("status", String, nullable=False),
    Column("question", Text, nullable=False),
    Column("model", String, nullable=False),
    Column("mode", String, nullable=False),
    Column("corpus_dir", Text, nullable=False),
    Column("artifacts_dir", Text, nullable=False),
    Column("limits_json", Text, nullable=False),
    Column("state_json", Text, nullable=False),  # run state: turns, calls, evidence, next step
    Column("state_digest", String, nullable=True),  # latest SDK RunState (blobs.digest)
    Column("question_pending", Text, nullable=True),
    Column("output", Text, nullable=True),
    Column("error_json", Text, nullable=True),
    Column("cancel_requested", Integer, nullable=False, server_default="0"),
    Column("owner_host", String, nullable=True),
    Column("owner_pid", Integer, nullable=True),
    Column("owner_started", Float, nullable=True),
    Column("created_at", String, nullable=False),
    Column("updated_at", String, nullable=False),
    Column("desk", String, nullable=True),  # the installation that runs it (revision 0006)
    # Whose run: `briefdesk`, or a coding agent's session in a folder (revision 0017).
    Column("agent", String, nullable=False, server_default=text("'briefdesk'")),
    Column("session_id", String, nullable=True),
    Column("cwd", Text, nullable=True),
    Index(
        "ix_runs_agent_session",
        "agent",
        "session_id",
        unique=True,
        sqlite_where=text("session_id IS NOT NULL"),  # PostgreSQL's too: add_postgresql_options
    ),
)

events = Table(
    "events",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    # null: an event of the home itself (a stray file while no run watches; revision 0004)
    Column("run_id", String, nullable=True, index=True),
    Column("kind", String, nullable=False),
    Column("at", String, nullable=False),
    Column("tool", String, nullable=True),
    Column("data_json", Text, nullable=False),
)

blobs = Table(
    "blobs",
    metadata,
    Column("digest", String, primary_key=True),
    Column("size", Integer, nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("run_id", String, nullable=True, index=True),
    Column("created_at", String, nullable=False),
)

checkpoints = Table(
    "checkpoints",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("run_id", String, nullable=False, index=True),
    Column("sequence", Integer, nullable=False),
    Column("boundary", String, nullable=False),
    Column("call_id", String, nullable=True),
    Column("next_step", String, nullable=False),
    Column("run_state_json", Text, nullable=False),
    Column("budgets_json", Text, nullable=False),
    Column("confirmed_json", Text, nullable=False),
    Column("runtime_version", String, nullable=False),
    Column("state_digest", String, nullable=True),
    Column("created_at", String, nullable=False),
    # One index (run_id): one page less in every checkpoint's commit (revision 0005).
)

tool_calls = Table(
    "tool_calls",
    metadata,
    Column("run_id", String, primary_key=True),
    Column("call_id", String, primary_key=True),
    Column("idx", Integer, nullable=False),
    Column("turn", Integer, nullable=False),
    Column("tool", String, nullable=False),
    Column("raw_args", Text, nullable=False),
    Column("decision", String, nullable=True),  # allow | ask | deny
    Column("code", String, nullable=True),
    Column("created_at", String, nullable=False),
)

approvals = Table(
    "approvals",
    metadata,
    Column("id", String, primary_key=True),
    Column("run_id", String, nullable=False, index=True),
    Column("thread_id", String, nullable=False),
    Column("call_id", String, nullable=False),
    Column("tool", String, nullable=False),
    Column("args_json", Text, nullable=False),
    Column("target", Text, nullable=True),
    Column("base_hash", String, nullable=True),
    Column("risk", String, nullable=False),
    Column("reason", Text, nullable=False),
    Column("arg_hash", String, nullable=False),
    Column("state_version", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("status", String, nullable=False),
    Column("created_at", String, nullable=False),
    Column("expires_at", String, nullable=False),
    Column("reviewer", String, nullable=True),
    Column("decision_reason", Text, nullable=True),
    Column("decided_at", String, nullable=True),
    Column("decided_by_rule", String, nullable=True),
    Column("consumed_at", String, nullable=True),
    Column("desk", String, nullable=True),  # the run's desk (revision 0006)
    # The target's content when proposed (blobs.digest): the diff a reviewer elsewhere sees.
    Column("base_digest", String, nullable=True),
    # Which revision it is (revision 0010): n+1 after n requests for changes in its run.
    Column("revision", Integer, nullable=False, server_default=text("1")),
    Column("revises", String, nullable=True),
    Column("revision_note", Text, nullable=True),
    Index("ix_approvals_thread_hash", "thread_id", "arg_hash"),
)

ledger = Table(
    "ledger",
    metadata,
    Column("idempotency_key", String, primary_key=True),
    Column("run_id", String, nullable=False, index=True),
    Column("call_id", String, nullable=False),
    Column("tool", String, nullable=False),
    Column("arg_hash", String, nullable=False),
    Column("status", String, nullable=False),
    Column("target", Text, nullable=True),
    Column("expected_hash", String, nullable=True),
    Column("outcome", String, nullable=True),
    Column("result_json", Text, nullable=True),
    Column("started_at", String, nullable=False),
    Column("confirmed_at", String, nullable=True),
    # The approval under which the call last started (revision 0012): a write whose outcome
    # is unknown runs again only under a newer one, a person's answer to "did it happen?".
    Column("approval_id", String, nullable=True),
    Index("ix_ledger_status_tool", "status", "tool"),
)

audit = Table(
    "audit",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", String, nullable=False),
    Column("run_id", String, nullable=True, index=True),
    Column("entry", String, nullable=False),  # decision | block
    Column("principal", String, nullable=False),  # person:NAME | rule:ID | policy:MODE | model
    Column("tool", String, nullable=True),
    Column("arg_hash", String, nullable=True),
    Column("resource", Text, nullable=True),
    Column("rule_id", String, nullable=True),
    Column("code", String, nullable=True),
    Column("decision", String, nullable=True),
    Column("detail", Text, nullable=True),
    # The database role that wrote the row, stamped by the database (team mode; revision 0008).
    Column("db_role", String, nullable=True),
)

session_items = Table(
    "session_items",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("thread_id", String, nullable=False, index=True),
    Column("run_id", String, nullable=False),
    Column("item_json", Text, nullable=False),
)

leases = Table(
    "leases",
    metadata,
    # One per desk that drives runs, renewed while it does; lapsed: its running runs are
    # interrupted, on whatever machine looks (revision 0006).
    Column("desk", String, primary_key=True),
    Column("host", String, nullable=False),
    Column("pid", Integer, nullable=False),
    Column("renewed_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

desk_bindings = Table(
    "desk_bindings",
    metadata,
    # Which database role drives each desk (revision 0008): filled by PostgreSQL itself when a
    # role first writes a desk's run or lease, changed only by the owner; empty on SQLite.
    Column("desk", String, primary_key=True),
    Column("db_role", String, nullable=False),
    Column("bound_at", String, nullable=False),
)

settings = Table(
    "settings",
    metadata,
    Column("key", String, primary_key=True),
    Column("value_json", Text, nullable=False),
)

rules = Table(
    "rules",
    metadata,
    Column("id", String, primary_key=True),
    Column("tool", String, nullable=False),
    Column("folder", Text, nullable=False),
    Column("scope", String, nullable=False),  # run | home
    Column("run_id", String, nullable=True),
    Column("created_by", String, nullable=False),
    Column("created_at", String, nullable=False),
    Column("revoked_at", String, nullable=True),
    # For an MCP rule (revision 0014): the digest of the server it was made for (desk, command,
    # arguments, env keys); it decides only while that very server is the one called.
    Column("server_digest", String, nullable=True),
)

grants = Table(
    "grants",
    metadata,
    # Who may decide what (revision 0007): a reviewer, for one tool or all (null), for targets
    # under one folder or anywhere (null), through one database role or any (null). No row at
    # all: every reviewer decides everything. A revoked row still counts as "grants exist".
    Column("id", String, primary_key=True),
    Column("reviewer", String, nullable=False),
    Column("tool", String, nullable=True),
    Column("folder", Text, nullable=True),
    Column("db_role", String, nullable=True),
    Column("created_by", String, nullable=False),
    Column("created_at", String, nullable=False),
    Column("revoked_at", String, nullable=True),
)

memories = Table(
    "memories",
    metadata,
    Column("id", String, primary_key=True),
    Column("tenant", String, nullable=False),
    Column("user", String, nullable=False),
    Column("purpose", String, nullable=False),
    Column("key", String, nullable=False),
    Column("value", Text, nullable=False),
    Column("provenance_json", Text, nullable=False),
    Column("created_at", String, nullable=False),
    Column("expires_at", String, nullable=False),
    Column("policy_version", Integer, nullable=False),
)

corpus_docs = Table(
    "corpus_docs",
    metadata,
    Column("corpus_root", Text, primary_key=True),
    Column("source_id", Text, primary_key=True),
    Column("title", Text, nullable=False),
    Column("mtime_ns", Integer, nullable=False),
    Column("size", Integer, nullable=False),
    # sha256 of the file's bytes (revision 0009; before it, of the text indexed).
    Column("sha256", String, nullable=False),
    Column("doc_type", String, nullable=False, server_default=text("''")),
    Column("pages", Integer),
    Column("chars", Integer),
    Column("status", String, nullable=False, server_default="indexed"),
    Column("error_code", String),
    Column("error_message", Text),
    # What the extractor left out as hidden, and pages read by OCR (revision 0016).
    Column("hidden_removed", Integer, nullable=False, server_default=text("0")),
    Column("ocr_pages", Integer, nullable=False, server_default=text("0")),
)

# The text of the corpus (revision 0009): one row per page of a paged document, one (page 0)
# for any other. `corpus_fts` (SQLite only) is an external-content FTS5 index over it.
corpus_pages = Table(
    "corpus_pages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("corpus_root", Text, nullable=False),
    Column("source_id", Text, nullable=False),
    Column("page", Integer, nullable=False),
    Column("title", Text, nullable=False),
    Column("body", Text, nullable=False),
    Column("cjk", Text, nullable=False),
    Index("ix_corpus_pages_doc", "corpus_root", "source_id", "page", unique=True),
)

artifact_sightings = Table(
    "artifact_sightings",
    metadata,
    Column("path", Text, primary_key=True),
    Column("content_hash", String, primary_key=True),
    Column("inode_key", String, primary_key=True),  # (st_ino, st_mtime_ns): one physical write
    Column("run_id", String, nullable=True),
    Column("verdict", String, nullable=False),  # confirmed | duplicate | unexpected
    Column("count", Integer, nullable=False),
    Column("seen_at", String, nullable=False),
    # The desk whose watcher saw it (team mode; null on a home's own file): revision 0006.
    Column("desk", String, nullable=True),
)

# Stdio MCP servers this desk registered (revision 0011): a desk's own table, like `settings`.
# `env_json` holds literal values and keyring *names* (`{"keyring": NAME}`), never a secret.
mcp_servers = Table(
    "mcp_servers",
    metadata,
    Column("name", String, primary_key=True),
    Column("command", Text, nullable=False),
    Column("args_json", Text, nullable=False),
    Column("env_json", Text, nullable=False),
    Column("trust_hints", Integer, nullable=False, server_default=text("0")),
    Column("tiers_json", Text, nullable=False, server_default=text("'{}'")),
    Column("created_at", String, nullable=False),
    # The sandbox (revision 0014): folders granted read-write besides those named as arguments,
    # whether the network is granted, and 0 only for a server added with --no-sandbox.
    Column("roots_json", Text, nullable=False, server_default=text("'[]'")),
    Column("network", Integer, nullable=False, server_default=text("0")),
    Column("sandbox", Integer, nullable=False, server_default=text("1")),
)

# The MCP tools a run offered its model, as listed when it started (revision 0012): what a
# process that starts no server (approvals show, an edit, the executor's binding check) builds
# the tool's spec from. A team table, like the run's other rows.
run_mcp_tools = Table(
    "run_mcp_tools",
    metadata,
    Column("run_id", String, primary_key=True),
    Column("model_name", String, primary_key=True),
    Column("server", String, nullable=False),
    Column("tool", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("input_schema_json", Text, nullable=False),
    Column("annotations_json", Text, nullable=False),
    Column("tier", String, nullable=False),
    Column("trust_hints", Integer, nullable=False),
    Column("schema_hash", String, nullable=False),
)

# The latest model response of a run whose model does not replay exactly (a remote endpoint),
# keyed by a digest of the input it answered (revision 0013): written with the turn's record,
# so a resume after a kill mid-turn is given the same response instead of asking again. One
# row per run, replaced each turn. A team table, like the run's other rows.
turn_responses = Table(
    "turn_responses",
    metadata,
    Column("run_id", String, primary_key=True),
    Column("input_digest", String, nullable=False),
    Column("response_json", Text, nullable=False),
    Column("created_at", String, nullable=False),
)


def add_postgresql_options() -> None:
    """Give each partial index its PostgreSQL spelling, the same as SQLite's. Called where
    PostgreSQL's dialect is loaded anyway (storage/postgres.py, Alembic's env on PostgreSQL):
    naming `postgresql_where` in a table above would load that dialect in every process, ~80 ms
    of a hook's read on a home's SQLite file. Only DDL and Alembic's comparison read it; a query
    names its own conflict target. Idempotent."""
    for table in metadata.tables.values():
        for index in table.indexes:
            where = index.dialect_kwargs.get("sqlite_where")
            if where is not None:
                index.dialect_kwargs["postgresql_where"] = where
