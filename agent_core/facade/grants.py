"""The façade's grant commands: list, add and revoke grants, and set up a desk's own role.

The rules themselves live in storage/grants.py (the app's check) and migration 0007 (the
database's, on PostgreSQL). On PostgreSQL only the database's owner may change grants: a
desk's role holds no write privilege on the table, so its attempt answers `not_authorized`.
"""

from __future__ import annotations

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.views import DeskRoleView, GrantView
from agent_core.storage.location import StoreKind
from agent_core.storage.store import Store
from agent_core.storage.tables import grants as grant_rows
from agent_core.storage.team import desk_roles
from agent_core.tools.mcp.servers import model_name, split_model_name
from agent_core.tools.registry import TOOLS

MAX_REVIEWER_CHARS = 80  # a decision keeps this much of a reviewer's name (review.py)


def list_grants(store: Store) -> list[GrantView]:
    with store.read() as conn:
        return [g.view() for g in grant_rows.list_grants(conn)]


def add_grant(
    store: Store,
    *,
    reviewer: str,
    tool: str | None,
    folder: str | None,
    role: str | None,
    created_by: str,
) -> GrantView:
    """Validate everything before anything is written: a bad grant changes nothing."""
    team = store.kind is StoreKind.POSTGRESQL
    name, where = check_grant(reviewer=reviewer, tool=tool, folder=folder, role=role, team=team)
    with store.write() as conn:
        if role is not None and not grant_rows.role_exists(conn, role):
            raise BriefDeskError(
                ErrorCode.NOT_FOUND,
                f"There is no database role {role!r} (CREATE ROLE comes first; see the "
                "README's team set-up).",
            )
        grant = grant_rows.add_grant(
            conn, reviewer=name, tool=tool, folder=where, role=role, created_by=created_by
        )
    return grant.view()


def check_grant(
    *, reviewer: str, tool: str | None, folder: str | None, role: str | None, team: bool
) -> tuple[str, str | None]:
    """What a grant needs no store to refuse (the CLI checks it before a home is created):
    the reviewer's name and the folder as stored."""
    name = (reviewer or "").strip()
    if not name or len(name) > MAX_REVIEWER_CHARS:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"--reviewer needs a name of 1 to {MAX_REVIEWER_CHARS} characters.",
        )
    if tool is not None and tool not in TOOLS and not _mcp_tool_name(tool):
        raise BriefDeskError(
            ErrorCode.UNKNOWN_TOOL,
            f"There is no tool named {tool!r} (tools: {', '.join(sorted(TOOLS))}, or an MCP "
            "server's tool as mcp__SERVER__TOOL).",
        )
    where = grant_rows.normal_folder(folder) if folder is not None else None
    if role is not None and not team:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            "--role names a PostgreSQL role, and this home's store is its SQLite file: leave "
            "--role out, or give --db postgresql://... (the team database).",
        )
    return name, where


def _mcp_tool_name(tool: str) -> bool:
    """`mcp__SERVER__TOOL` as the model and proposals name an MCP tool: a grant may name one
    whose server is not registered on this desk (or not yet): the tool is another desk's."""
    split = split_model_name(tool)
    return split is not None and model_name(*split) == tool


def revoke_grant(store: Store, grant_id: str) -> GrantView:
    with store.write() as conn:
        return grant_rows.revoke_grant(conn, grant_id).view()


def grant_desk_role(store: Store, role: str) -> DeskRoleView:
    with store.write() as conn:
        return desk_roles.grant_desk_role(conn, role)
