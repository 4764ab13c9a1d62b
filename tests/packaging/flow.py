"""The user's first session, driven through an installed `briefdesk-cli` (bundle, venv, pipx):
an offline run stops for approval, a person approves, resume finishes, the brief is on disk."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

QUESTION = "How do checkpoints make agent runs durable?"


def cli_json(cli: Path, *args: str, home: Path, cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [str(cli), *args, "--json", "--home", str(home)],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stderr[-3000:]}"
    body = json.loads(done.stdout)
    assert body["api"] == 1
    return dict(body)


def first_session(cli: Path, home: Path, cwd: Path, env: dict[str, str]) -> Path:
    """Run, approve, resume on a new home; returns the brief file it wrote (checked here)."""
    assert not home.exists()
    run = cli_json(cli, "run", "--question", QUESTION, home=home, cwd=cwd, env=env)
    assert run["status"] == "waiting_approval", run
    (proposal,) = run["approvals"]
    assert proposal["tool"] == "save_brief"
    approved = cli_json(
        cli, "approvals", "approve", proposal["id"], "--reviewer", "x", home=home, cwd=cwd, env=env
    )
    assert approved["approval"]["status"] == "approved"
    resumed = cli_json(cli, "resume", run["run_id"], home=home, cwd=cwd, env=env)
    assert resumed["status"] == "succeeded", resumed
    brief = Path(proposal["target"])
    assert brief.is_relative_to(home.resolve() / "artifacts"), brief
    assert brief.read_text(encoding="utf-8") == proposal["args"]["content"]
    return brief
