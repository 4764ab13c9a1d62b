"""An agent's settings.json (Claude Code, Gemini CLI), read and written back as its person left it.

Only the `hooks` member is rewritten: its new value is spliced into the file's own text where
the old one was (or added after the last member, or cut out with its comma), so every other
byte stays as the person wrote it (their layout, key order, escapes, final newline); the new
value is indented like the file. A file that is not a JSON object is refused
(`invalid_arguments`) and left untouched; comments, which Gemini CLI tolerates, count as not
JSON: rewriting the file would lose them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode

DEFAULT_INDENT = "  "
SPLICED_KEY = "hooks"
_FIRST_INDENT = re.compile(r"\n([ \t]+)\S")
_SPACE = re.compile(r"[ \t\r\n]*")
_DECODER = json.JSONDecoder()

Span = tuple[int, int, int]
"""(where its key starts, where its value starts, where its value ends) of a top-level member."""


def parse_json_settings(text: str, path: Path) -> dict[str, object]:
    """The settings as a dict in the file's key order; an empty file is empty settings."""
    if not text.strip():
        return {}
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "BriefDesk left it as it is. Correct it (comments are not JSON) and connect again.",
        ) from None
    if not isinstance(doc, dict):
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"{path} does not hold a JSON object; BriefDesk left it as it is.",
        )
    return doc


def render_json_settings(doc: dict[str, object], original: str) -> str:
    """`doc` as text: `original` with its `hooks` member replaced, when that is all that
    differs; otherwise the whole object laid out like `original`."""
    found = _FIRST_INDENT.search(original)
    indent = found.group(1) if found else DEFAULT_INDENT
    spliced = _spliced(doc, original, indent) if original.strip() else None
    if spliced is not None:
        return spliced
    text = json.dumps(doc, indent=indent, ensure_ascii=False)
    return text + "\n" if original.endswith("\n") or not original.strip() else text


def _spliced(doc: dict[str, object], original: str, indent: str) -> str | None:
    before = json.loads(original)
    rest = {k: v for k, v in doc.items() if k != SPLICED_KEY}
    if not isinstance(before, dict) or rest != {
        k: v for k, v in before.items() if k != SPLICED_KEY
    }:
        return None
    spans = _member_spans(original)
    if spans is None or (SPLICED_KEY in before) != (SPLICED_KEY in spans):
        return None  # a key given twice: leave the layout to json.dumps
    if SPLICED_KEY in doc:
        value = json.dumps(doc[SPLICED_KEY], indent=indent, ensure_ascii=False)
        value = value.replace("\n", "\n" + indent)  # one level in, as a member of the root
        if SPLICED_KEY in spans:
            _, start, end = spans[SPLICED_KEY]
            return original[:start] + value + original[end:]
        if not spans:
            return None
        last_end = max(end for _, _, end in spans.values())
        member = f',\n{indent}"{SPLICED_KEY}": {value}'
        return original[:last_end] + member + original[last_end:]
    if SPLICED_KEY not in spans:
        return original
    key_start, _, end = spans[SPLICED_KEY]
    earlier = [e for _, _, e in spans.values() if e < key_start]
    if earlier:  # cut from the end of the member before it: its comma goes too
        return original[: max(earlier)] + original[end:]
    later = [k for k, _, _ in spans.values() if k > end]
    return original[:key_start] + original[min(later) :] if later else None


def _skip(text: str, at: int) -> int:
    found = _SPACE.match(text, at)
    return found.end() if found else at


def _member_spans(text: str) -> dict[str, Span] | None:
    """Where each member of the top-level object lies in `text` (None: a key given twice)."""
    spans: dict[str, Span] = {}
    at = _skip(text, 0) + 1  # past "{": the text parsed as an object
    at = _skip(text, at)
    if text[at] == "}":
        return spans
    while True:
        key_start = at
        key, at = _DECODER.raw_decode(text, at)
        at = _skip(text, _skip(text, at) + 1)  # past ":"
        _, end = _DECODER.raw_decode(text, at)
        if key in spans:
            return None
        spans[key] = (key_start, at, end)
        at = _skip(text, end)
        if text[at] == "}":
            return spans
        at = _skip(text, at + 1)  # past ","
