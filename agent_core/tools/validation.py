"""Validate one call completely before anyone sees it: schema, sandbox, network settings.

An invalid call is refused and never shown to a person as approvable. The same function
validates an edit made by a reviewer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent_core.tools import network
from agent_core.tools.sandbox import resolve_inside
from agent_core.tools.specs import TOOLS, validate_args, validate_raw_args


def validate_call(
    tool: str,
    args: str | dict[str, Any],
    *,
    corpus: Path,
    artifacts: Path,
    settings: dict[str, Any],
) -> tuple[dict[str, Any], str | None]:
    """Returns (normalized args, resolved target or None) or raises BriefDeskError."""
    if isinstance(args, str):
        normalized = validate_raw_args(tool, args)
    else:
        normalized = validate_raw_args(tool, json.dumps(args)) if tool in TOOLS else validate_args(TOOLS[tool], args)
    if tool == "read_document":
        return normalized, str(resolve_inside(corpus, normalized["path"], must_exist=True))
    if tool == "save_brief":
        artifacts.mkdir(parents=True, exist_ok=True)
        return normalized, str(resolve_inside(artifacts, normalized["relative_path"], must_exist=False))
    if tool == "fetch_url":
        return normalized, network.check_url(normalized["url"], settings)
    return normalized, None
