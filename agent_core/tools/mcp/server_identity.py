"""Which server exactly: what a run's MCP call is bound to beyond the server's name.

A name is only a label a desk chose (`mcp add fs -- ...`): after `mcp remove fs` and `mcp add
fs -- other-program`, or on another desk, the same name is another program. Two facts of the
server as registered on the run's desk follow the call:

- its digest (desk, command, arguments, environment keys, granted folders, network, sandbox):
  a remembered rule (`mcp:NAME/TOOL`) decides only for the server whose digest it recorded;
- its first granted folder: where a whole-file write's relative `path` lands (contract, "MCP
  whole-file writes"), so its target, diff and base are those of that file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from agent_core.contract.canonical import canonical_json, sha256_hex
from agent_core.storage.tables.mcp_servers import McpServerRow
from agent_core.storage.tables.rules import RuleRow
from agent_core.tools.mcp.servers import granted_folders
from agent_core.tools.policy import MCP_RULE_PREFIX


@dataclass(frozen=True)
class ServerFacts:
    """One registered server as the process that calls it sees it."""

    digest: str | None
    """`server_digest` of its registration (None: not registered here: no rule holds)."""
    folder: Path | None
    """Its first granted folder (None: it was granted none)."""


UNREGISTERED = ServerFacts(digest=None, folder=None)


def server_digest(row: McpServerRow, desk: str | None) -> str:
    """The server as registered on `desk`: a rule remembered for it holds for nothing else.

    Env values are left out (a rotated token is the same server; a value may be a secret);
    their keys are in (another variable is another configuration). Granted folders, network
    and sandbox are in too: a server granted more is a different server, and a "yes" given
    to it confined to one folder, offline and sandboxed says nothing of it given more."""
    facts = {
        "desk": desk or "",
        "command": row.command,
        "args": list(row.args),
        "env_keys": sorted(row.env),
        "roots": list(row.roots),
        "network": row.network,
        "sandbox": row.sandbox,
    }
    return sha256_hex(canonical_json(facts))


def server_facts(rows: Iterable[McpServerRow], desk: str | None) -> dict[str, ServerFacts]:
    """Each registered server's facts, by name."""
    found: dict[str, ServerFacts] = {}
    for row in rows:
        folders = granted_folders(row)
        found[row.name] = ServerFacts(server_digest(row, desk), folders[0] if folders else None)
    return found


def rule_server(rule: RuleRow) -> str | None:
    """The server an MCP rule (`mcp:SERVER/TOOL`) was remembered for; None for a folder rule."""
    if not rule.folder.startswith(MCP_RULE_PREFIX):
        return None
    return rule.folder[len(MCP_RULE_PREFIX) :].partition("/")[0]


def rules_that_hold(rules: Iterable[RuleRow], digests: Mapping[str, str | None]) -> list[RuleRow]:
    """The rules that may decide here: every folder rule; an MCP rule only when the server
    now called under its name is the one it was made for (a rule without a digest, made
    before rules were bound to servers, never again: the person is asked)."""
    held: list[RuleRow] = []
    for rule in rules:
        server = rule_server(rule)
        if server is not None and (
            rule.server_digest is None or digests.get(server) != rule.server_digest
        ):
            continue
        held.append(rule)
    return held
