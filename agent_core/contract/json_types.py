"""The one name for JSON that really is open: an event's `data`, a tool's arguments, a setting's
value. Everything with a known shape has a view (contract/views.py) instead."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

JsonValue: TypeAlias = "str | int | float | bool | list[JsonValue] | dict[str, JsonValue] | None"
"""Any value `json.loads` can return."""

JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object, as stored and as printed."""

JsonMapping: TypeAlias = Mapping[str, object]
"""A JSON object taken as input, read only (a `dict[str, str]` passes too: Mapping is covariant)."""
