"""Local models (offline, scripted) that plan each turn as a pure function of the conversation.

Deriving the next step from the input, not from a counter in memory, is what makes a resumed
run continue exactly where the checkpoint left it, in a new process, after a crash.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field

from agents import Usage
from agents.agent_output import AgentOutputSchemaBase
from agents.handoffs import Handoff
from agents.items import (
    ModelResponse,
    TResponseInputItem,
    TResponseOutputItem,
    TResponseStreamEvent,
)
from agents.model_settings import ModelSettings
from agents.models.interface import Model, ModelTracing
from agents.tool import Tool
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)
from openai.types.responses.response_prompt_param import ResponsePromptParam

from agent_core.contract.json_types import JsonObject
from agent_core.models.answer_checks import bounded_arguments
from agent_core.models.views import is_windowed

# The whole conversation of the run, for a model that reads older results than a bounded view
# holds (the offline model: its brief cites what it read, however long ago).
FullHistory = Callable[[], list[TResponseInputItem]]


@dataclass(frozen=True)
class PlannedCall:
    tool: str
    args: JsonObject
    raw: str | None = None  # exact JSON to send (scripts may send what a schema would refuse)
    slot: int | None = None
    """The number in the call id (default: its place in the turn); scripts repeat one to send
    two calls with the same id, as a faulty model may."""


@dataclass(frozen=True)
class TurnPlan:
    calls: list[PlannedCall] = field(default_factory=list)
    say: str | None = None


@dataclass(frozen=True)
class PastCall:
    call_id: str
    tool: str
    args: JsonObject
    output: str | None


@dataclass
class History:
    question: str
    calls: list[PastCall]  # this run's calls, oldest first
    steps_taken: int
    notes: list[str] = field(default_factory=list)  # developer messages (remembered facts)

    def outputs(self, tool: str) -> list[PastCall]:
        return [c for c in self.calls if c.tool == tool and c.output is not None]


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _as_dict(item: object) -> Mapping[str, object]:
    if isinstance(item, dict):
        return item
    dump = getattr(item, "model_dump", None)
    dumped = dump() if callable(dump) else None
    return dumped if isinstance(dumped, dict) else {}


_STEP = re.compile(r"-s(\d+)-\d+$")


def parse_history(items: str | list[TResponseInputItem], call_prefix: str) -> History:
    if isinstance(items, str):
        return History(items, [], 0)
    question = ""
    notes: list[str] = []
    calls: dict[str, PastCall] = {}
    order: list[str] = []
    steps: set[int] = set()
    for raw in items:
        item = _as_dict(raw)
        kind = item.get("type")
        if item.get("role") == "user" and kind in (None, "message"):
            question = _text_of(item.get("content"))
        elif item.get("role") == "developer" and kind in (None, "message"):
            notes.append(_text_of(item.get("content")))
        elif kind == "function_call" and str(item.get("call_id", "")).startswith(call_prefix):
            call_id = str(item["call_id"])
            arguments = item.get("arguments")
            try:
                args = json.loads(arguments if isinstance(arguments, str) and arguments else "{}")
            except json.JSONDecodeError:
                args = {}
            calls[call_id] = PastCall(
                call_id, str(item.get("name")), args if isinstance(args, dict) else {}, None
            )
            order.append(call_id)
            if m := _STEP.search(call_id):
                steps.add(int(m.group(1)))
        elif kind == "function_call_output" and (output_of := item.get("call_id")) in calls:
            past = calls[str(output_of)]
            calls[past.call_id] = PastCall(
                past.call_id, past.tool, past.args, _text_of(item.get("output"))
            )
    # The newest step, not a count: a bounded view (models/views.py) leaves older steps out.
    return History(question, [calls[c] for c in order], max(steps, default=0), notes)


def plan_to_response(plan: TurnPlan, call_prefix: str, step: int) -> ModelResponse:
    output: list[TResponseOutputItem] = []
    for j, call in enumerate(plan.calls):
        call_id = f"{call_prefix}-s{step}-{j if call.slot is None else call.slot}"
        output.append(
            ResponseFunctionToolCall(
                type="function_call",
                name=call.tool,
                arguments=call.raw
                if call.raw is not None
                else json.dumps(call.args, ensure_ascii=False),
                call_id=call_id,
                id=f"fc_{call_id}",
                status="completed",
            )
        )
    if plan.say is not None or not output:
        output.append(
            ResponseOutputMessage(
                type="message",
                id=f"msg_{call_prefix}-s{step}",
                role="assistant",
                status="completed",
                content=[
                    ResponseOutputText(type="output_text", text=plan.say or "", annotations=[])
                ],
            )
        )
    # A script's raw arguments are as hostile as a remote model's: bounded the same way.
    return bounded_arguments(ModelResponse(output=output, usage=Usage(), response_id=None))


class PlannedModel(Model):
    """An agents.Model whose turns come from `plan(history)`; no network, no key."""

    def __init__(self, call_prefix: str, full_history: FullHistory | None = None) -> None:
        self.call_prefix = call_prefix
        self.full_history = full_history

    def plan(self, history: History) -> TurnPlan:
        raise NotImplementedError

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
    ) -> ModelResponse:
        if self.full_history is not None and not isinstance(input, str) and is_windowed(input):
            input = self.full_history()
        history = parse_history(input, self.call_prefix)
        return plan_to_response(self.plan(history), self.call_prefix, history.steps_taken + 1)

    def stream_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
    ) -> AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError("BriefDesk runs local models without streaming")
