"""The `openai` provider end to end: real `briefdesk-cli` processes, the real OpenAI SDK client and
real HTTP against a stand-in for the remote LLM (tests/support/fake_openai.py, a server on
127.0.0.1 speaking Chat Completions). Only the remote model is fake.

The workflow is the demo one (search -> reads -> save_brief waits for a person -> approve ->
resume -> written once -> final answer); the key travels only in the Authorization header. Without
a key, or with a key the endpoint refuses, the run fails clearly, without a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.facade.workspace import Workspace
from agent_core.tools.registry import TOOLS
from tests.support.cli import CliRunner
from tests.support.fake_openai import FakeOpenAI
from tests.support.typed import present

pytestmark = pytest.mark.slow

QUESTION = "How do checkpoints make agent runs durable?"
KEY = "sk-e2e-" + "Vb7Nq2Lx8Kw4Pz6Rt3Ys"


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_openai_provider_runs_the_workflow_end_to_end(
    cli: CliRunner, ws: Workspace, home: Path
) -> None:
    env = {"BRIEFDESK_OPENAI_API_KEY": KEY}
    with FakeOpenAI(api_key=KEY) as server:
        ws.set_setting("openai.base_url", server.base_url)
        first = cli("run", "--question", QUESTION, "--model", "openai", env=env)
        assert (first.code, first.body.get("status")) == (0, "waiting_approval"), (
            first.stdout + first.stderr
        )
        [proposal] = first.body["approvals"]
        assert proposal["tool"] == "save_brief"
        target = Path(proposal["target"])
        assert target.parent == home / "artifacts" / "briefs" and not target.exists()
        approved = cli("approvals", "approve", proposal["id"], "--reviewer", "ada")
        assert approved.body["approval"]["status"] == "approved"
        done = cli("resume", first.body["run_id"], env=env)
        requests = server.requests
    assert (done.code, done.body.get("status")) == (0, "succeeded"), done.stdout + done.stderr
    assert (
        done.body["output"]
        == f"The brief is saved at {target} ({len(proposal['args']['content'].encode())} bytes)."
    )
    assert target.read_text(encoding="utf-8") == proposal["args"]["content"]
    assert _files(home / "artifacts") == [str(target.relative_to(home / "artifacts"))]
    events = ws.timeline(first.body["run_id"])
    saves = [
        e
        for e in events
        if e["kind"] == "tool_result" and e["tool"] == "save_brief" and e["data"]["executed"]
    ]
    assert len(saves) == 1
    # The workflow went through the endpoint: search, reads, save, final answer.
    assert [r.path for r in requests] == ["/v1/chat/completions"] * 4
    bodies = [r.json() for r in requests]
    assert all(sorted(t["function"]["name"] for t in b["tools"]) == sorted(TOOLS) for b in bodies)
    tool_results = [sum(m["role"] == "tool" for m in b["messages"]) for b in bodies]
    assert tool_results == [0, 1, 4, 5]
    # The key reaches the server only in the Authorization header.
    for request in requests:
        assert request.header("Authorization") == f"Bearer {KEY}"
        assert KEY.encode() not in request.body
        assert [k.lower() for k, v in request.headers if KEY in v] == ["authorization"]


def test_openai_without_a_key_fails_clearly_before_any_request(
    cli: CliRunner, ws: Workspace
) -> None:
    # OpenAI's own API always needs a key: the run stops before the first request is made.
    ws.set_setting("openai.base_url", "https://api.openai.com/v1")
    result = cli("run", "--question", QUESTION, "--model", "openai")
    assert (result.code, result.body.get("status")) == (1, "failed"), result.stdout
    error = result.body["error"]
    # No Secret Service reachable here: keyring_unavailable; a reachable, empty one: key_missing.
    assert error["code"] in ("key_missing", "keyring_unavailable")
    assert "BRIEFDESK_OPENAI_API_KEY" in error["message"]
    assert "Traceback" not in result.stderr and result.stderr.strip() == ""
    events = ws.timeline(result.body["run_id"])
    assert [e["kind"] for e in events if e["kind"].startswith("model_")] == []


def test_a_local_server_needs_no_key(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ollama, LM Studio and vLLM run without a key: none stored, the run still works, and the
    # server sees only the placeholder the client library insists on sending.
    monkeypatch.delenv("BRIEFDESK_OPENAI_API_KEY", raising=False)
    with FakeOpenAI() as server:
        ws.set_setting("openai.base_url", server.base_url)
        run = ws.start_run(QUESTION, model="openai", mode="acceptEdits")
        requests = server.requests
    assert run["status"] == "succeeded", run
    assert {r.header("Authorization") for r in requests} == {"Bearer none"}


def test_a_key_the_endpoint_refuses_fails_the_run_without_echoing_it(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", KEY)
    with FakeOpenAI(api_key="sk-the-right-one-" + "x" * 20) as server:
        ws.set_setting("openai.base_url", server.base_url)
        run = ws.start_run(QUESTION, model="openai")
        requests = server.requests
    assert run["status"] == "failed"
    assert present(run["error"])["code"] == "provider_error"
    assert present(run["error"])["retryable"] is False
    assert (
        "HTTP 401" in present(run["error"])["message"]
        and KEY not in present(run["error"])["message"]
    )
    # A refused key is not retried: one request, carrying the key in its Authorization header.
    assert [r.header("Authorization") for r in requests] == [f"Bearer {KEY}"]
