"""The door: one mask for the text a person or a model hands BriefDesk.

A person's text (a question, an answer, a note or reason, edited arguments) and a model's (its
answer, its tool-call arguments) pass `mask_incoming` / `mask_model_output` before they are
stored or sent to a model; so do an MCP server's results and a corpus document's text before
it is indexed. The storage boundary masks again what it keeps whole (session items, the
RunState blob), so a door forgotten upstream still stores nothing unmasked. Masked by value is
every secret BriefDesk holds, whatever the run's model (`KNOWN_SECRETS`: the keyring's model
key, every `BRIEFDESK_*_API_KEY`, each `keyring:` value of the desk's MCP servers, the team
database's password), loaded at the first mask of a process and a no-op after it; and anything
shaped like a key (secrets.py).

Masking is idempotent and keeps JSON valid: a masked RunState still resumes, and a masked call
gets the same arguments and `arg_hash` however many times it is masked on its way.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, TypeVar, cast

from agent_core.home.secrets import KNOWN_SECRETS, REDACTOR

if TYPE_CHECKING:
    from agents.items import ModelResponse, TResponseOutputItem

_T = TypeVar("_T")


def mask_incoming(value: _T) -> _T:
    """`value` (a text, or JSON-like: dicts, lists, strings; keys too) with every known key
    masked."""
    KNOWN_SECRETS.load()
    return cast("_T", _mask(value))  # strings stay strings, containers keep their kind


def _mask(value: object) -> object:
    if isinstance(value, str):
        return REDACTOR.redact_text(value)
    if isinstance(value, dict):
        return {_mask(k): _mask(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_mask(v) for v in value)
    return value


def mask_json_text(text: str) -> str:
    """JSON text kept whole (a RunState) with every known key masked, still valid JSON.

    Masked as text, which is fast at any size (known keys are registered in their JSON-escaped
    forms too); should that break the JSON (a key that ends inside an escape), it is decoded,
    masked and written again. Text that is not JSON is masked as text. Nothing to mask: the
    very same text, byte for byte."""
    KNOWN_SECRETS.load()
    masked = REDACTOR.redact_text(text)
    if masked == text:
        return text
    try:
        json.loads(masked)
        return masked
    except (ValueError, RecursionError):
        pass
    try:
        decoded = json.loads(text)
    except (ValueError, RecursionError):
        return masked
    return json.dumps(_mask(decoded), ensure_ascii=False)


def mask_arguments(raw: str) -> str:
    """A tool call's raw JSON arguments, masked in their decoded values: a key written with JSON
    escapes (`\\u0073k-...`) is found too. Unchanged when there is nothing to mask; not JSON:
    masked as text (the call is refused anyway)."""
    KNOWN_SECRETS.load()
    try:
        decoded = json.loads(raw)
    except (ValueError, RecursionError):
        return REDACTOR.redact_text(raw)
    masked = _mask(decoded)
    return raw if masked == decoded else json.dumps(masked, ensure_ascii=False)


def mask_model_output(items: list[TResponseOutputItem]) -> list[TResponseOutputItem]:
    """A model response's output items (the SDK's pydantic models, or dicts) with every known
    key masked in their text and tool-call arguments; an item with nothing to mask is returned
    as it is (the same object)."""
    KNOWN_SECRETS.load()
    return [_mask_item(item) for item in items]


def mask_model_response(response: ModelResponse) -> ModelResponse:
    """The SDK's `ModelResponse` with `mask_model_output` applied to its output."""
    output = response.output
    masked = mask_model_output(output)
    if all(a is b for a, b in zip(masked, output, strict=True)):
        return response
    return dataclasses.replace(response, output=masked)


def _mask_item(item: TResponseOutputItem) -> TResponseOutputItem:
    dump = getattr(item, "model_dump", None)
    # Only the fields the model set, by their wire names: the SDK refuses to copy an approval
    # whose item gained fields (its defaults, `async_` beside `async`) on the way.
    data: object = dump(exclude_unset=True, by_alias=True) if callable(dump) else item
    masked = _mask_output(data)
    if masked == data:
        return item
    if callable(dump):
        return type(item).model_validate(masked)
    return cast("TResponseOutputItem", masked)  # a plain dict item stays a dict


def _mask_output(value: object) -> object:
    if isinstance(value, dict):
        return {
            k: mask_arguments(v) if k == "arguments" and isinstance(v, str) else _mask_output(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_mask_output(v) for v in value]
    if isinstance(value, str):
        return REDACTOR.redact_text(value)
    return value
