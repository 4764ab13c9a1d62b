"""Validate one call completely before anyone sees it: schema, sandbox, network settings.

An invalid call is refused and never shown to a person as approvable. The same function
validates an edit made by a reviewer. `describe_resource` gives the block log a bounded,
printable, normalized name for what a refused call aimed at.
"""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Mapping
from pathlib import Path

from agent_core.contract import json_input
from agent_core.home.door import mask_incoming
from agent_core.tools.registry import BUILTIN, ToolSet
from agent_core.tools.specs import ArgsJSON, ToolScope

MAX_RESOURCE_CHARS = 200
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def validate_call(
    tool: str, args: str | Mapping[str, object], scope: ToolScope, tools: ToolSet = BUILTIN
) -> tuple[ArgsJSON, str | None]:
    """Returns (normalized args, resolved target or None) or raises BriefDeskError.

    The same checks for a model's raw call and a reviewer's edit: schema, known keys masked,
    then the spec's target resolver (sandbox paths, network allowlist and per-run budget).
    """
    spec = tools.spec_for(tool)
    parsed = spec.parse(args) if isinstance(args, str) else spec.parse(json.dumps(args))
    # Known keys are masked here, the one path every call and edit takes: what a person
    # approves, its arg_hash, what runs and any re-derivation from raw_args all agree.
    masked = mask_incoming(parsed.to_json())
    if masked != parsed.to_json():
        parsed = spec.validate(masked)  # still a valid call once masked, or refused
    return parsed.to_json(), spec.resolve_target(parsed, scope)


def printable(text: str, limit: int = MAX_RESOURCE_CHARS) -> str:
    """NFC text with controls and invisible format characters (bidi overrides, NUL, newlines)
    shown as escapes, clipped: a log line must read as what it is."""
    shown = "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in _INVISIBLE
        else ch
        for ch in unicodedata.normalize("NFC", text[: limit * 2])
    )
    return shown if len(shown) <= limit and len(text) <= limit * 2 else shown[:limit] + "…"


def describe_resource(tool: str, raw: str, *, corpus: Path, artifacts: Path) -> str | None:
    """What a (refused) call aimed at, normalized for the block log; never the whole payload.

    Paths become the lexical location under their root (`../../etc/passwd` read from the
    corpus shows as `/etc/passwd`; symlinks are not followed: that is the sandbox's job), URLs
    stay URLs; all of it printable and bounded.
    """
    try:
        args = json_input.loads(raw[:100_000]) if len(raw) <= 100_000 else None
    except json.JSONDecodeError:
        args = None
    if not isinstance(args, dict):
        return printable(raw) if raw else None
    for key, root in (("path", corpus), ("relative_path", artifacts)):
        value = args.get(key)
        if isinstance(value, str):
            # NFKC: where a later layer that normalises (fullwidth dots...) would aim.
            text = unicodedata.normalize("NFKC", value[: MAX_RESOURCE_CHARS * 2])
            if "\x00" not in text and not text.startswith("~"):
                text = os.path.normpath(os.path.join(str(root), text))
            return printable(text)
    value = args.get("url")
    if isinstance(value, str):
        return printable(value)
    return None
