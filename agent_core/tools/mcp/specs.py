"""An MCP tool as BriefDesk sees it: its model name, its tier and its argument check.

The tier rule (contract): the person's `mcp tier` override when there is one; else `read`
when the server was added with `--trust-hints` and the tool says `readOnlyHint: true`; else
`write`. A hint is the server's claim about itself, so an untrusted server's hints are shown
but decide nothing.

No real server closes its input schema (`additionalProperties: false`) and the ones measured
accept undeclared keys silently, so the schema is closed here: the model is shown the closed
schema and every call is checked against it (jsonschema, in `ToolSpec.validate`) before it
could run. A schema that cannot be checked (schema_check.py) makes its tool unavailable: listed
with an `error`, never offered to a model.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from agent_core.contract.json_types import JsonObject
from agent_core.contract.mcp_views import McpToolView
from agent_core.storage.tables.mcp_servers import McpServerRow
from agent_core.storage.tables.run_mcp_tools import RunMcpTool
from agent_core.tools.mcp.schema_check import schema_problem
from agent_core.tools.mcp.servers import model_name
from agent_core.tools.specs import Tier

if TYPE_CHECKING:
    from mcp.types import CallToolResult, Tool

log = logging.getLogger(__name__)
OVERRIDE_TIERS: tuple[Tier, ...] = (Tier.READ, Tier.WRITE, Tier.NETWORK, Tier.INTERACTION)


def tier_for(annotations: Mapping[str, object], trust_hints: bool, override: str | None) -> Tier:
    if override is not None:
        return Tier(override)
    if trust_hints and annotations.get("readOnlyHint") is True:
        return Tier.READ
    return Tier.WRITE


def closed_schema(schema: Mapping[str, object]) -> JsonObject:
    """The input schema with undeclared keys refused (`$schema` dropped: the model needs none)."""
    closed = cast(JsonObject, {k: v for k, v in schema.items() if k != "$schema"})
    closed["type"] = "object"
    closed.setdefault("properties", {})
    closed["additionalProperties"] = False
    return closed


@dataclass(frozen=True)
class McpToolSpec:
    """One tool of one server, as a run would offer it to the model."""

    server: str
    tool: str
    model_name: str
    tier: Tier
    annotations: JsonObject
    input_schema: JsonObject
    """Closed: see `closed_schema`."""
    description: str
    error: str | None = None
    """Why the tool is unavailable (its input schema cannot be checked), or None."""

    def recorded(self, trust_hints: bool) -> RunMcpTool:
        """The tool as a run records and offers it (`run_mcp_tools`; tools/mcp/tool_spec.py
        makes the ToolSpec that checks its arguments against the closed schema)."""
        return RunMcpTool(
            model_name=self.model_name,
            server=self.server,
            tool=self.tool,
            description=self.description,
            input_schema=self.input_schema,
            annotations=self.annotations,
            tier=str(self.tier),
            trust_hints=trust_hints,
        )

    def to_view(self) -> McpToolView:
        view = McpToolView(
            name=self.tool,
            model_name=self.model_name,
            tier=str(self.tier),
            annotations=self.annotations,
            input_schema=self.input_schema,
        )
        if self.error is not None:
            view["error"] = self.error
        return view


def spec_for_tool(row: McpServerRow, tool: Tool) -> McpToolSpec | None:
    """The spec of one listed tool; None when its name cannot be shown to a model unchanged."""
    name = model_name(row.name, tool.name)
    if name is None:
        return None
    annotations: JsonObject = (
        {}
        if tool.annotations is None
        else cast(
            JsonObject, tool.annotations.model_dump(mode="json", by_alias=True, exclude_none=True)
        )
    )
    problem = schema_problem(tool.input_schema)
    return McpToolSpec(
        server=row.name,
        tool=tool.name,
        model_name=name,
        tier=tier_for(annotations, row.trust_hints, row.tiers.get(tool.name)),
        annotations=annotations,
        # An unusable schema is not shown (it may be a MiB, or too deep to print).
        input_schema=closed_schema(tool.input_schema if problem is None else {}),
        description=tool.description or "",
        error=None if problem is None else f"unavailable: {problem}",
    )


def result_text(result: CallToolResult) -> str:
    """What a model would read of a result: its text blocks joined (other blocks named), or
    the structured content when there is no text."""
    import json

    from mcp.types import TextContent

    parts = [
        block.text if isinstance(block, TextContent) else f"[{block.type} omitted]"
        for block in result.content
    ]
    if not any(isinstance(b, TextContent) for b in result.content) and result.structured_content:
        parts = [json.dumps(result.structured_content, ensure_ascii=False)]
    return "\n".join(parts)


async def list_specs(row: McpServerRow, *, log_dir: Path | None = None) -> list[McpToolSpec]:
    """Start the server, list its tools as specs, stop it (`mcp tools`)."""
    from agent_core.tools.mcp.client import connect

    async with connect(row, log_dir=log_dir) as server:
        tools = await server.list_tools()
    specs: list[McpToolSpec] = []
    for tool in tools:
        spec = spec_for_tool(row, tool)
        if spec is None:  # never renamed: a model would call a tool the server does not know
            log.warning("MCP server %s: tool %r left out (name not usable)", row.name, tool.name)
        else:
            specs.append(spec)
    return specs
