"""Where the outside world comes in (issue 39, items 3 and 5): a hung MCP call, an endpoint's
impossible answers, arguments and bodies nested past any parser, schemas that cannot be checked.

Each once ended in a traceback or a process that never exited, and left its run `interrupted`
with every resume failing the same way. Now each is a stable code and a run that goes on or ends
cleanly. Real parts only: a real `briefdesk-cli` process with a real hung MCP server (the
process exiting is the behaviour), real HTTP on 127.0.0.1 speaking the OpenAI protocols for the
remote model (the one part we may fake), real MCP servers of our own with hostile schemas.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from agent_core.contract.views import EventView
from agent_core.facade.workspace import Workspace
from tests.support.cli import CliRunner
from tests.support.mcp_servers.real import FAULT_SERVER, RAW_SERVER
from tests.support.openai_faults import Answer, FaultyOpenAI, scripted_call, scripted_say
from tests.support.waiting import wait_until

KEY = "sk-edges-" + "Hq4Zt8Wm2Rc6Vn1Lp5Xy"
DEEP_ARGS = 200_000
DEEP_BODY = 100_000


def write_script(tmp_path: Path, *turns: dict[str, Any]) -> str:
    path = tmp_path / f"script-{uuid.uuid4().hex[:8]}.json"
    path.write_text(json.dumps([*turns, {"say": "done"}]), encoding="utf-8")
    return f"scripted:{path}"


def processes_with(marker: str) -> list[int]:
    """Every live process whose environment holds `marker` (read from /proc, as root can)."""
    found = []
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:  # gone meanwhile, or a kernel thread
            continue
    return found


def events(ws: Workspace, run_id: str, kind: str) -> list[EventView]:
    return [e for e in ws.timeline(run_id) if e["kind"] == kind]


# -- item 3: a hung MCP call ends, its server stops, the CLI returns ------------------------


@pytest.mark.slow
def test_a_hung_mcp_call_ends_as_tool_timeout_its_server_stops_and_the_cli_exits(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    here, process = CliRunner(home, capsys), CliRunner(home)
    marker = f"EDGE_MARK=hung-{uuid.uuid4().hex}"
    here("mcp", "add", "faults", "--trust-hints", "--env", marker,
         "--", sys.executable, str(FAULT_SERVER), check=True)  # fmt: skip
    here("settings", "set", "mcp.call_timeout", "1", check=True)
    model = write_script(
        tmp_path,
        {"call": "mcp__faults__stall", "args": {"seconds": 600}},  # a read: starts a child too
        {"call": "mcp__faults__slow", "args": {"seconds": 600}},  # a write
    )

    # The read times out and the run goes on; the write (no one is asked before it in this
    # mode) times out too: its outcome is unknown, so the run waits for a person. The process
    # exits (it never did: asyncio.run waited for ever on the stopping server's task).
    run = process("run", "--question", "stall", "--model", model,
                  "--mode", "dangerouslySkipPermissions", timeout=60)  # fmt: skip
    assert run.code == 0, run.stderr
    assert run.body["status"] == "waiting_approval", run.body
    [unknown] = run.body["approvals"]
    assert unknown["tool"] == "mcp__faults__slow" and "outcome unknown" in unknown["reason"]
    wait_until(lambda: not processes_with(marker), timeout=15,
               message="the timed-out server or its child outlived the run")  # fmt: skip
    ws = _workspace(home)
    try:
        timed_out = [
            (e["tool"], e["data"]["code"])
            for e in events(ws, run.body["run_id"], "tool_result")
            if e["data"].get("code")
        ]
    finally:
        ws.close()
    assert timed_out == [("mcp__faults__stall", "tool_timeout"),
                         ("mcp__faults__slow", "tool_timeout")]  # fmt: skip


def _workspace(home: Path) -> Any:
    from agent_core.facade.workspace import Workspace

    return Workspace(home)


# -- item 5: an endpoint's impossible answers -------------------------------------------------


class UsageLiar(FaultyOpenAI):
    """Answers as the offline workflow would, reporting the token counts it is given."""

    def __init__(self, usage: tuple[Any, Any]) -> None:
        super().__init__(api_key=KEY)
        self.usage = usage

    def answer_for(self, payload: dict[str, Any], api: str) -> Answer:
        answer = super().answer_for(payload, api)
        return Answer(answer.text, answer.calls, self.usage)


@pytest.fixture
def remote(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", KEY)
    monkeypatch.setenv("BRIEFDESK_RETRY_SCALE", "0.01")
    return ws


@pytest.mark.parametrize(
    ("usage", "api", "stream", "field"),
    [  # both APIs, streamed and not: each is checked on the wire (models/streams.py)
        ((1e308, 20), "chat", False, "prompt_tokens"),
        ((100, -1), "chat", True, "completion_tokens"),
        ((1e308, 20), "responses", False, "input_tokens"),
        ((100, 1.5), "responses", True, "output_tokens"),
    ],
)
def test_an_endpoint_reporting_impossible_token_counts_fails_the_run_as_provider_error(
    remote: Any, usage: tuple[Any, Any], api: str, stream: bool, field: str
) -> None:
    with UsageLiar(usage) as server:
        remote.set_setting("openai.base_url", server.base_url)
        remote.set_setting("openai.api", api)
        remote.set_setting("openai.stream", stream)
        run = remote.start_run("What is a checkpoint?", model="openai", mode="acceptEdits")
        asked = len(server.exchanges)
    assert run["status"] == "failed", run
    assert run["error"]["code"] == "provider_error" and run["error"]["retryable"] is False
    assert field in run["error"]["message"] and "Traceback" not in run["error"]["message"]
    assert asked == 1  # not retried: asking again gets the same
    assert remote.resume(run["run_id"])["status"] == "failed"  # no crash on resume either


@pytest.mark.parametrize("source", ["remote", "scripted"])
def test_tool_arguments_nested_200000_deep_are_blocked_and_the_run_goes_on(
    remote: Any, tmp_path: Path, source: str
) -> None:
    deep = '{"query": ' + "[" * DEEP_ARGS + "]" * DEEP_ARGS + "}"
    if source == "scripted":  # the script file itself parses: its arguments are one string
        model = write_script(tmp_path, {"call": "search_corpus", "raw_args": deep})
        run = remote.start_run("What is a checkpoint?", model=model)
    else:
        with FaultyOpenAI(api_key=KEY) as server:
            server.script(scripted_call("search_corpus", deep), scripted_say("done"))
            remote.set_setting("openai.base_url", server.base_url)
            remote.set_setting("openai.stream", False)
            run = remote.start_run("What is a checkpoint?", model="openai")
    assert run["status"] == "succeeded", run
    [blocked] = events(remote, run["run_id"], "blocked")
    assert blocked["data"]["code"] == "invalid_arguments"
    assert "nested deeper than 64 levels" in str(blocked["data"]["message"])
    assert not events(remote, run["run_id"], "tool_called")


@pytest.fixture
def deep_body_endpoint() -> Iterator[str]:
    """An endpoint whose every answer is one JSON object (a chat completion, or a response on
    /responses) with a member nested 100,000 deep, even when a stream was asked for."""
    nested = "[" * DEEP_BODY + "]" * DEEP_BODY
    chat = (
        '{"id": "chatcmpl-deep", "object": "chat.completion", "created": 0, "model": "m", '
        '"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", '
        f'"content": "hi"}}}}], "usage": {nested}}}'
    ).encode()
    response = (
        '{"id": "resp-deep", "object": "response", "created_at": 0, "model": "m", '
        f'"status": "completed", "output": {nested}}}'
    ).encode()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = chat if self.path.rstrip("/").endswith("/chat/completions") else response
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.mark.parametrize(
    ("api", "stream"),
    [("chat", False), ("chat", True), ("responses", False), ("responses", True)],
)
def test_a_response_body_nested_100000_deep_fails_the_run_as_provider_error(
    remote: Any, deep_body_endpoint: str, api: str, stream: bool
) -> None:
    remote.set_setting("openai.base_url", deep_body_endpoint)
    remote.set_setting("openai.api", api)
    remote.set_setting("openai.stream", stream)
    run = remote.start_run("What is a checkpoint?", model="openai")
    assert run["status"] == "failed", run
    assert run["error"]["code"] == "provider_error" and run["error"]["retryable"] is False
    assert "nested too deep" in run["error"]["message"]


# -- item 5: MCP input schemas that cannot be checked -----------------------------------------


@pytest.mark.slow
def test_an_mcp_schema_that_cannot_be_checked_makes_only_that_tool_unavailable(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = CliRunner(home, capsys)
    cli("mcp", "add", "raw", "--env", "SCHEMAS=hostile",
        "--", sys.executable, str(RAW_SERVER), check=True)  # fmt: skip
    listed = cli("mcp", "tools", "raw", check=True).body["tools"]
    errors = {tool["name"]: tool.get("error") for tool in listed}
    assert errors["fine"] is None
    assert "$ref loop" in errors["ref_loop"]
    assert "deeper than 64" in errors["deep"]
    assert "1,048,576 bytes" in errors["huge"]

    model = write_script(
        tmp_path,
        {"call": "mcp__raw__ref_loop", "args": {"q": "x"}},
        {"call": "mcp__raw__fine", "args": {"q": "x"}},
    )
    code, run = cli("run", "--question", "q", "--mode", "dangerouslySkipPermissions",
                    "--model", model)  # fmt: skip
    assert code == 0 and run["status"] == "succeeded", run
    ws = _workspace(home)
    try:
        blocked = events(ws, run["run_id"], "blocked")
        assert [(e["tool"], e["data"]["code"]) for e in blocked] == [
            ("mcp__raw__ref_loop", "unknown_tool")
        ]
        [done] = events(ws, run["run_id"], "tool_result")[1:]
        assert (done["tool"], done["data"]["outcome"]) == ("mcp__raw__fine", "success")
    finally:
        ws.close()
