"""Usage across a crash: a remote run SIGKILLed mid-way and resumed counts each model
response once. The fake endpoint's own record of what it answered is the bill to match."""

from __future__ import annotations

import pytest

from agent_core.facade.workspace import Workspace
from tests.drills.drill_support import DEMO_QUESTION, KILLED_BY_SIGKILL, events_of
from tests.support.cli import CliRunner
from tests.support.fake_openai import FakeOpenAI, history_from_messages

pytestmark = pytest.mark.slow
KEY = {"BRIEFDESK_OPENAI_API_KEY": "sk-usage-drill-" + "k" * 20}


def test_a_killed_and_resumed_remote_run_counts_each_response_once(
    cli: CliRunner, ws: Workspace
) -> None:
    with FakeOpenAI() as server:
        ws.set_setting("openai.base_url", server.base_url)
        ws.set_setting("openai.price_input_per_mtok", 1)
        ws.set_setting("openai.price_output_per_mtok", 4)
        killed = cli(
            "run", "--question", DEMO_QUESTION, "--model", "openai",
            env={**KEY, "BRIEFDESK_CRASH_AT": "before_tool:2"},
        )  # fmt: skip
        assert killed.code == KILLED_BY_SIGKILL, (killed.code, killed.stdout, killed.stderr)
        (run,) = ws.list_runs()
        answered_before_kill = len(server.requests)
        assert run["status"] == "interrupted"
        assert run["usage"]["requests"] == answered_before_kill >= 2

        resumed = cli("resume", run["run_id"], env=KEY)
        assert resumed.code == 0, resumed.stdout + resumed.stderr
        assert resumed.body["status"] == "waiting_approval"
        requests = server.requests
    assert len(requests) > answered_before_kill  # the resume asked the model again
    steps = [history_from_messages(r.json()["messages"]).steps_taken + 1 for r in requests]
    sent, got = sum(100 * s for s in steps), 20 * len(steps)  # what the fake reported
    turns = events_of(ws, run["run_id"], "model_turn")
    usage = resumed.body["usage"]
    assert usage["requests"] == len(turns) == len(requests)
    assert (usage["input_tokens"], usage["output_tokens"]) == (sent, got)
    assert usage["cost"] == pytest.approx(sent / 1e6 * 1 + got / 1e6 * 4)
    assert ws.get_run(run["run_id"])["usage"] == usage  # as a later read shows it
