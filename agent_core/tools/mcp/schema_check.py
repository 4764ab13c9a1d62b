"""Whether a server's input schema can be checked at all, before any argument is checked by it.

A call's arguments are validated against the tool's schema by jsonschema, which recurses: a
`$ref` that leads back to itself on the same value (`a` -> `b` -> `a`, or `allOf: [{$ref:
"#"}]`) recursed until Python's stack ran out and left the run stuck. Such a tool is
unavailable: `mcp tools` lists it with an `error`, a run does not offer it. So is a schema
nested past `json_input.MAX_DEPTH` levels or past MAX_SCHEMA_BYTES, and one that refers outside
itself (nothing is fetched to check a call).

A `$ref` reached through a keyword that descends into the value (`properties`, `items`...) is no
loop: each step checks a smaller part of the arguments, which are themselves bounded in depth.
Only the keywords that apply another schema to the same value (`$ref`, `allOf`, `anyOf`, `oneOf`,
`not`, `if`/`then`/`else`, `dependentSchemas`) can go round for ever.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from urllib.parse import unquote

from agent_core.contract import json_input
from agent_core.contract.json_types import JsonValue

MAX_SCHEMA_BYTES = 1 << 20
"""1 MiB of JSON: far past any real tool's schema (the measured ones are under 4 KiB)."""
_SAME_VALUE_LISTS = ("allOf", "anyOf", "oneOf")
_SAME_VALUE_ONE = ("not", "if", "then", "else")
_UNCHECKABLE = ("$dynamicRef", "$recursiveRef")


class _Unresolvable(Exception):
    """A `$ref` that does not point into the schema (elsewhere, or to nothing)."""


def schema_problem(schema: Mapping[str, object]) -> str | None:
    """Why `schema` cannot be checked (one sentence), or None when it can."""
    root: JsonValue = dict(schema)  # type: ignore[arg-type]  # JSON from the SDK's parser
    if json_input.deeper_than(root, json_input.MAX_DEPTH):
        return f"its input schema is nested deeper than {json_input.MAX_DEPTH} levels"
    size = len(json.dumps(root, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    if size > MAX_SCHEMA_BYTES:
        return f"its input schema is larger than {MAX_SCHEMA_BYTES:,} bytes"
    try:
        if _loops(root):
            return "its input schema has a $ref loop (it refers back to itself)"
    except _Unresolvable as exc:
        return f"its input schema refers to {str(exc)[:80]!r}, which it does not hold"
    return None


def _loops(root: JsonValue) -> bool:
    """A cycle among the schemas that apply to one and the same value (iterative DFS)."""
    state: dict[int, bool] = {}  # id -> True while on the path, False once finished
    for start in _subschemas(root):
        if id(start) in state:
            continue
        path: list[tuple[dict[str, JsonValue], Iterator[dict[str, JsonValue]]]] = [
            (start, _same_value(start, root))
        ]
        state[id(start)] = True
        while path:
            node, successors = path[-1]
            step = next(successors, None)
            if step is None:
                state[id(node)] = False
                path.pop()
            elif state.get(id(step)) is True:
                return True
            elif id(step) not in state:
                state[id(step)] = True
                path.append((step, _same_value(step, root)))
    return False


def _subschemas(root: JsonValue) -> Iterator[dict[str, JsonValue]]:
    """Every object in the schema (some are not schemas: harmless, they apply nothing)."""
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _same_value(node: dict[str, JsonValue], root: JsonValue) -> Iterator[dict[str, JsonValue]]:
    """The schemas `node` applies to the very value it checks."""
    for key in _UNCHECKABLE:
        if key in node:
            raise _Unresolvable(str(node[key]))
    ref = node.get("$ref")
    if isinstance(ref, str):
        target = _resolve(ref, root)
        if isinstance(target, dict):
            yield target
    for key in _SAME_VALUE_LISTS:
        listed = node.get(key)
        if isinstance(listed, list):
            yield from (s for s in listed if isinstance(s, dict))
    for key in _SAME_VALUE_ONE:
        one = node.get(key)
        if isinstance(one, dict):
            yield one
    dependent = node.get("dependentSchemas")
    if isinstance(dependent, dict):
        yield from (s for s in dependent.values() if isinstance(s, dict))


def _resolve(ref: str, root: JsonValue) -> JsonValue:
    """A local JSON pointer (`#`, `#/$defs/a`); anything else is outside the schema."""
    if ref != "#" and not ref.startswith("#/"):
        raise _Unresolvable(ref)
    target = root
    for raw in ref[2:].split("/") if ref != "#" else ():
        part = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(target, dict) and part in target:
            target = target[part]
        elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
            target = target[int(part)]
        else:
            raise _Unresolvable(ref)
    return target
