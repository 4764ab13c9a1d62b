"""An MCP tool of a run as a `ToolSpec`: the gate, the executor and review treat it as any tool.

Built from the run's `run_mcp_tools` row (what its model saw), so every process builds the
same spec; only the driving process hands it a `caller` (the run's servers), and only then does
its body reach a server. The rest is the spec's:

- arguments: checked against the tool's closed input schema (undeclared keys refused), and kept
  exactly as given;
- target: for a call that writes a whole file (its input has a string `path` and a string
  `content`, as a filesystem server's `write_file`) the absolute path (a relative one under
  the server's first granted folder), hashed as its base, shown as a diff like `save_brief`'s
  and checked again before the call is sent (tools/mcp/whole_file.py); otherwise `mcp:SERVER`;
- an unknown outcome (a crash after the server answered, a timeout, a server that died mid-call)
  runs again on its own only for a read, or for a tool that says `idempotentHint` of a server
  whose hints are trusted; any other call waits for a person's word (runs/gate.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection

from agent_core.contract.canonical import sha256_hex
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.contract.statuses import ToolOutcomeStatus
from agent_core.home.door import mask_incoming
from agent_core.home.sandbox import file_sha256
from agent_core.storage.tables.run_mcp_tools import RunMcpTool, tools_of_run
from agent_core.tools.mcp.server_identity import UNREGISTERED, ServerFacts
from agent_core.tools.mcp.whole_file import require_unchanged, sent_arguments, whole_file_target
from agent_core.tools.registry import ToolSet
from agent_core.tools.specs import SchemaArgs, Tier, ToolEnv, ToolResult, ToolScope, ToolSpec

if TYPE_CHECKING:
    from mcp.types import CallToolResult

Caller = Callable[[str, str, JsonObject], "CallToolResult"]
"""(server, tool, arguments) -> the server's result; called from a tool body's thread."""
MAX_DESCRIPTION = 1_000
PATH_FIELD = "path"
CONTENT_FIELD = "content"


class McpOutcomeUnknown(BriefDeskError):
    """The request reached the server and no answer came back (a timeout, the server died):
    it may have done it."""


def writes_whole_file(schema: JsonObject) -> bool:
    """The tool takes a string `path` and a string `content`: a call writes that file whole."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return False
    return all(
        isinstance(props.get(key), dict) and props[key].get("type") == "string"  # type: ignore[union-attr]
        for key in (PATH_FIELD, CONTENT_FIELD)
    )


def reruns_after_unknown(tool: RunMcpTool) -> bool:
    """A read is simply asked again; so is a tool whose trusted server says it is idempotent."""
    return tool.tier == Tier.READ or (
        tool.trust_hints and tool.annotations.get("idempotentHint") is True
    )


def mcp_tool_spec(
    tool: RunMcpTool, caller: Caller | None = None, server: ServerFacts | None = None
) -> ToolSpec:
    """`server`: the facts of its server as this process registered it (None: a process that
    does not know it, a reviewer's; it never calls it)."""
    whole_file = writes_whole_file(tool.input_schema)

    def target_of(args: SchemaArgs, scope: ToolScope) -> str | None:
        if not whole_file:
            return f"mcp:{tool.server}"
        return whole_file_target(tool.server, args.to_json().get(PATH_FIELD), server)

    def base_hash(target: str | None) -> str | None:
        if target is None or not os.path.isabs(target):
            return None
        return file_sha256(Path(target))

    def expected_hash(args: SchemaArgs) -> str | None:
        content = args.to_json().get(CONTENT_FIELD)
        return sha256_hex(content) if whole_file and isinstance(content, str) else None

    def body(env: ToolEnv, args: SchemaArgs) -> ToolResult:
        if caller is None:
            raise BriefDeskError(
                ErrorCode.MCP_SERVER_UNAVAILABLE,
                f"The MCP server {tool.server!r} is not started in this process.",
                server=tool.server,
            )
        from agent_core.tools.mcp.specs import result_text

        sent = args.to_json()
        if whole_file:  # the last moment before the request goes out
            require_unchanged(env.target, env.base_hash, expected_hash(args))
            sent = sent_arguments(sent, PATH_FIELD, env.target)
        result = caller(tool.server, tool.tool, sent)
        failed = bool(result.is_error)
        return ToolResult(
            outcome=ToolOutcomeStatus.PROVIDER_ERROR if failed else ToolOutcomeStatus.SUCCESS,
            text=mask_incoming(result_text(result)),  # a server is a door like a document
            summary={"server": tool.server, "tool_error": failed},
        )

    return ToolSpec(
        name=tool.model_name,
        tier=_tier(tool),
        description=_description(tool),
        args_model=SchemaArgs,
        body=body,
        resolve_target=target_of,
        base_hash=base_hash,
        expected_hash=expected_hash,
        content_field=CONTENT_FIELD if whole_file else None,
        path_field=PATH_FIELD if whole_file else None,
        source=tool.server,
        params_schema=tool.input_schema,
        annotations=tool.annotations,
        reruns_after_unknown=reruns_after_unknown(tool),
    )


def _description(tool: RunMcpTool) -> str:
    text = "".join(ch if ch.isprintable() or ch in "\n\t" else " " for ch in tool.description)
    return f"From MCP server {tool.server}: {text[:MAX_DESCRIPTION]}"


def _tier(tool: RunMcpTool) -> Tier:
    tier = Tier(tool.tier)
    props = tool.input_schema.get("properties")
    question = props.get("question") if isinstance(props, dict) else None
    if tier is Tier.INTERACTION and not (
        isinstance(question, dict) and question.get("type") == "string"
    ):
        return Tier.WRITE  # nothing to ask the person: it is governed as a write
    return tier


def run_toolset(
    tools: list[RunMcpTool],
    caller: Caller | None = None,
    unavailable: Mapping[str, BriefDeskError] | None = None,
    servers: Mapping[str, ServerFacts] | None = None,
) -> ToolSet:
    """BriefDesk's own tools and these MCP tools (callable only with a `caller`). `servers`:
    the registered servers' facts on the run's desk (None: unknown in this process)."""
    facts = None
    if servers is not None:
        facts = {t.server: servers.get(t.server, UNREGISTERED) for t in tools}
    return ToolSet(
        mcp={
            t.model_name: mcp_tool_spec(t, caller, None if facts is None else facts[t.server])
            for t in tools
        },
        unavailable=dict(unavailable or {}),
        server_digests={} if facts is None else {n: f.digest for n, f in facts.items()},
    )


def recorded_toolset(conn: Connection, run_id: str) -> ToolSet:
    """The tools `run_id` offered, as recorded when it started (no server is started)."""
    return run_toolset(tools_of_run(conn, run_id))
