"""The `openai` provider against an endpoint that fails the way real ones do.

Runs go through the Workspace façade in this process (the real driver, the real Agents SDK, the
real openai client, real HTTP) against tests/support/openai_faults.py, a server on 127.0.0.1
speaking Chat Completions and Responses (SSE streams included) that injects one fault at a
time. What happened is read from outside: the run and its timeline through the façade, the
files under artifacts/, and the server's own log of requests with its own clock.

BriefDesk's own backoff is scaled down (BRIEFDESK_RETRY_SCALE) so an outage of ten attempts
costs well under a second; what a server asks for in Retry-After is never scaled, and the test
of it runs at the real scale.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_core.contract.views import EventView, RunView
from agent_core.facade.workspace import Workspace
from tests.support.openai_faults import (
    Exchange,
    Fault,
    FaultyOpenAI,
    scripted_call,
    scripted_say,
)
from tests.support.waiting import wait_until

QUESTION = "How do checkpoints make agent runs durable?"
KEY = "sk-faults-" + "Q7wLm2Xc9Vb4Nz8Rt5Hy"
CLASS_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:Error|Exception)\b")
# The offline workflow: search, three reads, save_brief, final answer; usage is 100 * step + 20.
WORKFLOW_TOKENS = 120 + 220 + 320 + 420


@pytest.fixture
def server(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultyOpenAI]:
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", KEY)
    monkeypatch.setenv("BRIEFDESK_RETRY_SCALE", "0.01")
    with FaultyOpenAI(api_key=KEY) as endpoint:
        ws.set_setting("openai.base_url", endpoint.base_url)
        ws.set_setting("openai.read_timeout", 1)  # a stalled stream is abandoned after 1 s
        yield endpoint


def run_openai(ws: Workspace, **options: Any) -> RunView:
    run = ws.start_run(QUESTION, model="openai", mode="acceptEdits", **options)
    return run


def kinds(ws: Workspace, run_id: str, kind: str) -> list[EventView]:
    return [e for e in ws.timeline(run_id) if e["kind"] == kind]


def executions_per_call(ws: Workspace, run_id: str) -> Counter[str]:
    return Counter(
        e["data"]["call_id"] for e in kinds(ws, run_id, "tool_result") if e["data"]["executed"]
    )


def files_under(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def assert_plain_words(message: str) -> None:
    assert not CLASS_NAME.search(message), message
    assert KEY not in message and "Traceback" not in message


# -- what is retried, and how long it waits -------------------------------------------------


def test_429_with_retry_after_twice_then_success_never_retries_early(
    server: FaultyOpenAI, ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BRIEFDESK_RETRY_SCALE")  # the real policy: Retry-After rules here
    server.fail(
        Fault.http(429, retry_after="1", message="Rate limit reached"),
        Fault.http(429, retry_after_ms="1500", message="Rate limit reached"),
    )
    run = run_openai(ws)
    assert run["status"] == "succeeded", run
    first, second, third = server.exchanges[:3]
    assert [first.status, second.status, third.status] == [429, 429, 200]
    # The server's own clock: from the moment its 429 was sent to the next request's arrival.
    assert first.answered is not None and second.answered is not None
    assert second.arrived - first.answered >= 1.0
    assert third.arrived - second.answered >= 1.5
    retries = [e["data"] for e in kinds(ws, run["run_id"], "model_retry")]
    assert [(r["attempt"], r["reason"], r["status"]) for r in retries] == [
        (1, "HTTP 429 (rate limited)", 429),
        (2, "HTTP 429 (rate limited)", 429),
    ]
    assert retries[0]["wait_s"] >= 1.0 and retries[1]["wait_s"] >= 1.5
    assert ws.run_state(run["run_id"]).tokens == WORKFLOW_TOKENS  # 429s report no usage


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "not-streamed"])
@pytest.mark.parametrize("status", [408, 409, 500, 502, 503, 529])
def test_transient_statuses_are_retried(
    server: FaultyOpenAI, ws: Workspace, status: int, stream: bool
) -> None:
    ws.set_setting("openai.stream", stream)
    server.fail(Fault.http(status))
    run = run_openai(ws)
    assert run["status"] == "succeeded", run
    assert [e.status for e in server.exchanges[:2]] == [status, 200]
    [retry] = kinds(ws, run["run_id"], "model_retry")
    assert (retry["data"]["attempt"], retry["data"]["status"]) == (1, status)


def test_a_retry_after_longer_than_the_waiting_budget_stops_at_once_as_retryable(
    server: FaultyOpenAI, ws: Workspace
) -> None:
    server.fail(Fault.http(429, retry_after="3600"))
    run = run_openai(ws)
    assert (run["status"], run["error"]["code"], run["error"]["retryable"]) == (
        "failed",
        "provider_error",
        True,
    )
    assert len(server.exchanges) == 1 and kinds(ws, run["run_id"], "model_retry") == []


# -- an outage, then resume ----------------------------------------------------------------


@pytest.mark.parametrize("api", ["chat", "responses"])
def test_an_outage_fails_retryable_and_resume_finishes_without_repeating_a_tool_call(
    server: FaultyOpenAI, ws: Workspace, home: Path, api: str
) -> None:
    ws.set_setting("openai.api", api)
    server.outage(Fault.http(503, message="Service Unavailable"), after=2)  # after search, reads
    run = run_openai(ws)
    run_id = run["run_id"]
    assert (run["status"], run["error"]["code"], run["error"]["retryable"]) == (
        "failed",
        "provider_error",
        True,
    )
    assert "HTTP 503" in run["error"]["message"] and "resume" in run["error"]["message"]
    assert_plain_words(run["error"]["message"])
    failed = [e for e in server.exchanges if e.status == 503]
    retries = [e["data"] for e in kinds(ws, run_id, "model_retry")]
    # At most ten attempts and the (scaled) two minutes of waiting, whichever comes first;
    # every retry is on the timeline.
    assert 5 <= len(failed) <= 10
    assert [r["attempt"] for r in retries] == list(range(1, len(failed)))
    assert sum(r["wait_s"] for r in retries) <= 120 * 0.01
    assert {r["turn"] for r in retries} == {3}
    assert f"{len(failed)} attempts" in run["error"]["message"]
    before = executions_per_call(ws, run_id)
    assert sum(before.values()) == 4  # one search, three reads: done before the outage

    server.restore()
    done = ws.resume(run_id)
    assert done["status"] == "succeeded", done
    after = executions_per_call(ws, run_id)
    assert set(after.values()) == {1}  # every call ran exactly once over the run's life
    assert {k: after[k] for k in before} == dict(before)
    assert len(after) == 5  # + save_brief, after the outage
    assert files_under(home / "artifacts") == ["briefs/checkpoints-agent-runs-durable.md"]
    turns = [e["data"]["turn"] for e in kinds(ws, run_id, "model_turn")]
    assert turns == [1, 2, 3, 4]


# -- broken streams ------------------------------------------------------------------------


@pytest.mark.parametrize("api", ["chat", "responses"])
@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        (Fault.drop(), "connection failed or dropped"),
        (Fault.truncate(), "the stream ended before the answer was complete"),
        (Fault.corrupt(), "the stream sent a chunk that is not valid JSON"),
        (Fault.stall(), "read timeout (no data for 1 s)"),
    ],
    ids=["dropped", "truncated", "corrupted", "stalled"],
)
def test_a_broken_stream_is_a_failed_call_never_an_answer(
    server: FaultyOpenAI, ws: Workspace, api: str, fault: Fault, reason: str
) -> None:
    ws.set_setting("openai.api", api)
    server.fail_at(4, fault)  # the final answer: half of it must not pass for all of it
    run = run_openai(ws)
    assert run["status"] == "succeeded", run
    exchanges: list[Exchange] = server.exchanges
    assert [e.fault for e in exchanges] == [None, None, None, fault.kind, None]
    [retry] = kinds(ws, run["run_id"], "model_retry")
    assert (retry["data"]["turn"], retry["data"]["reason"]) == (4, reason)
    target = ws.get_run(run["run_id"])["artifacts"] + "/briefs/checkpoints-agent-runs-durable.md"
    size = len(Path(target).read_bytes())
    assert run["output"] == f"The brief is saved at {target} ({size} bytes)."
    # The window's live text: the second attempt's deltas join into exactly the answer.
    deltas = [e["data"] for e in kinds(ws, run["run_id"], "model_delta") if e["data"]["turn"] == 4]
    assert "".join(d["text"] for d in deltas if d["attempt"] == 2) == run["output"]
    assert ws.run_state(run["run_id"]).tokens == WORKFLOW_TOKENS  # only complete answers count


def test_streamed_text_arrives_as_a_few_batched_deltas(ws: Workspace, server: FaultyOpenAI) -> None:
    run = run_openai(ws)
    final = kinds(ws, run["run_id"], "model_turn")[-1]["data"]
    deltas = [e["data"] for e in kinds(ws, run["run_id"], "model_delta")]
    assert {d["turn"] for d in deltas} == {final["turn"]}  # tool-call turns write no text
    # The server sent the answer in 12-character chunks; they arrive joined, not one per chunk.
    assert 1 <= len(deltas) < len(run["output"]) // 12
    assert "".join(d["text"] for d in deltas) == run["output"]


# -- bad tool calls from the model ----------------------------------------------------------


@pytest.mark.parametrize("api", ["chat", "responses"])
@pytest.mark.parametrize(
    ("tool", "raw", "code"),
    [
        ("search_corpus", '{"query": "checkpoints"', "invalid_arguments"),
        ("delete_everything", '{"path": "/"}', "unknown_tool"),
    ],
    ids=["arguments-not-json", "tool-never-offered"],
)
def test_a_bad_tool_call_is_refused_told_to_the_model_and_the_run_goes_on(
    server: FaultyOpenAI, ws: Workspace, api: str, tool: str, raw: str, code: str
) -> None:
    ws.set_setting("openai.api", api)
    server.script(scripted_call(tool, raw), scripted_say("Nothing to save."))
    run = run_openai(ws)
    assert (run["status"], run["output"]) == ("succeeded", "Nothing to save."), run
    [blocked] = kinds(ws, run["run_id"], "blocked")
    assert (blocked["tool"], blocked["data"]["code"], blocked["data"]["call_id"]) == (
        tool,
        code,
        "call_1_0",
    )
    results = [e["data"] for e in kinds(ws, run["run_id"], "tool_result")]
    assert [(r["call_id"], r["executed"], r["outcome"]) for r in results] == [
        ("call_1_0", False, "error")
    ]
    # The model was told: the next request carries the refusal as that call's result.
    told = server.exchanges[1].json()
    if api == "chat":
        outputs = [m["content"] for m in told["messages"] if m.get("tool_call_id") == "call_1_0"]
    else:
        outputs = [
            i["output"]
            for i in told["input"]
            if i.get("type") == "function_call_output" and i.get("call_id") == "call_1_0"
        ]
    assert len(outputs) == 1 and (code in str(outputs[0]) or "not found" in str(outputs[0]))


# -- what is not retried -------------------------------------------------------------------


def test_a_refused_key_is_not_retried_and_says_what_to_fix(
    ws: Workspace, server: FaultyOpenAI
) -> None:
    server.api_key = "sk-the-right-one-" + "z" * 20
    run = run_openai(ws)
    error = run["error"]
    assert (run["status"], error["code"], error["retryable"]) == ("failed", "provider_error", False)
    assert error["message"].startswith("HTTP 401: the endpoint refused the API key.")
    assert "briefdesk-cli keys set openai" in error["message"]
    assert "BRIEFDESK_OPENAI_API_KEY" in error["message"]
    assert_plain_words(error["message"])
    assert len(server.exchanges) == 1 and kinds(ws, run["run_id"], "model_retry") == []


@pytest.mark.parametrize(
    ("fault", "words"),
    [
        (
            Fault.http(
                400,
                code="context_length_exceeded",
                message="This model's maximum context length is 8192 tokens.",
            ),
            ["HTTP 400", "context window", "openai.model"],
        ),
        (
            Fault.http(404, code="model_not_found", message="The model does not exist."),
            ["HTTP 404", "does not know model", "openai.model", "openai.base_url"],
        ),
        (Fault.http(403), ["HTTP 403", "openai.model"]),
        (Fault.http(422), ["HTTP 422", "openai.api"]),
        (
            Fault.http(429, code="insufficient_quota", message="You exceeded your quota."),
            ["HTTP 429", "no quota left"],
        ),
    ],
    ids=["context-overflow", "unknown-model", "forbidden", "unprocessable", "no-quota"],
)
def test_a_request_the_endpoint_will_never_accept_fails_at_once_in_plain_words(
    server: FaultyOpenAI, ws: Workspace, fault: Fault, words: list[str]
) -> None:
    server.fail(fault)
    run = run_openai(ws)
    error = run["error"]
    assert (run["status"], error["code"], error["retryable"]) == ("failed", "provider_error", False)
    for word in words:
        assert word in error["message"], error["message"]
    assert_plain_words(error["message"])
    assert len(server.exchanges) == 1 and kinds(ws, run["run_id"], "model_retry") == []
    # Not retryable: resume leaves it as it is.
    assert ws.resume(run["run_id"])["status"] == "failed" and len(server.exchanges) == 1


# -- providers check ----------------------------------------------------------------------


def test_providers_check_makes_one_small_request_and_reports_plainly(
    server: FaultyOpenAI, ws: Workspace
) -> None:
    good = ws.providers_check()
    assert (good["ok"], good["base_url"], good["model"]) == (True, server.base_url, "gpt-4o-mini")
    ws.set_setting("openai.api", "responses")
    assert ws.providers_check()["ok"] is True
    server.fail(Fault.http(503))
    busy = ws.providers_check()
    assert busy["ok"] is False and "HTTP 503" in busy["message"] and "later" in busy["message"]
    server.api_key = "sk-another-" + "k" * 20
    refused = ws.providers_check()
    assert refused["ok"] is False and refused["message"].startswith("HTTP 401")
    assert [e.path for e in server.exchanges] == ["/v1/chat/completions"] + ["/v1/responses"] * 3
    assert all(e.header("Authorization") == f"Bearer {KEY}" for e in server.exchanges)


def test_a_cancel_ends_a_run_that_waits_out_an_outage(
    server: FaultyOpenAI, ws: Workspace, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_core.facade.workspace import Workspace

    monkeypatch.setenv("BRIEFDESK_RETRY_SCALE", "1")  # long waits: the cancel must cut them
    server.outage(Fault.http(503))
    run_id = ws.create_run(QUESTION, model="openai", mode="acceptEdits")
    driving = threading.Thread(target=ws.drive, args=(run_id,), daemon=True)
    driving.start()
    reviewer = Workspace(home)  # a second caller, as the window or another CLI would be
    try:
        wait_until(
            lambda: kinds(reviewer, run_id, "model_retry"),
            timeout=30,
            interval=0.05,
            message="the run never retried",
        )
        reviewer.cancel(run_id, reviewer="ada")
        driving.join(timeout=30)
        assert not driving.is_alive()
        assert reviewer.get_run(run_id)["status"] == "cancelled"
    finally:
        reviewer.close()
    assert len(server.exchanges) < 10  # it stopped waiting; it did not try ten times
