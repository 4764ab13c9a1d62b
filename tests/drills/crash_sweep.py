"""The crash sweep's driver: crash the demo run at every boundary, resume it until it is done.

Run as `python -m tests.drills.crash_sweep --out DIR [--random-kills N] [--seed S] [--store NAME]
[--points P,...]` (the test `test_crash_sweep.py` does, then checks each home from the outside).
`--store postgresql` gives every home a fresh team database of the test session's server
(tests/support/store_backends.py); `--points` keeps only the named crash points
(`before_tool:last` names the last call's).

This parent imports agent_core and the Agents SDK once and forks one child per step, so a step
costs ~0.2 s instead of a fresh interpreter's SDK import. Fork rules kept here: no SQLAlchemy
engine or connection crosses the fork (the child opens its own Workspace, the parent opens a
fresh one after each child and closes it before the next fork), and the child runs its own
asyncio loop.

A step is one `Workspace(home).drive(run_id)` in a child. Crash points set BRIEFDESK_CRASH_AT
in the child until it has fired once; random kills SIGKILL the child from here after a seeded
delay within the duration of the matching uncrashed step. Between steps the parent approves the
pending save_brief proposal whenever the run waits for one, as a reviewer would.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import signal
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import agents  # noqa: F401  (imported once here, inherited by every child)

import agent_core.runs.driver  # noqa: F401
from agent_core.facade.workspace import Workspace
from agent_core.home.crash import AFTER_WRITE, CRASH_ENV
from tests.support.store_backends import StoreBackend

QUESTION = "How do checkpoints make agent runs durable?"
MAX_STEPS = 12
CHILD_ERROR = 70


@dataclass
class Step:
    """One child: how it ended and what the run looked like afterwards."""

    crash_at: str | None
    kill_after: float | None
    exit_code: int | None  # None when it died by a signal
    signal: int | None
    seconds: float
    status_after: str
    approved: list[str] = field(default_factory=list)


@dataclass
class Scenario:
    point: str
    home: str
    run_id: str
    expected_kill_step: int | None  # index of the step whose child must die by SIGKILL
    steps: list[Step] = field(default_factory=list)
    brief_identities: list[list[int]] = field(default_factory=list)  # distinct (inode, mtime_ns)
    error: str | None = None


def _child(home: Path, run_id: str, crash_at: str | None) -> None:
    code = 0
    try:
        if crash_at:
            os.environ[CRASH_ENV] = crash_at
        else:
            os.environ.pop(CRASH_ENV, None)
        workspace = Workspace(home)  # its own engines: nothing SQLAlchemy crosses the fork
        workspace.drive(run_id)
        workspace.close()
    except BaseException:
        traceback.print_exc()
        code = CHILD_ERROR
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def run_step(
    home: Path, run_id: str, *, crash_at: str | None = None, kill_after: float | None = None
) -> Step:
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(home, run_id, crash_at)
    if kill_after is not None:
        # Until it ends or `kill_after` is up, whichever is first: its pidfd turns readable
        # when it exits, so a step that ended early is not waited out.
        ended = os.pidfd_open(pid)
        try:
            select.select([ended], [], [], kill_after)
        finally:
            os.close(ended)
        os.kill(pid, signal.SIGKILL)  # harmless if it already exited: unreaped, its pid is ours
    _, status = os.waitpid(pid, 0)
    seconds = time.monotonic() - started
    return Step(
        crash_at=crash_at,
        kill_after=kill_after,
        exit_code=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        seconds=seconds,
        status_after="",
    )


def _after_step(home: Path, run_id: str, step: Step, identities: list[list[int]]) -> None:
    """Fresh parent Workspace: note the brief's identity, approve a waiting proposal."""
    workspace = Workspace(home)
    try:
        run = workspace.get_run(run_id)
        step.status_after = run["status"]
        brief = Path(run["artifacts"]) / "briefs"
        for path in sorted(brief.glob("*.md")) if brief.is_dir() else []:
            st = path.stat()
            if [st.st_ino, st.st_mtime_ns] not in identities:
                identities.append([st.st_ino, st.st_mtime_ns])
        if run["status"] == "waiting_approval":
            for approval in run["approvals"]:
                workspace.approve(approval["id"], reviewer="sweep", reason="crash sweep")
                step.approved.append(approval["id"])
    finally:
        workspace.close()


def new_run(home: Path, backend: StoreBackend) -> str:
    workspace = Workspace(backend.prepare(home))
    try:
        return workspace.create_run(QUESTION)
    finally:
        workspace.close()


def drive_to_end(
    scenario: Scenario, *, crash_at: str | None = None, kill: tuple[int, float] | None = None
) -> None:
    """Steps until the run ends. kill = (step index, delay): SIGKILL that step's child."""
    home = Path(scenario.home)
    armed = crash_at
    for index in range(MAX_STEPS):
        delay = kill[1] if kill is not None and kill[0] == index else None
        step = run_step(home, scenario.run_id, crash_at=armed, kill_after=delay)
        scenario.steps.append(step)
        if step.signal == signal.SIGKILL:
            armed = None  # a crash point fires once; the next drives are plain resumes
        elif step.exit_code != 0:
            scenario.error = f"step {index} ended with exit {step.exit_code} signal {step.signal}"
            return
        _after_step(home, scenario.run_id, step, scenario.brief_identities)
        if step.status_after in ("succeeded", "cancelled", "expired", "failed"):
            return
    scenario.error = f"not done after {MAX_STEPS} steps"


def reference(root: Path, backend: StoreBackend) -> dict[str, Any]:
    """An uncrashed run: its calls in order, which step ran each, and each step's duration."""
    home = root / "reference"
    scenario = Scenario("reference", str(home), new_run(home, backend), None)
    drive_to_end(scenario)
    workspace = Workspace(home)
    try:
        events = workspace.timeline(scenario.run_id)
    finally:
        workspace.close()
    step_of_call: dict[str, int] = {}
    step = 0
    calls: list[str] = []
    for event in events:
        if event["kind"] == "run_resumed":
            step += 1
        if event["kind"] == "tool_called":
            calls.append(str(event["tool"]))
            step_of_call[str(len(calls))] = step
    return {
        "scenario": asdict(scenario),
        "calls": calls,
        "step_of_call": step_of_call,
        "durations": [s.seconds for s in scenario.steps],
    }


def sweep(
    root: Path,
    random_kills: int,
    seed: int,
    backend: StoreBackend,
    only: list[str] | None = None,
) -> dict[str, Any]:
    ref = reference(root, backend)
    calls: list[str] = ref["calls"]
    points = [f"before_tool:{n}" for n in range(1, len(calls) + 1)] + [AFTER_WRITE]
    if only is not None:
        wanted = {p.replace("before_tool:last", f"before_tool:{len(calls)}") for p in only}
        points = [p for p in points if p in wanted]
    scenarios: list[Scenario] = []
    for point in points:
        home = root / point.replace(":", "-")
        if point == AFTER_WRITE:
            expected = ref["step_of_call"][str(calls.index("save_brief") + 1)]
        else:
            expected = ref["step_of_call"][point.split(":")[1]]
        scenario = Scenario(point, str(home), new_run(home, backend), expected)
        drive_to_end(scenario, crash_at=point)
        scenarios.append(scenario)
    durations: list[float] = ref["durations"]
    for number in range(random_kills):
        rng = random.Random(seed * 1000 + number)
        target = rng.randrange(len(durations))
        delay = round(rng.uniform(0.0, durations[target]), 4)
        home = root / f"random-{number}"
        scenario = Scenario(
            f"random kill #{number} (step {target}, {delay * 1000:.0f} ms)",
            str(home),
            new_run(home, backend),
            None,
        )
        drive_to_end(scenario, kill=(target, delay))
        scenarios.append(scenario)
    return {"reference": ref, "scenarios": [asdict(s) for s in scenarios], "seed": seed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--random-kills", type=int, default=5)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--store", default="sqlite")
    parser.add_argument("--points", default=None, help="comma-separated crash points to keep")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    only = args.points.split(",") if args.points else None
    backend = StoreBackend.from_child_env(args.store)
    result = sweep(args.out, args.random_kills, args.seed, backend, only)
    result["seconds"] = round(time.monotonic() - started, 2)
    (args.out / "sweep.json").write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
