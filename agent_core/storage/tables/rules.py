"""Remembered rules (`approve --remember`): the `rules` table, written and read here.

A rule decides later calls of one tool under one folder, for one run or the whole home
(tools/policy.py reads it as a `Rule`). A revoked rule keeps its row: `revoked_at` says when.
An MCP rule also names the server it was made for (`server_digest`, migration 0014).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from sqlalchemy import Connection, RowMapping, insert, select, update

from agent_core.storage.schema import rules


@dataclass(frozen=True)
class RuleRow:
    """One row of `rules`, as written and as read."""

    id: str
    tool: str
    folder: str
    scope: str
    """`run` (only `run_id`) or `home`."""
    run_id: str | None
    created_by: str
    created_at: str
    revoked_at: str | None = None
    server_digest: str | None = None
    """An MCP rule's server as registered on its desk (tools/mcp/server_identity.py); it
    decides only for that server. None for a folder rule (and an MCP rule made before 0014,
    which then never decides)."""


def _stored(row: RowMapping) -> RuleRow:
    return RuleRow(
        id=str(row["id"]),
        tool=str(row["tool"]),
        folder=str(row["folder"]),
        scope=str(row["scope"]),
        run_id=_text_or_none(row["run_id"]),
        created_by=str(row["created_by"]),
        created_at=str(row["created_at"]),
        revoked_at=_text_or_none(row["revoked_at"]),
        server_digest=_text_or_none(row["server_digest"]),
    )


def _text_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def insert_rule(conn: Connection, rule: RuleRow) -> None:
    conn.execute(insert(rules).values(asdict(rule)))


def get_rule(conn: Connection, rule_id: str) -> RuleRow | None:
    row = conn.execute(select(rules).where(rules.c.id == rule_id)).first()
    return None if row is None else _stored(row._mapping)


def list_rules(conn: Connection) -> list[RuleRow]:
    """Every rule, revoked ones included, oldest first."""
    return [
        _stored(row._mapping) for row in conn.execute(select(rules).order_by(rules.c.created_at))
    ]


def revoke(conn: Connection, rule_id: str, at: str) -> RuleRow | None:
    """Revoke the rule at `at`, unless it already was (its first revocation time stays);
    returns the rule as it now is (None: there is no such rule)."""
    conn.execute(
        update(rules)
        .where(rules.c.id == rule_id, rules.c.revoked_at.is_(None))
        .values(revoked_at=at)
    )
    return get_rule(conn, rule_id)
