"""JSON from outside: what a person types (an edit's `--args`, a setting's value), a scripted
model's file, a model's tool arguments.

`json.loads` raises RecursionError, not JSONDecodeError, on arrays nested a few thousand deep,
and anything that walks a value nested a thousand deep (validation, canonical JSON, printing)
can exhaust the stack later. So nesting is bounded here, and too deep is malformed JSON like
any other: every caller's `except json.JSONDecodeError` answers it (`invalid_arguments`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from agent_core.contract.json_types import JsonObject, JsonValue

MAX_DEPTH = 64
"""Far above any argument or setting BriefDesk knows (they nest two or three levels)."""
TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"


def loads(text: str | bytes) -> JsonValue:
    """`json.loads`, with nesting deeper than MAX_DEPTH a `json.JSONDecodeError`."""
    doc = text if isinstance(text, str) else text.decode("utf-8", "replace")
    try:
        value: JsonValue = json.loads(text)
    except RecursionError:
        raise _too_deep(doc) from None
    if deeper_than(value, MAX_DEPTH):
        raise _too_deep(doc)
    return value


def too_deep(text: str) -> bool:
    """`text` is JSON nested deeper than MAX_DEPTH (or too deep for the parser at all); other
    malformed JSON is not (a parser on the way reads it as malformed, not crashing)."""
    try:
        loads(text)
    except json.JSONDecodeError as exc:
        return exc.msg == TOO_DEEP
    return False


def _too_deep(doc: str) -> json.JSONDecodeError:
    return json.JSONDecodeError(TOO_DEEP, doc, 0)


def deeper_than(value: JsonValue, limit: int) -> bool:
    """Without recursion: the check must not fail the way it guards against."""
    stack: list[tuple[JsonValue, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[JsonValue]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def object_argument(value: object, flag: str = "--args") -> JsonObject:
    """A JSON object a person gave (text, or already parsed); `invalid_arguments` otherwise."""
    from agent_core.contract.errors import BriefDeskError, ErrorCode

    if isinstance(value, str):
        try:
            value = loads(value)
        except json.JSONDecodeError as exc:
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS, f"{flag} is not valid JSON ({exc.msg})."
            ) from None
    if not isinstance(value, dict):
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"{flag} must be a JSON object.")
    return value
