"""What `mcp list`, `mcp tools` and `mcp tier` print (CLI contract, "MCP servers").

No view holds an environment value: a server's environment shows as its keys only.
"""

from __future__ import annotations

from typing import TypedDict

from agent_core.contract.json_types import JsonObject


class McpServerView(TypedDict):
    name: str
    command: str
    args: list[str]
    env_keys: list[str]
    """The names of its `--env` variables, sorted; never a value."""
    trust_hints: bool
    status: str
    """`configured`: registered; whether it starts is found out when it is used."""


class McpToolView(TypedDict):
    name: str
    """The tool's own name on its server."""
    model_name: str
    """`mcp__SERVER__TOOL`: what the model calls."""
    tier: str
    """read, write, network or interaction (see the contract's tier rule)."""
    annotations: JsonObject
    """The hints the server declared (readOnlyHint, destructiveHint, ...), as it sent them."""
    input_schema: JsonObject
    """The arguments' JSON Schema as the model is shown it: undeclared keys refused."""


class McpTierView(TypedDict):
    server: str
    tool: str
    tier: str
