"""What governing an MCP call costs: BriefDesk's call of an MCP tool beside the bare `mcp` client.

On the tests' own fault server (tests/support/mcp_servers/fault_server.py, a real stdio
server): the same tool called N times

- directly, through one `ClientSession` (what an agent with no ledger pays);
- through a BriefDesk run with the scripted model: a trusted read (`echo`, no pause) and a
  write decided by policy (`append_line` in dangerouslySkipPermissions: a pause, checkpoint A,
  the ledger's intent and confirmation, checkpoint B), per call = (run of N+1 - run of 1) / N;
- and the server's start and listing when a run begins (what every scripted or remote run
  pays once per registered server), in its bubblewrap sandbox and, side by side, added with
  --no-sandbox: the sandbox's cost per server start.

Contenders interleaved in rounds, medians, in one process.

    python benchmarks/bench_mcp.py [--calls 20] [--rounds 3] [--start-only]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
FAULT_SERVER = REPO / "tests" / "support" / "mcp_servers" / "fault_server.py"


def direct_ms(home: Path, calls: int, name: str = "faults") -> tuple[float, float]:
    """(start + initialize + tools/list ms, per call ms) through one session of the client."""
    from agent_core.facade.workspace import Workspace
    from agent_core.tools.mcp.client import connect

    ws = Workspace(home)
    row = ws.mcp_server(name)
    ws.close()

    async def go() -> tuple[float, float]:
        started = time.perf_counter()
        async with connect(row) as server:
            await server.list_tools()
            listed = time.perf_counter() - started
            began = time.perf_counter()
            for n in range(calls):
                await server.call("echo", {"text": f"t{n}"}, 30)
            return listed * 1000, (time.perf_counter() - began) / calls * 1000

    return asyncio.run(go())


def run_s(home: Path, turns: list[dict[str, object]], mode: str) -> float:
    from agent_core.facade.workspace import Workspace

    script = home / f"script-{time.monotonic_ns()}.json"
    script.write_text(json.dumps([*turns, {"say": "done"}]), encoding="utf-8")
    ws = Workspace(home)
    try:
        started = time.perf_counter()
        run = ws.start_run("bench", model=f"scripted:{script}", mode=mode)
        took = time.perf_counter() - started
        assert run["status"] == "succeeded", run
        return took
    finally:
        ws.close()


def per_call_ms(home: Path, calls: int, tool: str, mode: str) -> float:
    out = home / "lines.txt"

    def turn(n: int) -> dict[str, object]:
        args = {"text": f"t{n}"} if tool == "echo" else {"path": str(out), "line": f"l{n}"}
        return {"call": f"mcp__faults__{tool}", "args": args}

    long = run_s(home, [turn(n) for n in range(calls + 1)], mode)
    short = run_s(home, [turn(0)], mode)
    return (long - short) / calls * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--start-only", action="store_true", help="only the server start, sandboxed or not"
    )
    args = parser.parse_args()
    from agent_core.facade.workspace import Workspace

    figures: dict[str, list[float]] = {"listing": [], "unconfined": [], "direct": []}
    if not args.start_only:
        figures.update(read=[], write=[])
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        ws = Workspace(home)
        ws.mcp_add("faults", sys.executable, [str(FAULT_SERVER)], trust_hints=True)
        ws.mcp_add("loose", sys.executable, [str(FAULT_SERVER)], trust_hints=True, sandbox=False)
        ws.close()
        if not args.start_only:
            run_s(home, [], "default")  # the SDK import and the home's first open, not measured
        direct_ms(home, 1)  # bwrap's one probe per process and a warm page cache, not measured
        for _ in range(args.rounds):
            listing, direct = direct_ms(home, args.calls)
            figures["listing"].append(listing)
            figures["direct"].append(direct)
            figures["unconfined"].append(direct_ms(home, 1, "loose")[0])
            if args.start_only:
                continue
            figures["read"].append(per_call_ms(home, args.calls, "echo", "default"))
            figures["write"].append(
                per_call_ms(home, args.calls, "append_line", "dangerouslySkipPermissions")
            )
    med = {k: round(statistics.median(v), 2) for k, v in figures.items()}
    print("| per MCP call (median of rounds) | ms | ratio to the bare client |")
    print("| --- | --- | --- |")
    print(f"| bare `mcp` ClientSession.call_tool | {med['direct']} | 1.00x |")
    for key, what in (("read", "a trusted read, no pause"), ("write", "a write, by policy")):
        if key in med:
            print(f"| BriefDesk run: {what} | {med[key]} | {med[key] / med['direct']:.2f}x |")
    print(f"| server start + initialize + tools/list, sandboxed | {med['listing']} | |")
    print(f"| the same, --no-sandbox | {med['unconfined']} | |")
    print(f"| the sandbox's cost per server start | {med['listing'] - med['unconfined']:.2f} | |")
    print(json.dumps({"benchmark": "bench_mcp", "calls": args.calls, "median_ms": med}))


if __name__ == "__main__":
    main()
