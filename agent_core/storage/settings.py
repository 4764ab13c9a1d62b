"""Preferences stored in the home's database (never keys: those live in the OS keyring)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.dialects.sqlite import insert

from agent_core.config import DEFAULT_SETTINGS
from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.storage.schema import settings

MODES = ("default", "acceptEdits", "dangerouslySkipPermissions")


def _coerce(key: str, value: Any) -> Any:
    """Validate a value for a known key; CLI strings are parsed as JSON when they can be."""
    if isinstance(value, str):
        with contextlib.suppress(json.JSONDecodeError):
            value = json.loads(value)
    default = DEFAULT_SETTINGS[key]
    if key == "network.allowlist":
        if isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"{key} takes a list of domains.")
        return [v.lower() for v in value]
    if key == "mode" and value not in MODES:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"mode must be one of {MODES}.")
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"{key} takes true or false.")
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"{key} takes a positive number.")
    elif value is not None and not isinstance(value, str):
        value = str(value)
    return value


def get_settings(conn: Connection) -> dict[str, Any]:
    values = dict(DEFAULT_SETTINGS)
    for row in conn.execute(select(settings)):
        if row.key in values:
            values[row.key] = json.loads(row.value_json)
    return values


def set_setting(conn: Connection, key: str, value: Any) -> Any:
    if key not in DEFAULT_SETTINGS:
        known = ", ".join(sorted(DEFAULT_SETTINGS))
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"Unknown setting {key!r}. Known: {known}"
        )
    value = _coerce(key, value)
    stmt = insert(settings).values(key=key, value_json=json.dumps(value))
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=["key"], set_={"value_json": stmt.excluded.value_json}
        )
    )
    return value
