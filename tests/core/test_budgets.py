"""Per-run budgets that protect a person's wallet and time: tokens (remote models), wall time."""

from __future__ import annotations

import pytest

from agent_core.facade.workspace import Workspace
from tests.support.fake_openai import FakeOpenAI
from tests.support.typed import present

QUESTION = "How do checkpoints make agent runs durable?"


def test_token_budget_ends_a_remote_run_before_the_next_model_call(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", "sk-budget-test-" + "k" * 20)
    with FakeOpenAI() as server:
        ws.set_setting("openai.base_url", server.base_url)
        # The fake reports 120 tokens for the first response and 220 for the second.
        run = ws.start_run(QUESTION, model="openai", max_tokens=300)
        calls = len(server.requests)
    assert run["status"] == "failed"
    assert present(run["error"])["code"] == "budget_exceeded"
    assert "300 model tokens" in present(run["error"])["message"]
    assert calls == 2  # the third model call was never made
    assert ws.run_state(run["run_id"]).tokens == 340


def test_wall_time_budget_ends_the_run_clearly(ws: Workspace) -> None:
    run = ws.start_run(QUESTION, max_seconds=0.001)
    assert run["status"] == "failed"
    assert (
        present(run["error"])["code"] == "budget_exceeded"
        and "wall time" in present(run["error"])["message"]
    )
