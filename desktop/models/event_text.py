"""Plain-text views of timeline events: one line a person can scan, and an outcome word.

Pure functions over EVENT dicts (see the CLI contract), so they are tested without Qt.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

KIND_LABELS: dict[str, str] = {
    "run_started": "Run started",
    "run_resumed": "Resumed",
    "run_interrupted": "Crash found",
    "run_finished": "Run finished",
    "model_turn": "Model turn",
    "checkpoint_saved": "Checkpoint",
    "tool_called": "Tool call",
    "tool_result": "Tool result",
    "approval_requested": "Approval asked",
    "approval_decided": "Approval decided",
    "blocked": "Blocked",
    "outcome_unknown": "Outcome unknown",
    "reconciled": "Reconciled",
    "artifact_confirmed": "Artifact confirmed",
    "artifact_unexpected": "Unexpected write",
    "question_asked": "Question",
    "answer_received": "Answer",
}


def kind_label(event: dict[str, Any]) -> str:
    kind = str(event.get("kind", ""))
    label = KIND_LABELS.get(kind, kind.replace("_", " ").capitalize())
    if kind == "checkpoint_saved":
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


def compact_json(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_value(value: Any, limit: int = 48) -> str:
    if isinstance(value, str):
        flat = " ".join(value.split())
        if len(flat) <= limit:
            return flat
        return f"{flat[: limit - 1]}… ({len(value):,} chars)"
    return compact_json(value, limit)


def short_path(path: Any) -> str:
    """A target inside an artifacts folder as a person names it (`briefs/x.md`)."""
    text = str(path or "")
    marker = "/artifacts/"
    return text.split(marker, 1)[1] if marker in text else text


def model_label(spec: str | None) -> str:
    """`scripted:/long/path/attack.json` -> `scripted: attack.json`."""
    spec = spec or ""
    if spec.startswith("scripted:"):
        return "scripted: " + spec.removeprefix("scripted:").rsplit("/", 1)[-1]
    return spec


def pairs(values: dict[str, Any]) -> str:
    """`key=value` pairs, long strings shortened: how a person reads tool arguments."""
    return "  ".join(f"{key}={short_value(value)}" for key, value in values.items())


def result_text(details: dict[str, Any]) -> str:
    """The useful part of a tool result: hits, the document read, the file written, the error."""
    parts: list[str] = []
    if "hits" in details:
        found = details.get("sources_found") or []
        parts.append(
            f"{details['hits']} hits" + (f": {', '.join(map(str, found[:3]))}" if found else "")
        )
    if "source_id" in details:
        parts.append(str(details["source_id"]))
    if "chars" in details:
        parts.append(
            f"{details['chars']:,} chars"
            if isinstance(details["chars"], int)
            else str(details["chars"])
        )
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


def _first_line(text: Any, limit: int = 140) -> str:
    line = str(text or "").strip().splitlines()[0] if str(text or "").strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def summary(event: dict[str, Any]) -> str:
    kind = event.get("kind")
    data: dict[str, Any] = event.get("data") or {}
    if kind == "run_started":
        question = _first_line(data.get("question"))
        return f"“{question}” · model {data.get('model')} · mode {data.get('mode')}"
    if kind == "run_resumed":
        return f"Resumed from the latest checkpoint · model {data.get('model')}"
    if kind == "run_interrupted":
        return f"The previous process (pid {data.get('previous_owner_pid')}) died mid-run"
    if kind == "run_finished":
        error = data.get("error") or {}
        extra = f" · {error.get('code')}: {error.get('message')}" if error else ""
        by = f" (by {data['by']})" if data.get("by") else ""
        return f"Finished: {data.get('status')}{by}{extra}"
    if kind == "model_turn":
        calls = data.get("calls") or []
        head = f"Turn {data.get('turn')}"
        if calls:
            return f"{head} → {', '.join(calls)}"
        return f"{head} · {_first_line(data.get('text')) or 'final answer'}"
    if kind == "checkpoint_saved":
        return f"#{data.get('sequence')} · next: {data.get('next_step')}"
    if kind == "tool_called":
        return pairs(data.get("args") or {})
    if kind == "tool_result":
        details = {k: v for k, v in data.items() if k not in ("call_id", "outcome", "executed")}
        replayed = "" if data.get("executed", True) else "not executed · "
        return replayed + (result_text(details) or str(data.get("outcome", "")))
    if kind == "approval_requested":
        return f"{data.get('approval_id')} → {short_path(data.get('target')) or 'approval needed'}"
    if kind == "approval_decided":
        who = f" by {data['reviewer']}" if data.get("reviewer") else ""
        return f"{data.get('approval_id')} {data.get('status')}{who}"
    if kind == "blocked":
        return f"{data.get('code')}: {data.get('rule')} · {data.get('resource')}"
    if kind in ("outcome_unknown", "reconciled"):
        return f"call {data.get('call_id')} · key {str(data.get('idempotency_key', ''))[:16]}"
    if kind in ("artifact_confirmed", "artifact_unexpected"):
        count = data.get("count")
        return f"{data.get('path')}" + (f" · written {count}×" if count is not None else "")
    if kind in ("question_asked", "answer_received"):
        text = data.get("answer") if kind == "answer_received" else data.get("question")
        return _first_line(text)
    return compact_json(data)


def outcome(event: dict[str, Any]) -> str:
    kind = event.get("kind")
    data: dict[str, Any] = event.get("data") or {}
    if kind == "tool_result":
        return str(data.get("outcome", ""))
    if kind in ("approval_requested", "approval_decided", "run_finished"):
        return str(data.get("status", ""))
    if kind == "blocked":
        return "refused"
    if kind == "reconciled":
        return "settled"
    if kind == "artifact_confirmed":
        return "confirmed"
    return ""


def search_text(event: dict[str, Any], summary_text: str) -> str:
    """What the text filter matches: kind, tool, summary and the raw data, lower-cased."""
    parts = [str(event.get("kind", "")), str(event.get("tool") or ""), summary_text]
    parts.append(json.dumps(event.get("data") or {}, ensure_ascii=False))
    return " ".join(parts).lower()
