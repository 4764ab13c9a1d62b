"""A run's usage (requests, tokens, cost) and the home's: counted from each recorded model
response, priced by the `openai.price_*_per_mtok` settings, 0 for the embedded models."""

from __future__ import annotations

from typing import Any

import pytest

from agent_core.contract.errors import BriefDeskError
from agent_core.facade.workspace import Workspace
from tests.support.fake_openai import FakeOpenAI, history_from_messages

QUESTION = "How do checkpoints make agent runs durable?"
KEY = "sk-usage-test-" + "k" * 20


def _turns(ws: Workspace, run_id: str) -> list[dict[str, Any]]:
    return [e["data"] for e in ws.timeline(run_id) if e["kind"] == "model_turn"]


def test_an_offline_run_counts_its_requests_and_costs_nothing(ws: Workspace) -> None:
    ws.set_setting("openai.price_input_per_mtok", 2.5)
    ws.set_setting("openai.price_output_per_mtok", 10)  # prices of a remote model, not this one
    run = ws.start_run(QUESTION)
    assert run["status"] == "waiting_approval"
    turns = _turns(ws, run["run_id"])
    assert len(turns) >= 2  # a search, reads, the proposal
    assert run["usage"] == {
        "requests": len(turns),
        "input_tokens": 0,
        "output_tokens": 0,
        "cost": 0.0,
        "currency": "USD",
    }
    assert all(t["input_tokens"] == t["output_tokens"] == 0 for t in turns)


def test_a_remote_run_counts_the_tokens_the_endpoint_reported_and_prices_them(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", KEY)
    with FakeOpenAI() as server:
        ws.set_setting("openai.base_url", server.base_url)
        run = ws.start_run(QUESTION, model="openai")
        requests = server.requests
    assert run["status"] == "waiting_approval"
    # The fake reports 100 * step prompt tokens and 20 completion tokens per response.
    steps = [history_from_messages(r.json()["messages"]).steps_taken + 1 for r in requests]
    sent, got = sum(100 * s for s in steps), 20 * len(steps)
    usage = run["usage"]
    assert usage == {
        "requests": len(requests),
        "input_tokens": sent,
        "output_tokens": got,
        "cost": None,  # no prices set: unknown, never a made-up 0
        "currency": "USD",
    }
    turns = _turns(ws, run["run_id"])
    assert len(turns) == len(requests)
    assert sum(t["input_tokens"] for t in turns) == sent
    assert ws.run_state(run["run_id"]).tokens == sent + got  # the token budget's count

    ws.set_setting("openai.price_input_per_mtok", 2.5)
    assert ws.get_run(run["run_id"])["usage"]["cost"] is None  # both prices, or no cost
    ws.set_setting("openai.price_output_per_mtok", 10)
    priced = ws.get_run(run["run_id"])["usage"]["cost"]
    assert priced == pytest.approx(sent / 1e6 * 2.5 + got / 1e6 * 10)

    offline = ws.start_run(QUESTION)
    total = ws.usage_total()
    assert total == {
        "runs": 2,
        "requests": len(requests) + offline["usage"]["requests"],
        "input_tokens": sent,
        "output_tokens": got,
        "cost": pytest.approx(priced),
        "currency": "USD",
    }
    ws.set_setting("openai.price_output_per_mtok", None)
    assert ws.usage_total()["cost"] is None  # one run's cost unknown: the sum's too


def test_budgets_say_how_much_of_each_a_run_used(ws: Workspace) -> None:
    run = ws.start_run(QUESTION, max_turns=40, max_tokens=1000)
    budgets = ws.run_budgets(run["run_id"])
    state = ws.run_state(run["run_id"])
    assert budgets["turns"] == {"used": state.turns, "limit": 40}
    assert budgets["tool_calls"] == {"used": state.tool_calls, "limit": 100}
    assert budgets["tokens"] == {"used": 0, "limit": 1000}
    assert budgets["seconds"]["limit"] == 900.0
    assert 0 < budgets["seconds"]["used"] == state.active_s
    assert state.turns >= 2 and state.tool_calls >= 2


@pytest.mark.parametrize("bad", [-0.01, "nan", "cheap", True, 2_000_000])
def test_a_price_is_a_non_negative_number(ws: Workspace, bad: object) -> None:
    with pytest.raises(BriefDeskError) as refused:
        ws.set_setting("openai.price_input_per_mtok", bad)
    assert refused.value.code == "invalid_arguments"
    assert "openai.price_input_per_mtok takes" in refused.value.message


def test_prices_are_set_and_unset_like_the_other_settings(ws: Workspace) -> None:
    assert ws.settings()["openai.price_output_per_mtok"] is None
    assert (
        ws.set_setting("openai.price_output_per_mtok", "0.6")["openai.price_output_per_mtok"] == 0.6
    )
    assert ws.set_setting("openai.price_output_per_mtok", "0")["openai.price_output_per_mtok"] == 0
    assert (
        ws.set_setting("openai.price_output_per_mtok", "null")["openai.price_output_per_mtok"]
        is None
    )
