"""Canonical JSON and hashes: the identity of a tool call and of a file's content."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import overload

from agent_core.contract.json_types import JsonMapping


def canonical_json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def arg_hash(tool: str, args: JsonMapping) -> str:
    """sha256 of the tool name and its canonical JSON arguments (the contract's `arg_hash`)."""
    return sha256_hex(tool + "\n" + canonical_json(args))


def idempotency_key(run_id: str, call_id: str, tool: str, args: JsonMapping) -> str:
    return sha256_hex("\n".join([run_id, call_id, tool, canonical_json(args)]))


@overload
def iso(dt: datetime) -> str: ...
@overload
def iso(dt: None) -> None: ...
def iso(dt: datetime | None) -> str | None:
    return None if dt is None else dt.astimezone(UTC).isoformat(timespec="milliseconds")
