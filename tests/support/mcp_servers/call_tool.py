"""Call one tool of a registered server, as a run will: `python call_tool.py HOME NAME TOOL ARGS`.

Prints `{"text": ..., "is_error": ...}` on stdout (for the tests in another process: the
keyring canary needs the throwaway Secret Service's environment).
"""

from __future__ import annotations

import asyncio
import json
import sys

from agent_core.facade.workspace import Workspace
from agent_core.tools.mcp.client import connect
from agent_core.tools.mcp.specs import result_text


async def main(home: str, name: str, tool: str, args: str) -> None:
    ws = Workspace(home)
    try:
        row = ws.mcp_server(name)
        async with connect(row, log_dir=ws.home.logs) as server:
            result = await server.call(tool, json.loads(args), timeout=60)
        print(json.dumps({"text": result_text(result), "is_error": result.is_error}))
    finally:
        ws.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
