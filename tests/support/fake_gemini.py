"""A stand-in for the remote LLM of Gemini CLI: a real HTTP server speaking the Gemini API.

Gemini CLI (`GOOGLE_GEMINI_BASE_URL`) posts `/v1beta/models/MODEL:streamGenerateContent?alt=sse`
for the conversation and reads server-sent `GenerateContentResponse`s whose parts hold text or a
`functionCall`. It also asks on the side (`:generateContent`, `:countTokens`: a next-speaker
check, a routing choice, a token count); those get short, well-formed answers. The conversation
plays a script of `Step`s (tests/support/fake_responses.py): the step to play is a pure function
of the conversation (how many function calls the request's `contents` already hold).
`tool_outputs()` reads back each `functionResponse` the model received (a hook's denial reason
arrives there).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from agent_core.contract.json_types import JsonValue
from tests.support.fake_openai import RecordedRequest
from tests.support.fake_responses import CallTool, JsonDict, Say, Step, TurnClock

_USAGE: JsonDict = {"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110}


def _parts(body: JsonDict) -> list[JsonDict]:
    return [
        part
        for content in body.get("contents", [])
        if isinstance(content, dict)
        for part in content.get("parts", [])
        if isinstance(part, dict)
    ]


def _candidate(parts: list[JsonDict]) -> JsonDict:
    content: JsonDict = {"role": "model", "parts": list[JsonValue](parts)}
    return {
        "candidates": [{"content": content, "finishReason": "STOP", "index": 0}],
        "usageMetadata": _USAGE,
        "modelVersion": "gemini-2.5-pro",
    }


def _step_parts(step: Step) -> list[JsonDict]:
    if isinstance(step, Say):
        return [{"text": step.text}]
    assert isinstance(step, CallTool)
    return [{"functionCall": {"name": step.name, "args": step.arguments or {}}}]


def _side_answer(body: JsonDict) -> JsonDict:
    """A non-streamed side request: the CLI parses JSON out of these, so answer the JSON it
    asks for (next speaker: the user; a routing choice: the model it already uses)."""
    asked = json.dumps(body.get("generationConfig", {}).get("responseJsonSchema", {}))
    if "next_speaker" in asked:
        text = json.dumps({"reasoning": "The model finished.", "next_speaker": "user"})
    elif "model_choice" in asked:
        text = json.dumps({"reasoning": "Simple.", "model_choice": "pro"})
    elif "complexity_score" in asked:
        text = json.dumps({"complexity_reasoning": "Simple.", "complexity_score": 10})
    else:
        text = "{}" if "properties" in asked else "BriefDesk test"
    return _candidate([{"text": text}])


class FakeGemini:
    """`with FakeGemini([steps]) as server:` -> `server.base_url` (`GOOGLE_GEMINI_BASE_URL`),
    `server.requests`, `server.tool_outputs()`."""

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
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def main_requests(self) -> list[JsonDict]:
        """The bodies of the conversation's own requests (streamed, offering tools)."""
        return [
            r.json()
            for r in self.requests
            if ":streamGenerateContent" in r.path and r.json().get("tools")
        ]

    def tool_outputs(self) -> list[JsonDict]:
        """Every `functionResponse` the model was sent, in order, each once."""
        seen: list[JsonDict] = []
        for body in self.main_requests():
            for part in _parts(body):
                answer = part.get("functionResponse")
                if isinstance(answer, dict) and answer not in seen:
                    seen.append(answer)
        return seen

    def hold(self, turn: int) -> threading.Event:
        """Turn `turn`'s answer (1: the first request) waits until the event is set."""
        return self._turns.hold(turn)

    def arrived_at(self, turn: int) -> float | None:
        """`time.monotonic()` when turn `turn`'s request arrived, None before."""
        return self._turns.arrived_at(turn)

    def served_at(self, turn: int) -> float | None:
        """`time.monotonic()` when turn `turn`'s answer was sent, None before."""
        return self._turns.served_at(turn)

    def __enter__(self) -> FakeGemini:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _turn(self, body: JsonDict) -> int:
        """1 + how many function calls the conversation already holds."""
        return 1 + sum(1 for part in _parts(body) if "functionCall" in part)

    def _conversation_answer(self, turn: int) -> JsonDict:
        step = self.steps[turn - 1] if turn <= len(self.steps) else Say(self.final_text)
        return _candidate(_step_parts(step))

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
                raw = self.rfile.read(length) if length else b""
                request = RecordedRequest(self.command, self.path, tuple(self.headers.items()), raw)
                server._record(request)
                path = self.path.split("?")[0]
                body: JsonDict = json.loads(raw) if raw else {}
                if path.endswith(":streamGenerateContent"):
                    turn = server._turn(body) if body.get("tools") else None
                    if turn is not None:
                        server._turns.arrive(turn)
                    answer = (
                        _side_answer(body) if turn is None else server._conversation_answer(turn)
                    )
                    data = f"data: {json.dumps(answer)}\r\n\r\n".encode()
                    self._send(200, "text/event-stream", data)
                    if turn is not None:
                        server._turns.serve(turn)
                elif path.endswith(":generateContent"):
                    self._send(200, "application/json", json.dumps(_side_answer(body)).encode())
                elif path.endswith(":countTokens"):
                    self._send(200, "application/json", b'{"totalTokens": 100}')
                else:
                    self._send(404, "application/json", b'{"error": {"code": 404}}')

            do_POST = do_GET = _handle

            def log_message(self, format: str, *args: object) -> None:
                pass  # keep test output clean

        return Handler
