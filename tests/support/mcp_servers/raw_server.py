"""A hand-written JSON-RPC loop that breaks the protocol on `tools/call`.

mcp 2.x servers point fd 1 at stderr while serving, so a FastMCP tool cannot corrupt the wire:
a protocol break needs a server of its own. It answers `initialize` and `tools/list`, then
prints a line that is not JSON-RPC when a tool is called (and never answers it).

With SCHEMAS=hostile it lists tools whose input schemas cannot be checked (a `$ref` loop, a
schema nested 81 levels, one past 1 MiB) beside a plain `fine` tool, and answers every call
with one text block.
"""

from __future__ import annotations

import json
import os
import sys

TOOLS = [{"name": "garble", "inputSchema": {"type": "object", "properties": {}}}]
HOSTILE = os.environ.get("SCHEMAS") == "hostile"


def nested(levels: int) -> dict[str, object]:
    schema: dict[str, object] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"x": schema}}
    return schema


if HOSTILE:
    TOOLS = [
        {
            "name": "fine",
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
        },
        {
            "name": "ref_loop",
            "inputSchema": {
                "type": "object",
                "properties": {"q": {"$ref": "#/$defs/a"}},
                "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}},
            },
        },
        {"name": "deep", "inputSchema": nested(40)},  # 81 levels of JSON
        {
            "name": "huge",
            "inputSchema": {
                "type": "object",
                "properties": {
                    f"p{i}": {"type": "string", "description": "x" * 1000} for i in range(1100)
                },
            },
        },
    ]


def answer(msg_id: object, result: object) -> None:
    print(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}), flush=True)


for line in sys.stdin:
    msg = json.loads(line)
    method = msg.get("method")
    if "id" not in msg:
        continue  # a notification
    if method == "initialize":
        answer(
            msg["id"],
            {
                "protocolVersion": msg["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "raw", "version": "0"},
            },
        )
    elif method == "tools/list":
        answer(msg["id"], {"tools": TOOLS})
    elif method == "tools/call" and HOSTILE:
        answer(msg["id"], {"content": [{"type": "text", "text": "fine"}], "isError": False})
    elif method == "tools/call":
        print("this is not JSON-RPC", flush=True)
    else:
        print(
            json.dumps(
                {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "no"}}
            ),
            flush=True,
        )
