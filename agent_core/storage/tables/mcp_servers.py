"""The MCP servers this desk registered (`mcp add`): the `mcp_servers` table, written and read here.

A desk's own table (it stays in the home's `state.db`, also in team mode). The environment is
stored as `{KEY: {"value": V}}` for a literal the person typed and `{KEY: {"keyring": NAME}}`
for a secret kept in the OS keyring: only the secret's *name* is ever stored; its value is read
when the server starts (tools/mcp/servers.py). Nothing here prints a value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Literal

from sqlalchemy import Connection, RowMapping, delete, insert, select, update

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.storage.schema import mcp_servers

EnvKind = Literal["value", "keyring"]


@dataclass(frozen=True)
class EnvEntry:
    """One variable of a server's environment: a literal, or the name of a keyring secret."""

    kind: EnvKind
    text: str
    """The literal value (kind `value`) or the keyring secret's name (kind `keyring`)."""


@dataclass(frozen=True)
class McpServerRow:
    """One row of `mcp_servers`, as written and as read."""

    name: str
    command: str
    args: tuple[str, ...]
    env: dict[str, EnvEntry]
    trust_hints: bool
    created_at: str
    tiers: dict[str, str] = field(default_factory=dict)
    """Tool name to tier, as `mcp tier` set it."""
    roots: tuple[str, ...] = ()
    """Absolute folders granted read-write by `--root`, besides those named as arguments."""
    network: bool = False
    """The server may reach the network (`--network`); otherwise only a loopback of its own."""
    sandbox: bool = True
    """False only for a server added with `--no-sandbox`."""


def _corrupt(name: object, what: str) -> BriefDeskError:
    return BriefDeskError(
        ErrorCode.STORAGE_CORRUPT, f"The stored MCP server {name!r} has a damaged {what}."
    )


def _json(row: RowMapping, column: str) -> object:
    try:
        return json.loads(str(row[column]))
    except ValueError:
        raise _corrupt(row["name"], column) from None


def _stored(row: RowMapping) -> McpServerRow:
    args = _json(row, "args_json")
    env = _json(row, "env_json")
    tiers = _json(row, "tiers_json")
    roots = _json(row, "roots_json")
    if not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        raise _corrupt(row["name"], "argument list")
    if not isinstance(env, dict) or not isinstance(tiers, dict):
        raise _corrupt(row["name"], "environment or tier list")
    if not (isinstance(roots, list) and all(isinstance(r, str) for r in roots)):
        raise _corrupt(row["name"], "list of granted folders")
    entries: dict[str, EnvEntry] = {}
    for key, spec in env.items():
        if not (isinstance(spec, dict) and len(spec) == 1):
            raise _corrupt(row["name"], "environment")
        ((kind, text),) = spec.items()
        if kind not in ("value", "keyring") or not isinstance(text, str):
            raise _corrupt(row["name"], "environment")
        entries[str(key)] = EnvEntry("value" if kind == "value" else "keyring", text)
    return McpServerRow(
        name=str(row["name"]),
        command=str(row["command"]),
        args=tuple(args),
        env=entries,
        trust_hints=bool(row["trust_hints"]),
        created_at=str(row["created_at"]),
        tiers={str(k): str(v) for k, v in tiers.items()},
        roots=tuple(roots),
        network=bool(row["network"]),
        sandbox=bool(row["sandbox"]),
    )


def add(conn: Connection, row: McpServerRow) -> None:
    """Register a server; a name already registered is `invalid_arguments`, nothing written."""
    if get(conn, row.name) is not None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"An MCP server named {row.name!r} is already registered on this desk; remove it "
            f"first (briefdesk-cli mcp remove {row.name}).",
        )
    conn.execute(
        insert(mcp_servers).values(
            name=row.name,
            command=row.command,
            args_json=json.dumps(list(row.args)),
            env_json=json.dumps({k: {e.kind: e.text} for k, e in row.env.items()}),
            trust_hints=int(row.trust_hints),
            tiers_json=json.dumps(row.tiers),
            created_at=row.created_at,
            roots_json=json.dumps(list(row.roots)),
            network=int(row.network),
            sandbox=int(row.sandbox),
        )
    )


def get(conn: Connection, name: str) -> McpServerRow | None:
    found = conn.execute(select(mcp_servers).where(mcp_servers.c.name == name)).mappings().first()
    return None if found is None else _stored(found)


def list_all(conn: Connection) -> list[McpServerRow]:
    """Every registered server, by name."""
    rows = conn.execute(select(mcp_servers).order_by(mcp_servers.c.name)).mappings()
    return [_stored(row) for row in rows]


def remove(conn: Connection, name: str) -> bool:
    """Forget a server (its tier overrides with it); False when none had that name."""
    return conn.execute(delete(mcp_servers).where(mcp_servers.c.name == name)).rowcount > 0


def set_tier(conn: Connection, name: str, tool: str, tier: str) -> bool:
    """Store one tool's tier override; False when no server has that name."""
    row = get(conn, name)
    if row is None:
        return False
    tiers = {**row.tiers, tool: tier}
    conn.execute(
        update(mcp_servers)
        .where(mcp_servers.c.name == name)
        .values(tiers_json=json.dumps(tiers, sort_keys=True))
    )
    return True
