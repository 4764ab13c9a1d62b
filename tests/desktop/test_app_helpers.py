"""Shared helpers for the desktop app tests (no tests here): real windows offscreen, each with its
own bridge thread, QSettings in a temp dir, and a fake OpenAI endpoint on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from agent_core.contract.views import RunView
from desktop.widgets.main_window import MainWindow
from tests.support.desktop import close_dialogs, fixture_make_window

__all__ = ["close_dialogs", "fixture_make_window"]  # imported from here by the window tests

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO_QUESTION = "How do checkpoints make agent runs durable?"


def app_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRIEFDESK_")}
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def run_app(
    home: Path, tmp: Path, timeout: float = 90, **env: str
) -> subprocess.CompletedProcess[str]:
    """`python -m desktop.app --home HOME` in a real subprocess (offscreen unless env says)."""
    full = app_env(
        **{"QT_QPA_PLATFORM": "offscreen", "BRIEFDESK_QSETTINGS_DIR": str(tmp / "qsettings"), **env}
    )
    return subprocess.run(
        [sys.executable, "-m", "desktop.app", "--home", str(home)],
        capture_output=True,
        text=True,
        env=full,
        timeout=timeout,
        cwd=REPO_ROOT,
    )


def run_of(window: MainWindow, status: str | tuple[str, ...]) -> Callable[[], RunView | None]:
    """A predicate for qtbot.waitUntil: the selected run has reached `status`."""
    wanted = (status,) if isinstance(status, str) else status

    def check() -> RunView | None:
        run = window.selected_run()
        return run if run is not None and run.get("status") in wanted else None

    return check


def wait_for_run(
    qtbot: QtBot, window: MainWindow, status: str | tuple[str, ...], timeout: int = 60_000
) -> RunView:
    check = run_of(window, status)
    qtbot.waitUntil(lambda: check() is not None and not window.bridge.is_driving(), timeout=timeout)
    run = check()
    assert run is not None
    return run


class FakeOpenAI:
    """A real HTTP server on 127.0.0.1 speaking the Chat Completions protocol. Each request
    waits until `release()` and then answers with the next scripted message."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = list(replies)
        self.requests = 0
        self.arrived = threading.Event()
        self.gate = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                self.rfile.read(length)
                outer.requests += 1
                outer.arrived.set()
                outer.gate.wait(30)
                message = (
                    outer.replies.pop(0)
                    if outer.replies
                    else {"role": "assistant", "content": "Done."}
                )
                body = json.dumps(
                    {
                        "id": f"chatcmpl-{outer.requests}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": "fake",
                        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.gate.set()
        self.server.shutdown()
        self.server.server_close()

    def release(self) -> None:
        self.gate.set()


def tool_call_message(tool: str, args: dict[str, Any], call_id: str = "call_1") -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": tool, "arguments": json.dumps(args)},
            }
        ],
    }
