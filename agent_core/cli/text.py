"""Readable text for briefdesk-cli without --json: short tables and next-step hints.

Every value that came from a run, a document, a model or a person is shown through
`terminal_line` (one-line fields) or `terminal_block` (a diff, an answer), and `render_text`
passes its whole result through `terminal_block` once more: control characters and bidi
overrides never reach the reviewer's terminal raw.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence

from agent_core.contract.terminal_text import terminal_block, terminal_line
from agent_core.contract.usage import CURRENCY, total_usage
from agent_core.contract.views import (
    ApprovalDetailView,
    ApprovalShowView,
    FileDiffView,
    UsageView,
)

MAX_CELL = 60

Body = Mapping[str, object]
"""One command's JSON result, or one object inside it (a run, an approval, a rule...)."""


def _object(value: object) -> Body:
    """A JSON object of the result; anything else reads as empty."""
    return value if isinstance(value, Mapping) else {}


def _objects(value: object) -> list[Body]:
    """A list of JSON objects of the result (the rows of a table)."""
    return [row for row in value if isinstance(row, Mapping)] if isinstance(value, list) else []


def _joined(value: object) -> str:
    return ", ".join(str(item) for item in value) if isinstance(value, list) else str(value)


def table(rows: Sequence[Body], columns: list[str]) -> str:
    """Columns cut at MAX_CELL characters, except the last one, which is always whole (a rule's
    scope, an audit entry's resource: the part a reviewer must read in full)."""
    if not rows:
        return "(none)"
    cells = [["-" if r.get(c) is None else terminal_line(str(r[c])) for c in columns] for r in rows]
    widths = [
        min(MAX_CELL, max(len(c), *(len(row[i]) for row in cells))) for i, c in enumerate(columns)
    ]
    widths[-1] = max(len(columns[-1]), *(len(row[-1]) for row in cells))

    def line(values: list[str]) -> str:
        return "  ".join(v[:w].ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    return "\n".join([line(columns), line(["-" * w for w in widths]), *(line(r) for r in cells)])


def _line(value: object) -> str:
    return terminal_line(str(value))


def _usage(value: object) -> UsageView | None:
    """A run's `usage` as the contract has it; None when the body holds none."""
    usage = _object(value)
    requests, sent, got = (usage.get(k) for k in ("requests", "input_tokens", "output_tokens"))
    if not (isinstance(requests, int) and isinstance(sent, int) and isinstance(got, int)):
        return None
    cost = usage.get("cost")
    return {
        "requests": requests,
        "input_tokens": sent,
        "output_tokens": got,
        "cost": float(cost) if isinstance(cost, int | float) else None,
        "currency": str(usage.get("currency") or CURRENCY),
    }


def _with_usage(run: Body) -> Body:
    """A run's row of the `runs` table: its requests and tokens as columns of their own."""
    usage = _usage(run.get("usage"))
    if usage is None:
        return run
    return {
        **run,
        "requests": usage["requests"],
        "tokens": usage["input_tokens"] + usage["output_tokens"],
    }


def usage_text(usage: UsageView) -> str:
    """`3 requests, 1,234 in + 56 out tokens, 0.0012 USD` (cost unknown: `cost unknown`)."""
    cost = usage["cost"]
    digits = 4 if cost is None or cost == 0 or cost >= 0.01 else 6  # a cheap run is no 0.0000
    priced = "cost unknown" if cost is None else f"{cost:.{digits}f} {usage['currency']}"
    plural = "" if usage["requests"] == 1 else "s"
    return (
        f"{usage['requests']:,} request{plural}, {usage['input_tokens']:,} in + "
        f"{usage['output_tokens']:,} out tokens, {priced}"
    )


def run_text(run: Body) -> str:
    run_id = _line(run["run_id"])
    lines = [
        f"run {run_id}  [{_line(run['status'])}]  thread {_line(run['thread_id'])}",
        f"question: {_line(run['question'])}",
    ]
    for ap in _objects(run.get("approvals")):
        ap_id = _line(ap["id"])
        lines.append(f"waiting for approval {ap_id}: {_line(ap['tool'])} -> {_line(ap['target'])}")
        lines.append(f"  expires {_line(ap['expires_at'])}")
        lines.append(
            f"  approve: briefdesk-cli approvals approve {ap_id} --reviewer NAME"
            f" && briefdesk-cli resume {run_id}"
        )
    if run.get("question_pending"):
        lines.append(f"question for you: {_line(run['question_pending'])}")
        lines.append(
            f"  answer: briefdesk-cli answer {run_id} --text '...' && briefdesk-cli resume {run_id}"
        )
    if run.get("output"):
        lines.append(f"output: {terminal_block(str(run['output']))}")
    if run.get("error"):
        error = _object(run["error"])
        lines.append(f"error: {_line(error['code'])}: {_line(error['message'])}")
    if (usage := _usage(run.get("usage"))) is not None:
        lines.append(f"usage: {usage_text(usage)}")
    return "\n".join(lines)


def event_line(event: Body) -> str:
    # json.dumps escapes C0 controls but leaves C1 and bidi characters raw.
    data = _line(json.dumps(event["data"], ensure_ascii=False))[:100]
    when = str(event["at"])[11:23]
    kind, tool = _line(event["kind"]), _line(event["tool"] or "")
    return f"{event['seq']:>6}  {when}  {kind:<20} {tool:<16} {data}"


def _lines(text: str) -> list[str]:
    """Lines as a file holds them: split at newlines only (str.splitlines also splits at CR,
    form feed and U+2028, which would show a hidden `\r` as a line break of its own)."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    return [*lines, parts[-1]] if parts[-1] else lines


def review_view(described: ApprovalDetailView) -> ApprovalShowView:
    """`approvals show`: the proposal, whether its target changed, and a unified diff."""
    approval = described["approval"]
    diff = revision_diff = None
    content_field = approval.get("content_field")
    previous = described.get("previous")
    diffs: list[FileDiffView] = []
    if "files" in described:  # an external agent's file write: each file after the change
        diffs = [
            {"path": f["path"], "diff": _file_diff(f["path"], f["current_text"], f["after_text"])}
            for f in described["files"]
        ]
        diff = diffs[0]["diff"] if diffs else None
    elif content_field:
        current = described["current_text"]
        content = approval["args"][content_field]  # null: a revert that removes the file
        label = str(approval["target"])
        diff = _unified(
            current,
            None if content is None else str(content),
            "/dev/null" if current is None else label,
            "/dev/null" if content is None else label,
        )
        if previous is not None and previous["content"] is not None and content is not None:
            revision_diff = _unified(
                previous["content"],
                str(content),
                f"{label} (revision {previous['revision']})",
                f"{label} (revision {approval['revision']})",
            )
    shown: ApprovalShowView = {
        "approval": approval,
        "target_changed": described["target_changed"],
        # `file`: this desk's file as it is now; `proposal_base`: the content kept when another
        # desk proposed it; `unknown_base`: another desk's, and its content was not kept.
        "compared_with": described.get("compared_with", "file"),
        "diff": diff,
        "mcp": described.get("mcp"),  # a tool of an MCP server: server, hints, unknown outcome
        "previous": previous,  # a revision: what was sent back, and the diff since it
        "revision_diff": revision_diff,
    }
    if "files" in described:
        shown["diffs"] = diffs
    return shown


def _file_diff(path: str, current: str | None, after: str | None) -> str:
    """A file's unified diff, from /dev/null for a new file, to /dev/null for a deleted one."""
    return _unified(
        current,
        after,
        "/dev/null" if current is None else path,
        "/dev/null" if after is None else path,
    )


def _unified(old: str | None, new: str | None, old_label: str, new_label: str) -> str:
    before = [] if old is None else _lines(old)
    after = [] if new is None else _lines(new)
    return "".join(difflib.unified_diff(before, after, old_label, new_label))


def render_text(body: Body) -> str:
    """The text of one command's result, safe to print on a terminal."""
    return terminal_block(_render(body))


def _render(body: Body) -> str:
    if "diff" in body and "approval" in body:
        return show_text(body)
    if "run_id" in body and "status" in body:
        return run_text(body)
    if "runs" in body:
        runs = [_with_usage(r) for r in _objects(body["runs"])]
        columns = ["run_id", "status", "model", "mode", "updated_at", "requests", "tokens"]
        listed = table(runs, [*columns, "question"])
        usages = [u for r in runs if (u := _usage(r.get("usage"))) is not None]
        if usages:  # the whole home's usage (the list is every run)
            runs_in_all = f"{len(usages)} run{'' if len(usages) == 1 else 's'} in all"
            listed += f"\n{runs_in_all}: {usage_text(total_usage(usages))}"
        damaged = [  # rows this app cannot read (storage_corrupt): said, never hidden
            f"unreadable run {_line(d['run_id'])}: {_line(_object(d['error'])['message'])}"
            for d in _objects(body.get("damaged"))
        ]
        return "\n".join([listed, *damaged])
    if "events" in body:
        return "\n".join(event_line(e) for e in _objects(body["events"])) or "(no events)"
    if "inbox" in body:  # the target last, whole
        items = _objects(body["inbox"])
        if not items:
            return "(nothing waits for you)"
        columns = ["kind", "id", "desk", "tool", "expires_at", "revision", "summary", "target"]
        return table(items, columns)
    if "approvals" in body:  # the target last: a path is read whole, never cut
        columns = ["id", "run_id", "desk", "tool", "status", "expires_at", "target"]
        return table(_objects(body["approvals"]), columns)
    if "approval" in body:
        a = _object(body["approval"])
        text = (
            f"approval {_line(a['id'])} is {_line(a['status'])} (tool {_line(a['tool'])}, "
            f"target {_line(a['target'])}, arg hash {_line(a['arg_hash'])[:12]})"
        )
        if a.get("revises") and a.get("revision") == 1:  # a revert (`approvals revert`)
            text += f"\n  reverts {_line(a['revises'])}"
            if a["status"] == "pending":
                text += (
                    f"; decide it: briefdesk-cli approvals approve {_line(a['id'])} --reviewer "
                    f"NAME, then briefdesk-cli resume {_line(a['run_id'])}"
                )
        return text
    if "rules" in body:
        return table(_objects(body["rules"]), ["id", "active", "describes"])
    if "suggestions" in body:
        return _suggestions_text(_objects(body["suggestions"]))
    if "rule" in body:
        rule = _object(body["rule"])
        state = "active" if rule["active"] else "revoked"
        return f"rule {_line(rule['id'])}: {_line(rule['describes'])} ({state})"
    if "grants" in body:
        grants = _objects(body["grants"])
        if not grants:
            return "(no grants: every reviewer decides every proposal)"
        return table(grants, ["id", "active", "describes"])
    if "grant" in body:
        grant = _object(body["grant"])
        state = "active" if grant["active"] else "revoked"
        return f"grant {_line(grant['id'])}: {_line(grant['describes'])} ({state})"
    if "desk_role" in body:
        role = _object(body["desk_role"])
        return "\n".join(
            [
                f"role {_line(role['role'])} on database {_line(role['database'])}:",
                "  reads and writes: " + _line(_joined(role["read_write"])),
                "  reads and appends: " + _line(_joined(role["append_only"])),
                "  only reads: " + _line(_joined(role["read_only"])),
            ]
        )
    if "entries" in body:
        columns = ["at", "entry", "principal", "tool", "decision", "code", "rule_id", "resource"]
        return table(_objects(body["entries"]), columns)
    if "memories" in body:
        return table(
            _objects(body["memories"]), ["id", "user", "purpose", "key", "value", "expires_at"]
        )
    mcp = _mcp_text(body)
    if mcp is not None:
        return mcp
    corpus = body.get("corpus")
    if isinstance(corpus, Mapping):  # corpus status / reindex
        types = ", ".join(f"{_line(t)} {n}" for t, n in _object(corpus["by_type"]).items())
        return (
            f"{_line(corpus['root'])}: {corpus['documents']} documents, {corpus['indexed']} "
            f"indexed, {corpus['pending']} pending, {corpus['failed']} failed"
            + (f"\nby type: {types}" if types else "")
        )
    if "documents" in body:  # corpus list
        rows = [
            {
                **d,
                "error": f"{e['code']}: {e['message']}" if (e := _object(d.get("error"))) else None,
            }
            for d in _objects(body["documents"])
        ]
        return table(rows, ["path", "type", "pages", "chars", "status", "error"])
    store = body.get("store")
    if isinstance(store, Mapping):
        return store_text(store)
    password = body.get("password")
    if isinstance(password, Mapping):
        return password_text(password)
    if "copied" in body:  # db copy
        rows = [{"table": name, "rows": count} for name, count in _object(body["copied"]).items()]
        checked = "verified (counts and content hashes)" if body["verified"] else "NOT verified"
        head = f"copied {_line(body['source'])} to {_line(body['to'])}: {checked}"
        return "\n".join([head, table(rows, ["table", "rows"])])
    if "settings" in body:
        settings = sorted(_object(body["settings"]).items(), key=lambda item: item[0])
        return "\n".join(f"{_line(k)} = {json.dumps(v)}" for k, v in settings)
    if "stored" in body:
        stored = "stored" if body["stored"] else "not stored"
        return f"{_line(body['name'])}: {stored} (backend {_line(body['backend'])})"
    return "\n".join(f"{_line(k)}: {_line(v)}" for k, v in body.items())


def _server_row(server: Body) -> Body:
    command = " ".join([str(server["command"]), *map(str, _objects_or_strings(server["args"]))])
    return {
        **server,
        "command": command,
        "env_keys": ", ".join(map(str, _objects_or_strings(server["env_keys"]))),
        "trust_hints": "yes" if server["trust_hints"] else "no",
        "roots": ", ".join(map(str, _objects_or_strings(server.get("roots")))),
        "confined": _confinement(server),
    }


def _confinement(server: Body) -> str:
    if not server.get("sandbox", True):
        return "no sandbox"
    return "sandbox, network" if server.get("network") else "sandbox"


def _suggestions_text(suggestions: list[Body]) -> str:
    """`rules suggest`: numbered as `rules add --from-suggestion N` takes them, the scope
    last and whole (what the rule would cover)."""
    if not suggestions:
        return "(no suggestions: no kind of call was approved 3 times without a refusal)"
    rows: list[Body] = [
        {
            "N": number,
            "tool": s.get("tool"),
            "agent": s.get("agent") or "-",  # Claude Code's and Codex's `Bash` are not one
            "would_approve": s.get("would_approve"),
            "proposals": _joined(s.get("would_have_asked_about")),
            "scope": s.get("scope"),
        }
        for number, s in enumerate(suggestions, start=1)
    ]
    columns = ["N", "tool", "agent", "would_approve", "proposals", "scope"]
    return table(rows, columns) + "\nMake one: briefdesk-cli rules add --from-suggestion N"


def _objects_or_strings(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _mcp_text(body: Body) -> str | None:
    """`mcp list / add / tools / tier / remove`; None for any other result. Env values are
    never in the result, so never here."""
    if "servers" in body:
        columns = ["name", "status", "confined", "trust_hints", "env_keys", "roots", "command"]
        return table([_server_row(s) for s in _objects(body["servers"])], columns)
    if "server" in body:
        s = _server_row(_object(body["server"]))
        keys = f", env {_line(s['env_keys'])}" if s["env_keys"] else ""
        return (
            f"MCP server {_line(s['name'])} registered (not started): {_line(s['command'])}"
            f"{keys}, trusts hints: {s['trust_hints']}, {s['confined']}"
            f"{', writes in ' + _line(s['roots']) if s['roots'] else ''}\n"
            f"  its tools: briefdesk-cli mcp tools {_line(s['name'])}"
        )
    if "tools" in body:
        rows = [
            {
                **t,
                "hints": ", ".join(
                    f"{k}={json.dumps(v)}" for k, v in _object(t.get("annotations")).items()
                ),
            }
            for t in _objects(body["tools"])
        ]
        return table(rows, ["model_name", "tier", "hints"])
    if "tier" in body:
        t = _object(body["tier"])
        return f"{_line(t['server'])}/{_line(t['tool'])} is now {_line(t['tier'])}-tier"
    if "removed" in body:
        return f"MCP server {_line(body['removed'])} removed"
    return None


def store_text(store: Body) -> str:
    """`db status`: which store, whether it answers, its schema; a note only when there is one."""
    team = store.get("kind") == "postgresql"
    revision = store.get("revision")
    lines = [
        "store: " + ("a team's PostgreSQL database" if team else "this home's SQLite file"),
        f"url: {_line(store.get('url'))}",
        f"reachable: {'yes' if store.get('reachable') else 'no'}",
        f"schema revision: {_line(revision) if revision is not None else 'none yet'}",
    ]
    if store.get("desk") is not None:
        lines.append(f"desk: {_line(store['desk'])}")
    known = {"kind", "url", "reachable", "revision", "desk", "message"}
    lines += [
        f"{_line(k)}: {_line(v)}" for k, v in store.items() if k not in known and v is not None
    ]
    if store.get("message"):
        lines.append("note: " + _line(store["message"]))
    return "\n".join(lines)


def password_text(status: Body) -> str:
    """`db password`: where the password went, in words (never the password itself)."""
    entry, backend = _line(status.get("name")), _line(status.get("backend"))
    if status.get("stored"):
        lines = [f"stored the team database's password in the keyring as {entry} ({backend})"]
    else:
        lines = [f"the team database's password is NOT stored in the keyring ({backend})"]
    overridden = status.get("overridden_by")
    if overridden:
        lines.append(
            f"note: {_line(overridden)} is set, so the database login uses it, not the keyring"
        )
    return "\n".join(lines)


def show_text(body: Body) -> str:
    a = _object(body["approval"])
    lines = [
        f"approval {_line(a['id'])} [{_line(a['status'])}] v{_line(a['version'])}: "
        f"{_line(a['tool'])} ({_line(a['risk'])})",
        f"target:  {_line(a['target'])}",
        f"reason:  {_line(a['reason'])}",
        f"expires: {_line(a['expires_at'])}   arg hash: {_line(a['arg_hash'])[:12]}",
    ]
    if body["target_changed"]:
        lines.append("WARNING: the target changed on disk since this proposal (target_changed)")
    compared = body.get("compared_with")
    if compared == "proposal_base":
        desk = _line(a.get("desk") or "another desk")
        lines.append(f"diff against the file as {desk} had it when proposing (not on this desk)")
    elif compared == "unknown_base":
        lines.append(
            "WARNING: this overwrites a file on another desk whose content was not kept with "
            "the proposal; the diff shows only the new content"
        )
    previous = _object(body.get("previous"))
    if previous:
        asked = _line(previous.get("reviewer") or "a reviewer")
        revision, revises = _line(a.get("revision")), _line(previous["id"])
        note = _line(a.get("revision_note") or "")
        lines.append(f"revision {revision} (revises {revises}), {asked} asked: {note}")
    diff = body["diff"]
    revision_diff = body.get("revision_diff")
    if revision_diff is not None:
        since = f"changes since revision {_line(previous.get('revision'))}:"
        lines += ["", since, terminal_block(str(revision_diff).rstrip("\n")) or "(no change)"]
        lines += ["", "changes against the file:"]
    elif diff is not None:
        lines.append("")
    if diff is not None:
        lines.append(terminal_block(str(diff).rstrip("\n")) or "(no change)")
    else:
        args = json.dumps(a["args"], ensure_ascii=False, indent=2)
        lines += ["", "arguments: " + terminal_block(args)]
    return "\n".join(lines)
