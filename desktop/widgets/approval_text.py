"""What the approval dialog says: banner and status texts, detail values, times, rule wording.

Pure functions of the proposal dicts that `Workspace.describe_approval` and `get_approval`
return (no widgets, no I/O), so the dialog's modules only decide where each text goes.
"""

from __future__ import annotations

import json
import unicodedata
from datetime import UTC, datetime
from html import escape
from typing import TYPE_CHECKING

from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.views import ApprovalDetailView, ApprovalView, EditCheckView, RunView
from desktop.models.event_text import cut_words
from desktop.models.plain_errors import plain_error, plain_exception
from desktop.models.store_text import other_desk
from desktop.models.visible_text import visible_line
from desktop.widgets.markdown_highlighter import cited_sources, content_summary

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace

SCOPES = (("run", "this run only"), ("home", "every run in this home"))
_BANNER = "border-radius: 4px; padding: 6px; color: #1f2328; background: {}; border: 1px solid {};"
BANNER_STYLES = {
    "info": _BANNER.format("#ddf4ff", "#54aeff"),
    "success": _BANNER.format("#dafbe1", "#4ac26b"),
    "warning": _BANNER.format("#fff8c5", "#d4a72c"),
    "error": _BANNER.format("#ffebe9", "#ff8182"),
}
DETAILS = (
    ("Tool", "tool"),
    ("Risk tier", "risk"),
    ("Expires in", "expires"),
    ("Reason", "reason"),
    ("Arg hash", "arg_hash"),
    ("Created", "created"),
    ("Run", "run"),
    ("State version", "state_version"),
    ("Reviewer", "reviewer"),
)

# -- times ------------------------------------------------------------------------------------


def parse_time(value: str) -> datetime:
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def local_time(value: str | None) -> str:
    return parse_time(value).astimezone().strftime("%Y-%m-%d %H:%M:%S") if value else "—"


def countdown_text(expires_at: str, now: datetime) -> tuple[str, float]:
    """("12:03", seconds left); hours are shown only when there are some."""
    remaining = (parse_time(expires_at) - now).total_seconds()
    if remaining <= 0:
        return "expired", remaining
    hours, rest = divmod(int(remaining + 0.999), 3600)
    minutes, seconds = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
    return text, remaining


# -- the proposal -----------------------------------------------------------------------------


class ReviewInfo(ApprovalDetailView):
    """`describe_approval`, with this window's desk (another desk's proposal says so)."""

    this_desk: str | None


def review_info(ws: Workspace, approval_id: str) -> ReviewInfo:
    """Bridge thread: the proposal as the dialog shows it, with this window's desk."""
    return ReviewInfo(**ws.describe_approval(approval_id), this_desk=ws.desk)


def is_revert(ap: ApprovalView | None) -> bool:
    """A person's revert of an executed write (`approvals revert`): revision 1, revising one."""
    return ap is not None and bool(ap.get("revises")) and ap.get("revision") == 1


def title_text(info: ReviewInfo) -> str:
    """The rich heading: what the tool wants to do (and on which desk, when another one)."""
    ap = info["approval"]
    if is_revert(ap):  # a person's revert of an executed write
        removes = ap["args"].get(str(ap.get("content_field"))) is None
        verb = "remove the file it created" if removes else "put the file back as it was"
        heading = f"<b>Revert</b> of {escape(str(ap['revises']))}: {verb}"
    elif ap.get("content_field"):  # its spec says: this call writes content to its target
        new = info["current_text"] is None
        verb = "create a new file" if new else "overwrite an existing file"
        heading = f"<b>{escape(ap['tool'])}</b> wants to {verb} — version {ap['version']}"
    else:
        heading = f"<b>{escape(ap['tool'])}</b> needs approval ({escape(ap['risk'])})"
    return heading + desk_text(info)


def desk_text(info: ReviewInfo) -> str:
    """`· proposed on desk-b` when another desk's run proposed it (team mode); else empty."""
    ap, run = info["approval"], info.get("run")
    desk = other_desk(ap.get("desk") or (run or {}).get("desk"), info.get("this_desk"))
    return f" · proposed on <b>{escape(visible_line(desk))}</b>" if desk else ""


def target_text(ap: ApprovalView) -> str:
    return ap["target"] or json.dumps(ap["args"], ensure_ascii=False)


def detail_texts(ap: ApprovalView, run: RunView, reviewer: str) -> list[tuple[str, str]]:
    """(DETAILS key, plain text) for every detail but the countdown, which ticks on its own."""
    question = cut_words(run["question"], 60)
    return [
        ("tool", ap["tool"]),
        ("risk", ap["risk"]),
        ("reason", ap["reason"]),
        ("arg_hash", ap["arg_hash"][:12]),
        ("created", local_time(ap["created_at"])),
        ("state_version", f"{ap['state_version']} (proposal v{ap['version']})"),
        ("run", f"{run['run_id']} ({run['status']}): “{question}”"),
        ("reviewer", reviewer),
    ]


def args_text(args: dict[str, object]) -> str:
    """Pretty JSON; invisible characters (bidi overrides, zero widths) shown as escapes, so an
    argument reads as what it is."""
    text = json.dumps(args, indent=2, ensure_ascii=False)
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in ("Cf", "Co")
        else ch
        for ch in text
    )


def summary_text(content: str) -> str:
    summary, sources = content_summary(content), cited_sources(content)
    count, listed = summary["sources"], escape(", ".join(sources) or "none")
    return (
        f"<b>Content:</b> {summary['bytes']:,} bytes · {summary['lines']} lines · "
        f"<b>{count} source{'s' if count != 1 else ''} cited</b> ({listed})"
    )


def old_label(info: ReviewInfo) -> str:
    """The diff's caption for the file on disk (another desk's: as kept when proposed)."""
    compared = info.get("compared_with", "file")
    if compared == "unknown_base":
        return "(the file on the proposing desk: its content was not kept)"
    if info["current_text"] is None:
        return "(no file yet)"
    if compared == "proposal_base":
        return "file on the proposing desk, when proposed"
    changed = " (changed since the proposal)" if info["target_changed"] else ""
    return "current file on disk" + changed


# -- status and banners -----------------------------------------------------------------------


def describe_status(ap: ApprovalView, now: datetime) -> tuple[str | None, str]:
    """(banner level, rich text) for a proposal that can no longer be decided; (None, "") else."""
    status, when = ap["status"], local_time(ap.get("decided_at"))
    reviewer, rule, reason = (
        ap.get("reviewer"),
        ap.get("decided_by_rule"),
        ap.get("decision_reason"),
    )
    by = f" by <b>{escape(reviewer)}</b>" if reviewer else ""
    by += f" (remembered rule {escape(rule)})" if rule else ""
    why = f" — “{escape(reason)}”" if reason else ""
    expired = status == ApprovalStatus.EXPIRED
    if expired or (status == ApprovalStatus.PENDING and parse_time(ap["expires_at"]) <= now):
        return "error", (
            f"<b>Expired</b> at {local_time(ap['expires_at'])}: nobody decided in "
            "time, so it can no longer be approved and its run has ended."
        )
    if status == ApprovalStatus.SUPERSEDED:
        return "info", f"<b>Superseded</b>{by} at {when}: an edit replaced it with a newer version."
    if status == ApprovalStatus.APPROVED:
        return "success", f"<b>Already approved</b>{by} at {when}{why}."
    if status == ApprovalStatus.CONSUMED:
        ran = local_time(ap.get("consumed_at"))
        return "success", f"<b>Approved</b>{by} and <b>executed</b> at {ran}."
    if status == ApprovalStatus.REJECTED:
        return "error", f"<b>Rejected</b>{by} at {when}{why}."
    if status == ApprovalStatus.CHANGES_REQUESTED:  # not refused: the agent proposes again
        return "info", (
            f"<b>Sent back for changes</b>{by} at {when}{why}: nothing was written; the agent "
            "proposes again when the run goes on."
        )
    if status == ApprovalStatus.CANCELLED:  # closed, not refused: nobody judged the proposal
        return "info", f"<b>Closed</b>: its run was cancelled{by} at {when} while it waited."
    return None, ""


def changed_message(info: ReviewInfo) -> str:
    """The warning banner for a target whose file changed since the proposal was made."""
    base, now = info["approval"]["base_hash"], info["current_hash"]
    what = (
        "has been deleted"
        if now is None
        else "now exists (it did not when the write was proposed)"
        if base is None
        else "has different content"
    )
    return (
        f"<b>The target changed on disk since this proposal was made:</b> it {what}. The diff "
        "below is against what is there now. Approving this proposal answers "
        "<b>target_changed</b>; reject it, or Edit to propose it again against the current "
        "file."
    )


def error_text(exc: Exception) -> str:
    """A refused decision in plain words (the code is for scripts, the class name for no one)."""
    return plain_exception(exc)


# -- remembered decisions ---------------------------------------------------------------------


def rule_text(ap: ApprovalView | None, scope: str) -> str:
    """The rule "Always allow" would create, in the words `Rule.describe` uses everywhere."""
    target = ap.get("target") if ap is not None else None
    if ap is None or not target:
        return "(nothing: this call has no target to remember)"
    from agent_core.facade.workspace import (
        Workspace,  # loaded by the bridge before any dialog opens
    )

    return Workspace.describe_rule_for(ap["tool"], str(target), scope, ap.get("run_id"))


def remember_question(ap: ApprovalView | None, scope: str) -> str:
    """The confirmation asked before approving and creating the rule."""
    which = f" ({ap['run_id']})" if scope == "run" and ap else ""
    return (
        "Approve this write <b>and</b> from now on allow "
        f"<b>{escape(rule_text(ap, scope))}</b>{escape(which)} without asking?"
    )


# -- edit validation --------------------------------------------------------------------------


def validation_text(result: EditCheckView, current: str | None) -> str:
    """The edit panel's verdict on a `Workspace.validate_edit` result."""
    if result["ok"]:
        where = "a new file" if current is None else "replaces the existing file"
        target = escape(result["target"] or "")
        return f'<span style="color:#1a7f37;">✓ will write <b>{target}</b> ({where})</span>'
    error = result["error"] or {"code": "invalid_arguments", "message": ""}
    said = escape(plain_error(error["code"], error["message"]))
    return f'<span style="color:#b42318;">✗ {said} <small>({escape(error["code"])})</small></span>'
