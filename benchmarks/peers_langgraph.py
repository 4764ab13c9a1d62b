"""LangGraph as bench_peers.py runs it: `StateGraph(MessagesState)`, a model node and the
prebuilt `ToolNode` with `tools_condition`, compiled with `SqliteSaver` (WAL).

Durability is LangGraph's `durability=` argument of `invoke` (langgraph >= 0.6; 1.2 here):

- `"sync"`: each step's checkpoint is written before the next step starts: the durable
  setting, the one comparable with BriefDesk (and the one the per-call table's "LangGraph" row
  uses);
- `"async"` (LangGraph's default): the checkpoint is written while the next step runs, so a
  kill loses the steps whose checkpoint had not landed, and their tools run again.

A killed thread goes on with `invoke(None, config)` from its latest checkpoint. The crash
comparison's idempotent tool is what LangGraph's durable-execution guide asks for (make side
effects idempotent): it keys its effect by the call's `tool_call_id` and checks it before
acting.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import peers_workload as wl

# At module level: LangChain reads the injected argument's annotation from the tool's globals.
from langchain_core.tools import InjectedToolCallId

Durability = str  # "sync" | "async": langgraph.types.Durability


def _graph(calls: int, tool: str, saver: Any, effects: dict[str, Callable[..., str]]) -> Any:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.tools import StructuredTool
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    class ConversationScriptedChatModel(BaseChatModel):
        """N tool calls, then "done"; its turn is the newest tool result it is shown."""

        @property
        def _llm_type(self) -> str:
            return "bench-scripted"

        def _generate(self, messages: list[BaseMessage], *args: Any, **kw: Any) -> ChatResult:
            done = wl.calls_done(
                m.tool_call_id for m in reversed(messages) if isinstance(m, ToolMessage)
            )
            if done < calls:
                k = done + 1
                call = {"name": tool, "args": json.loads(wl.tool_args(tool, k)), "id": f"call-{k}"}
                message = AIMessage(content="", tool_calls=[call])
            else:
                message = AIMessage(content="done")
            return ChatResult(generations=[ChatGeneration(message=message)])

    lc_tool = StructuredTool.from_function(effects[tool], name=tool)
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


def _effects(
    search: Callable[[str, int, int], str], append: Callable[..., str], idempotent: bool
) -> dict[str, Callable[..., str]]:
    """The tool bodies: the search, and the append plain or keyed by its tool_call_id."""

    def search_corpus(query: str, limit: int, call: int) -> str:
        """Full-text search of the corpus."""
        return search(query, limit, call)

    def append_line(line: int) -> str:
        """Append one line to the log."""
        return append(line)

    def append_line_once(line: int, tool_call_id: Annotated[str, InjectedToolCallId]) -> str:
        """Append one line to the log."""
        return append(line, key=tool_call_id)

    return {wl.TOOL: search_corpus, wl.APPEND_TOOL: append_line_once if idempotent else append_line}


def drive(
    workdir: Path,
    calls: int,
    tool: str,
    *,
    durability: Durability,
    idempotent: bool,
    search: Callable[[str, int, int], str],
    append: Callable[..., str],
    warm: bool,
) -> dict[str, Any]:
    """Start the thread's run, or continue the one a killed process left: seconds to "done"."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    effects = _effects(search, append, idempotent)
    started = time.perf_counter()
    with SqliteSaver.from_conn_string(str(workdir / "langgraph.sqlite")) as saver:
        graph = _graph(calls, tool, saver, effects)
        config: Any = {"configurable": {"thread_id": "bench"}, "recursion_limit": 2 * calls + 10}
        if warm:
            first: Any = {"configurable": {"thread_id": "warm-up"}}
            _graph(1, tool, saver, effects).invoke(
                {"messages": [("user", "warm")]}, first, durability=durability
            )
            started = time.perf_counter()
        messages = graph.get_state(config).values.get("messages", [])
        if not messages:
            graph.invoke({"messages": [("user", "bench")]}, config, durability=durability)
        elif not _answered(messages):
            # On from the thread's latest checkpoint. (Its `next` can read empty after a kill,
            # the writes of the step it was in lost: invoke(None) still goes on from there.)
            graph.invoke(None, config, durability=durability)
        messages = graph.get_state(config).values["messages"]
    return {"seconds": time.perf_counter() - started, "done": _answered(messages)}


def _answered(messages: list[Any]) -> bool:
    last = messages[-1] if messages else None
    return last is not None and last.type == "ai" and not last.tool_calls and last.content == "done"
