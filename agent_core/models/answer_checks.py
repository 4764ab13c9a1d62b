"""What a model's answer claims, checked before the Agents SDK reads it.

- Token usage: the SDK copies an endpoint's counts into its pydantic `Usage`, which refused
  `prompt_tokens: 1e308` or `completion_tokens: 1.5` with a ValidationError deep inside the
  call; the run was left `interrupted` and every resume failed the same way. A count that is not
  a whole number from 0 to MAX_TOKENS is a malformed answer: `AnswerMalformed`, which the
  provider turns into `provider_error` (`retryable: false`: asking again gets the same).
- Tool-call arguments: the SDK parses each call's arguments string (to tell calls apart) with
  `json.loads` and walks the value recursively: arguments nested 200,000 deep raised
  RecursionError there, before any tool was reached. Arguments nested deeper than
  `json_input.MAX_DEPTH` are replaced by STAND_IN, which every parser on the way reads and
  BriefDesk's own check refuses for the same reason (`invalid_arguments`: "nested deeper than
  64 levels"), so the call is blocked and the run goes on; the original is not kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from openai.types.responses import ResponseFunctionToolCall

from agent_core.contract import json_input

if TYPE_CHECKING:
    from agents.items import ModelResponse

MAX_TOKENS = 10**12
"""Far past any context window; the sums and costs built on counts stay finite numbers."""
STAND_IN = "[" * (json_input.MAX_DEPTH + 1) + "]" * (json_input.MAX_DEPTH + 1)
"""One level too deep: refused by `json_input.loads`, harmless to every other parser."""


class AnswerMalformed(Exception):
    """The endpoint's answer parsed, but says something no model answer can say."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check_usage(usage: object) -> None:
    """Every `*_tokens` count of `usage` (Chat Completions or Responses shape, and their
    `*_details`) is None or a whole number from 0 to MAX_TOKENS; else AnswerMalformed."""
    if usage is None:
        return
    for owner, name, value in _counts(usage):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TOKENS:
            shown = repr(value)[:40]
            raise AnswerMalformed(f"its usage says {owner}{name}: {shown}, not a token count")


def _counts(usage: object) -> list[tuple[str, str, object]]:
    top = _fields(usage)
    parts = [("", top)] + [
        (f"{name}.", _fields(value))
        for name, value in top.items()
        if name.endswith("_tokens_details") and value is not None
    ]
    return [(o, k, v) for o, fields in parts for k, v in fields.items() if k.endswith("_tokens")]


def _fields(part: object) -> dict[str, object]:
    """A parsed model's fields (extras included), or a plain mapping as a lenient build left it."""
    if isinstance(part, Mapping):
        return {str(k): v for k, v in part.items()}
    fields = dict(getattr(part, "__dict__", {}))
    fields.update(getattr(part, "model_extra", None) or {})
    return fields


def bounded_arguments(response: ModelResponse) -> ModelResponse:
    """`response` with every call's arguments nested past MAX_DEPTH replaced by STAND_IN."""
    output = [
        item.model_copy(update={"arguments": STAND_IN})
        if isinstance(item, ResponseFunctionToolCall) and json_input.too_deep(item.arguments)
        else item
        for item in response.output
    ]
    if all(a is b for a, b in zip(output, response.output, strict=True)):
        return response
    return replace(response, output=output)
