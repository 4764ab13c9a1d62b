"""Plain-text views of timeline events: one line a person can scan, and an outcome word.

Pure functions over EVENT views (see the CLI contract), so they are tested without Qt. An
event's `data` is open JSON: each value is narrowed where it is used.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime

from agent_core.contract.events import EventKind
from agent_core.contract.views import EventView

KIND_LABELS: dict[str, str] = {
    EventKind.RUN_STARTED: "Run started",
    EventKind.RUN_RESUMED: "Resumed",
    EventKind.RUN_INTERRUPTED: "Crash found",
    EventKind.RUN_FINISHED: "Run finished",
    EventKind.MODEL_TURN: "Model turn",
    EventKind.CHECKPOINT_SAVED: "Checkpoint",
    EventKind.TOOL_CALLED: "Tool call",
    EventKind.TOOL_RESULT: "Tool result",
    EventKind.APPROVAL_REQUESTED: "Approval asked",
    EventKind.APPROVAL_DECIDED: "Approval decided",
    EventKind.BLOCKED: "Blocked",
    EventKind.OUTCOME_UNKNOWN: "Outcome unknown",
    EventKind.RECONCILED: "Reconciled",
    EventKind.ARTIFACT_CONFIRMED: "Artifact confirmed",
    EventKind.ARTIFACT_UNEXPECTED: "Unexpected write",
    EventKind.QUESTION_ASKED: "Question",
    EventKind.ANSWER_RECEIVED: "Answer",
    EventKind.MODEL_RETRY: "Retrying",
    EventKind.MODEL_DELTA: "Writing",
}
DELTA_SHOWN_CHARS = 160  # a growing answer shows its latest words


CHANGES_REQUESTED_LABEL = "Decision"
CHANGES_REQUESTED_OUTCOME = "changes requested"  # a person's decision, not a failed tool


def changes_requested(event: EventView) -> bool:
    """A tool_result for a call a person sent back with a note: nothing ran, by decision."""
    return (
        event.get("kind") == EventKind.TOOL_RESULT and _data(event).get("changes_requested") is True
    )


def kind_label(event: EventView) -> str:
    kind = str(event.get("kind", ""))
    if changes_requested(event):
        return CHANGES_REQUESTED_LABEL
    label = KIND_LABELS.get(kind, kind.replace("_", " ").capitalize())
    if kind == EventKind.CHECKPOINT_SAVED:
        boundary = (event.get("data") or {}).get("boundary")
        if boundary:
            label = f"Checkpoint {boundary}"
    return label


def parse_time(at: str | None) -> datetime | None:
    if not at:
        return None
    try:
        return datetime.fromisoformat(at)
    except ValueError:
        return None


def clock_text(at: str | None) -> str:
    moment = parse_time(at)
    if moment is None:
        return at or ""
    local = moment.astimezone()
    return local.strftime("%H:%M:%S.") + f"{local.microsecond // 1000:03d}"


def duration_text(seconds: float | None) -> str:
    if seconds is None or seconds < 0:
        return ""
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 120:
        return f"{seconds:.1f} s"
    return f"{int(seconds // 60)} min {int(seconds % 60)} s"


_BLANKS = re.compile(r"[ \t\n]+")


def flatten(text: str) -> str:
    """Runs of spaces, tabs and newlines as one space. Not `str.split()`: it also takes a
    carriage return or a file separator for a blank, and the person would never see them."""
    return _BLANKS.sub(" ", text).strip(" ")


def cut_words(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters at a word boundary, with an ellipsis: never
    mid-word (a single word longer than the limit is the only thing cut inside)."""
    flat = flatten(text)
    if len(flat) <= limit:
        return flat
    head = flat[: limit - 1]
    if flat[limit - 1] != " " and " " in head:
        head = head[: head.rindex(" ")]
    return head.rstrip(" ,;:.-–—") + "…"


def compact_json(value: object, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_value(value: object, limit: int = 48) -> str:
    if isinstance(value, str):
        flat = flatten(value)
        if len(flat) <= limit:
            return flat
        return f"{cut_words(flat, limit)} ({len(value):,} chars)"
    return compact_json(value, limit)


def short_path(path: object) -> str:
    """A target inside an artifacts folder as a person names it (`briefs/x.md`)."""
    text = str(path or "")
    marker = "/artifacts/"
    return text.split(marker, 1)[1] if marker in text else text


def pairs(values: Mapping[str, object]) -> str:
    """`key=value` pairs, long strings shortened: how a person reads tool arguments."""
    return "  ".join(f"{key}={short_value(value)}" for key, value in values.items())


def result_text(details: Mapping[str, object]) -> str:
    """The useful part of a tool result: hits, the document read, the file written, the error."""
    parts: list[str] = []
    if "hits" in details:
        found = _list(details.get("sources_found"))
        parts.append(
            f"{details['hits']} hits" + (f": {', '.join(map(str, found[:3]))}" if found else "")
        )
    if "source_id" in details:
        parts.append(str(details["source_id"]))
    if "chars" in details:
        chars = details["chars"]
        parts.append(f"{chars:,} chars" if isinstance(chars, int) else str(chars))
    if details.get("truncated"):
        parts.append("truncated")
    error = details.get("error")
    if isinstance(error, dict):
        parts.append(f"{error.get('code')}: {error.get('message')}")
    shown = {"hits", "sources_found", "source_id", "chars", "truncated", "error"}
    rest = {k: v for k, v in details.items() if k not in shown}
    if rest:
        parts.append(pairs(rest))
    return " · ".join(p for p in parts if p)


def _first_line(text: object, limit: int = 140) -> str:
    """The first line, cut at a word. Only a newline ends a line: a carriage return (or any
    other separator `splitlines` knows) must not hide the rest of the line from view."""
    lines = str(text or "").strip().split("\n")
    line = cut_words(lines[0], limit)
    return line + (" …" if len(lines) > 1 and not line.endswith("…") else "")


def summary(event: EventView) -> str:
    kind = event.get("kind")
    data = _data(event)
    if kind == EventKind.RUN_STARTED:
        question = _first_line(data.get("question"))
        return f"“{question}” · model {data.get('model')} · mode {data.get('mode')}"
    if kind == EventKind.RUN_RESUMED:
        return f"Resumed from the latest checkpoint · model {data.get('model')}"
    if kind == EventKind.RUN_INTERRUPTED:
        return f"The previous process (pid {data.get('previous_owner_pid')}) died mid-run"
    if kind == EventKind.RUN_FINISHED:
        error = _mapping(data.get("error"))
        extra = f" · {error.get('code')}: {error.get('message')}" if error else ""
        by = f" (by {data['by']})" if data.get("by") else ""
        return f"Finished: {data.get('status')}{by}{extra}"
    if kind == EventKind.MODEL_TURN:
        calls = [str(call) for call in _list(data.get("calls"))]
        head = f"Turn {data.get('turn')}"
        if calls:
            return f"{head} → {', '.join(calls)}"
        return f"{head} · {_first_line(data.get('text')) or 'final answer'}"
    if kind == EventKind.CHECKPOINT_SAVED:
        return f"#{data.get('sequence')} · next: {data.get('next_step')}"
    if kind == EventKind.TOOL_CALLED:
        server = f"MCP server {data['server']} · " if data.get("server") else ""
        return server + pairs(_mapping(data.get("args")))
    if changes_requested(event):  # older events carry no note: the decision still reads
        note = _first_line(data.get("note"))
        return f"Changes requested: {note}" if note else "Changes requested"
    if kind == EventKind.TOOL_RESULT:
        details = {k: v for k, v in data.items() if k not in ("call_id", "outcome", "executed")}
        replayed = "" if data.get("executed", True) else "not executed · "
        return replayed + (result_text(details) or str(data.get("outcome", "")))
    if kind == EventKind.APPROVAL_REQUESTED:
        return f"{data.get('approval_id')} → {short_path(data.get('target')) or 'approval needed'}"
    if kind == EventKind.APPROVAL_DECIDED:
        who = f" by {data['reviewer']}" if data.get("reviewer") else ""
        return f"{data.get('approval_id')} {data.get('status')}{who}"
    if kind == EventKind.BLOCKED:
        return f"{data.get('code')}: {data.get('rule')} · {data.get('resource')}"
    if kind in (EventKind.OUTCOME_UNKNOWN, EventKind.RECONCILED):
        return f"call {data.get('call_id')} · key {str(data.get('idempotency_key', ''))[:16]}"
    if kind in (EventKind.ARTIFACT_CONFIRMED, EventKind.ARTIFACT_UNEXPECTED):
        count = data.get("count")
        if data.get("summary"):  # the watcher's first scan: one entry for a folder of old files
            return f"{count} files nobody approved were already in {data.get('path')}"
        return f"{data.get('path')}" + (f" · written {count}×" if count is not None else "")
    if kind in (EventKind.QUESTION_ASKED, EventKind.ANSWER_RECEIVED):
        text = data.get("answer") if kind == EventKind.ANSWER_RECEIVED else data.get("question")
        return _first_line(text)
    if kind == EventKind.MODEL_RETRY:
        return (
            f"Turn {data.get('turn')} · attempt {data.get('attempt')} failed: {data.get('reason')}"
            f" · next try in {duration_text(_number(data.get('wait_s')))}"
        )
    if kind == EventKind.MODEL_DELTA:
        flat = flatten(str(data.get("text") or ""))
        shown = flat if len(flat) <= DELTA_SHOWN_CHARS else "…" + flat[-DELTA_SHOWN_CHARS:]
        return f"Turn {data.get('turn')} · {shown}"
    return compact_json(data)


def join_delta(previous: EventView | None, event: EventView) -> EventView | None:
    """`event` (a model_delta) joined onto `previous` when that is the same turn's and attempt's
    streamed text: one growing entry, carrying the newer event's seq and time. None otherwise."""
    if previous is None or event.get("kind") != EventKind.MODEL_DELTA:
        return None
    if previous.get("kind") != EventKind.MODEL_DELTA or previous.get("run_id") != event.get(
        "run_id"
    ):
        return None
    before, after = _data(previous), _data(event)
    if (before.get("turn"), before.get("attempt")) != (after.get("turn"), after.get("attempt")):
        return None
    text = str(before.get("text") or "") + str(after.get("text") or "")
    joined = event.copy()
    joined["data"] = {**after, "text": text}
    return joined


def outcome(event: EventView) -> str:
    kind = event.get("kind")
    data = _data(event)
    if changes_requested(event):
        return CHANGES_REQUESTED_OUTCOME
    if kind == EventKind.TOOL_RESULT:
        return str(data.get("outcome", ""))
    if kind in (EventKind.APPROVAL_REQUESTED, EventKind.APPROVAL_DECIDED, EventKind.RUN_FINISHED):
        return str(data.get("status", ""))
    if kind == EventKind.BLOCKED:
        return "refused"
    if kind == EventKind.RECONCILED:
        return "settled"
    if kind == EventKind.ARTIFACT_CONFIRMED:
        return "confirmed"
    if kind == EventKind.MODEL_RETRY:
        return "retrying"
    return ""


def search_text(event: EventView, *shown: str) -> str:
    """What the text filter matches: kind, tool, the texts shown in the row (its kind label,
    summary and outcome, as the person reads them) and the raw data, lower-cased."""
    parts = [str(event.get("kind", "")), str(event.get("tool") or ""), *shown]
    parts.append(json.dumps(event.get("data") or {}, ensure_ascii=False))
    return " ".join(parts).lower()


# -- narrowing the open JSON of `data` ---------------------------------------------------------


def _data(event: EventView) -> dict[str, object]:
    return event.get("data") or {}


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _number(value: object) -> float:
    """A number in the JSON (0 when absent); a numeric string, as `float()` reads it, too."""
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value)) if value else 0.0
    except ValueError:
        return 0.0
