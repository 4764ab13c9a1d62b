"""The audit / block log. Rows outlive their runs (retention keeps them)."""

from __future__ import annotations

from sqlalchemy import Connection, RowMapping, insert, select

from agent_core.contract.views import AuditEntryView
from agent_core.home.clock import now_iso
from agent_core.home.secrets import REDACTOR
from agent_core.storage.schema import audit

MAX_RESOURCE_CHARS = 200


def _clip(text: str | None) -> str | None:
    """Never store a full malicious payload: keep a bounded, redacted prefix."""
    if text is None:
        return None
    text = REDACTOR.redact_text(text)
    return text if len(text) <= MAX_RESOURCE_CHARS else text[:MAX_RESOURCE_CHARS] + "…"


def record(
    conn: Connection,
    *,
    entry: str,
    principal: str,
    run_id: str | None = None,
    tool: str | None = None,
    arg_hash: str | None = None,
    resource: str | None = None,
    rule_id: str | None = None,
    code: str | None = None,
    decision: str | None = None,
    detail: str | None = None,
) -> None:
    conn.execute(
        insert(audit).values(
            at=now_iso(),
            run_id=run_id,
            entry=entry,
            principal=principal,
            tool=tool,
            arg_hash=arg_hash,
            resource=_clip(resource),
            rule_id=rule_id,
            code=code,
            decision=decision,
            detail=_clip(detail),
        )
    )


def list_entries(
    conn: Connection, run_id: str | None = None, principal: str | None = None
) -> list[AuditEntryView]:
    query = select(audit).order_by(audit.c.id)
    if run_id:
        query = query.where(audit.c.run_id == run_id)
    if principal:
        query = query.where(audit.c.principal == principal)
    return [_entry(r._mapping) for r in conn.execute(query)]


def _entry(row: RowMapping) -> AuditEntryView:
    """One row as the CLI prints it: every column, in the table's order."""
    return AuditEntryView(
        id=int(row["id"]),
        at=row["at"],
        run_id=row["run_id"],
        entry=row["entry"],
        principal=row["principal"],
        tool=row["tool"],
        arg_hash=row["arg_hash"],
        resource=row["resource"],
        rule_id=row["rule_id"],
        code=row["code"],
        decision=row["decision"],
        detail=row["detail"],
        db_role=row["db_role"],
    )


def latest_detail(conn: Connection, run_id: str, entry: str) -> str | None:
    """The detail of the run's latest audit row of kind `entry` (None: it has none)."""
    row = conn.execute(
        select(audit.c.detail)
        .where(audit.c.run_id == run_id, audit.c.entry == entry)
        .order_by(audit.c.id.desc())
        .limit(1)
    ).first()
    return None if row is None else str(row.detail)
