"""Run briefdesk-cli as a real subprocess (the way reviewers and scripts do)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]


def cli_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRIEFDESK_")}
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


@dataclass
class CliResult:
    code: int
    body: dict[str, Any]
    stdout: str
    stderr: str


@dataclass
class CliRunner:
    home: Path

    def __call__(
        self,
        *args: str,
        env: dict[str, str] | None = None,
        stdin: str | None = None,
        timeout: float = 120,
        check: bool = False,
    ) -> CliResult:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "agent_core.cli",
                "--home",
                str(self.home),
                "--json",
                *args,
            ],
            capture_output=True,
            text=True,
            env=cli_env(**(env or {})),
            input=stdin,
            timeout=timeout,
        )
        body: dict[str, Any] = {}
        if proc.stdout.strip():
            try:
                body = json.loads(proc.stdout)
            except json.JSONDecodeError:
                body = {}
        if check and proc.returncode != 0:
            raise AssertionError(
                f"briefdesk-cli {args} failed ({proc.returncode}): {proc.stdout}\n{proc.stderr}"
            )
        return CliResult(proc.returncode, body, proc.stdout, proc.stderr)

    def text(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "agent_core.cli", "--home", str(self.home), *args],
            capture_output=True,
            text=True,
            env=cli_env(),
            timeout=120,
        )
