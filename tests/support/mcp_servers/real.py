"""The real MCP servers the tests talk to, servers BriefDesk did not write.

- `mcp-server-time` and `mcp-server-git` (PyPI): in the `test` extra, so beside this Python.
- `@modelcontextprotocol/server-filesystem` (npm): installed by `filesystem_server_bin()` with
  `npm install --prefix` into a cache folder the first time (pinned to the version measured in
  docs/design/mcp-servers.md), reused afterwards. Never installed by the app itself.

A missing server skips the test here and fails it under CI=true: CI must run these tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from filelock import FileLock

from tests.support.ci import require_or_skip

FILESYSTEM_PACKAGE = "@modelcontextprotocol/server-filesystem@2026.8.31"
HERE = Path(__file__).resolve().parent
FAULT_SERVER = HERE / "fault_server.py"
RAW_SERVER = HERE / "raw_server.py"
CALL_TOOL = HERE / "call_tool.py"
NPM_TIMEOUT_S = 600


def python_server(name: str) -> str:
    """The console script of a PyPI server installed beside this Python."""
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        require_or_skip(f"{name} is not installed (pip install -e '.[test]')")
        raise AssertionError("unreachable")
    return found


def npm_cache_dir() -> Path:
    base = os.environ.get("BRIEFDESK_TEST_CACHE") or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    return root / "briefdesk-tests" / "mcp-npm"


def filesystem_server_bin() -> str:
    """The `mcp-server-filesystem` script, installing the npm package once if needed."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        require_or_skip("node and npm are needed for @modelcontextprotocol/server-filesystem")
    cache = npm_cache_dir()
    script = cache / "node_modules" / ".bin" / "mcp-server-filesystem"
    cache.mkdir(parents=True, exist_ok=True)
    with FileLock(str(cache / ".install.lock")):  # parallel sessions install once
        if not script.exists():
            done = subprocess.run(
                [
                    "npm",
                    "install",
                    "--prefix",
                    str(cache),
                    "--no-audit",
                    "--no-fund",
                    FILESYSTEM_PACKAGE,
                ],
                capture_output=True,
                text=True,
                timeout=NPM_TIMEOUT_S,
                check=False,
            )
            if done.returncode != 0 or not script.exists():
                require_or_skip(f"npm install {FILESYSTEM_PACKAGE} failed: {done.stderr[-500:]}")
    return str(script)
