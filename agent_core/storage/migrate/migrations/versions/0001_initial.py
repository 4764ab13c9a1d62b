"""Initial store: runs, timeline, checkpoints, blobs, calls, approvals, ledger, audit, sessions.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

S, T, INT = sa.String, sa.Text, sa.Integer


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("run_id", S, primary_key=True),
        sa.Column("thread_id", S, nullable=False, index=True),
        sa.Column("status", S, nullable=False),
        sa.Column("question", T, nullable=False),
        sa.Column("model", S, nullable=False),
        sa.Column("mode", S, nullable=False),
        sa.Column("corpus_dir", T, nullable=False),
        sa.Column("artifacts_dir", T, nullable=False),
        sa.Column("limits_json", T, nullable=False),
        sa.Column("state_json", T, nullable=False),
        sa.Column("state_digest", S),
        sa.Column("question_pending", T),
        sa.Column("output", T),
        sa.Column("error_json", T),
        sa.Column("cancel_requested", INT, nullable=False, server_default="0"),
        sa.Column("owner_host", S),
        sa.Column("owner_pid", INT),
        sa.Column("owner_started", sa.Float),
        sa.Column("created_at", S, nullable=False),
        sa.Column("updated_at", S, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("seq", INT, primary_key=True, autoincrement=True),
        sa.Column("run_id", S, nullable=False, index=True),
        sa.Column("kind", S, nullable=False),
        sa.Column("at", S, nullable=False),
        sa.Column("tool", S),
        sa.Column("data_json", T, nullable=False),
    )
    op.create_table(
        "blobs",
        sa.Column("digest", S, primary_key=True),
        sa.Column("size", INT, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("run_id", S, index=True),
        sa.Column("created_at", S, nullable=False),
    )
    op.create_table(
        "checkpoints",
        sa.Column("id", INT, primary_key=True, autoincrement=True),
        sa.Column("run_id", S, nullable=False, index=True),
        sa.Column("sequence", INT, nullable=False),
        sa.Column("boundary", S, nullable=False),
        sa.Column("call_id", S),
        sa.Column("next_step", S, nullable=False),
        sa.Column("run_state_json", T, nullable=False),
        sa.Column("budgets_json", T, nullable=False),
        sa.Column("confirmed_json", T, nullable=False),
        sa.Column("runtime_version", S, nullable=False),
        sa.Column("state_digest", S),
        sa.Column("created_at", S, nullable=False),
    )
    op.create_table(
        "tool_calls",
        sa.Column("run_id", S, primary_key=True),
        sa.Column("call_id", S, primary_key=True),
        sa.Column("idx", INT, nullable=False),
        sa.Column("turn", INT, nullable=False),
        sa.Column("tool", S, nullable=False),
        sa.Column("raw_args", T, nullable=False),
        sa.Column("decision", S),
        sa.Column("code", S),
        sa.Column("created_at", S, nullable=False),
    )
    op.create_table(
        "approvals",
        sa.Column("id", S, primary_key=True),
        sa.Column("run_id", S, nullable=False, index=True),
        sa.Column("thread_id", S, nullable=False),
        sa.Column("call_id", S, nullable=False),
        sa.Column("tool", S, nullable=False),
        sa.Column("args_json", T, nullable=False),
        sa.Column("target", T),
        sa.Column("base_hash", S),
        sa.Column("risk", S, nullable=False),
        sa.Column("reason", T, nullable=False),
        sa.Column("arg_hash", S, nullable=False),
        sa.Column("state_version", INT, nullable=False),
        sa.Column("version", INT, nullable=False),
        sa.Column("status", S, nullable=False),
        sa.Column("created_at", S, nullable=False),
        sa.Column("expires_at", S, nullable=False),
        sa.Column("reviewer", S),
        sa.Column("decision_reason", T),
        sa.Column("decided_at", S),
        sa.Column("decided_by_rule", S),
        sa.Column("consumed_at", S),
    )
    op.create_table(
        "ledger",
        sa.Column("idempotency_key", S, primary_key=True),
        sa.Column("run_id", S, nullable=False, index=True),
        sa.Column("call_id", S, nullable=False),
        sa.Column("tool", S, nullable=False),
        sa.Column("arg_hash", S, nullable=False),
        sa.Column("status", S, nullable=False),
        sa.Column("target", T),
        sa.Column("expected_hash", S),
        sa.Column("outcome", S),
        sa.Column("result_json", T),
        sa.Column("started_at", S, nullable=False),
        sa.Column("confirmed_at", S),
    )
    op.create_table(
        "audit",
        sa.Column("id", INT, primary_key=True, autoincrement=True),
        sa.Column("at", S, nullable=False),
        sa.Column("run_id", S, index=True),
        sa.Column("entry", S, nullable=False),
        sa.Column("principal", S, nullable=False),
        sa.Column("tool", S),
        sa.Column("arg_hash", S),
        sa.Column("resource", T),
        sa.Column("rule_id", S),
        sa.Column("code", S),
        sa.Column("decision", S),
        sa.Column("detail", T),
    )
    op.create_table(
        "session_items",
        sa.Column("id", INT, primary_key=True, autoincrement=True),
        sa.Column("thread_id", S, nullable=False, index=True),
        sa.Column("run_id", S, nullable=False),
        sa.Column("item_json", T, nullable=False),
    )
    op.create_table(
        "settings",
        sa.Column("key", S, primary_key=True),
        sa.Column("value_json", T, nullable=False),
    )


def downgrade() -> None:
    for name in (
        "settings",
        "session_items",
        "audit",
        "ledger",
        "approvals",
        "tool_calls",
        "checkpoints",
        "blobs",
        "events",
        "runs",
    ):
        op.drop_table(name)
