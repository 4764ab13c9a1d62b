"""Plain-text views of timeline events: one line a person can scan, and an outcome word.

Pure functions over EVENT views (see the CLI contract), so they are tested without Qt. An
event's `data` is open JSON: each value is narrowed where it is used.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime

from PySide6.QtCore import QCoreApplication

from agent_core.contract.events import EventKind
from agent_core.contract.model_spec import model_label
from agent_core.contract.views import EventView
from desktop.i18n import QT_TRANSLATE_NOOP, core_words
from desktop.models import agent_labels

translate = QCoreApplication.translate

KIND_LABELS: dict[str, str] = {
    EventKind.RUN_STARTED: QT_TRANSLATE_NOOP("EventText", "Run started"),
    EventKind.RUN_RESUMED: QT_TRANSLATE_NOOP("EventText", "Resumed"),
    EventKind.RUN_INTERRUPTED: QT_TRANSLATE_NOOP("EventText", "Crash found"),
    EventKind.RUN_FINISHED: QT_TRANSLATE_NOOP("EventText", "Run finished"),
    EventKind.MODEL_TURN: QT_TRANSLATE_NOOP("EventText", "Model turn"),
    EventKind.CHECKPOINT_SAVED: QT_TRANSLATE_NOOP("EventText", "Checkpoint"),
    EventKind.TOOL_CALLED: QT_TRANSLATE_NOOP("EventText", "Tool call"),
    EventKind.TOOL_RESULT: QT_TRANSLATE_NOOP("EventText", "Tool result"),
    EventKind.APPROVAL_REQUESTED: QT_TRANSLATE_NOOP("EventText", "Approval asked"),
    EventKind.APPROVAL_DECIDED: QT_TRANSLATE_NOOP("EventText", "Approval decided"),
    EventKind.BLOCKED: QT_TRANSLATE_NOOP("EventText", "Blocked"),
    EventKind.OUTCOME_UNKNOWN: QT_TRANSLATE_NOOP("EventText", "Outcome unknown"),
    EventKind.RECONCILED: QT_TRANSLATE_NOOP("EventText", "Reconciled"),
    EventKind.ARTIFACT_CONFIRMED: QT_TRANSLATE_NOOP("EventText", "Artifact confirmed"),
    EventKind.ARTIFACT_UNEXPECTED: QT_TRANSLATE_NOOP("EventText", "Unexpected write"),
    EventKind.QUESTION_ASKED: QT_TRANSLATE_NOOP("EventText", "Question"),
    EventKind.ANSWER_RECEIVED: QT_TRANSLATE_NOOP("EventText", "Answer"),
    EventKind.MODEL_RETRY: QT_TRANSLATE_NOOP("EventText", "Retrying"),
    EventKind.MODEL_DELTA: QT_TRANSLATE_NOOP("EventText", "Writing"),
}
DELTA_SHOWN_CHARS = 160  # a growing answer shows its latest words


CHANGES_REQUESTED_LABEL = QT_TRANSLATE_NOOP("EventText", "Decision")
CHANGES_REQUESTED_OUTCOME = "changes requested"  # a person's decision, not a failed tool


def changes_requested(event: EventView) -> bool:
    """A tool_result for a call a person sent back with a note: nothing ran, by decision."""
    return (
        event.get("kind") == EventKind.TOOL_RESULT and _data(event).get("changes_requested") is True
    )


def kind_label(event: EventView) -> str:
    kind = str(event.get("kind", ""))
    if changes_requested(event):
        return translate("EventText", CHANGES_REQUESTED_LABEL)
    source = KIND_LABELS.get(kind)
    label = translate("EventText", source) if source else kind.replace("_", " ").capitalize()
    if kind == EventKind.CHECKPOINT_SAVED:
        boundary = (event.get("data") or {}).get("boundary")
        if boundary:
            label = translate("EventText", "Checkpoint {boundary}").format(boundary=boundary)
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
        return translate("EventText", "{n} ms").format(n=f"{seconds * 1000:.0f}")
    if seconds < 120:
        return translate("EventText", "{n} s").format(n=f"{seconds:.1f}")
    return translate("EventText", "{m} min {s} s").format(m=int(seconds // 60), s=int(seconds % 60))


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
        return translate("EventText", "{text} ({n} chars)").format(
            text=cut_words(flat, limit), n=f"{len(value):,}"
        )
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
        hits = translate("EventText", "{n} hits").format(n=details["hits"])
        parts.append(hits + (f": {', '.join(map(str, found[:3]))}" if found else ""))
    if "source_id" in details:
        parts.append(str(details["source_id"]))
    if "chars" in details:
        chars = details["chars"]
        if isinstance(chars, int):
            parts.append(translate("EventText", "{n} chars").format(n=f"{chars:,}"))
        else:
            parts.append(str(chars))
    if details.get("truncated"):
        parts.append(translate("EventText", "truncated"))
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
    if kind == EventKind.RUN_STARTED and isinstance(data.get("agent"), str):
        return translate("EventText", "{agent} · {session} · {folder}").format(
            agent=agent_labels.agent_title(str(data["agent"])),
            session=agent_labels.short_session(str(data.get("session_id") or "")),
            folder=agent_labels.short_folder(str(data.get("cwd") or "")),
        )
    if kind == EventKind.RUN_STARTED:
        question = _first_line(data.get("question"))
        return translate("EventText", "“{question}” · model {model} · mode {mode}").format(
            question=question,
            model=_model(data.get("model")),
            mode=core_words.mode(data.get("mode")),
        )
    if kind == EventKind.RUN_RESUMED:
        return translate("EventText", "Resumed from the latest checkpoint · model {model}").format(
            model=_model(data.get("model"))
        )
    if kind == EventKind.RUN_INTERRUPTED:
        return translate("EventText", "The previous process (pid {pid}) died mid-run").format(
            pid=data.get("previous_owner_pid")
        )
    if kind == EventKind.RUN_FINISHED:
        error = _mapping(data.get("error"))
        extra = f" · {error.get('code')}: {error.get('message')}" if error else ""
        by = translate("EventText", " (by {who})").format(who=data["by"]) if data.get("by") else ""
        status = core_words.run_status(data.get("status"))
        return translate("EventText", "Finished: {status}").format(status=status) + by + extra
    if kind == EventKind.MODEL_TURN:
        calls = [str(call) for call in _list(data.get("calls"))]
        head = translate("EventText", "Turn {n}").format(n=data.get("turn"))
        if calls:
            return f"{head} → {', '.join(calls)}"
        said = _first_line(data.get("text")) or translate("EventText", "final answer")
        return f"{head} · {said}"
    if kind == EventKind.CHECKPOINT_SAVED:
        return translate("EventText", "#{n} · next: {step}").format(
            n=data.get("sequence"), step=core_words.next_step(data.get("next_step"))
        )
    if kind == EventKind.TOOL_CALLED:
        server = (
            translate("EventText", "MCP server {server} · ").format(server=data["server"])
            if data.get("server")
            else ""
        )
        return server + pairs(_mapping(data.get("args")))
    if changes_requested(event):  # older events carry no note: the decision still reads
        note = _first_line(data.get("note"))
        if note:
            return translate("EventText", "Changes requested: {note}").format(note=note)
        return translate("EventText", "Changes requested")
    if kind == EventKind.TOOL_RESULT:
        # What the tool returned is the detail's to show whole; the row names what it found,
        # or, when a tool says nothing else (an MCP tool), the first line of what it returned.
        details = {
            k: v for k, v in data.items() if k not in ("call_id", "outcome", "executed", "result")
        }
        replayed = "" if data.get("executed", True) else translate("EventText", "not executed · ")
        returned = _first_line(data["result"]) if isinstance(data.get("result"), str) else ""
        return replayed + (
            result_text(details) or returned or outcome_word(data.get("outcome", ""))
        )
    if kind == EventKind.APPROVAL_REQUESTED:
        target = short_path(data.get("target")) or translate("EventText", "approval needed")
        return f"{data.get('approval_id')} → {target}"
    if kind == EventKind.APPROVAL_DECIDED:
        status = core_words.approval_status(data.get("status"))
        if data.get("reviewer"):
            return translate("EventText", "{id} {status} by {who}").format(
                id=data.get("approval_id"), status=status, who=data["reviewer"]
            )
        return f"{data.get('approval_id')} {status}"
    if kind == EventKind.BLOCKED:
        return f"{data.get('code')}: {data.get('rule')} · {data.get('resource')}"
    if kind in (EventKind.OUTCOME_UNKNOWN, EventKind.RECONCILED):
        return translate("EventText", "call {call} · key {key}").format(
            call=data.get("call_id"), key=str(data.get("idempotency_key", ""))[:16]
        )
    if kind in (EventKind.ARTIFACT_CONFIRMED, EventKind.ARTIFACT_UNEXPECTED):
        count = data.get("count")
        if data.get("summary"):  # the watcher's first scan: one entry for a folder of old files
            return translate(
                "EventText", "{n} files nobody approved were already in {path}"
            ).format(n=count, path=data.get("path"))
        written = translate("EventText", " · written {n}×").format(n=count)
        return f"{data.get('path')}" + (written if count is not None else "")
    if kind in (EventKind.QUESTION_ASKED, EventKind.ANSWER_RECEIVED):
        text = data.get("answer") if kind == EventKind.ANSWER_RECEIVED else data.get("question")
        return _first_line(text)
    if kind == EventKind.MODEL_RETRY:
        return translate(
            "EventText", "Turn {turn} · attempt {attempt} failed: {reason} · next try in {wait}"
        ).format(
            turn=data.get("turn"),
            attempt=data.get("attempt"),
            reason=data.get("reason"),
            wait=duration_text(_number(data.get("wait_s"))),
        )
    if kind == EventKind.MODEL_DELTA:
        flat = flatten(str(data.get("text") or ""))
        shown = flat if len(flat) <= DELTA_SHOWN_CHARS else "…" + flat[-DELTA_SHOWN_CHARS:]
        return translate("EventText", "Turn {n}").format(n=data.get("turn")) + f" · {shown}"
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


OUTCOME_WORDS: dict[str, str] = {
    "success": QT_TRANSLATE_NOOP("EventText", "success"),
    "empty": QT_TRANSLATE_NOOP("EventText", "empty"),
    "degraded": QT_TRANSLATE_NOOP("EventText", "degraded"),
    "fallback": QT_TRANSLATE_NOOP("EventText", "fallback"),
    "provider_error": QT_TRANSLATE_NOOP("EventText", "provider_error"),
    "error": QT_TRANSLATE_NOOP("EventText", "error"),
    "refused": QT_TRANSLATE_NOOP("EventText", "refused"),
    "settled": QT_TRANSLATE_NOOP("EventText", "settled"),
    "confirmed": QT_TRANSLATE_NOOP("EventText", "confirmed"),
    "retrying": QT_TRANSLATE_NOOP("EventText", "retrying"),
    CHANGES_REQUESTED_OUTCOME: QT_TRANSLATE_NOOP("EventText", "changes requested"),
}


def outcome_word(code: object) -> str:
    """An outcome as the row shows it: a tool's outcome, or a run's or proposal's status."""
    text = str(code or "")
    source = OUTCOME_WORDS.get(text)
    if source:
        return translate("EventText", source)
    if text in core_words.APPROVAL_STATUSES:
        return core_words.approval_status(text)
    return core_words.run_status(text) if text in core_words.RUN_STATUSES else text


def search_text(event: EventView, *shown: str) -> str:
    """What the text filter matches: kind, tool, the texts shown in the row (its kind label,
    summary and outcome, as the person reads them) and the raw data, lower-cased."""
    parts = [str(event.get("kind", "")), str(event.get("tool") or ""), *shown]
    parts.append(json.dumps(event.get("data") or {}, ensure_ascii=False))
    return " ".join(parts).lower()


# -- narrowing the open JSON of `data` ---------------------------------------------------------


def _model(spec: object) -> str:
    """A run's model as the window names it (`offline` in the window's words)."""
    return core_words.model(model_label(str(spec or "")))


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
