"""The real MCP servers the tests talk to, servers BriefDesk did not write.

- `mcp-server-time` and `mcp-server-git` (PyPI): in the `test` extra, so beside this Python.
- `@modelcontextprotocol/server-filesystem` (npm): installed by `filesystem_server_bin()` with
  `npm install --prefix` into a cache folder the first time (pinned to the version measured in
  docs/design/mcp-servers.md), reused afterwards. Never installed by the app itself.

A missing server skips the test here and fails it under CI=true: CI must run these tests.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from tests.support.ci import require_or_skip
from tests.support.npm_tools import npm_program

FILESYSTEM_PACKAGE = "@modelcontextprotocol/server-filesystem@2026.8.31"
HERE = Path(__file__).resolve().parent
FAULT_SERVER = HERE / "fault_server.py"
RAW_SERVER = HERE / "raw_server.py"
CALL_TOOL = HERE / "call_tool.py"


def python_server(name: str) -> str:
    """The console script of a PyPI server installed beside this Python."""
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        require_or_skip(f"{name} is not installed (pip install -e '.[test]')")
        raise AssertionError("unreachable")
    return found


def filesystem_server_bin() -> str:
    """The `mcp-server-filesystem` script, installing the npm package once if needed."""
    return str(npm_program(FILESYSTEM_PACKAGE, "mcp-server-filesystem", "mcp-npm"))
