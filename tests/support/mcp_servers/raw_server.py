"""A hand-written JSON-RPC loop that breaks the protocol on `tools/call`.

mcp 2.x servers point fd 1 at stderr while serving, so a FastMCP tool cannot corrupt the wire:
a protocol break needs a server of its own. It answers `initialize` and `tools/list`, then
prints a line that is not JSON-RPC when a tool is called (and never answers it).
"""

from __future__ import annotations

import json
import sys

TOOLS = [{"name": "garble", "inputSchema": {"type": "object", "properties": {}}}]


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
    elif method == "tools/call":
        print("this is not JSON-RPC", flush=True)
    else:
        print(
            json.dumps(
                {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "no"}}
            ),
            flush=True,
        )
