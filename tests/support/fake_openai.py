"""A stand-in for the remote LLM: a real HTTP server speaking OpenAI Chat Completions.

The remote model is the one part of BriefDesk we may fake, so this fakes exactly that and
nothing else: a `ThreadingHTTPServer` on 127.0.0.1 (ephemeral port) that answers
`POST {base_url}/chat/completions` the way the OpenAI API does (assistant messages with
`tool_calls` or `content`, `finish_reason`, `usage`), so BriefDesk's real `openai` provider,
the real OpenAI SDK client and real HTTP are all exercised.

It plays the same workflow as the embedded offline model (search_corpus -> read_document x N
-> save_brief -> final text): each request's messages (assistant tool calls and the tool
results that answer them) are turned into the offline planner's `History`, so the next step is
a pure function of the conversation, exactly as a resumed run needs.

Every request is recorded whole (method, path, headers, raw body) for leak checks. With
`api_key` set, a request without `Authorization: Bearer <api_key>` gets a 401, like the API.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from agent_core.models.offline import OfflineModel
from agent_core.models.planned import History, PastCall, TurnPlan

Planner = Callable[[History], TurnPlan]


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    def json(self) -> dict[str, Any]:
        body: dict[str, Any] = json.loads(self.body)
        return body


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def history_from_messages(messages: list[dict[str, Any]]) -> History:
    """Chat Completions messages -> the offline planner's view of the conversation."""
    question = ""
    calls: dict[str, PastCall] = {}
    order: list[str] = []
    steps = 0
    for message in messages:
        role = message.get("role")
        if role == "user":
            question = _text(message.get("content"))
        elif role == "assistant" and message.get("tool_calls"):
            steps += 1
            for call in message["tool_calls"]:
                function = call.get("function", {})
                try:
                    args = json.loads(function.get("arguments") or "{}")
                except json.JSONDecodeError:
                    args = {}
                calls[call["id"]] = PastCall(call["id"], str(function.get("name")), args, None)
                order.append(call["id"])
        elif role == "tool" and message.get("tool_call_id") in calls:
            past = calls[message["tool_call_id"]]
            calls[past.call_id] = PastCall(
                past.call_id, past.tool, past.args, _text(message.get("content"))
            )
    return History(question, [calls[c] for c in order], steps)


def offline_planner(history: History) -> TurnPlan:
    return OfflineModel("fake").plan(history)


def completion(plan: TurnPlan, *, model: str, step: int) -> dict[str, Any]:
    """One `chat.completion` object, as the API returns it."""
    message: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None}
    if plan.calls:
        message["tool_calls"] = [
            {
                "id": f"call_{step}_{j}",
                "type": "function",
                "function": {"name": call.tool, "arguments": json.dumps(call.args)},
            }
            for j, call in enumerate(plan.calls)
        ]
        finish = "tool_calls"
    else:
        message["content"] = plan.say or ""
        finish = "stop"
    return {
        "id": f"chatcmpl-fake-{step}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {
            "prompt_tokens": 100 * step,
            "completion_tokens": 20,
            "total_tokens": 100 * step + 20,
        },
    }


class FakeOpenAI:
    """`with FakeOpenAI() as server:` -> `server.base_url`, `server.requests`."""

    def __init__(self, *, api_key: str | None = None, planner: Planner = offline_planner) -> None:
        self.api_key = api_key
        self.planner = planner
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _answer(self, request: RecordedRequest) -> tuple[int, dict[str, Any]]:
        if request.method != "POST" or not request.path.rstrip("/").endswith(
            "/v1/chat/completions"
        ):
            return 404, {"error": {"message": "Not found", "type": "invalid_request_error"}}
        if self.api_key is not None and request.header("Authorization") != f"Bearer {self.api_key}":
            return 401, {
                "error": {
                    "message": "Incorrect API key provided.",
                    "type": "invalid_api_key",
                    "code": "invalid_api_key",
                }
            }
        payload = request.json()
        history = history_from_messages(payload.get("messages", []))
        return 200, completion(
            self.planner(history), model=payload.get("model", "?"), step=history.steps_taken + 1
        )

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = RecordedRequest(
                    self.command, self.path, tuple(self.headers.items()), body
                )
                server._record(request)
                try:
                    status, answer = server._answer(request)
                except Exception as exc:  # a bug here must show up as a failed run, loudly
                    status, answer = (
                        500,
                        {"error": {"message": f"fake server: {exc!r}", "type": "server_error"}},
                    )
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_POST = do_GET = _handle

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep test output clean

        return Handler
