"""Issue 24, break 3: a model call is bounded in time and memory (and `stream` may be ignored).

`briefdesk-cli run --model openai` in a real subprocess against tests/support/hostile_openai.py,
a real HTTP server on 127.0.0.1: a stream that never ends and one that trickles a byte a second
are cut when `--max-seconds` runs out (`failed`, `budget_exceeded`); a gzip bomb (a few MB on the
wire, 512 MiB inflated) is refused as `provider_error` (`retryable: false`) with the process's
peak memory, read from the kernel, far below the bomb; an endpoint that answers a streamed
request with one JSON object is accepted, as the README promises. Both model APIs (chat and
responses): the bounds and checks sit in the run's HTTP client, under the SDK's public models.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import CliRunner
from tests.support.hostile_openai import HostileOpenAI, run_measured

QUESTION = "How do checkpoints make agent runs durable?"
ENV = {"BRIEFDESK_OPENAI_API_KEY": "sk-hostile-test", "BRIEFDESK_RETRY_SCALE": "0.01"}
BUDGET_S = 3
PROCESS_LIMIT_S = 90  # the SDK import included; a run that ignores its budget never ends
MEMORY_BOUND = 300 << 20  # the process itself is ~150 MB; the bomb inflates to 512 MiB
LIMIT_BYTES = 1 << 20


def _configure(cli: CliRunner, server: HostileOpenAI, **settings: object) -> None:
    for key, value in {"openai.base_url": server.base_url, **settings}.items():
        cli("settings", "set", key, str(value).lower() if isinstance(value, bool) else str(value),
            env=ENV, check=True)  # fmt: skip


def _seconds(run: dict[str, Any]) -> float:
    start = datetime.fromisoformat(run["created_at"])
    return (datetime.fromisoformat(run["updated_at"]) - start).total_seconds()


@pytest.mark.parametrize("behaviour", ["endless", "trickle"])
def test_a_stream_that_never_ends_is_cut_at_the_time_budget(
    cli: CliRunner, home: Path, behaviour: str
) -> None:
    with HostileOpenAI(behaviour) as server:
        _configure(cli, server)
        measured = run_measured(
            home,
            "run", "--question", QUESTION, "--model", "openai", "--max-seconds", str(BUDGET_S),
            timeout=PROCESS_LIMIT_S, env=ENV,
        )  # fmt: skip
        assert server.requests, "the model was called"
    run = measured.result.body
    assert measured.result.code == 1, measured.result
    assert run["status"] == "failed", run
    assert run["error"]["code"] == "budget_exceeded", run["error"]
    assert _seconds(run) < BUDGET_S + 15, run  # the budget plus a few seconds, loosely


@pytest.mark.parametrize(("api", "stream"), [("chat", True), ("chat", False), ("responses", True)])
def test_a_gzip_bomb_is_refused_without_inflating_it(
    cli: CliRunner, home: Path, api: str, stream: bool
) -> None:
    with HostileOpenAI("bomb") as server:
        assert len(server.bomb) < 4 << 20  # small on the wire
        _configure(cli, server, **{"openai.api": api, "openai.stream": stream,
                                   "openai.max_response_bytes": LIMIT_BYTES})  # fmt: skip
        measured = run_measured(
            home, "run", "--question", QUESTION, "--model", "openai",
            timeout=PROCESS_LIMIT_S, env=ENV,
        )  # fmt: skip
        requests = server.requests
    run = measured.result.body
    assert run["status"] == "failed", measured.result
    assert run["error"]["code"] == "provider_error", run["error"]
    assert run["error"]["retryable"] is False, run["error"]
    assert "openai.max_response_bytes" in run["error"]["message"]
    assert len(requests) == 1  # never retried: the same answer would come back
    assert measured.peak_rss < MEMORY_BOUND, f"peak RSS {measured.peak_rss >> 20} MiB"


@pytest.mark.parametrize("api", ["chat", "responses"])
def test_an_endpoint_answering_a_stream_with_one_json_object_is_accepted(
    cli: CliRunner, home: Path, api: str
) -> None:
    with HostileOpenAI("json") as server:
        _configure(cli, server, **{"openai.api": api, "openai.stream": True})
        result = cli(
            "run", "--question", QUESTION, "--model", "openai", "--mode", "acceptEdits",
            env=ENV, timeout=PROCESS_LIMIT_S,
        )  # fmt: skip
        requests = server.requests
    assert result.body.get("status") == "succeeded", result
    assert result.body["output"], result.body
    assert requests and all(r.get("stream") is True for r in requests)  # asked for streams
    events = cli("timeline", result.body["run_id"], env=ENV, check=True).body["events"]
    assert not [e for e in events if e["kind"] == "model_retry"]  # taken at once, not retried
    assert [e["tool"] for e in events if e["kind"] == "tool_called"][-1] == "save_brief"


def test_providers_check_refuses_a_gzip_bomb_too(cli: CliRunner, home: Path) -> None:
    with HostileOpenAI("bomb") as server:
        _configure(cli, server, **{"openai.max_response_bytes": LIMIT_BYTES})
        measured = run_measured(home, "providers", "check", timeout=PROCESS_LIMIT_S, env=ENV)
    provider = measured.result.body["provider"]
    assert measured.result.code == 1 and provider["ok"] is False, measured.result
    assert "openai.max_response_bytes" in provider["message"]
    assert measured.peak_rss < MEMORY_BOUND, f"peak RSS {measured.peak_rss >> 20} MiB"
