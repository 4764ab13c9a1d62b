"""A stand-in for the remote LLM behind Claude Code: a real HTTP server speaking the Anthropic
Messages API on 127.0.0.1.

Claude Code (`claude -p`, `ANTHROPIC_BASE_URL=server.base_url`) posts its conversation to
`POST /v1/messages?beta=true` with `stream: true` and reads server-sent events: `message_start`,
`content_block_start` / `content_block_delta` (`text_delta`, or `input_json_delta` for a
`tool_use` block) / `content_block_stop`, `message_delta` with the `stop_reason` (`tool_use` or
`end_turn`) and `message_stop`. That is what this server answers, so the real CLI, its real HTTP
client and its real tool loop run.

Scripted: `steps` is what the model does, one step per main-conversation turn (`Tool` asks for a
tool call, `Say` ends the turn with text). Which step a request gets is a pure function of the
conversation it carries (the number of assistant turns already in it), as in fake_openai.py:
a retried request gets the same answer. Past the script the model says "done". Turn N (1-based)
answers step N-1, and its tool call has the id `toolu_fake_N`. `hold(N)` keeps turn N's answer
back until the test sets the event it returns (a test changes a setting between two tool
calls without racing the agent); `arrived_at(N)` and `served_at(N)` say when turn N's request
came and when its answer was sent (what a tool call took in between is the agent's and its
hooks' time).

Side requests (anything without tools: a title or a summary with a small model, a quota probe),
`count_tokens` and GET/HEAD probes get small, valid answers and never advance the script. Every
request is recorded whole, so a test reads what the model received (the `tool_result` of a
denied call carries the hook's reason).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import cast

from agent_core.contract.json_types import JsonMapping, JsonObject
from tests.support.fake_openai import RecordedRequest

MODEL_FALLBACK = "claude-sonnet-4-5"
"""The model named in answers when a request names none."""
HOLD_LIMIT_S = 300.0
"""A held turn is answered after this long even if the test never releases it."""


@dataclass(frozen=True)
class Tool:
    """The model asks for one tool call."""

    name: str
    input: JsonMapping


@dataclass(frozen=True)
class Say:
    """The model ends its turn with this text."""

    text: str


Step = Tool | Say


def _sse(event: str, data: JsonObject) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _usage(input_tokens: int, output_tokens: int) -> JsonObject:
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def message_events(step: Step, *, model: str, turn: int) -> list[bytes]:
    """One streamed assistant message, event by event, as the API sends it."""
    start: JsonObject = {
        "type": "message_start",
        "message": {
            "id": f"msg_fake_{turn}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": _usage(100 * turn, 1),
        },
    }
    events = [_sse("message_start", start)]
    if isinstance(step, Tool):
        block: JsonObject = {
            "type": "tool_use",
            "id": f"toolu_fake_{turn}",
            "name": step.name,
            "input": {},
        }
        arguments = json.dumps(step.input)
        middle = len(arguments) // 2  # two deltas, as a real stream splits the JSON
        deltas: list[JsonObject] = [
            {"type": "input_json_delta", "partial_json": arguments[:middle]},
            {"type": "input_json_delta", "partial_json": arguments[middle:]},
        ]
        stop_reason = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": step.text}]
        stop_reason = "end_turn"
    events.append(
        _sse(
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": block},
        )
    )
    events.extend(
        _sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta})
        for delta in deltas
    )
    events.append(_sse("content_block_stop", {"type": "content_block_stop", "index": 0}))
    events.append(
        _sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": _usage(100 * turn, 20),
            },
        )
    )
    events.append(_sse("message_stop", {"type": "message_stop"}))
    return events


def message_object(text: str, *, model: str) -> JsonObject:
    """A whole (not streamed) assistant message with one text block."""
    return {
        "id": "msg_fake_side",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": _usage(10, 5),
    }


def request_body(request: RecordedRequest) -> JsonObject:
    """A request's JSON body (an empty object when it has none)."""
    if not request.body:
        return {}
    body = json.loads(request.body)
    return cast(JsonObject, body) if isinstance(body, dict) else {}


def _messages(body: JsonObject) -> list[JsonObject]:
    messages = body.get("messages")
    if not isinstance(messages, list):
        return []
    return [m for m in messages if isinstance(m, dict)]


def is_main_conversation(body: JsonObject) -> bool:
    """Claude Code's agent loop offers its tools; its side requests (titles, summaries,
    probes) offer none."""
    return bool(body.get("tools"))


def assistant_turns(body: JsonObject) -> int:
    return sum(1 for message in _messages(body) if message.get("role") == "assistant")


def tool_results(body: JsonObject) -> list[JsonObject]:
    """Every `tool_result` block the request carries, oldest first."""
    found: list[JsonObject] = []
    for message in _messages(body):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            found.extend(
                b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"
            )
    return found


def tool_result_text(block: JsonObject) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


class FakeAnthropic:
    """`with FakeAnthropic([Tool("Write", {...}), Say("done")]) as server:` ->
    `server.base_url`, `server.requests`, `server.main_requests()`."""

    def __init__(self, steps: Sequence[Step] = ()) -> None:
        self.steps = list(steps)
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._holds: dict[int, threading.Event] = {}
        self._served_at: dict[int, float] = {}
        self._arrived_at: dict[int, float] = {}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        """What `ANTHROPIC_BASE_URL` takes (the SDK appends `/v1/messages`)."""
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def main_requests(self) -> list[JsonObject]:
        """The bodies of the agent loop's requests, in the order they arrived."""
        return [
            body
            for request in self.requests
            if request.method == "POST"
            and _route(request.path) == "/v1/messages"
            and is_main_conversation(body := request_body(request))
        ]

    def hold(self, turn: int) -> threading.Event:
        """Turn `turn`'s answer waits until the returned event is set (call it before that
        turn's request arrives)."""
        with self._lock:
            return self._holds.setdefault(turn, threading.Event())

    def arrived_at(self, turn: int) -> float | None:
        """`time.monotonic()` when turn `turn`'s request arrived, None before."""
        with self._lock:
            return self._arrived_at.get(turn)

    def served_at(self, turn: int) -> float | None:
        """`time.monotonic()` when turn `turn`'s answer was fully sent, None before."""
        with self._lock:
            return self._served_at.get(turn)

    def __enter__(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def step_for(self, body: JsonObject) -> tuple[Step, int]:
        turn = assistant_turns(body)
        return (self.steps[turn] if turn < len(self.steps) else Say("done")), turn + 1

    def _wait_for_release(self, turn: int) -> None:
        with self._lock:
            self._arrived_at.setdefault(turn, time.monotonic())
            gate = self._holds.get(turn)
        if gate is not None:
            gate.wait(timeout=HOLD_LIMIT_S)

    def _served(self, turn: int) -> None:
        with self._lock:
            self._served_at[turn] = time.monotonic()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _send_json(self, status: int, answer: JsonObject) -> None:
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("request-id", "req_fake")
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            def _send_stream(self, events: list[bytes]) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("request-id", "req_fake")
                self.send_header("Connection", "close")
                self.end_headers()
                for event in events:
                    self.wfile.write(event)
                    self.wfile.flush()
                self.close_connection = True

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = RecordedRequest(
                    self.command, self.path, tuple(self.headers.items()), body
                )
                server._record(request)
                try:
                    self._answer(request)
                except Exception as exc:  # a bug here must show up as a failed session, loudly
                    message = f"fake server: {exc!r}"
                    self._send_json(
                        500, {"type": "error", "error": {"type": "api_error", "message": message}}
                    )

            def _answer(self, request: RecordedRequest) -> None:
                route = _route(request.path)
                if self.command in ("GET", "HEAD"):
                    self._send_json(200, {})
                elif route == "/v1/messages/count_tokens":
                    self._send_json(200, {"input_tokens": max(1, len(request.body) // 4)})
                elif route == "/v1/messages":
                    payload = request_body(request)
                    model = str(payload.get("model") or MODEL_FALLBACK)
                    main = is_main_conversation(payload)
                    step, turn = server.step_for(payload) if main else (Say("Fake title"), 1)
                    if main:
                        server._wait_for_release(turn)
                    if payload.get("stream"):
                        self._send_stream(message_events(step, model=model, turn=turn))
                    else:
                        text = step.text if isinstance(step, Say) else "Fake title"
                        self._send_json(200, message_object(text, model=model))
                    if main:
                        server._served(turn)
                else:
                    self._send_json(
                        404,
                        {"type": "error", "error": {"type": "not_found_error", "message": route}},
                    )

            do_POST = do_GET = do_HEAD = _handle

            def log_message(self, format: str, *args: object) -> None:
                pass  # keep test output clean

        return Handler


def _route(path: str) -> str:
    return path.split("?", 1)[0].rstrip("/")
