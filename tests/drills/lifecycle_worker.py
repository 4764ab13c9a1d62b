"""The driving process of the lifecycle model test (tests/drills/test_lifecycle_model.py).

Run as `python -m tests.drills.lifecycle_worker`. It imports agent_core and the Agents SDK once
(1-4 s), prints one `{"ready": ...}` line, then reads one JSON command per line from stdin and
answers each with one JSON line on stdout. Every command that touches a home runs in a child
forked from here, so a crash costs a fork (~20 ms) instead of a fresh interpreter's SDK import,
and a real process dies by a real SIGKILL while it drives a run:

- `{"op": "create", "home", "question", "model", "approval_ttl", "artifacts"}`: create a run
  (not driven);
- `{"op": "start", ...same...}`: create a run and drive it to its next stop (`run`);
- `{"op": "drive", "home", "run_id"}`: drive an existing run (`resume`);
- optional on every op: `"env": {NAME: VALUE}` sets the child's environment first (the home's
  store may need its password source, PGPASSFILE, which this process was started without);
  `"crash_at": POINT` arms agent_core.home.crash in the child (the child kills
  itself with SIGKILL at that boundary, if the run reaches it), `"kill_after": SECONDS` makes
  this process SIGKILL the child after that delay (a random moment, boundary or not), and
  `"notify": true` prints `{"spawned": PID}` as soon as the child exists, so the test can act
  from its own process while the child drives (a cancel while running);
- `{"op": "quit"}`.

The reply is `{"pid", "exit", "signal", "seconds", "messages"}`: exit code or signal of the
child, and what it reported before it ended (`{"run_id"}` right after creating, then `{"run"}`,
`{"error"}` for a BriefDeskError, or `{"exception"}` with a traceback).

Fork rules (as in crash_sweep.py): this parent never opens a Workspace, so no SQLAlchemy engine
or connection crosses a fork; each child opens its own, runs its own asyncio loop, and leaves
with os._exit. The child's stdout is pointed at stderr so nothing it prints can corrupt the
protocol; its report goes through a pipe.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import sys
import threading
import time
import traceback
from typing import Any

import agents  # noqa: F401  (imported once here, inherited by every child)

from agent_core.contract.errors import BriefDeskError
from agent_core.facade.workspace import Workspace
from agent_core.home import crash

# The driver moves during the second wave's refactor: import whichever exists, so every child
# inherits it already imported.
for _name in ("agent_core.runs.driver", "agent_core.runner"):
    try:
        importlib.import_module(_name)
        break
    except ImportError:
        continue

CHILD_ERROR = 70


def _emit(fd: int, message: dict[str, Any]) -> None:
    data = (json.dumps(message, default=str) + "\n").encode("utf-8")
    while data:
        data = data[os.write(fd, data) :]


def _child(cmd: dict[str, Any], fd: int) -> None:
    code = 0
    try:
        os.dup2(2, 1)  # the protocol channel is the parent's; our prints go to stderr
        os.environ.update(cmd.get("env") or {})
        point = cmd.get("crash_at")
        if point:
            os.environ[crash.CRASH_ENV] = point
            crash.arm(point)
        else:
            os.environ.pop(crash.CRASH_ENV, None)
            crash.arm(None)
        workspace = Workspace(cmd["home"])
        try:
            op = cmd["op"]
            if op in ("create", "start"):
                run_id = workspace.create_run(
                    cmd["question"],
                    model=cmd.get("model"),
                    approval_ttl=cmd.get("approval_ttl"),
                    artifacts=cmd.get("artifacts"),
                )
                _emit(fd, {"run_id": run_id})
            else:
                run_id = cmd["run_id"]
            if op in ("start", "drive"):
                _emit(fd, {"run": workspace.drive(run_id)})
            else:
                _emit(fd, {"run": workspace.get_run(run_id)})
        except BriefDeskError as exc:
            _emit(fd, {"error": exc.to_json()})
        finally:
            workspace.close()
    except BaseException:
        code = CHILD_ERROR
        with contextlib.suppress(OSError):
            _emit(fd, {"exception": traceback.format_exc()})
    finally:
        sys.stderr.flush()
        os._exit(code)


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def handle(cmd: dict[str, Any]) -> dict[str, Any]:
    started = time.monotonic()
    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(cmd, write_fd)
    os.close(write_fd)
    if cmd.get("notify"):
        print(json.dumps({"spawned": pid}), flush=True)
    timer: threading.Timer | None = None
    if cmd.get("kill_after") is not None:
        # Unreaped, the child's pid stays ours until waitpid below, so this never hits another.
        timer = threading.Timer(float(cmd["kill_after"]), os.kill, (pid, signal.SIGKILL))
        timer.start()
    raw = _read_all(read_fd)  # EOF when the child has ended, however it ended
    os.close(read_fd)
    if timer is not None:
        timer.cancel()
        timer.join()
    _, status = os.waitpid(pid, 0)
    messages = []
    for line in raw.decode("utf-8", "replace").splitlines():
        try:
            messages.append(json.loads(line))
        except json.JSONDecodeError:
            messages.append({"garbled": line[:500]})  # a kill in the middle of a report
    return {
        "pid": pid,
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "seconds": round(time.monotonic() - started, 3),
        "messages": messages,
    }


def main() -> int:
    print(json.dumps({"ready": True, "pid": os.getpid()}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        cmd = json.loads(line)
        if cmd.get("op") == "quit":
            break
        try:
            reply = handle(cmd)
        except Exception:
            reply = {"worker_exception": traceback.format_exc()}
        print(json.dumps(reply, default=str), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
