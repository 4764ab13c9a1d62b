"""The MCP tools a run offered its model (`run_mcp_tools`), written once when it starts.

What the model saw, and so what every later process builds the tool's spec from: approvals
show, an edit's validation, the executor's binding check, a resume (which starts a server only
to call it, never to list it again).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import Connection, insert, select

from agent_core.contract.canonical import canonical_json, sha256_hex
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.storage.schema import run_mcp_tools


@dataclass(frozen=True)
class RunMcpTool:
    """One MCP tool of one run, as its model was shown it."""

    model_name: str
    server: str
    tool: str
    description: str
    input_schema: JsonObject
    annotations: JsonObject
    tier: str
    trust_hints: bool

    @property
    def schema_hash(self) -> str:
        """Of everything the model and the policy saw of the tool: a resumed run calls a
        tool only if the server still offers the same one."""
        facts = [self.tool, self.description, self.input_schema, self.annotations, self.tier]
        return sha256_hex(canonical_json(facts))


def record_tools(conn: Connection, run_id: str, tools: list[RunMcpTool]) -> None:
    if not tools:
        return
    conn.execute(
        insert(run_mcp_tools),
        [
            {
                "run_id": run_id,
                "model_name": t.model_name,
                "server": t.server,
                "tool": t.tool,
                "description": t.description,
                "input_schema_json": json.dumps(t.input_schema, ensure_ascii=False),
                "annotations_json": json.dumps(t.annotations, ensure_ascii=False),
                "tier": t.tier,
                "trust_hints": int(t.trust_hints),
                "schema_hash": t.schema_hash,
            }
            for t in tools
        ],
    )


def tools_of_run(conn: Connection, run_id: str) -> list[RunMcpTool]:
    rows = conn.execute(
        select(run_mcp_tools)
        .where(run_mcp_tools.c.run_id == run_id)
        .order_by(run_mcp_tools.c.model_name)
    ).mappings()
    found: list[RunMcpTool] = []
    for row in rows:
        schema, annotations = (
            json.loads(row["input_schema_json"]),
            json.loads(row["annotations_json"]),
        )
        if not isinstance(schema, dict) or not isinstance(annotations, dict):
            raise BriefDeskError(
                ErrorCode.STORAGE_CORRUPT, f"The stored MCP tool {row['model_name']!r} is damaged."
            )
        found.append(
            RunMcpTool(
                model_name=row["model_name"],
                server=row["server"],
                tool=row["tool"],
                description=row["description"],
                input_schema=schema,
                annotations=annotations,
                tier=row["tier"],
                trust_hints=bool(row["trust_hints"]),
            )
        )
    return found
