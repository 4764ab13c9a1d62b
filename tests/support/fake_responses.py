"""A stand-in for the remote LLM of Codex: a real HTTP server speaking the OpenAI Responses API.

Codex (`wire_api = "responses"`) posts `{base_url}/responses` with `stream: true` and reads
server-sent events: `response.created`, `response.output_item.added` / `.done` per output item
(an assistant `message`, a `function_call` for a JSON tool such as `exec_command`, or a
`custom_tool_call` for a freeform tool such as `apply_patch`), then `response.completed` with
the usage. This server plays a script (`Step`s: call a tool, or say something and stop): the step
to play is a pure function of the conversation (how many tool calls the request's `input`
already holds), so a retried request gets the same answer. Requests without tools (a title or a
summary asked on the side) get a short text. Every request is recorded whole, and
`tool_outputs()` reads back what each tool call returned to the model (a hook's denial reason
arrives there).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from agent_core.contract.json_types import JsonObject, JsonValue
from tests.support.fake_openai import RecordedRequest

JsonDict = JsonObject


@dataclass(frozen=True)
class CallTool:
    """The model calls `name`: with JSON `arguments` (a function tool), or with `text` (a
    freeform tool: Codex's `apply_patch` takes the patch itself)."""

    name: str
    arguments: JsonDict | None = None
    text: str | None = None


@dataclass(frozen=True)
class Say:
    """The model answers with text and the turn ends."""

    text: str


Step = CallTool | Say


@dataclass
class TurnClock:
    """When each turn of the conversation arrived and was served, and turns held back (so a
    test can change a setting before the agent's next call)."""

    _lock: threading.Lock = field(default_factory=threading.Lock)
    _holds: dict[int, threading.Event] = field(default_factory=dict)
    _arrived: dict[int, float] = field(default_factory=dict)
    _served: dict[int, float] = field(default_factory=dict)

    def hold(self, turn: int) -> threading.Event:
        with self._lock:
            return self._holds.setdefault(turn, threading.Event())

    def arrived_at(self, turn: int) -> float | None:
        with self._lock:
            return self._arrived.get(turn)

    def served_at(self, turn: int) -> float | None:
        with self._lock:
            return self._served.get(turn)

    def arrive(self, turn: int) -> None:
        with self._lock:
            self._arrived.setdefault(turn, time.monotonic())
            held = self._holds.get(turn)
        if held is not None:
            held.wait(timeout=120)

    def serve(self, turn: int) -> None:
        with self._lock:
            self._served.setdefault(turn, time.monotonic())


_CALL_TYPES = ("function_call", "custom_tool_call")
_OUTPUT_TYPES = ("function_call_output", "custom_tool_call_output")


def _output_text(output: JsonValue) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "".join(str(p.get("text", "")) for p in output if isinstance(p, dict))
    if isinstance(output, dict):
        return str(output.get("content") or output.get("text") or json.dumps(output))
    return ""


def _item(step: Step, index: int) -> JsonDict:
    if isinstance(step, Say):
        return {
            "type": "message",
            "id": f"msg_{index}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": step.text, "annotations": []}],
        }
    if step.text is not None:
        return {
            "type": "custom_tool_call",
            "id": f"ctc_{index}",
            "status": "completed",
            "call_id": f"call_{index}",
            "name": step.name,
            "input": step.text,
        }
    return {
        "type": "function_call",
        "id": f"fc_{index}",
        "status": "completed",
        "call_id": f"call_{index}",
        "name": step.name,
        "arguments": json.dumps(step.arguments or {}),
    }


def sse_events(step: Step, index: int) -> bytes:
    """The event stream of one response whose only output item plays `step`."""
    response_id = f"resp_{index}"
    item = _item(step, index)
    usage: JsonDict = {
        "input_tokens": 100,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 10,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 110,
    }
    events: list[JsonDict] = [
        {"type": "response.created", "response": {"id": response_id, "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {
            "type": "response.completed",
            "response": {
                "id": response_id,
                "status": "completed",
                "output": [item],
                "usage": usage,
            },
        },
    ]
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


class FakeResponses:
    """`with FakeResponses([steps]) as server:` -> `server.base_url` (for a Codex
    `model_providers` entry), `server.requests`, `server.tool_outputs()`."""

    def __init__(self, steps: list[Step], *, final_text: str = "done") -> None:
        self.steps = list(steps)
        self.final_text = final_text
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._turns = TurnClock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def main_requests(self) -> list[JsonDict]:
        """The bodies of the requests of the conversation itself (those offering tools)."""
        bodies = [r.json() for r in self.requests if r.path.rstrip("/").endswith("/responses")]
        return [b for b in bodies if b.get("tools")]

    def tool_outputs(self) -> dict[str, str]:
        """call id -> what that tool call returned to the model, over every request."""
        outputs: dict[str, str] = {}
        for body in self.main_requests():
            for item in body.get("input", []):
                if isinstance(item, dict) and item.get("type") in _OUTPUT_TYPES:
                    outputs[str(item.get("call_id"))] = _output_text(item.get("output"))
        return outputs

    def hold(self, turn: int) -> threading.Event:
        """Turn `turn`'s answer (1: the first request) waits until the event is set."""
        return self._turns.hold(turn)

    def arrived_at(self, turn: int) -> float | None:
        """`time.monotonic()` when turn `turn`'s request arrived, None before."""
        return self._turns.arrived_at(turn)

    def served_at(self, turn: int) -> float | None:
        """`time.monotonic()` when turn `turn`'s answer was sent, None before."""
        return self._turns.served_at(turn)

    def __enter__(self) -> FakeResponses:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _step_for(self, body: JsonDict) -> tuple[Step, int]:
        items = [i for i in body.get("input", []) if isinstance(i, dict)]
        done = sum(1 for i in items if i.get("type") in _CALL_TYPES)
        if not body.get("tools"):
            return Say("BriefDesk test"), 1000 + len(items)
        if done < len(self.steps):
            return self.steps[done], done
        return Say(self.final_text), done

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _send(self, status: int, content_type: str, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = RecordedRequest(
                    self.command, self.path, tuple(self.headers.items()), body
                )
                server._record(request)
                path = self.path.split("?")[0].rstrip("/")
                if self.command == "POST" and path.endswith("/responses"):
                    asked = request.json()
                    step, index = server._step_for(asked)
                    if asked.get("tools"):
                        server._turns.arrive(index + 1)
                    self._send(200, "text/event-stream", sse_events(step, index))
                    if asked.get("tools"):
                        server._turns.serve(index + 1)
                elif path.endswith("/models"):
                    self._send(200, "application/json", b'{"models": []}')
                else:
                    self._send(404, "application/json", b'{"error": {"message": "Not found"}}')

            do_POST = do_GET = _handle

            def log_message(self, format: str, *args: object) -> None:
                pass  # keep test output clean

        return Handler
