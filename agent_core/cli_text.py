"""Readable text for briefdesk-cli without --json: short tables and next-step hints."""

from __future__ import annotations

import difflib
import json
from typing import Any

MAX_CELL = 60


def table(rows: list[dict[str, Any]], columns: list[str]) -> str:
    if not rows:
        return "(none)"
    cells = [["-" if r.get(c) is None else str(r[c]) for c in columns] for r in rows]
    widths = [
        min(MAX_CELL, max(len(c), *(len(row[i]) for row in cells))) for i, c in enumerate(columns)
    ]

    def line(values: list[str]) -> str:
        return "  ".join(v[:w].ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    return "\n".join([line(columns), line(["-" * w for w in widths]), *(line(r) for r in cells)])


def run_text(run: dict[str, Any]) -> str:
    run_id = run["run_id"]
    lines = [
        f"run {run_id}  [{run['status']}]  thread {run['thread_id']}",
        f"question: {run['question']}",
    ]
    for ap in run.get("approvals", []):
        lines.append(f"waiting for approval {ap['id']}: {ap['tool']} -> {ap['target']}")
        lines.append(f"  expires {ap['expires_at']}")
        lines.append(
            f"  approve: briefdesk-cli approvals approve {ap['id']} --reviewer NAME"
            f" && briefdesk-cli resume {run_id}"
        )
    if run.get("question_pending"):
        lines.append(f"question for you: {run['question_pending']}")
        lines.append(
            f"  answer: briefdesk-cli answer {run_id} --text '...' && briefdesk-cli resume {run_id}"
        )
    if run.get("output"):
        lines.append(f"output: {run['output']}")
    if run.get("error"):
        lines.append(f"error: {run['error']['code']}: {run['error']['message']}")
    return "\n".join(lines)


def event_line(event: dict[str, Any]) -> str:
    data = json.dumps(event["data"], ensure_ascii=False)[:100]
    when = event["at"][11:23]
    return f"{event['seq']:>6}  {when}  {event['kind']:<20} {event['tool'] or '':<16} {data}"


def review_view(described: dict[str, Any]) -> dict[str, Any]:
    """`approvals show`: the proposal, whether its target changed, and a unified diff."""
    approval = described["approval"]
    diff = None
    if approval.get("content_field"):
        current = described["current_text"]
        old = [] if current is None else current.splitlines(keepends=True)
        new = str(approval["args"][approval["content_field"]]).splitlines(keepends=True)
        label = approval["target"]
        diff = "".join(
            difflib.unified_diff(old, new, "/dev/null" if current is None else label, label)
        )
    return {"approval": approval, "target_changed": described["target_changed"], "diff": diff}


def render_text(body: dict[str, Any]) -> str:
    if "diff" in body and "approval" in body:
        return show_text(body)
    if "run_id" in body and "status" in body:
        return run_text(body)
    if "runs" in body:
        return table(body["runs"], ["run_id", "status", "model", "mode", "updated_at", "question"])
    if "events" in body:
        return "\n".join(event_line(e) for e in body["events"]) or "(no events)"
    if "approvals" in body:
        return table(body["approvals"], ["id", "run_id", "tool", "status", "target", "expires_at"])
    if "approval" in body:
        a = body["approval"]
        return (
            f"approval {a['id']} is {a['status']} "
            f"(tool {a['tool']}, target {a['target']}, arg hash {a['arg_hash'][:12]})"
        )
    if "rules" in body:
        return table(body["rules"], ["id", "active", "describes"])
    if "rule" in body:
        rule = body["rule"]
        return (
            f"rule {rule['id']}: {rule['describes']} ({'active' if rule['active'] else 'revoked'})"
        )
    if "entries" in body:
        columns = ["at", "entry", "principal", "tool", "decision", "code", "rule_id", "resource"]
        return table(body["entries"], columns)
    if "memories" in body:
        return table(body["memories"], ["id", "user", "purpose", "key", "value", "expires_at"])
    if "settings" in body:
        return "\n".join(f"{k} = {json.dumps(v)}" for k, v in sorted(body["settings"].items()))
    if "stored" in body:
        stored = "stored" if body["stored"] else "not stored"
        return f"{body['name']}: {stored} (backend {body['backend']})"
    return "\n".join(f"{k}: {v}" for k, v in body.items())


def show_text(body: dict[str, Any]) -> str:
    a = body["approval"]
    lines = [
        f"approval {a['id']} [{a['status']}] v{a['version']}: {a['tool']} ({a['risk']})",
        f"target:  {a['target']}",
        f"reason:  {a['reason']}",
        f"expires: {a['expires_at']}   arg hash: {a['arg_hash'][:12]}",
    ]
    if body["target_changed"]:
        lines.append("WARNING: the target changed on disk since this proposal (target_changed)")
    if body["diff"] is not None:
        lines += ["", body["diff"].rstrip("\n") or "(no change)"]
    else:
        lines += ["", "arguments: " + json.dumps(a["args"], ensure_ascii=False, indent=2)]
    return "\n".join(lines)
