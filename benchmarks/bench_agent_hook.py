"""An external agent's hook (issue 42): what a read costs the agent, and how soon a write that
waits reaches the window.

- read: one `briefdesk-cli hook claude-code` process answering a Claude Code `PreToolUse` of
  `Read` (allowed at once, recorded in the session's run), side by side with the floor of any
  command hook written in Python, as Claude Code's hook docs show one: a script that reads the
  JSON on stdin and prints an allow. Rounds alternate the two, so load falls on both alike; the
  figures are medians with their range, wall and CPU (user + sys of the child).
- to the window: a `Write` proposal made by a real hook process, from the hook's start to the
  moment the window's bridge (offscreen, following the home as the app does, every 300 ms)
  holds its `approval_requested` event; then a person's decision (made through the bridge, as
  the dialog does) to the hook's answer on stdout.

    python benchmarks/bench_agent_hook.py [--rounds 10] [--writes 5]   # a JSON line last
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CLI = [sys.executable, "-m", "agent_core.cli"]
PAYLOADS = REPO / "tests" / "agents" / "payloads" / "claude-code"
FLOOR_HOOK = (
    "import json, sys\n"
    "json.load(sys.stdin)\n"
    'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",'
    ' "permissionDecision": "allow"}}))\n'
)


def payload(name: str, cwd: Path, session: str, tool_input: dict[str, object]) -> str:
    text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
    body = json.loads(
        text.replace("{cwd}", str(cwd)).replace("{home}", str(cwd)).replace("{project}", "p")
    )
    body.update(session_id=session, tool_use_id="toolu_" + uuid.uuid4().hex[:10])
    body["tool_input"] = tool_input
    return json.dumps(body)


def timed(argv: list[str], stdin: str) -> tuple[float, float]:
    """Wall and CPU seconds of one child process answering `stdin`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or '"allow"' not in done.stdout:
        raise SystemExit(f"{argv} did not allow: {done.stdout} {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def reads(rounds: int, root: Path) -> dict[str, dict[str, float]]:
    home, project = root / "home", root / "project"
    project.mkdir(parents=True)
    (project / "notes.md").write_text("# Notes\n", encoding="utf-8")
    floor = root / "floor_hook.py"
    floor.write_text(FLOOR_HOOK, encoding="utf-8")
    session = str(uuid.uuid4())
    read = payload("pre_tool_read", project, session, {"file_path": str(project / "notes.md")})
    hook = [*CLI, "--home", str(home), "hook", "claude-code"]
    timed(hook, read)  # the home and the session's run are made once, before the rounds
    figures: dict[str, list[float]] = {"floor_wall": [], "floor_cpu": [], "wall": [], "cpu": []}
    for _ in range(rounds):
        wall, cpu = timed([sys.executable, str(floor)], read)
        figures["floor_wall"].append(wall)
        figures["floor_cpu"].append(cpu)
        wall, cpu = timed(hook, read)
        figures["wall"].append(wall)
        figures["cpu"].append(cpu)
    ratios = [w / f for w, f in zip(figures["wall"], figures["floor_wall"], strict=True)]
    return {name: spread(values) for name, values in figures.items()} | {
        "ratio_wall": spread(ratios)
    }


def to_window(writes: int, root: Path) -> dict[str, dict[str, float]]:
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from desktop.bridge import Bridge

    app = QApplication.instance() or QApplication([])
    assert app is not None

    def wait_until(predicate: Callable[[], bool], seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not predicate():
            if time.monotonic() > deadline:
                raise SystemExit("timed out")
            loop = QEventLoop()
            QTimer.singleShot(1, loop.quit)
            loop.exec()

    home, project = root / "home", root / "project"
    project.mkdir(parents=True)
    bridge = Bridge(home)
    bridge.start()
    seen: dict[str, float] = {}

    def on_events(events: list[dict[str, object]]) -> None:
        for event in events:
            data = event.get("data")
            if event.get("kind") == "approval_requested" and isinstance(data, dict):
                seen.setdefault(str(data.get("approval_id")), time.perf_counter())

    bridge.events_arrived.connect(on_events)
    bridge.start_following(300)  # as the app does
    shown, answered = [], []
    session = str(uuid.uuid4())
    try:
        for number in range(writes):
            target = project / f"note-{number}.md"
            write = payload(
                "pre_tool_write", project, session, {"file_path": str(target), "content": "hi\n"}
            )
            before = set(seen)
            started = time.perf_counter()
            hook = subprocess.Popen(
                [*CLI, "--home", str(home), "hook", "claude-code"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            assert hook.stdin is not None
            hook.stdin.write(write)
            hook.stdin.close()
            hook.stdin = None
            wait_until(partial(arrived, seen, before), 60)
            (approval_id,) = set(seen) - before
            shown.append(seen[approval_id] - started)
            decided = time.perf_counter()
            bridge.submit(partial(approve, approval_id=approval_id))
            out, _ = hook.communicate(timeout=60)
            answered.append(time.perf_counter() - decided)
            if '"allow"' not in out:
                raise SystemExit(f"the hook did not allow: {out}")
    finally:
        bridge.stop()
    return {"hook_to_window": spread(shown), "decision_to_hook_answer": spread(answered)}


def arrived(seen: dict[str, float], before: set[str]) -> bool:
    return bool(set(seen) - before)


def approve(ws: object, approval_id: str) -> None:
    """A bridge job: a person approves (the dialog's call)."""
    from agent_core.facade.workspace import Workspace

    assert isinstance(ws, Workspace)
    ws.approve(approval_id, reviewer="bench")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--writes", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write = to_window(args.writes, root / "window")
        read = reads(args.rounds, root / "read")
    load = os.getloadavg()[0]
    print(f"load {load:.2f}")
    for key, values in (*read.items(), *write.items()):
        print(
            f"{key:24} median {values['median']:.3f}  range {values['min']:.3f}-{values['max']:.3f}"
        )
    print(json.dumps({"benchmark": "agent_hook", "load": load, "read": read, "write": write}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
