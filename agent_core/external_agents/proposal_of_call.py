"""What an agent's call becomes on record: its target, the file's base, the file after the
change (for the diff and the confirmation), and a `tool_result` body bounded for the timeline."""

from __future__ import annotations

import json
from dataclasses import dataclass

from agent_core.contract.json_types import JsonObject, JsonValue
from agent_core.home.result_text import bounded_masked_text
from agent_core.tools.agent_calls.files import file_hash, read_text
from agent_core.tools.agent_calls.kinds import AgentTools, CallKind, FileChange


@dataclass(frozen=True)
class AimedCall:
    """Where a call aims: its target (and base) and, for a file write, the files after it."""

    kind: CallKind
    target: str | None
    base_hash: str | None
    changes: list[FileChange]


def aim(
    tools: AgentTools,
    tool: str,
    tool_input: JsonObject,
    cwd: str,
    mcp_server: str | None = None,
) -> AimedCall:
    """The call's kind and target: the absolute path of the (first) file a write changes
    (with the file's hash now), `shell:CWD` for a command, `mcp:NAME` for an MCP call,
    `fetch:URL` for a fetch, `agent:TOOL` for anything else. A file write whose change cannot
    be worked out (an edit of text not in the file) raises `invalid_arguments`. `mcp_server`:
    the server the agent's payload names exactly (Gemini's `mcp_context`), over the one read
    from the tool's name."""
    kind = tools.kind(tool, tool_input)
    if kind is CallKind.FILE_WRITE:
        changes = tools.file_changes(tool, tool_input, cwd, read_text)
        first = changes[0].path if changes else None
        return AimedCall(kind, first, None if first is None else file_hash(first), changes)
    if kind is CallKind.SHELL:
        return AimedCall(kind, f"shell:{cwd}", None, [])
    if kind is CallKind.MCP:
        server = mcp_server or tools.mcp_server(tool, tool_input)
        return AimedCall(kind, f"mcp:{server}", None, [])
    if kind is CallKind.FETCH:
        url = tool_input.get("url") or tool_input.get("query")
        return AimedCall(kind, f"fetch:{url}" if isinstance(url, str) else "fetch:", None, [])
    return AimedCall(kind, None if kind is CallKind.READ else f"agent:{tool}", None, [])


def bounded_result(value: JsonValue) -> str | None:
    """What the tool returned as the timeline keeps it (home/result_text.py): text, or JSON
    for anything else; None when the agent sent nothing."""
    if value is None:
        return None
    return bounded_masked_text(value if isinstance(value, str) else json.dumps(value))
