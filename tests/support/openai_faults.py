"""A fault-injecting stand-in for a remote model: real HTTP on 127.0.0.1, real OpenAI protocols.

`FaultyOpenAI` answers `POST /v1/chat/completions` and `POST /v1/responses`, streamed (SSE,
chunked transfer encoding, `data: [DONE]`) or not, the way the OpenAI API does, and plays the
embedded offline model's workflow (tests/support/fake_openai.py turns the conversation into
the offline planner's history), or scripted turns (`server.script(...)`) that may send tool
arguments that are not JSON or name a tool that was never offered.

Faults, queued (`server.fail(...)`, one per request, in order) or sticky (`server.outage(...)`
until `server.restore()`):

- `Fault.http(status, retry_after=..., retry_after_ms=..., code=..., message=...)`;
- `Fault.drop()`: half the stream, then the connection is cut (no chunked terminator);
- `Fault.truncate()`: half the stream, then a clean end, with no finish reason and no [DONE];
- `Fault.corrupt()`: a few chunks, then one whose data is not JSON;
- `Fault.stall()`: a few chunks, then nothing until the client gives up (or the server stops).

Every exchange is logged with the server's own clock: when the request had arrived
(`arrived`) and when its answer had been sent (`answered`), so a test can prove that no retry
came earlier than `Retry-After` asked, plus the request's headers and body for leak checks.
"""

from __future__ import annotations

import collections
import contextlib
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from agent_core.models.planned import History, PastCall, PlannedCall, TurnPlan
from tests.support.fake_openai import history_from_messages, offline_planner

STALL_LIMIT_S = 30.0


@dataclass(frozen=True)
class Fault:
    kind: str  # "http", "drop", "truncate", "corrupt", "stall"
    status: int = 200
    headers: tuple[tuple[str, str], ...] = ()
    code: str | None = None
    message: str = "injected fault"

    @staticmethod
    def http(
        status: int,
        *,
        retry_after: str | None = None,
        retry_after_ms: str | None = None,
        code: str | None = None,
        message: str = "injected fault",
    ) -> Fault:
        headers: list[tuple[str, str]] = []
        if retry_after is not None:
            headers.append(("Retry-After", retry_after))
        if retry_after_ms is not None:
            headers.append(("retry-after-ms", retry_after_ms))
        return Fault("http", status, tuple(headers), code, message)

    @staticmethod
    def drop() -> Fault:
        return Fault("drop")

    @staticmethod
    def truncate() -> Fault:
        return Fault("truncate")

    @staticmethod
    def corrupt() -> Fault:
        return Fault("corrupt")

    @staticmethod
    def stall() -> Fault:
        return Fault("stall")


@dataclass
class Exchange:
    """One request and what the server did with it (times from the server's monotonic clock)."""

    method: str
    path: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    arrived: float
    answered: float | None = None
    status: int = 0
    fault: str | None = None
    number: int = 0
    """1 = the first request this server received."""

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    def json(self) -> dict[str, Any]:
        return dict(json.loads(self.body))


@dataclass(frozen=True)
class Answer:
    """A turn as the endpoint sends it: text, or tool calls with their raw argument strings."""

    text: str | None
    calls: tuple[tuple[str, str, str], ...] = ()  # (call id, tool name, raw arguments)
    usage: tuple[int, int] = (100, 20)  # prompt, completion tokens

    @property
    def finish(self) -> str:
        return "tool_calls" if self.calls else "stop"


@dataclass
class _State:
    queued: collections.deque[Fault] = field(default_factory=collections.deque)
    sticky: Fault | None = None
    sticky_after: int = 0  # requests answered normally before the outage begins
    scheduled: dict[int, Fault] = field(default_factory=dict)  # request number -> fault
    script: collections.deque[TurnPlan] = field(default_factory=collections.deque)
    log: list[Exchange] = field(default_factory=list)


class FaultyOpenAI:
    """`with FaultyOpenAI() as server:` -> `server.base_url`, `server.exchanges`."""

    def __init__(self, *, api_key: str | None = None, chunk_chars: int = 12) -> None:
        self.api_key = api_key
        self.chunk_chars = chunk_chars
        self._lock = threading.Lock()
        self._state = _State()
        self._stop = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    # -- control ----------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def exchanges(self) -> list[Exchange]:
        with self._lock:
            return list(self._state.log)

    def fail(self, *faults: Fault) -> None:
        """The next requests get these faults, one each, in order."""
        with self._lock:
            self._state.queued.extend(faults)

    def fail_at(self, number: int, fault: Fault) -> None:
        """Request `number` (1 = the first this server receives) gets `fault`."""
        with self._lock:
            self._state.scheduled[number] = fault

    def outage(self, fault: Fault, *, after: int = 0) -> None:
        """Every request gets `fault` until `restore()`, once `after` more have been answered."""
        with self._lock:
            self._state.sticky = fault
            self._state.sticky_after = len(self._state.log) + after

    def restore(self) -> None:
        with self._lock:
            self._state.sticky = None

    def script(self, *turns: TurnPlan) -> None:
        """The next answers are these turns (then the offline workflow again)."""
        with self._lock:
            self._state.script.extend(turns)

    def __enter__(self) -> FaultyOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    # -- answering --------------------------------------------------------------------------

    def _take_fault(self, number: int) -> Fault | None:
        with self._lock:
            state = self._state
            if state.sticky is not None and number > state.sticky_after:
                return state.sticky
            if number in state.scheduled:
                return state.scheduled.pop(number)
            return state.queued.popleft() if state.queued else None

    def _plan(self, payload: dict[str, Any], api: str) -> tuple[TurnPlan, int]:
        history = (
            history_from_messages(payload.get("messages", []))
            if api == "chat"
            else history_from_input(payload.get("input", []))
        )
        with self._lock:
            scripted = self._state.script.popleft() if self._state.script else None
        return scripted or offline_planner(history), history.steps_taken + 1

    def answer_for(self, payload: dict[str, Any], api: str) -> Answer:
        plan, step = self._plan(payload, api)
        calls = tuple(
            (
                f"call_{step}_{j}",
                call.tool,
                call.raw if call.raw is not None else json.dumps(call.args),
            )
            for j, call in enumerate(plan.calls)
        )
        return Answer(None if calls else (plan.say or ""), calls, (100 * step, 20))

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                exchange = Exchange(
                    self.command,
                    self.path,
                    tuple(self.headers.items()),
                    body,
                    arrived=time.monotonic(),
                )
                with server._lock:
                    server._state.log.append(exchange)
                    exchange.number = len(server._state.log)
                # The client may give up first (a read timeout): that is the point of a stall.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    _Responder(server, self, exchange).respond()
                exchange.answered = time.monotonic()

            do_GET = do_POST

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


class _Responder:
    def __init__(self, server: FaultyOpenAI, handler: BaseHTTPRequestHandler, ex: Exchange) -> None:
        self.server = server
        self.h = handler
        self.ex = ex

    def respond(self) -> None:
        path = self.ex.path.rstrip("/")
        api = "chat" if path.endswith("/v1/chat/completions") else "responses"
        if not (path.endswith("/v1/chat/completions") or path.endswith("/v1/responses")):
            self.json_answer(404, _error("Not found", "invalid_request_error", None))
            return
        key = self.server.api_key
        if key is not None and self.ex.header("Authorization") != f"Bearer {key}":
            # The real API echoes (part of) the key it was given: we must never repeat it.
            given = self.ex.header("Authorization") or ""
            self.json_answer(
                401, _error(f"Incorrect API key provided: {given}.", "invalid_request_error",
                            "invalid_api_key"),
            )  # fmt: skip
            return
        fault = self.server._take_fault(self.ex.number)
        self.ex.fault = fault.kind if fault else None
        if fault is not None and fault.kind == "http":
            self.json_answer(
                fault.status,
                _error(fault.message, "server_error", fault.code),
                headers=fault.headers,
            )
            return
        payload = self.ex.json()
        answer = self.server.answer_for(payload, api)
        model = str(payload.get("model", "?"))
        if not payload.get("stream"):
            body = (
                chat_completion(answer, model) if api == "chat" else response_object(answer, model)
            )
            self.json_answer(200, body)
            return
        include_usage = bool((payload.get("stream_options") or {}).get("include_usage"))
        events = (
            chat_chunks(answer, model, self.server.chunk_chars, include_usage)
            if api == "chat"
            else response_events(answer, model, self.server.chunk_chars)
        )
        self.stream(events, fault)

    def json_answer(
        self, status: int, body: dict[str, Any], headers: tuple[tuple[str, str], ...] = ()
    ) -> None:
        data = json.dumps(body).encode()
        self.ex.status = status
        self.h.send_response(status)
        self.h.send_header("Content-Type", "application/json")
        self.h.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.h.send_header(name, value)
        self.h.end_headers()
        self.h.wfile.write(data)
        self.h.wfile.flush()

    def stream(self, events: list[str], fault: Fault | None) -> None:
        self.ex.status = 200
        self.h.send_response(200)
        self.h.send_header("Content-Type", "text/event-stream")
        self.h.send_header("Transfer-Encoding", "chunked")
        self.h.send_header("Cache-Control", "no-cache")
        self.h.end_headers()
        half = max(1, len(events) // 2)
        kind = fault.kind if fault else None
        if kind in ("drop", "truncate", "stall"):
            events = events[:half]
        elif kind == "corrupt":
            events = [*events[:half], 'data: {"id": "chatcmpl-x", "choices": [{"delta": {"con\n\n']
        for event in events:
            self.chunk(event.encode())
        if kind == "drop":
            self.h.wfile.flush()
            self.h.connection.shutdown(socket.SHUT_RDWR)
            self.h.close_connection = True
            return
        if kind == "stall":
            self.h.wfile.flush()
            self.server._stop.wait(STALL_LIMIT_S)
            self.h.close_connection = True
            return
        self.h.wfile.write(b"0\r\n\r\n")
        self.h.wfile.flush()

    def chunk(self, data: bytes) -> None:
        self.h.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.h.wfile.flush()


def _error(message: str, kind: str, code: str | None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _sse(data: dict[str, Any], event: str | None = None) -> str:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n"


# -- Chat Completions -------------------------------------------------------------------------


def chat_completion(answer: Answer, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.text, "refusal": None}
    if answer.calls:
        message["tool_calls"] = [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": raw}}
            for cid, name, raw in answer.calls
        ]
    prompt, completion = answer.usage
    return {
        "id": "chatcmpl-faulty",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {"index": 0, "message": message, "finish_reason": answer.finish, "logprobs": None}
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


def chat_chunks(answer: Answer, model: str, size: int, include_usage: bool) -> list[str]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        return _sse(
            {
                "id": "chatcmpl-faulty",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
        )

    out = [chunk({"role": "assistant", "content": ""})]
    if answer.text is not None:
        out += [chunk({"content": piece}) for piece in _pieces(answer.text, size)]
    for j, (cid, name, raw) in enumerate(answer.calls):
        head = {
            "index": j,
            "id": cid,
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        out.append(chunk({"tool_calls": [head]}))
        for piece in _pieces(raw, size):
            out.append(chunk({"tool_calls": [{"index": j, "function": {"arguments": piece}}]}))
    out.append(chunk({}, answer.finish))
    if include_usage:
        prompt, completion = answer.usage
        out.append(
            _sse(
                {
                    "id": "chatcmpl-faulty",
                    "object": "chat.completion.chunk",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [],
                    "usage": {
                        "prompt_tokens": prompt,
                        "completion_tokens": completion,
                        "total_tokens": prompt + completion,
                    },
                }
            )
        )
    out.append("data: [DONE]\n\n")
    return out


# -- Responses --------------------------------------------------------------------------------


def history_from_input(items: list[dict[str, Any]] | str) -> History:
    """Responses `input` items -> the offline planner's view of the conversation."""
    if isinstance(items, str):
        return History(items, [], 0)
    question = ""
    calls: dict[str, PastCall] = {}
    order: list[str] = []
    steps = 0
    previous_was_call = False
    for item in items:
        kind = item.get("type", "message")
        if kind == "message" and item.get("role") == "user":
            content = item.get("content")
            question = (
                content
                if isinstance(content, str)
                else "".join(str(p.get("text", "")) for p in content or [] if isinstance(p, dict))
            )
        if kind == "function_call":
            if not previous_was_call:
                steps += 1
            try:
                args = json.loads(item.get("arguments") or "{}")
            except json.JSONDecodeError:
                args = {}
            calls[item["call_id"]] = PastCall(item["call_id"], str(item.get("name")), args, None)
            order.append(item["call_id"])
        elif kind == "function_call_output" and item.get("call_id") in calls:
            past = calls[item["call_id"]]
            output = item.get("output")
            calls[past.call_id] = PastCall(
                past.call_id,
                past.tool,
                past.args,
                output if isinstance(output, str) else json.dumps(output),
            )
        previous_was_call = kind == "function_call"
    return History(question, [calls[c] for c in order], steps)


def _output_items(answer: Answer) -> list[dict[str, Any]]:
    if answer.calls:
        return [
            {
                "type": "function_call",
                "id": f"fc_{cid}",
                "call_id": cid,
                "name": name,
                "arguments": raw,
                "status": "completed",
            }
            for cid, name, raw in answer.calls
        ]
    return [
        {
            "type": "message",
            "id": "msg_faulty",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": answer.text or "", "annotations": []}],
        }
    ]


def response_object(answer: Answer, model: str, *, status: str = "completed") -> dict[str, Any]:
    prompt, completion = answer.usage
    return {
        "id": "resp_faulty",
        "object": "response",
        "created_at": int(time.time()),
        "status": status,
        "model": model,
        "output": _output_items(answer) if status == "completed" else [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": prompt,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": completion,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": prompt + completion,
        }
        if status == "completed"
        else None,
    }


def response_events(answer: Answer, model: str, size: int) -> list[str]:
    seq = iter(range(10_000))
    out: list[str] = []

    def event(kind: str, **data: Any) -> None:
        out.append(_sse({"type": kind, "sequence_number": next(seq), **data}, kind))

    event("response.created", response=response_object(answer, model, status="in_progress"))
    for index, item in enumerate(_output_items(answer)):
        if item["type"] == "function_call":
            event("response.output_item.added", output_index=index, item={**item, "arguments": ""})
            for piece in _pieces(item["arguments"], size):
                event(
                    "response.function_call_arguments.delta",
                    item_id=item["id"],
                    output_index=index,
                    delta=piece,
                )
            event(
                "response.function_call_arguments.done",
                item_id=item["id"],
                output_index=index,
                arguments=item["arguments"],
            )
        else:
            event("response.output_item.added", output_index=index, item={**item, "content": []})
            part = {"type": "output_text", "text": "", "annotations": []}
            event(
                "response.content_part.added",
                item_id=item["id"],
                output_index=index,
                content_index=0,
                part=part,
            )
            text = item["content"][0]["text"]
            for piece in _pieces(text, size):
                event(
                    "response.output_text.delta",
                    item_id=item["id"],
                    output_index=index,
                    content_index=0,
                    delta=piece,
                    logprobs=[],
                )
            event(
                "response.output_text.done",
                item_id=item["id"],
                output_index=index,
                content_index=0,
                text=text,
                logprobs=[],
            )
        event("response.output_item.done", output_index=index, item=item)
    event("response.completed", response=response_object(answer, model))
    return out


def scripted_call(tool: str, raw: str) -> TurnPlan:
    """A turn with one call whose arguments are sent exactly as `raw` (JSON or not)."""
    return TurnPlan(calls=[PlannedCall(tool, {}, raw)])


def scripted_say(text: str) -> TurnPlan:
    return TurnPlan(say=text)
