"""One contender's run in a child process: forked from the warm parent, or a fresh interpreter.

The parent imported the Agents SDK, DBOS and the contenders once and holds no thread, engine or
connection: each forked child opens its own, as a new process would, and the fork spares it
the imports (several seconds on 2 cores, for every one of the hundred-odd children). The
parent freezes what it imported out of the garbage collector's reach before it forks
(`gc.freeze`), so a child's collections walk its own objects, as a fresh process's would, not
the other frameworks' modules.

A fresh interpreter (`python peers_children.py ...`) runs a contender where a fork cannot:
BriefDesk at another commit (`tree`: that checkout's agent_core), and any contender whose
syncs are counted (`strace`, which must start the process it counts). It imports the same
contenders and freezes them the same way before the run.
"""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import peers_workload as wl

CHILD_ERROR = 70
SYNC_CALLS = ("fsync", "fdatasync", "sync_file_range", "syncfs", "msync")
"""The system calls that make a write durable, counted by strace."""


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
        import peers_contenders as pc

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


def _fresh(
    name: str,
    workdir: Path,
    calls: int,
    tool: str,
    out: int,
    tree: Path | None,
    strace: Path | None,
) -> subprocess.Popen[bytes]:
    """A fresh interpreter running `name`, on `tree`'s agent_core, under strace if asked."""
    env = dict(os.environ)
    if tree is not None:
        env[wl.TREE_ENV] = str(tree)
        env["PYTHONPATH"] = str(tree)  # before the editable install of this checkout
    command = [sys.executable, str(Path(__file__).resolve()), name, str(workdir), str(calls), tool,
               str(out)]  # fmt: skip
    if strace is not None:
        counted = ",".join(SYNC_CALLS)
        # -w: each call's wall time (waiting for the disk), not the kernel's CPU time in it.
        command = ["strace", "-f", "--seccomp-bpf", "-c", "-w", "-e", f"trace={counted}", "-o",
                   str(strace), *command]  # fmt: skip
    return subprocess.Popen(command, env=env, pass_fds=(out,), stdout=subprocess.DEVNULL)


def run_child(
    name: str,
    workdir: Path,
    calls: int,
    tool: str = wl.TOOL,
    *,
    env: dict[str, str] | None = None,
    kill_after: float | None = None,
    tree: Path | None = None,
    strace: Path | None = None,
) -> Outcome:
    """Run a contender in a child; SIGKILL it after `kill_after` s if it still runs. Forked
    from this process, unless it runs on another checkout (`tree`) or under `strace`."""
    workdir.mkdir(parents=True, exist_ok=True)
    read_end, write_end = os.pipe()
    started = time.perf_counter()
    fresh = None
    if tree is not None or strace is not None:
        fresh = _fresh(name, workdir, calls, tool, write_end, tree, strace)
        pid = fresh.pid
    else:
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
    if fresh is not None:
        returned = fresh.wait()
        died = returned == -signal.SIGKILL
    else:
        _, status = os.waitpid(pid, 0)
        died = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    wall = time.perf_counter() - started
    result = json.loads(b"".join(chunks) or b"{}")
    return Outcome(result, killed or died, wall, result.get("error"))


def syncs_counted(strace_summary: Path) -> tuple[int, float]:
    """The durable-write system calls in a `strace -c -w` summary (every process it followed),
    and the seconds they took."""
    total, seconds = 0, 0.0
    for line in strace_summary.read_text(encoding="utf-8").splitlines():
        cells = line.split()
        if len(cells) >= 5 and cells[-1] in SYNC_CALLS and cells[3].isdigit():
            total += int(cells[3])
            seconds += float(cells[1])
    return total, seconds


def freeze_imports() -> None:
    """Keep what is imported so far out of every later garbage collection (and out of a forked
    child's): only the run's own objects are walked, as in a process that runs one contender."""
    gc.collect()
    gc.freeze()


def main(argv: list[str]) -> None:
    """A fresh interpreter's run: `NAME WORKDIR CALLS TOOL FD`; the result goes to FD."""
    name, workdir, calls, tool, out = argv
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import peers_contenders  # noqa: F401  (the same imports as the forked children's parent)

    freeze_imports()
    _child(name, Path(workdir), int(calls), tool, {}, int(out))


if __name__ == "__main__":
    main(sys.argv[1:])
