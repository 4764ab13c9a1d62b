"""Issue 29: a resume after a SIGKILL loads the stored conversation, it does not replay it.

A scripted run of many reads is killed (a real `briefdesk-cli` process, SIGKILL at checkpoint
A of a late call); `resume` from a fresh process asks the model only for the turn the kill
interrupted and the turns after it, however long the run was, and runs nothing twice. The
bounded view the model is sent is rebuilt from the store exactly as a live run built it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_core.facade.workspace import Workspace
from agent_core.models.planned import parse_history
from agent_core.models.views import is_windowed
from agent_core.runs.transcript import DIGEST_ITEMS, WINDOW_ITEMS, Transcript
from tests.drills.drill_support import (
    KILLED_BY_SIGKILL,
    double_execution_problems,
    events_of,
    executions_per_call,
    turn_problems,
)
from tests.support.cli import CliRunner

READS = 60


def _script(folder: Path) -> Path:
    turns: list[dict[str, Any]] = [
        {"call": "search_corpus", "args": {"query": f"checkpoint {i}", "limit": 1}}
        for i in range(READS)
    ]
    turns.append(
        {"call": "save_brief", "args": {"relative_path": "briefs/b.md", "content": "# B\n"}}
    )
    turns.append({"say": "done"})
    path = folder / "script.json"
    path.write_text(json.dumps(turns))
    return path


@pytest.mark.slow
def test_a_resume_after_a_kill_asks_only_for_the_interrupted_turn(
    cli: CliRunner, ws: Workspace, tmp_path: Path
) -> None:
    killed = cli(
        "run", "--question", "q", "--model", f"scripted:{_script(tmp_path)}",
        "--max-turns", "1000", "--max-tool-calls", "1000",
        env={"BRIEFDESK_CRASH_AT": f"before_tool:{READS - 5}"},
    )  # fmt: skip
    assert killed.code == KILLED_BY_SIGKILL, (killed.code, killed.stdout, killed.stderr)
    (run,) = ws.list_runs()
    run_id = run["run_id"]
    assert run["status"] == "interrupted"

    resumed = cli("resume", run_id)
    assert resumed.code == 0, resumed.stdout + resumed.stderr
    assert resumed.body["status"] == "waiting_approval"

    events = events_of(ws, run_id)
    after = [e["kind"] for e in events[[e["kind"] for e in events].index("run_resumed") :]]
    # The interrupted turn (call READS-5 again), the five reads after it, the write's turn.
    assert after.count("model_turn") == 7, after.count("model_turn")
    assert double_execution_problems(events) == [] and turn_problems(events) == []
    reads = {
        e["data"]["call_id"]
        for e in events
        if e["kind"] == "tool_result" and e["tool"] == "search_corpus"
    }
    executed = executions_per_call(events)
    assert len(reads) == READS and all(executed[c] == 1 for c in reads)

    approval = resumed.body["approvals"][0]["id"]
    assert cli("approvals", "approve", approval, "--reviewer", "r").code == 0
    done = cli("resume", run_id)
    assert done.body["status"] == "succeeded", done.body
    assert done.body["output"] == "done"


def test_the_bounded_view_is_rebuilt_from_the_store_as_the_live_run_built_it(
    tmp_path: Path,
) -> None:
    ws = Workspace(tmp_path / "home")
    run_id = ws.create_run("q", model="offline")
    first = [{"role": "user", "content": "q"}]
    live = Transcript.start(first, inherited_count=0)
    for step in range(1, 200):
        call_id = f"cx-s{step}-0"
        live.own += [
            {"type": "function_call", "call_id": call_id, "name": "search_corpus",
             "arguments": "{}"},
            {"type": "function_call_output", "call_id": call_id, "output": "r" * 2000},
        ]  # fmt: skip
        if step % 7 == 0:  # staged now and then, as checkpoints do
            with ws.store.write() as conn:
                live.stage(conn, run_id, state_saved=False)
        view = live.model_input()
        assert len(view) <= 2 + WINDOW_ITEMS + DIGEST_ITEMS + 2  # bounded, whatever the length
        assert parse_history(view, "cx").steps_taken == step  # the scripted model's position
    with ws.store.write() as conn:
        live.stage(conn, run_id, state_saved=False)
    with ws.store.read() as conn:
        loaded = Transcript.load(conn, run_id)
    assert loaded is not None and loaded.model_input() == live.model_input()
    assert loaded.full() == live.full() and is_windowed(live.model_input())
    assert live.model_input()[0] == {"role": "user", "content": "q"}  # the question stays
    ws.close()
