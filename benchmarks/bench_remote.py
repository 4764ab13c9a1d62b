"""A remote model's run against an embedded one's, per tool call (issue 29, item 3).

The same N `search_corpus` calls, then an answer, through BriefDesk with:

- the embedded scripted model (reads run without a pause: the floor for BriefDesk);
- a remote model: BriefDesk's `openai` provider against a real HTTP server on 127.0.0.1
  speaking the chat-completions protocol (it plans the same calls from the conversation);
- the bare Agents SDK `Runner` with its `OpenAIChatCompletionsModel` on the same endpoint and
  a function tool doing BriefDesk's corpus search (nothing durable: the floor of a remote run);
- the bare Agents SDK `Runner` with the peers' scripted `agents.Model` (peers_workload.py) and
  the same tool (the floor of an embedded run), so BriefDesk's own cost over each floor, the
  remote path's and the embedded path's, can be read side by side;
- optionally the remote model on an older commit of BriefDesk (`--before REV`, checked out
  into a temporary worktree), where every remote call paused and saved a RunState.

Each contender runs in its own process (one untimed warm-up run first), with the contenders
in another order every round; per call = (run of N - run of 1) / (N - 1); medians over rounds.
Compare within one run only (the machine is noisy).

    python benchmarks/bench_remote.py [--calls 100] [--rounds 3] [--before REV]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers_workload import LIMIT, QUERY, sdk_scripted_model, search_body  # noqa: E402

LIMITS = {"max_turns": 100_000, "max_tool_calls": 100_000}
SEARCH_ARGS = {"query": QUERY, "limit": LIMIT}  # the peers' search: 7 hits, about 2.2 KB
KEY = "sk-bench-remote-" + "k" * 24
_CALLS = re.compile(r"calls=(\d+)")
_CALL_ID = re.compile(r"^call_(\d+)$")


def plan(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The endpoint's next message: call K+1 after the newest `call_K` in view, else done."""
    first = next((m for m in messages if m.get("role") == "user"), {})
    wanted = int(_CALLS.search(str(first.get("content"))).group(1))  # type: ignore[union-attr]
    done = 0
    for message in reversed(messages):
        ids = [c.get("id", "") for c in message.get("tool_calls") or []]
        found = [int(m.group(1)) for i in ids if (m := _CALL_ID.match(i))]
        if found:
            done = max(found)
            break
    if done >= wanted:
        return {"role": "assistant", "content": "done"}
    call = {
        "id": f"call_{done + 1}",
        "type": "function",
        "function": {"name": "search_corpus", "arguments": json.dumps(SEARCH_ARGS)},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


class Endpoint:
    """`/v1/chat/completions` on 127.0.0.1, answering from `plan`."""

    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                message = plan(json.loads(body)["messages"])
                answer = {
                    "id": "chatcmpl-bench",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": "bench",
                    "choices": [
                        {
                            "index": 0,
                            "message": message,
                            "finish_reason": "tool_calls" if "tool_calls" in message else "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> Endpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


# -- the child: one contender's runs, timed in-process --------------------------------------


def _one_run(ws: Any, workdir: Path, model: str, calls: int) -> float:
    question = f"bench calls={calls}"
    if model == "scripted":
        script = workdir / f"script-{calls}.json"
        turns = [{"call": "search_corpus", "args": SEARCH_ARGS}] * calls + [{"say": "done"}]
        script.write_text(json.dumps(turns), encoding="utf-8")
        model = f"scripted:{script}"
    started = time.perf_counter()
    run = ws.start_run(question, model=model, **LIMITS)
    seconds = time.perf_counter() - started
    if run["status"] != "succeeded":
        raise SystemExit(f"the {model} run of {calls} calls ended {run['status']}: {run}")
    return seconds


def _bare_run(search: Any, base_url: str | None, calls: int) -> float:
    """The bare SDK's run: on the endpoint, or (no base_url) with the peers' scripted model."""
    import asyncio

    from agents import Agent, RunConfig, Runner, function_tool
    from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
    from openai import AsyncOpenAI

    @function_tool
    def search_corpus(query: str, limit: int, call: int = 0) -> str:
        """Search the corpus (`call` is the scripted model's call number, unused)."""
        return str(search(query, limit))

    async def run() -> float:
        client = AsyncOpenAI(base_url=base_url, api_key=KEY, max_retries=0) if base_url else None
        model = (
            OpenAIChatCompletionsModel("bench", client)
            if client
            else sdk_scripted_model(calls, "search_corpus")
        )
        agent = Agent(name="bare", instructions="Search.", tools=[search_corpus], model=model)
        config = RunConfig(tracing_disabled=True)
        started = time.perf_counter()
        result = await Runner.run(
            agent, f"bench calls={calls}", max_turns=calls + 5, run_config=config
        )
        seconds = time.perf_counter() - started
        assert result.final_output == "done", result.final_output
        if client:
            await client.close()
        return seconds

    return asyncio.run(run())


def child(kind: str, calls: int, workdir: Path, base_url: str) -> None:
    if kind.startswith("bare"):
        search = search_body(workdir / "home")
        url = base_url if kind == "bare" else None
        _bare_run(search, url, 1)
        one, many = _bare_run(search, url, 1), _bare_run(search, url, calls)
        print(json.dumps({"per_call_ms": (many - one) / (calls - 1) * 1000}))
        return
    from agent_core.facade.workspace import Workspace

    ws = Workspace(workdir / "home")
    ws.set_setting("openai.base_url", base_url)
    model = "scripted" if kind == "embedded" else "openai"
    _one_run(ws, workdir, model, 1)  # warm: lazy imports, first statements
    one = _one_run(ws, workdir, model, 1)
    many = _one_run(ws, workdir, model, calls)
    ws.close()
    print(json.dumps({"per_call_ms": (many - one) / (calls - 1) * 1000}))


# -- the parent ------------------------------------------------------------------------------


def run_child(kind: str, tree: Path, calls: int, root: Path, base_url: str) -> float:
    workdir = Path(tempfile.mkdtemp(dir=root))
    env = {**os.environ, "PYTHONPATH": str(tree), "BRIEFDESK_OPENAI_API_KEY": KEY}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", kind, "--calls", str(calls),
         "--workdir", str(workdir), "--base-url", base_url],
        capture_output=True, text=True, env=env, check=False, timeout=1800,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{kind} failed:\n{done.stdout}\n{done.stderr[-3000:]}")
    return float(json.loads(done.stdout.strip().splitlines()[-1])["per_call_ms"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", help="a commit to measure the remote model on as well")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--base-url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.calls, args.workdir, args.base_url)
        return 0
    with tempfile.TemporaryDirectory(prefix="bd-bench-remote-") as tmp, Endpoint() as endpoint:
        root = Path(tmp)
        trees = {"bare_scripted": REPO, "embedded": REPO, "bare": REPO, "remote": REPO}
        if args.before:
            before = root / "before"
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(before),
                 args.before], check=True,
            )  # fmt: skip
            trees["remote_before"] = before
        got: dict[str, list[float]] = {name: [] for name in trees}
        try:
            for r in range(args.rounds):
                for name in random.Random(r).sample(list(trees), len(trees)):
                    kind = "remote" if name.startswith("remote") else name
                    got[name].append(
                        run_child(kind, trees[name], args.calls, root, endpoint.base_url)
                    )
                print(f"round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)
        finally:
            if args.before:
                subprocess.run(
                    ["git", "-C", str(REPO), "worktree", "remove", "--force", str(before)],
                    check=False,
                )  # fmt: skip
    medians = {name: round(statistics.median(v), 3) for name, v in got.items()}
    floors = {"embedded": "bare_scripted", "remote": "bare", "remote_before": "bare"}
    labels = {
        "bare_scripted": "bare Agents SDK Runner, scripted agents.Model (nothing durable)",
        "embedded": "BriefDesk, embedded scripted model",
        "bare": "bare Agents SDK Runner, OpenAIChatCompletionsModel (nothing durable)",
        "remote": "BriefDesk, remote model (HTTP on 127.0.0.1)",
        "remote_before": f"BriefDesk at {args.before}, remote model",
    }
    print(f"| N = {args.calls}, {args.rounds} rounds | per call | BriefDesk over its floor |")
    print("| --- | --- | --- |")
    over: dict[str, float] = {}
    for name, ms in medians.items():
        floor = floors.get(name)
        if floor:
            over[name] = round(ms - medians[floor], 3)
        extra = f"{over[name]:+.2f} ms ({ms / medians[floor]:.2f}x)" if floor else "(the floor)"
        print(f"| {labels[name]} | {ms:.2f} ms | {extra} |")
    print(json.dumps({
        "benchmark": "remote", "calls": args.calls, "per_call_ms": medians, "over_floor_ms": over,
    }))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
