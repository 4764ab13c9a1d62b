"""A tool body may not start a process: the executor runs every body that has no network
access inside `network.socket_guard(frozenset())` (agent_core/runs/executor.py), whose audit
hook refuses process spawns. Document parsers run in worker processes, so this is also what
keeps a tool from starting a parser (agent_core/corpus/reading.py reads the index instead)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys

import pytest

from agent_core.tools import network


def test_subprocess_and_os_level_spawns_are_refused_inside_the_guard() -> None:
    attempts = {
        "subprocess.run": lambda: subprocess.run(["true"], check=False),
        "os.system": lambda: os.system("true"),
        "os.posix_spawn": lambda: os.posix_spawn("/bin/true", ["true"], dict(os.environ)),
        "os.fork": _fork_and_exit_child,
    }
    with network.socket_guard(frozenset()):
        for name, attempt in attempts.items():
            with pytest.raises(PermissionError, match="starting a process"):
                attempt()
                pytest.fail(f"{name} started a process inside the guard")
    # Outside the guard the hook is inert.
    assert subprocess.run([sys.executable, "-c", "pass"], check=False).returncode == 0


def _fork_and_exit_child() -> None:
    if os.fork() == 0:  # only reached if the guard failed: the child leaves at once
        os._exit(0)


@pytest.mark.parametrize("method", ["spawn", "forkserver", "fork"])
def test_multiprocessing_cannot_start_a_process_inside_the_guard(method: str) -> None:
    """`spawn` starts its child through `_posixsubprocess.fork_exec` directly: on Python 3.11
    that raises no audit event (neither `subprocess.Popen` nor `os.posix_spawn`), so the hook
    must refuse it some other way."""
    context = multiprocessing.get_context(method)
    started: list[multiprocessing.process.BaseProcess] = []
    try:
        with network.socket_guard(frozenset()), pytest.raises(PermissionError):
            process = context.Process(target=int, daemon=True)  # type: ignore[attr-defined]
            started.append(process)
            process.start()
    finally:
        for process in started:
            if process.pid is not None:
                process.join(timeout=30)
    assert all(p.pid is None for p in started), f"{method}: a process started in the guard"
