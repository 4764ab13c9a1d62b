"""The contenders of bench_peers.py, each run as its users run it, in a process of its own.

Every `drive_*` function starts its run in `workdir`, or continues the one a killed process
left there, and returns {"seconds": ..., "done": ...}: the seconds from opening the store to
the final answer (a continued run: its whole recovery). bench_peers.py calls them in forked
children of a parent that imported every library once; the BriefDesk CLI runs as a fresh
`python -m agent_core.cli.main`, as a user's shell starts it.

- bare Agents SDK: `Runner.run`, nothing durable (it cannot continue: it starts over);
- BriefDesk: `Workspace(home).create_run` + `drive` (the facade), or the CLI's `run`/`resume`;
- DBOS: the tools as `@function_tool @DBOS.step()`, the agent run by `DBOSRunner.run` inside
  a `@DBOS.workflow()`, the system database on SQLite; `DBOS.launch()` recovers a workflow a
  killed process left pending (its README's way, with the workflow given an ID);
- LangGraph: a `StateGraph(MessagesState)` with a model node and the prebuilt `ToolNode`,
  compiled with `SqliteSaver.from_conn_string`; a killed thread goes on with
  `invoke(None, config)` from its latest checkpoint (default durability).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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


def _append(line: int) -> str:
    wl.maybe_kill_before(line)
    return wl.append_line(Path(_CONTEXT["workdir"]) / "lines.txt", line)


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


def _agent(calls: int, tool: str, durable: bool) -> Agent[Any]:
    tools = {
        (wl.TOOL, False): bare_search,
        (wl.APPEND_TOOL, False): bare_append,
        (wl.TOOL, True): dbos_search,
        (wl.APPEND_TOOL, True): dbos_append,
    }
    return Agent(
        name="bench",
        instructions="Answer from the corpus.",
        tools=[tools[(tool, durable)]],
        model=wl.sdk_scripted_model(calls, tool),
    )


def _sdk_config() -> RunConfig:
    return RunConfig(tracing_disabled=True)


@DBOS.workflow()
async def dbos_agent_workflow(calls: int, tool: str) -> str:
    result = await DBOSRunner.run(
        _agent(calls, tool, True), "bench", run_config=_sdk_config(), max_turns=calls + 10
    )
    return str(result.final_output)


def drive_bare(workdir: Path, calls: int, tool: str) -> dict[str, Any]:
    _CONTEXT["workdir"] = str(workdir)
    if tool == wl.TOOL:
        _search(wl.QUERY, wl.LIMIT, 0)  # the search home, opened before the clock as for all
    if _warm():
        asyncio.run(Runner.run(_agent(1, tool, False), "warm", run_config=_sdk_config()))
    started = time.perf_counter()
    result = asyncio.run(
        Runner.run(
            _agent(calls, tool, False), "bench", run_config=_sdk_config(), max_turns=calls + 10
        )
    )
    return {"seconds": time.perf_counter() - started, "done": result.final_output == "done"}


def drive_dbos(workdir: Path, calls: int, tool: str) -> dict[str, Any]:
    _CONTEXT["workdir"] = str(workdir)
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
            asyncio.run(dbos_agent_workflow(1, tool))
        started = time.perf_counter()
    if DBOS.get_workflow_status(WORKFLOW_ID) is None:
        with SetWorkflowID(WORKFLOW_ID):
            output = asyncio.run(dbos_agent_workflow(calls, tool))
    else:
        handle: Any = DBOS.retrieve_workflow(WORKFLOW_ID)
        output = handle.get_result(polling_interval_sec=0.01)
    seconds = time.perf_counter() - started
    DBOS.destroy()
    return {"seconds": seconds, "done": output == "done"}


def _langgraph_graph(calls: int, tool: str, saver: Any) -> Any:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.tools import StructuredTool
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    class ConversationScriptedChatModel(BaseChatModel):
        """N tool calls, then "done"; its turn is the number of tool results it is shown."""

        @property
        def _llm_type(self) -> str:
            return "bench-scripted"

        def _generate(self, messages: list[BaseMessage], *args: Any, **kw: Any) -> ChatResult:
            done = sum(1 for m in messages if isinstance(m, ToolMessage))
            if done < calls:
                k = done + 1
                call = {"name": tool, "args": json.loads(wl.tool_args(tool, k)), "id": f"call-{k}"}
                message = AIMessage(content="", tool_calls=[call])
            else:
                message = AIMessage(content="done")
            return ChatResult(generations=[ChatGeneration(message=message)])

    def search(query: str, limit: int, call: int) -> str:
        """Full-text search of the corpus."""
        return _search(query, limit, call)

    def append(line: int) -> str:
        """Append one line to the log."""
        return _append(line)

    body = search if tool == wl.TOOL else append
    lc_tool = StructuredTool.from_function(body, name=tool)
    model = ConversationScriptedChatModel()

    def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode([lc_tool]))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile(checkpointer=saver)


def drive_langgraph(workdir: Path, calls: int, tool: str) -> dict[str, Any]:
    from langgraph.checkpoint.sqlite import SqliteSaver

    _CONTEXT["workdir"] = str(workdir)
    if tool == wl.TOOL:
        _search(wl.QUERY, wl.LIMIT, 0)
    started = time.perf_counter()
    with SqliteSaver.from_conn_string(str(workdir / "langgraph.sqlite")) as saver:
        graph = _langgraph_graph(calls, tool, saver)
        config: Any = {"configurable": {"thread_id": "bench"}, "recursion_limit": 2 * calls + 10}
        if _warm():
            warm: Any = {"configurable": {"thread_id": "warm-up"}}
            _langgraph_graph(1, tool, saver).invoke({"messages": [("user", "warm")]}, warm)
            started = time.perf_counter()
        messages = graph.get_state(config).values.get("messages", [])
        if not messages:
            graph.invoke({"messages": [("user", "bench")]}, config)
        elif not _answered(messages):
            # On from the thread's latest checkpoint. (Its `next` can read empty after a kill,
            # the writes of the step it was in lost: invoke(None) still goes on from there.)
            graph.invoke(None, config)
        messages = graph.get_state(config).values["messages"]
    return {"seconds": time.perf_counter() - started, "done": _answered(messages)}


def _answered(messages: list[Any]) -> bool:
    last = messages[-1] if messages else None
    return last is not None and last.type == "ai" and not last.tool_calls and last.content == "done"


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


DRIVERS = {
    "bare": drive_bare,
    "briefdesk": drive_briefdesk,
    "briefdesk_cli": drive_briefdesk_cli,
    "dbos": drive_dbos,
    "langgraph": drive_langgraph,
}
LABELS = {
    "bare": "bare Agents SDK Runner (nothing durable)",
    "briefdesk": "BriefDesk, in-process (facade)",
    "briefdesk_cli": "BriefDesk, CLI (`briefdesk-cli run`)",
    "dbos": "DBOS 3.4 + dbos-openai-agents, SQLite",
    "langgraph": "LangGraph, StateGraph + SqliteSaver",
}


def databases(name: str, workdir: Path) -> list[Path]:
    """The contender's own durable store (the search home each peer reads is not theirs)."""
    if name.startswith("briefdesk"):
        return sorted((workdir / "home").glob("*.db"))
    if name == "dbos":
        return [workdir / "dbos.sqlite"]
    if name == "langgraph":
        return [workdir / "langgraph.sqlite"]
    return []
