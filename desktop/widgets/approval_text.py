"""What the approval dialog says: banner and status texts, detail values, times, rule wording.

Pure functions of the proposal dicts that `Workspace.describe_approval` and `get_approval`
return (no widgets, no I/O), so the dialog's modules only decide where each text goes.
"""

from __future__ import annotations

import json
import unicodedata
from datetime import datetime
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.views import ApprovalDetailView, ApprovalView, EditCheckView, RunView
from desktop.i18n import QT_TRANSLATE_NOOP, core_words
from desktop.i18n.dates import local_time, parse_time
from desktop.models.event_text import cut_words
from desktop.models.plain_errors import plain_error, plain_exception
from desktop.models.store_text import other_desk
from desktop.models.visible_text import visible_line
from desktop.widgets.markdown_highlighter import cited_sources, content_summary

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace

translate = QCoreApplication.translate
SCOPES = (
    ("run", QT_TRANSLATE_NOOP("ApprovalText", "this run only")),
    ("home", QT_TRANSLATE_NOOP("ApprovalText", "every run in this home")),
)  # captions: translate("ApprovalText", caption) where shown
_BANNER = "border-radius: 4px; padding: 6px; color: #1f2328; background: {}; border: 1px solid {};"
BANNER_STYLES = {
    "info": _BANNER.format("#ddf4ff", "#54aeff"),
    "success": _BANNER.format("#dafbe1", "#4ac26b"),
    "warning": _BANNER.format("#fff8c5", "#d4a72c"),
    "error": _BANNER.format("#ffebe9", "#ff8182"),
}
DETAILS = (
    (QT_TRANSLATE_NOOP("ApprovalText", "Tool"), "tool"),
    (QT_TRANSLATE_NOOP("ApprovalText", "Risk tier"), "risk"),
    (QT_TRANSLATE_NOOP("ApprovalText", "Expires in"), "expires"),
    (QT_TRANSLATE_NOOP("ApprovalText", "Reason"), "reason"),
    (QT_TRANSLATE_NOOP("ApprovalText", "Arg hash"), "arg_hash"),
    (QT_TRANSLATE_NOOP("ApprovalText", "Created"), "created"),
    (QT_TRANSLATE_NOOP("ApprovalText", "Run"), "run"),
    (QT_TRANSLATE_NOOP("ApprovalText", "State version"), "state_version"),
    (QT_TRANSLATE_NOOP("ApprovalText", "Reviewer"), "reviewer"),
)

# -- times ------------------------------------------------------------------------------------


def detail_caption(source: str) -> str:
    """A DETAILS caption as the dialog's grid shows it: "Tool:"."""
    return translate("ApprovalText", "{caption}:").format(caption=translate("ApprovalText", source))


def expiry_tip(expires_at: str) -> str:
    return translate("ApprovalText", "at {when}").format(when=local_time(expires_at))


def countdown_text(expires_at: str, now: datetime) -> tuple[str, float]:
    """("12:03", seconds left); hours are shown only when there are some."""
    remaining = (parse_time(expires_at) - now).total_seconds()
    if remaining <= 0:
        return translate("ApprovalText", "expired"), remaining
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
        heading = (
            translate("ApprovalText", "<b>Revert</b> of {id}: remove the file it created")
            if removes
            else translate("ApprovalText", "<b>Revert</b> of {id}: put the file back as it was")
        ).format(id=escape(str(ap["revises"])))
    elif ap.get("content_field"):  # its spec says: this call writes content to its target
        heading = (
            translate("ApprovalText", "<b>{tool}</b> wants to create a new file — version {v}")
            if info["current_text"] is None
            else translate(
                "ApprovalText", "<b>{tool}</b> wants to overwrite an existing file — version {v}"
            )
        ).format(tool=escape(ap["tool"]), v=ap["version"])
    else:
        heading = translate("ApprovalText", "<b>{tool}</b> needs approval ({risk})").format(
            tool=escape(ap["tool"]), risk=escape(core_words.risk(ap["risk"]))
        )
    return heading + desk_text(info)


def desk_text(info: ReviewInfo) -> str:
    """`· proposed on desk-b` when another desk's run proposed it (team mode); else empty."""
    ap, run = info["approval"], info.get("run")
    desk = other_desk(ap.get("desk") or (run or {}).get("desk"), info.get("this_desk"))
    if not desk:
        return ""
    return translate("ApprovalText", " · proposed on <b>{desk}</b>").format(
        desk=escape(visible_line(desk))
    )


def target_text(ap: ApprovalView) -> str:
    return ap["target"] or json.dumps(ap["args"], ensure_ascii=False)


def detail_texts(ap: ApprovalView, run: RunView, reviewer: str) -> list[tuple[str, str]]:
    """(DETAILS key, plain text) for every detail but the countdown, which ticks on its own."""
    question = cut_words(run["question"], 60)
    return [
        ("tool", ap["tool"]),
        ("risk", core_words.risk(ap["risk"])),
        ("reason", core_words.reason(ap["reason"])),
        ("arg_hash", ap["arg_hash"][:12]),
        ("created", local_time(ap["created_at"])),
        (
            "state_version",
            translate("ApprovalText", "{state} (proposal v{v})").format(
                state=ap["state_version"], v=ap["version"]
            ),
        ),
        (
            "run",
            translate("ApprovalText", "{run} ({status}): “{question}”").format(
                run=run["run_id"], status=core_words.run_status(run["status"]), question=question
            ),
        ),
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
    count = summary["sources"]
    listed = escape(", ".join(sources) or translate("ApprovalText", "none"))
    cited = (
        translate("ApprovalText", "{n} source cited")
        if count == 1
        else translate("ApprovalText", "{n} sources cited")
    ).format(n=count)
    return translate(
        "ApprovalText", "<b>Content:</b> {bytes} bytes · {lines} lines · <b>{cited}</b> ({listed})"
    ).format(bytes=f"{summary['bytes']:,}", lines=summary["lines"], cited=cited, listed=listed)


def old_label(info: ReviewInfo) -> str:
    """The diff's caption for the file on disk (another desk's: as kept when proposed)."""
    compared = info.get("compared_with", "file")
    if compared == "unknown_base":
        return translate(
            "ApprovalText", "(the file on the proposing desk: its content was not kept)"
        )
    if info["current_text"] is None:
        return translate("ApprovalText", "(no file yet)")
    if compared == "proposal_base":
        return translate("ApprovalText", "file on the proposing desk, when proposed")
    if info["target_changed"]:
        return translate("ApprovalText", "current file on disk (changed since the proposal)")
    return translate("ApprovalText", "current file on disk")


# -- status and banners -----------------------------------------------------------------------


def decided_how(ap: ApprovalView) -> tuple[str, str]:
    """(banner level, plain words) for who decided a proposal and how: "approved by alice",
    "rejected by bob: <reason>", "approved by the rule <rule>", "expired"."""
    status, who = ap["status"], visible_line(str(ap.get("reviewer") or ""))
    rule = visible_line(str(ap.get("decided_by_rule") or ""))
    reason = visible_line(core_words.reason(ap.get("decision_reason") or ""))
    if status in (ApprovalStatus.APPROVED, ApprovalStatus.CONSUMED):
        if rule:
            return "success", translate("ApprovalText", "approved by the rule {rule}").format(
                rule=rule
            )
        return "success", translate("ApprovalText", "approved by {who}").format(who=who)
    if status == ApprovalStatus.REJECTED:
        said = translate("ApprovalText", "rejected by {who}").format(who=who)
        return "warning", f"{said}: {reason}" if reason else said
    if status == ApprovalStatus.CHANGES_REQUESTED:
        said = translate("ApprovalText", "sent back for changes by {who}").format(who=who)
        return "info", f"{said}: {reason}" if reason else said
    if status == ApprovalStatus.EXPIRED:
        return "error", translate("ApprovalText", "expired")
    if status == ApprovalStatus.SUPERSEDED:
        return "info", translate("ApprovalText", "replaced by an edited version by {who}").format(
            who=who
        )
    return "info", core_words.approval_status(status)


def describe_status(ap: ApprovalView, now: datetime) -> tuple[str | None, str]:
    """(banner level, rich text) for a proposal that can no longer be decided; (None, "") else."""
    status, when = ap["status"], local_time(ap.get("decided_at"))
    reviewer, rule, reason = (
        ap.get("reviewer"),
        ap.get("decided_by_rule"),
        ap.get("decision_reason"),
    )
    by = (
        translate("ApprovalText", " by <b>{who}</b>").format(who=escape(reviewer))
        if reviewer
        else ""
    )
    if rule:
        by += translate("ApprovalText", " (remembered rule {rule})").format(rule=escape(rule))
    why = f" — “{escape(core_words.reason(reason))}”" if reason else ""
    expired = status == ApprovalStatus.EXPIRED
    if expired or (status == ApprovalStatus.PENDING and parse_time(ap["expires_at"]) <= now):
        return "error", translate(
            "ApprovalText",
            "<b>Expired</b> at {when}: nobody decided in time, so it can no longer be approved "
            "and its run has ended.",
        ).format(when=local_time(ap["expires_at"]))
    words = {
        ApprovalStatus.SUPERSEDED: (
            "info",
            translate(
                "ApprovalText",
                "<b>Superseded</b>{by} at {when}: an edit replaced it with a newer version.",
            ),
        ),
        ApprovalStatus.APPROVED: (
            "success",
            translate("ApprovalText", "<b>Already approved</b>{by} at {when}{why}."),
        ),
        ApprovalStatus.CONSUMED: (
            "success",
            translate("ApprovalText", "<b>Approved</b>{by} and <b>executed</b> at {ran}."),
        ),
        ApprovalStatus.REJECTED: (
            "error",
            translate("ApprovalText", "<b>Rejected</b>{by} at {when}{why}."),
        ),
        ApprovalStatus.CHANGES_REQUESTED: (  # not refused: the agent proposes again
            "info",
            translate(
                "ApprovalText",
                "<b>Sent back for changes</b>{by} at {when}{why}: nothing was written; the "
                "agent proposes again when the run goes on.",
            ),
        ),
        ApprovalStatus.CANCELLED: (  # closed, not refused: nobody judged the proposal
            "info",
            translate(
                "ApprovalText",
                "<b>Closed</b>: its run was cancelled{by} at {when} while it waited.",
            ),
        ),
    }
    if status not in words:
        return None, ""
    level, text = words[ApprovalStatus(status)]
    ran = local_time(ap.get("consumed_at"))
    return level, text.format(by=by, when=when, why=why, ran=ran)


def changed_message(info: ReviewInfo) -> str:
    """The warning banner for a target whose file changed since the proposal was made."""
    base, now = info["approval"]["base_hash"], info["current_hash"]
    what = (
        translate("ApprovalText", "it has been deleted")
        if now is None
        else translate("ApprovalText", "it now exists (it did not when the write was proposed)")
        if base is None
        else translate("ApprovalText", "it has different content")
    )
    return translate(
        "ApprovalText",
        "<b>The target changed on disk since this proposal was made:</b> {what}. The diff "
        "below is against what is there now. Approving this proposal answers "
        "<b>target_changed</b>; reject it, or Edit to propose it again against the current "
        "file.",
    ).format(what=what)


def error_text(exc: Exception) -> str:
    """A refused decision in plain words (the code is for scripts, the class name for no one)."""
    return plain_exception(exc)


# -- remembered decisions ---------------------------------------------------------------------


def rule_text(ap: ApprovalView | None, scope: str) -> str:
    """The rule "Always allow" would create, in the words `Rule.describe` uses everywhere."""
    target = ap.get("target") if ap is not None else None
    if ap is None or not target:
        return translate("ApprovalText", "(nothing: this call has no target to remember)")
    from agent_core.facade.workspace import (
        Workspace,  # loaded by the bridge before any dialog opens
    )

    # the core says what the rule covers (a folder, or an MCP server's tool); the window says it
    english = Workspace.describe_rule_for(ap["tool"], str(target), scope, ap.get("run_id"))
    return core_words.described_rule(english)


def remember_question(ap: ApprovalView | None, scope: str) -> str:
    """The confirmation asked before approving and creating the rule."""
    which = f" ({ap['run_id']})" if scope == "run" and ap else ""
    return translate(
        "ApprovalText",
        "Approve this write <b>and</b> from now on allow <b>{rule}</b>{which} without asking?",
    ).format(rule=escape(rule_text(ap, scope)), which=escape(which))


# -- edit validation --------------------------------------------------------------------------


def validation_text(result: EditCheckView, current: str | None) -> str:
    """The edit panel's verdict on a `Workspace.validate_edit` result."""
    if result["ok"]:
        where = (
            translate("ApprovalText", "a new file")
            if current is None
            else translate("ApprovalText", "replaces the existing file")
        )
        will = translate("ApprovalText", "✓ will write <b>{target}</b> ({where})").format(
            target=escape(result["target"] or ""), where=where
        )
        return f'<span style="color:#1a7f37;">{will}</span>'
    error = result["error"] or {"code": "invalid_arguments", "message": ""}
    said = escape(plain_error(error["code"], error["message"]))
    return f'<span style="color:#b42318;">✗ {said} <small>({escape(error["code"])})</small></span>'
