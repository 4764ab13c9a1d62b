"""Grants: which reviewers may decide which tools under which folders, through which role.

With no grant at all (the default) every reviewer decides every proposal, as on one desk. Once
a grant has been added, a decision (approve, reject, request changes, edit, remember a rule)
needs an active grant that covers the reviewer, the tool, the target and, on PostgreSQL, the
database role the desk logged in with; otherwise `not_authorized`, and nothing changes.
Revoking grants never reopens decisions to everyone: a revoked row still counts as "grants
exist" (an administrator who revokes Bob's last grant means "not Bob", not "everyone").

The app checks this on both backends. On PostgreSQL the database checks it too, for roles that
do not own the tables (migration 0007's triggers, with the same folder test as `under`), so a
desk whose credentials leak cannot decide outside its grants by writing SQL itself. A reviewer
name is a claim the app passes on; only a grant's role binds it to a login.
"""

from __future__ import annotations

import posixpath
import uuid
from dataclasses import dataclass

from sqlalchemy import Connection, RowMapping, insert, select, text, update

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.views import GrantView
from agent_core.home.clock import now_iso
from agent_core.storage.location import StoreKind
from agent_core.storage.schema import grants


@dataclass(frozen=True)
class Grant:
    """One row of `grants`; None in tool, folder or role means "any"."""

    id: str
    reviewer: str
    tool: str | None
    folder: str | None
    role: str | None
    created_by: str
    created_at: str
    revoked_at: str | None

    @classmethod
    def from_row(cls, row: RowMapping) -> Grant:
        return cls(
            id=str(row["id"]),
            reviewer=str(row["reviewer"]),
            tool=_text_or_none(row["tool"]),
            folder=_text_or_none(row["folder"]),
            role=_text_or_none(row["db_role"]),
            created_by=str(row["created_by"]),
            created_at=str(row["created_at"]),
            revoked_at=_text_or_none(row["revoked_at"]),
        )

    def covers(self, reviewer: str, tool: str, path: str | None, role: str | None) -> bool:
        """May `reviewer`, logged in as `role` (None: a store without roles), decide `tool`
        on `path`? (A revoked grant covers nothing.)"""
        return (
            self.revoked_at is None
            and self.reviewer == reviewer
            and (self.tool is None or self.tool == tool)
            and (self.folder is None or (path is not None and under(path, self.folder)))
            and (self.role is None or role is None or self.role == role)
        )

    def describe(self) -> str:
        what = self.tool or "every tool"
        where = f"under {self.folder}" if self.folder else "anywhere"
        through = f" through the database role {self.role}" if self.role else ""
        return f"{self.reviewer} may decide {what} {where}{through}"

    def view(self) -> GrantView:
        return GrantView(
            id=self.id,
            reviewer=self.reviewer,
            tool=self.tool,
            folder=self.folder,
            role=self.role,
            created_by=self.created_by,
            created_at=self.created_at,
            revoked_at=self.revoked_at,
            active=self.revoked_at is None,
            describes=self.describe(),
        )


def under(path: str, folder: str) -> bool:
    """`path` is `folder` or lies below it, by whole path segments (/a/bc is not under /a/b).
    The database's triggers apply the same test (migration 0007)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def normal_folder(folder: str) -> str:
    """An absolute folder as stored: normalised, without a trailing slash (except the root)."""
    text = folder.strip()
    if not posixpath.isabs(text):
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"--folder must be an absolute path on the desks ({folder!r} is not); a grant "
            "covers targets under it.",
        )
    return "/" + posixpath.normpath(text).lstrip("/")


def _text_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def database_role(conn: Connection) -> str | None:
    """The role this connection decides through (PostgreSQL's current_user); None on SQLite."""
    if conn.dialect.name != StoreKind.POSTGRESQL.value:
        return None
    return str(conn.exec_driver_sql("SELECT current_user").scalar_one())


def list_grants(conn: Connection) -> list[Grant]:
    rows = conn.execute(select(grants).order_by(grants.c.created_at, grants.c.id))
    return [Grant.from_row(r._mapping) for r in rows]


def require(conn: Connection, *, reviewer: str, tool: str, path: str | None, doing: str) -> None:
    """`not_authorized` unless grants allow `reviewer` to decide `tool` on `path` here.

    Called inside the decision's own write transaction, so a grant revoked a moment before
    counts, and a refusal rolls back whatever else that transaction did."""
    known = list_grants(conn)
    if not known:
        return  # no grants configured: every reviewer decides everything
    role = database_role(conn)
    if any(g.covers(reviewer, tool, path, role) for g in known):
        return
    through = f" through the database role {role!r}" if role else ""
    where = f"on {path}" if path else "(no target)"
    raise BriefDeskError(
        ErrorCode.NOT_AUTHORIZED,
        f"Reviewer {reviewer!r} has no grant to {doing} {tool} {where}{through}; nothing was "
        "changed. Ask the team's administrator for one (briefdesk-cli grants add --reviewer "
        f"{reviewer} --tool {tool} --folder FOLDER), or let a reviewer who has one decide.",
    )


def add_grant(
    conn: Connection,
    *,
    reviewer: str,
    tool: str | None,
    folder: str | None,
    role: str | None,
    created_by: str,
) -> Grant:
    grant = Grant(
        id="grant-" + uuid.uuid4().hex[:10],
        reviewer=reviewer,
        tool=tool,
        folder=folder,
        role=role,
        created_by=created_by,
        created_at=now_iso(),
        revoked_at=None,
    )
    conn.execute(
        insert(grants).values(
            id=grant.id,
            reviewer=grant.reviewer,
            tool=grant.tool,
            folder=grant.folder,
            db_role=grant.role,
            created_by=grant.created_by,
            created_at=grant.created_at,
        )
    )
    return grant


def revoke_grant(conn: Connection, grant_id: str) -> Grant:
    """Revoke (kept on record); revoking a revoked grant changes nothing."""
    row = conn.execute(select(grants).where(grants.c.id == grant_id)).first()
    if row is None:
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"No grant {grant_id!r}.")
    if row.revoked_at is None:
        conn.execute(update(grants).where(grants.c.id == grant_id).values(revoked_at=now_iso()))
        row = conn.execute(select(grants).where(grants.c.id == grant_id)).one()
    return Grant.from_row(row._mapping)


def role_exists(conn: Connection, role: str) -> bool:
    return (
        conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first()
        is not None
    )
