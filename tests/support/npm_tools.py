"""Programs the tests install from npm, each once per machine into a cache folder of its own.

`npm install --prefix CACHE/NAME PACKAGE@VERSION` the first time (under a file lock, so parallel
workers install once), reused afterwards. Never installed by the app itself. A failed install
skips the test here and fails it under CI=true: CI must run these tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from filelock import FileLock

from tests.support.ci import require_or_skip

NPM_TIMEOUT_S = 900


def cache_root() -> Path:
    base = os.environ.get("BRIEFDESK_TEST_CACHE") or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    return root / "briefdesk-tests"


def npm_program(package: str, program: str, folder: str) -> Path:
    """The `program` script of npm `package` (pinned: `name@version`), installed into
    `cache_root()/folder` if it is not there yet."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        require_or_skip(f"node and npm are needed for {package}")
    cache = cache_root() / folder
    script = cache / "node_modules" / ".bin" / program
    cache.mkdir(parents=True, exist_ok=True)
    with FileLock(str(cache / ".install.lock")):
        if not script.exists():
            done = subprocess.run(
                ["npm", "install", "--prefix", str(cache), "--no-audit", "--no-fund", package],
                capture_output=True,
                text=True,
                timeout=NPM_TIMEOUT_S,
                check=False,
            )
            if done.returncode != 0 or not script.exists():
                require_or_skip(f"npm install {package} failed: {done.stderr[-500:]}")
    return script
