"""What `mcp list`, `mcp tools` and `mcp tier` print (CLI contract, "MCP servers").

No view holds an environment value: a server's environment shows as its keys only.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

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
    roots: list[str]
    """Its granted folders (read-write), absolute: folders named as arguments, then `--root`s."""
    network: bool
    """It may reach the network (`--network`); otherwise it has only a loopback of its own."""
    sandbox: bool
    """False only for a server added with `--no-sandbox` (it runs unconfined)."""


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
    error: NotRequired[str]
    """Only for a tool no run offers: why (its input schema cannot be checked: a `$ref` loop,
    nesting past 64 levels, past 1 MiB)."""


class McpTierView(TypedDict):
    server: str
    tool: str
    tier: str


class McpCallView(TypedDict):
    """What a reviewer is shown of a proposed MCP call (`approvals show`, the dialog)."""

    server: str
    tool: str
    """The tool's own name on its server."""
    annotations: JsonObject
    """What the server says of its tool (readOnlyHint, destructiveHint, idempotentHint,
    openWorldHint): claims, shown as such."""
    outcome_unknown: bool
    """This proposal asks whether a call that already reached the server happened: approve
    runs it again, `approvals resolve --done` records that it did, reject that it did not."""
