"""The version of an agent's CLI on PATH, read without starting it where possible.

An npm install has its package.json beside the program (`gemini --version` alone takes 1.5 s,
and `agents status` answers in well under a second); anything else is asked `--version`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

VERSION_TIMEOUT_S = 5
_VERSION = re.compile(r"\d+\.\d+(?:\.\d+)?(?:[-+.][0-9A-Za-z.]+)?")


def agent_version(program: str, package: str) -> str | None:
    found = shutil.which(program)
    if found is None:
        return None
    from_package = _package_version(Path(os.path.realpath(found)), package)
    return from_package if from_package is not None else _asked_version(found)


def _package_version(program: Path, package: str) -> str | None:
    for folder in program.parents:
        manifest = folder / "package.json"
        if manifest.is_file():
            try:
                data = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return None
            if isinstance(data, dict) and data.get("name") == package:
                version = data.get("version")
                return version if isinstance(version, str) else None
            return None  # the nearest package.json is another package's
        if folder.name == "node_modules":
            return None
    return None


def _asked_version(program: str) -> str | None:
    try:
        done = subprocess.run(
            [program, "--version"],
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = _VERSION.search(done.stdout)
    return found.group(0) if done.returncode == 0 and found else None
