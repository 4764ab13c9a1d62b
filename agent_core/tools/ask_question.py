"""ask_question: the run waits until a person answers (interaction tier)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from agent_core.contract.statuses import ToolOutcomeStatus
from agent_core.tools.specs import NonBlank, Tier, ToolArgs, ToolEnv, ToolResult, ToolSpec


class QuestionArgs(ToolArgs):
    question: Annotated[NonBlank, Field(description="The question.", max_length=2000)]


def run(env: ToolEnv, args: QuestionArgs) -> ToolResult:
    return ToolResult(ToolOutcomeStatus.SUCCESS, f"The person answered: {env.answer or ''}", {})


SPEC = ToolSpec(
    name="ask_question",
    tier=Tier.INTERACTION,
    description="Ask the person at the desk a clarifying question and wait for the answer.",
    args_model=QuestionArgs,
    body=run,
)
