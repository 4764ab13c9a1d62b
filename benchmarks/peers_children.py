"""One contender's run in a child process: forked from the warm parent, or killed on purpose.

The parent imported the Agents SDK, agent_core, DBOS and LangGraph once and holds no thread,
engine or connection: each child opens its own, as a new process would, and the fork spares
it the imports (several seconds on 2 cores, for every one of the hundred-odd children).
"""

from __future__ import annotations

import json
import os
import select
import signal
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import peers_contenders as pc
import peers_workload as wl

CHILD_ERROR = 70


@dataclass
class Outcome:
    """How one child ended, and what it reported (nothing when it was killed)."""

    result: dict[str, Any] = field(default_factory=dict)
    killed: bool = False
    wall: float = 0.0
    error: str | None = None


def _child(name: str, workdir: Path, calls: int, tool: str, env: dict[str, str], out: int) -> None:
    code = 0
    try:
        os.environ.update(env)
        counter = wl.CommitCounter()
        counter.install()
        driver = pc.prepare_briefdesk if name == "prepare_briefdesk" else pc.DRIVERS[name]
        result = driver(workdir, calls, tool)
        if name != "briefdesk_cli":
            result["commits"] = counter.commits
    except BaseException:
        result, code = {"error": traceback.format_exc()[-3000:]}, CHILD_ERROR
    finally:
        os.write(out, json.dumps(result).encode())
        os._exit(code)


def run_child(
    name: str,
    workdir: Path,
    calls: int,
    tool: str = wl.TOOL,
    *,
    env: dict[str, str] | None = None,
    kill_after: float | None = None,
) -> Outcome:
    """Run a contender in a forked child; SIGKILL it after `kill_after` s if it still runs."""
    workdir.mkdir(parents=True, exist_ok=True)
    read_end, write_end = os.pipe()
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _child(name, workdir, calls, tool, env or {}, write_end)
    os.close(write_end)
    killed = False
    if kill_after is not None:
        ended = os.pidfd_open(pid)
        try:
            readable, _, _ = select.select([ended], [], [], kill_after)
        finally:
            os.close(ended)
        if not readable:
            os.kill(pid, signal.SIGKILL)
            killed = True
    chunks = []
    while chunk := os.read(read_end, 65536):  # EOF once the child has exited or died
        chunks.append(chunk)
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    wall = time.perf_counter() - started
    died = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    result = json.loads(b"".join(chunks) or b"{}")
    return Outcome(result, killed or died, wall, result.get("error"))
