"""Model endpoints that never end, trickle, bomb or ignore `stream`: real HTTP on 127.0.0.1.

`HostileOpenAI(behaviour)` answers `POST /v1/chat/completions` and `POST /v1/responses`:

- `endless`: a Chat Completions stream (SSE) whose text deltas never stop and never finish;
- `trickle`: a complete Chat Completions stream, sent one byte per second;
- `bomb`: a body sent with `Content-Encoding: gzip`, small on the wire and `bomb_bytes` once
  inflated (SSE when the request streams, JSON otherwise);
- `json`: the offline workflow, always as one JSON object, even when the request asked for a
  stream (as some servers do).

It is the remote LLM, the one part we may fake; BriefDesk's real provider, the real openai
client and real HTTP do the rest. `run_measured` runs `briefdesk-cli` in a real subprocess and
reads its peak resident memory from the kernel (`wait4`), for memory bounds.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import zlib
from dataclasses import dataclass
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.support.cli import CliResult, cli_command, cli_env
from tests.support.fake_openai import history_from_messages, offline_planner
from tests.support.openai_faults import (
    Answer,
    chat_chunks,
    chat_completion,
    history_from_input,
    response_object,
)

BEHAVIOURS = ("endless", "trickle", "bomb", "json")


@lru_cache(maxsize=4)
def gzip_bomb(inflated: int) -> bytes:
    """`inflated` bytes of spaces, gzip-compressed (about 220 times smaller)."""
    packer = zlib.compressobj(1, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b" " * (1 << 20)
    parts = [packer.compress(block) for _ in range(inflated // len(block))]
    parts.append(packer.compress(b" " * (inflated % len(block))))
    parts.append(packer.flush())
    return b"".join(parts)


class HostileOpenAI:
    """`with HostileOpenAI("endless") as server:` -> `server.base_url`, `server.requests`."""

    def __init__(self, behaviour: str, *, bomb_bytes: int = 512 << 20) -> None:
        assert behaviour in BEHAVIOURS, behaviour
        self.behaviour = behaviour
        self.bomb = gzip_bomb(bomb_bytes) if behaviour == "bomb" else b""
        self.stop = threading.Event()
        self._lock = threading.Lock()
        self._requests: list[dict[str, Any]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The JSON bodies received, oldest first."""
        with self._lock:
            return list(self._requests)

    def __enter__(self) -> HostileOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()  # ends every stream still being sent
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                payload = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server._requests.append(payload)
                api = "chat" if self.path.rstrip("/").endswith("/chat/completions") else "responses"
                # The client hangs up on purpose (a budget, a limit): not the server's error.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    getattr(self, f"_{server.behaviour}")(payload, api)
                self.close_connection = True

            def _headers(self, content_type: str, **extra: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                for name, value in extra.items():
                    self.send_header(name.replace("_", "-"), value)
                self.end_headers()

            def _chunk(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def _endless(self, payload: dict[str, Any], api: str) -> None:
                self._headers("text/event-stream", Transfer_Encoding="chunked")
                delta = {"id": "chatcmpl-endless", "object": "chat.completion.chunk",
                         "created": int(time.time()), "model": "m"}  # fmt: skip
                while not server.stop.is_set():
                    body = {**delta, "choices": [{"index": 0, "delta": {"content": "more "},
                                                  "finish_reason": None}]}  # fmt: skip
                    self._chunk(f"data: {json.dumps(body)}\n\n".encode())
                    server.stop.wait(0.05)  # a steady stream: never silent, never done

            def _trickle(self, payload: dict[str, Any], api: str) -> None:
                answer = Answer("A complete answer, sent very slowly.")
                body = "".join(chat_chunks(answer, "m", 8, include_usage=False)).encode()
                self._headers("text/event-stream", Transfer_Encoding="chunked")
                for index in range(len(body)):
                    self._chunk(body[index : index + 1])
                    if server.stop.wait(1.0):  # one byte a second: never silent for long
                        return
                self.wfile.write(b"0\r\n\r\n")

            def _bomb(self, payload: dict[str, Any], api: str) -> None:
                kind = "text/event-stream" if payload.get("stream") else "application/json"
                self._headers(kind, Content_Encoding="gzip", Content_Length=str(len(server.bomb)))
                view = memoryview(server.bomb)
                for start in range(0, len(view), 1 << 16):
                    self.wfile.write(view[start : start + (1 << 16)])

            def _json(self, payload: dict[str, Any], api: str) -> None:
                history = (
                    history_from_messages(payload.get("messages", []))
                    if api == "chat"
                    else history_from_input(payload.get("input", []))
                )
                plan, step = offline_planner(history), history.steps_taken + 1
                calls = tuple(
                    (f"call_{step}_{j}", call.tool, json.dumps(call.args))
                    for j, call in enumerate(plan.calls)
                )
                answer = Answer(None if calls else (plan.say or ""), calls, (100 * step, 20))
                model = str(payload.get("model", "m"))
                body = chat_completion(answer, model) if api == "chat" else response_object(
                    answer, model
                )  # fmt: skip
                data = json.dumps(body).encode()
                self._headers("application/json", Content_Length=str(len(data)))
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


@dataclass
class MeasuredRun:
    result: CliResult
    peak_rss: int
    """The child's peak resident memory, in bytes (the kernel's ru_maxrss)."""


# Measures from a small parent of its own: a child forked from the test process would count
# the test process's own pages in its peak (the kernel's ru_maxrss keeps the forked address
# space's high-water mark across exec), and a full test session holds hundreds of MiB.
_LAUNCHER = """
import resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(sys.argv[1], "w").write(f"{code} {peak}")
"""


def run_measured(home: Path, *args: str, timeout: float, env: dict[str, str]) -> MeasuredRun:
    """`briefdesk-cli --home HOME --json ARGS` in a subprocess; its result and peak memory.

    Killed (and the test failed) if it has not ended within `timeout` seconds.
    """
    out, err = home.parent / "cli.out", home.parent / "cli.err"
    measured = home.parent / "cli.peak"
    command = cli_command("--home", str(home), "--json", *args)
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, str(measured), *command],
            stdout=stdout,
            stderr=stderr,
            env=cli_env(**env),
            start_new_session=True,  # so a timeout kills the CLI under the launcher too
        )
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise AssertionError(f"briefdesk-cli {args} still ran after {timeout} s") from None
    code, peak_kib = (int(part) for part in measured.read_text().split())
    text = out.read_text(encoding="utf-8")
    body = json.loads(text) if text.strip() else {}
    result = CliResult(code, body, text, err.read_text(encoding="utf-8"))
    return MeasuredRun(result, peak_kib * 1024)
