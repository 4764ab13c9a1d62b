"""A remote model's run, SIGKILLed in the middle of a turn, resumes that very turn.

A remote model asked the same thing twice answers differently (here: new call ids each time, as
a real endpoint's are). Its reads run without an SDK pause, so a kill after a read's checkpoint
A leaves no RunState: the resume must be given the response that turn already had (kept with
the turn's record), not ask the endpoint again, or it would run other calls than the ones the
ledger recorded and count the turn twice. The endpoint is a real HTTP server on 127.0.0.1; the
kill is a real SIGKILL of the CLI at the crash point.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agent_core.facade.workspace import Workspace
from tests.drills.drill_support import DEMO_QUESTION, KILLED_BY_SIGKILL, events_of
from tests.support.cli import CliRunner
from tests.support.fake_openai import FakeOpenAI, RecordedRequest

pytestmark = pytest.mark.slow
KEY = {"BRIEFDESK_OPENAI_API_KEY": "sk-remote-resume-" + "k" * 20}


class FreshIdsOpenAI(FakeOpenAI):
    """Plans like the offline model but names every call anew on every request."""

    def __init__(self) -> None:
        super().__init__()
        self._answered = itertools.count(1)

    def _answer(self, request: RecordedRequest) -> tuple[int, dict[str, Any]]:
        status, body = super()._answer(request)
        n = next(self._answered)
        for choice in body.get("choices", []):
            for call in choice["message"].get("tool_calls") or []:
                call["id"] = f"{call['id']}_r{n}"
        return status, body


def _rows(home: Path, query: str, *params: object) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(home / "state.db")
    try:
        return db.execute(query, params).fetchall()
    finally:
        db.close()


@pytest.mark.parametrize("killed_at", ["before_tool:1", "before_tool:2"])
def test_a_remote_run_killed_mid_turn_resumes_that_turn_without_asking_again(
    cli: CliRunner, ws: Workspace, home: Path, killed_at: str
) -> None:
    """Call 1 is the first turn's (the run's first input stored with its checkpoint A), call
    2 the second turn's first of several."""
    with FreshIdsOpenAI() as server:
        ws.set_setting("openai.base_url", server.base_url)
        killed = cli(
            "run", "--question", DEMO_QUESTION, "--model", "openai",
            env={**KEY, "BRIEFDESK_CRASH_AT": killed_at},
        )  # fmt: skip
        assert killed.code == KILLED_BY_SIGKILL, (killed.code, killed.stdout, killed.stderr)
        (run,) = ws.list_runs()
        asked_before = [r.json()["messages"] for r in server.requests]
        resumed = cli("resume", run["run_id"], env=KEY)
        assert resumed.code == 0, resumed.stdout + resumed.stderr
        assert resumed.body["status"] == "waiting_approval"
        asked_after = [r.json()["messages"] for r in server.requests][len(asked_before) :]

    # The turn the kill interrupted was not sent again: every later request carries more.
    interrupted = json.dumps(asked_before[-1], sort_keys=True)
    assert all(json.dumps(m, sort_keys=True) != interrupted for m in asked_after)
    assert len(asked_after) >= 1  # later turns were asked for

    # The calls that ran are the conversation's calls: none from an answer given twice.
    conversation = {c["data"]["call_id"] for c in events_of(ws, run["run_id"], "tool_called")}
    started = [
        r[0] for r in _rows(home, "SELECT call_id FROM ledger WHERE run_id = ?", run["run_id"])
    ]
    assert set(started) <= conversation and len(started) == len(set(started))
    executed = [
        e["data"]["call_id"]
        for e in events_of(ws, run["run_id"], "tool_result")
        if e["data"].get("executed")
    ]
    assert len(executed) == len(set(executed))  # no call's body ran twice
    # The reads ran without a pause: no checkpoint of theirs saved a RunState; the write did.
    saved = _rows(
        home, "SELECT next_step, state_digest IS NOT NULL FROM checkpoints WHERE run_id = ?",
        run["run_id"],
    )  # fmt: skip
    reads = [has for step, has in saved if step.startswith("run ")]
    assert reads and not any(reads), saved
    assert any(has for step, has in saved if step.startswith("wait for approval")), saved
    # Each response counted once: the turns recorded are the requests answered.
    turns = events_of(ws, run["run_id"], "model_turn")
    assert resumed.body["usage"]["requests"] == len(turns) == len(server.requests)
