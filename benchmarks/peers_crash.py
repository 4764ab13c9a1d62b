"""The crash comparison of bench_peers.py: a 30-call run whose every call has an effect.

- random kills: the run is driven in a child SIGKILLed after a seeded random delay, again and
  again (about 20 kills), then driven to its end; every child continues what the killed one
  left, as its framework recovers it;
- the worst window: the process dies right after each call's effect and before its framework
  records the call (the peers' tool kills itself after its append, once per line; BriefDesk's
  own crash point `after_write_before_confirm`, the file written and synced, the ledger not
  yet confirmed), then recovers; 30 kills.

The peers' effect is one line appended (and synced) to a file: a duplicate is a line there
twice, a lost one a line never there. Each peer runs it twice: with a plain tool, and with the
idempotent step its docs ask for (DBOS: steps are at-least-once, so make them idempotent;
LangGraph's durable-execution guide: make side effects idempotent), which keys the line by the
step's identity (DBOS: workflow ID and step ID; LangGraph: the call's `tool_call_id`) and
writes nothing when its key is already there. LangGraph runs with `durability="sync"`, and
once more with its default "async" (plain tool).

BriefDesk's only write is `save_brief` (it has no append tool): call k saves `briefs/bk.md`,
auto-approved by `acceptEdits`; a duplicate is a file written again (its inode and mtime
change: every save is a fresh temp file renamed over it, looked at after every child), a lost
one a file missing or not as approved.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import peers_workload as wl
from peers_children import run_child

CALLS = 30  # `--crash-calls` (a quick run: 10)
CRASHERS = (
    "briefdesk", "dbos", "dbos_idempotent", "langgraph", "langgraph_idempotent", "langgraph_async",
)  # fmt: skip
"""BriefDesk; each peer with its plain tool and with the idempotent step its docs ask for;
LangGraph's default durability ("async"), which may lose the checkpoint of a finished step."""
MAX_CHILDREN = 200


@dataclass
class Tally:
    kills: int = 0
    duplicates: int = 0
    lost: int = 0
    finished: bool = False
    children: int = 0
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


class BriefFiles:
    """The identities (inode, mtime_ns) each brief file has had, seen after every child."""

    def __init__(self, workdir: Path, calls: int) -> None:
        self.folder = workdir / "home" / "artifacts" / "briefs"
        self.calls = calls
        self.seen: dict[int, set[tuple[int, int]]] = {}

    def look(self) -> None:
        for k in range(1, self.calls + 1):
            path = self.folder / f"b{k}.md"
            if path.exists():
                st = path.stat()
                self.seen.setdefault(k, set()).add((st.st_ino, st.st_mtime_ns))

    def counts(self) -> tuple[int, int]:
        duplicates = sum(len(ids) - 1 for ids in self.seen.values())
        lost = 0
        for k in range(1, self.calls + 1):
            path = self.folder / f"b{k}.md"
            if not path.exists() or path.read_text(encoding="utf-8") != f"# {k}\n":
                lost += 1
        return duplicates, lost


def crash_run(
    name: str,
    workdir: Path,
    *,
    kills: int,
    seed: int,
    env: dict[str, str] | None = None,
    calls: int = CALLS,
) -> Tally:
    """Drive a run of `calls` calls to its end through `kills` random SIGKILLs (0: through
    the crashes `env` arms). The delays are drawn from the startup plus a tenth of the work of one
    uncrashed run, so each child gets some calls done before it dies."""
    rng = random.Random(seed)
    tally = Tally()
    reference = run_child(name, workdir / "reference", calls, wl.APPEND_TOOL)
    if reference.error:
        tally.error = reference.error
        return tally
    work = float(reference.result["seconds"])
    startup = max(0.0, reference.wall - work)
    run_dir = workdir / "run"
    if name == "briefdesk":
        prepared = run_child("prepare_briefdesk", run_dir, calls, wl.APPEND_TOOL)
        if prepared.error:
            tally.error = prepared.error
            return tally
    briefs = BriefFiles(run_dir, calls)
    for _ in range(MAX_CHILDREN):
        delay = None
        if tally.kills < kills:
            delay = rng.uniform(0.5 * startup, startup + work / 10)
        outcome = run_child(name, run_dir, calls, wl.APPEND_TOOL, env=env, kill_after=delay)
        tally.children += 1
        briefs.look()
        if outcome.killed:
            tally.kills += 1
            continue
        if outcome.error:
            tally.error = outcome.error
            break
        if outcome.result.get("done"):
            tally.finished = True
            break
    if name == "briefdesk":
        tally.duplicates, tally.lost = briefs.counts()
    else:
        tally.duplicates, tally.lost = wl.line_counts(run_dir / "lines.txt", calls)
    return tally


def worst_window_env(name: str, workdir: Path) -> dict[str, str]:
    if name == "briefdesk":
        from agent_core.home.crash import AFTER_WRITE, CRASH_ENV

        return {CRASH_ENV: AFTER_WRITE}
    marks = workdir / "marks"
    marks.mkdir(parents=True, exist_ok=True)
    return {wl.WORST_WINDOW_ENV: str(marks)}


def crash_comparison(root: Path, *, kills: int, seed: int, calls: int = CALLS) -> dict[str, Any]:
    results: dict[str, Any] = {"calls": calls}
    for i, name in enumerate(CRASHERS):
        random_kills = crash_run(
            name, root / name / "random", kills=kills, seed=seed + i, calls=calls
        )
        worst_dir = root / name / "worst"
        worst = crash_run(
            name, worst_dir, kills=0, seed=seed, env=worst_window_env(name, worst_dir), calls=calls
        )
        results[name] = {"random": random_kills.as_json(), "worst_window": worst.as_json()}
    return results
