"""The contenders of bench_peers.py, each run as its users run it, in a process of its own.

Every `drive_*` function starts its run in `workdir`, or continues the one a killed process
left there, and returns {"seconds": ..., "done": ...}: the seconds from opening the store to
the final answer (a continued run: its whole recovery). bench_peers.py calls them in forked
children of a parent that imported every library once; the BriefDesk CLI runs as a fresh
`python -m agent_core.cli.main`, as a user's shell starts it, and BriefDesk at an older commit
as a fresh interpreter on that commit's checkout (peers_children.run_child's `tree`).

- bare Agents SDK: `Runner.run`, nothing durable (it cannot continue: it starts over); and the
  same SDK driven as BriefDesk drives it, one turn per `Runner.run` on BriefDesk's bounded view
  of the conversation (`_bounded_run`), still nothing durable: the floor of the same work;
- BriefDesk: `Workspace(home).create_run` + `drive` (the facade), or the CLI's `run`/`resume`;
- DBOS: the tools as `@function_tool @DBOS.step()`, the agent run by `DBOSRunner.run` inside
  a `@DBOS.workflow()`, the system database on SQLite; `DBOS.launch()` recovers a workflow a
  killed process left pending (its README's way, with the workflow given an ID). The crash
  comparison adds the idempotent step DBOS's docs ask for (`dbos_append_once`);
- LangGraph (peers_langgraph.py): a `StateGraph(MessagesState)` with a model node and the
  prebuilt `ToolNode`, `SqliteSaver`, `durability="sync"` (and its default "async" beside it).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import peers_langgraph
import peers_workload as wl  # benchmarks/ is on sys.path (bench_peers.py puts it there)
from agents import Agent, RunConfig, Runner, function_tool
from dbos import DBOS, SetWorkflowID
from dbos_openai_agents import DBOSRunner

REPO = wl.REPO
LIMITS = {"max_turns": 100_000, "max_tool_calls": 100_000}
WORKFLOW_ID = "bench-peers-run"
_CONTEXT: dict[str, Any] = {}  # set in the child before a run: the tool bodies' workdir


def _warm() -> bool:
    """A timed run (not a recovery) first plays one call untimed in the same store, so the
    clock starts after the process's first-use costs (lazy imports, schema caches, launch)."""
    return bool(os.environ.get(wl.WARM_ENV))


def _search(query: str, limit: int, call: int) -> str:
    wl.maybe_kill_before(call)
    body = _CONTEXT.get("search")
    if body is None:
        body = _CONTEXT["search"] = wl.search_body(Path(_CONTEXT["workdir"]) / "search-home")
    return str(body(query, limit))


def _append(line: int, key: str | None = None) -> str:
    wl.maybe_kill_before(line)
    return wl.append_line(Path(_CONTEXT["workdir"]) / "lines.txt", line, key)


# The bare SDK's tools: the same bodies, no durability.
@function_tool(name_override=wl.TOOL)
async def bare_search(query: str, limit: int, call: int) -> str:
    """Full-text search of the corpus."""
    return _search(query, limit, call)


@function_tool(name_override=wl.APPEND_TOOL)
async def bare_append(line: int) -> str:
    """Append one line to the log."""
    return _append(line)


# DBOS's tools: `@DBOS.step()` under `@function_tool`, as dbos-openai-agents' README has them.
@function_tool(name_override=wl.TOOL)
@DBOS.step()
async def dbos_search(query: str, limit: int, call: int) -> str:
    """Full-text search of the corpus."""
    return _search(query, limit, call)


@function_tool(name_override=wl.APPEND_TOOL)
@DBOS.step()
async def dbos_append(line: int) -> str:
    """Append one line to the log."""
    return _append(line)


@function_tool(name_override=wl.APPEND_TOOL)
@DBOS.step()
async def dbos_append_once(line: int) -> str:
    """Append one line to the log."""
    # DBOS's steps are at-least-once; its docs ask for idempotent ones. The step's own identity
    # (its workflow's ID and its step ID, the same when recovery runs the step again) keys the
    # effect, checked before acting.
    return _append(line, key=f"{DBOS.workflow_id}/{DBOS.step_id}")


def _agent(calls: int, tool: str, kind: str) -> Agent[Any]:
    """The agent of `kind`: "bare" (plain tools), "dbos", or "dbos_once" (idempotent step)."""
    tools = {
        (wl.TOOL, "bare"): bare_search,
        (wl.APPEND_TOOL, "bare"): bare_append,
        (wl.TOOL, "dbos"): dbos_search,
        (wl.APPEND_TOOL, "dbos"): dbos_append,
        (wl.TOOL, "dbos_once"): dbos_search,
        (wl.APPEND_TOOL, "dbos_once"): dbos_append_once,
    }
    return Agent(
        name="bench",
        instructions="Answer from the corpus.",
        tools=[tools[(tool, kind)]],
        model=wl.sdk_scripted_model(calls, tool),
    )


def _sdk_config() -> RunConfig:
    return RunConfig(tracing_disabled=True)


@DBOS.workflow()
async def dbos_agent_workflow(calls: int, tool: str, kind: str) -> str:
    result = await DBOSRunner.run(
        _agent(calls, tool, kind), "bench", run_config=_sdk_config(), max_turns=calls + 10
    )
    return str(result.final_output)


def drive_bare(workdir: Path, calls: int, tool: str) -> dict[str, Any]:
    _CONTEXT["workdir"] = str(workdir)
    if tool == wl.TOOL:
        _search(wl.QUERY, wl.LIMIT, 0)  # the search home, opened before the clock as for all
    if _warm():
        asyncio.run(Runner.run(_agent(1, tool, "bare"), "warm", run_config=_sdk_config()))
    started = time.perf_counter()
    result = asyncio.run(
        Runner.run(
            _agent(calls, tool, "bare"), "bench", run_config=_sdk_config(), max_turns=calls + 10
        )
    )
    return {"seconds": time.perf_counter() - started, "done": result.final_output == "done"}


async def _bounded_run(agent: Agent[Any], question: str) -> str:
    """The SDK driven as BriefDesk's RunDriver drives it (runs/driver.py `_run_until_stop`):
    one model turn per `Runner.run` (`max_turns=1`, its end taken by `OneTurn`), each on the
    bounded view of BriefDesk's `Transcript` (`model_input`: the newest items in full, older
    results as digest lines, the oldest folded into a note). Nothing durable: no store, no
    checkpoint, no ledger, no event, no model-turn record."""
    from agent_core.runs.transcript import OneTurn, Transcript

    config = RunConfig(tracing_disabled=True, tool_not_found_behavior="return_error_to_model")
    one_turn = OneTurn()
    transcript = Transcript.start([{"role": "user", "content": question}], 0)
    while True:
        result = await Runner.run(
            agent, transcript.model_input(), run_config=config, max_turns=1,
            error_handlers=one_turn.handlers,
        )  # fmt: skip
        transcript.add_turn(result.new_items)
        if not one_turn.ended():
            return str(result.final_output)


def drive_bare_bounded(workdir: Path, calls: int, tool: str) -> dict[str, Any]:
    _CONTEXT["workdir"] = str(workdir)
    if tool == wl.TOOL:
        _search(wl.QUERY, wl.LIMIT, 0)
    if _warm():
        asyncio.run(_bounded_run(_agent(1, tool, "bare"), "warm"))
    started = time.perf_counter()
    output = asyncio.run(_bounded_run(_agent(calls, tool, "bare"), "bench"))
    return {"seconds": time.perf_counter() - started, "done": output == "done"}


def drive_dbos(workdir: Path, calls: int, tool: str, *, idempotent: bool = False) -> dict[str, Any]:
    _CONTEXT["workdir"] = str(workdir)
    kind = "dbos_once" if idempotent else "dbos"
    if tool == wl.TOOL:
        _search(wl.QUERY, wl.LIMIT, 0)
    started = time.perf_counter()
    DBOS(
        config={
            "name": "bench-peers",
            "system_database_url": f"sqlite:///{workdir / 'dbos.sqlite'}",
            "log_level": "WARNING",
        }
    )
    DBOS.launch()  # recovers this executor's PENDING workflows, as after a crash
    if _warm():
        with SetWorkflowID("warm-up"):
            asyncio.run(dbos_agent_workflow(1, tool, kind))
        started = time.perf_counter()
    if DBOS.get_workflow_status(WORKFLOW_ID) is None:
        with SetWorkflowID(WORKFLOW_ID):
            output = asyncio.run(dbos_agent_workflow(calls, tool, kind))
    else:
        handle: Any = DBOS.retrieve_workflow(WORKFLOW_ID)
        output = handle.get_result(polling_interval_sec=0.01)
    seconds = time.perf_counter() - started
    DBOS.destroy()
    return {"seconds": seconds, "done": output == "done"}


def drive_langgraph(
    workdir: Path, calls: int, tool: str, *, durability: str = "sync", idempotent: bool = False
) -> dict[str, Any]:
    _CONTEXT["workdir"] = str(workdir)
    if tool == wl.TOOL:
        _search(wl.QUERY, wl.LIMIT, 0)
    return peers_langgraph.drive(
        workdir, calls, tool, durability=durability, idempotent=idempotent, search=_search,
        append=_append, warm=_warm(),
    )  # fmt: skip


def briefdesk_run_id(ws: Any, workdir: Path, calls: int, writes: bool) -> str:
    """The run of this workdir, created on first use (acceptEdits: writes need no person)."""
    run_file = workdir / "run_id"
    if run_file.exists():
        return run_file.read_text(encoding="utf-8")
    script = wl.briefdesk_script(workdir, calls, writes=writes)
    mode = "acceptEdits" if writes else None
    run_id = str(ws.create_run("bench", model=f"scripted:{script}", mode=mode, **LIMITS))
    run_file.write_text(run_id, encoding="utf-8")
    return run_id


def prepare_briefdesk(workdir: Path, calls: int, tool: str) -> dict[str, Any]:
    """Create the crash comparison's run in a process nobody kills (the drills do the same)."""
    from agent_core.facade.workspace import Workspace

    ws = Workspace(workdir / "home")
    run_id = briefdesk_run_id(ws, workdir, calls, tool != wl.TOOL)
    ws.close()
    return {"seconds": 0.0, "done": False, "run_id": run_id}


def drive_briefdesk(workdir: Path, calls: int, tool: str) -> dict[str, Any]:
    from agent_core.facade.workspace import Workspace

    writes = tool != wl.TOOL
    started = time.perf_counter()
    ws = Workspace(workdir / "home")
    if _warm():
        warm = ws.create_run(
            "warm", model=f"scripted:{wl.briefdesk_script(workdir, 1, writes=writes)}", **LIMITS
        )
        ws.drive(warm)
        started = time.perf_counter()
    run_id = briefdesk_run_id(ws, workdir, calls, writes)
    view = ws.drive(run_id)
    seconds = time.perf_counter() - started
    ws.close()
    return {"seconds": seconds, "done": view["status"] == "succeeded", "run_id": run_id}


CLI_SHIM = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); import peers_workload as wl;"
    "c = wl.CommitCounter(); c.install();"
    "from agent_core.cli.main import main; code = main();"
    "sys.stderr.write('\\nBENCH_COMMITS %d\\n' % c.commits); sys.exit(code)"
)


def drive_briefdesk_cli(workdir: Path, calls: int, tool: str) -> dict[str, Any]:
    """`briefdesk-cli run` (a fresh interpreter, as a shell starts it), or `resume`."""
    home = workdir / "home"
    run_file = workdir / "run_id"
    if run_file.exists():
        command = ["resume", run_file.read_text(encoding="utf-8")]
    else:
        script = wl.briefdesk_script(workdir, calls, writes=tool != wl.TOOL)
        command = ["run", "--question", "bench", "--model", f"scripted:{script}"]
        command += ["--max-turns", "100000", "--max-tool-calls", "100000"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CLI_SHIM, str(Path(__file__).parent), "--home", str(home), "--json",
         *command],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    body = json.loads(done.stdout) if done.stdout.strip().startswith("{") else {}
    if "run_id" in body:
        run_file.write_text(str(body["run_id"]), encoding="utf-8")
    commits = [ln for ln in done.stderr.splitlines() if ln.startswith("BENCH_COMMITS")]
    return {
        "seconds": seconds,
        "done": body.get("status") == "succeeded",
        "commits": int(commits[-1].split()[1]) if commits else None,
        "error": None if body else done.stderr[-2000:],
    }


DRIVERS: dict[str, Callable[[Path, int, str], dict[str, Any]]] = {
    "bare": drive_bare,
    "bare_bounded": drive_bare_bounded,
    "briefdesk": drive_briefdesk,
    "briefdesk_before": drive_briefdesk,  # in a fresh interpreter on the `--before` checkout
    "briefdesk_cli": drive_briefdesk_cli,
    "dbos": drive_dbos,
    "dbos_idempotent": partial(drive_dbos, idempotent=True),
    "langgraph": partial(drive_langgraph, durability="sync"),
    "langgraph_idempotent": partial(drive_langgraph, durability="sync", idempotent=True),
    "langgraph_async": partial(drive_langgraph, durability="async"),
}
LABELS = {
    "bare": "bare Agents SDK Runner (nothing durable)",
    "bare_bounded": "bare SDK, bounded (as BriefDesk drives it; nothing durable)",
    "briefdesk": "BriefDesk, in-process (facade)",
    "briefdesk_before": "BriefDesk at {rev}, in-process (facade)",
    "briefdesk_cli": "BriefDesk, CLI (`briefdesk-cli run`)",
    "dbos": "DBOS 3.4 + dbos-openai-agents, SQLite",
    "dbos_idempotent": "DBOS, idempotent step (keyed by workflow and step ID)",
    "langgraph": 'LangGraph + SqliteSaver, durability="sync"',
    "langgraph_idempotent": 'LangGraph, durability="sync", idempotent tool (keyed by call ID)',
    "langgraph_async": 'LangGraph, durability="async" (its default: loses checkpoints on a kill)',
}


def databases(name: str, workdir: Path) -> list[Path]:
    """The contender's own durable store (the search home each peer reads is not theirs)."""
    if name.startswith("briefdesk"):
        return sorted((workdir / "home").glob("*.db"))
    if name.startswith("dbos"):
        return [workdir / "dbos.sqlite"]
    if name.startswith("langgraph"):
        return [workdir / "langgraph.sqlite"]
    return []
