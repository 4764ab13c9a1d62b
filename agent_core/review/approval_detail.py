"""What a reviewer's dialog shows of one proposal (`describe_approval`): the proposal, its run,
the text its diff starts from, and whether the target changed since it was proposed.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from sqlalchemy import Connection

from agent_core.contract.approvals import Approval
from agent_core.contract.errors import BriefDeskError
from agent_core.contract.json_types import JsonObject
from agent_core.contract.mcp_views import McpCallView
from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.usage import Prices
from agent_core.contract.views import (
    ApprovalDetailView,
    FileChangeView,
    PreviousProposalView,
    RunView,
)
from agent_core.review.expiry import sweep_expired
from agent_core.review.proposals import approval_view, proposed_elsewhere
from agent_core.review.run_views import run_json
from agent_core.review.tool_of import spec_of
from agent_core.runs.unknown_outcome import unsettled
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.tools.agent_calls.files import file_hash, read_text
from agent_core.tools.agent_calls.registry import agent_of_thread, tools_for
from agent_core.tools.mcp.servers import split_model_name
from agent_core.tools.proposal_base import base_text
from agent_core.tools.specs import ToolSpec


def describe_approval(
    store: Store, approval_id: str, *, desk: str | None = None, prices: Prices | None = None
) -> ApprovalDetailView:
    """Everything a reviewer's dialog shows, read off the GUI thread.

    On the desk that proposed it (`desk`: the reader's, in team mode) the diff starts from the
    file as it is now, which is what a write would replace. Another desk's machine does not
    hold that file: there the diff starts from the content kept when it was proposed (its
    base blob), the same diff the proposing desk showed, and only the owner desk can tell
    whether its file changed since (`target_changed` stays false here; the owner checks again
    before it writes)."""
    sweep_expired(store)
    with store.read() as conn:
        approval = approval_rows.get_approval(conn, approval_id)
        run = run_json(conn, run_rows.get_run_row(conn, approval.run_id), prices=prices)
        newest = _newest(conn, approval)
        previous = _previous(conn, approval)
        elsewhere = proposed_elsewhere(approval, desk, run.get("desk"))
        kept = base_text(conn, approval.base_digest) if elsewhere else None
        agent = agent_of_thread(approval.thread_id)
        if agent is not None:
            return _agent_detail(agent, approval, run, newest.id, previous, elsewhere, kept)
        spec = spec_of(conn, approval)
        mcp = _mcp_call(conn, spec, approval)
    current_text: str | None = None
    current_hash: str | None = None
    shows_content = spec.content_field is not None and approval.target is not None
    compared_with = "file"
    if shows_content and elsewhere:
        current_text = kept
        known = approval.base_hash is None or kept is not None
        compared_with = "proposal_base" if known else "unknown_base"
    elif shows_content:
        current_hash = spec.base_hash(approval.target)
        if current_hash is not None:
            current_text = Path(str(approval.target)).read_text(encoding="utf-8", errors="replace")
    return {
        "approval": approval_view(approval),
        "run": run,
        "current_text": current_text,
        "current_hash": current_hash,
        "compared_with": compared_with,
        "target_changed": shows_content and not elsewhere and current_hash != approval.base_hash,
        "content_field": spec.content_field,
        "path_field": spec.path_field,
        "newest_id": newest.id,
        "artifacts_root": run["artifacts"],
        "previous": previous,
        "mcp": mcp,
    }


def _agent_detail(
    agent: str,
    approval: Approval,
    run: RunView,
    newest_id: str,
    previous: PreviousProposalView | None,
    elsewhere: bool,
    kept: str | None,
) -> ApprovalDetailView:
    """An external agent's proposal: for a file write, the target's text now (another desk's:
    as kept when proposed) and after the change, worked out by the agent's own tools."""
    current_text = kept if elsewhere else None
    current_hash = None
    after_text = None
    target = approval.target
    file_target = target is not None and target.startswith("/")
    if file_target and not elsewhere:
        assert target is not None
        current_hash = file_hash(target)
        current_text = read_text(target)
    files: list[FileChangeView] = []
    if file_target:
        assert target is not None

        def now(path: str) -> str | None:  # another desk's files: only its target was kept
            return current_text if path == target else None if elsewhere else read_text(path)

        args = cast(JsonObject, dict(approval.args))
        try:
            changes = tools_for(agent).file_changes(approval.tool, args, run.get("cwd") or "/", now)
        except BriefDeskError:
            changes = []  # an edit of text no longer in the file: no diff to show
        files = [
            {"path": c.path, "current_text": now(c.path), "after_text": c.after} for c in changes
        ]
        files.sort(key=lambda f: f["path"] != target)  # the target first, then patch order
        after_text = next((f["after_text"] for f in files if f["path"] == target), None)
    return {
        "approval": approval_view(approval),
        "run": run,
        "current_text": current_text,
        "current_hash": current_hash,
        "compared_with": "proposal_base" if elsewhere else "file",
        "target_changed": file_target and not elsewhere and current_hash != approval.base_hash,
        "content_field": None,
        "path_field": None,
        "newest_id": newest_id,
        "artifacts_root": run["artifacts"],
        "previous": previous,
        "mcp": None,
        "after_text": after_text,
        "files": files,
    }


MAX_REVISION_HOPS = 100  # a chain of revisions this long is already absurd; never loop on one


def _newest(conn: Connection, approval: Approval) -> Approval:
    """The newest version of the call; once its changes were requested and answered, the
    newest version of the answering revision (and so on): what a reviewer should see now."""
    newest = approval_rows.latest_for_call(conn, approval.run_id, approval.call_id) or approval
    for _ in range(MAX_REVISION_HOPS):
        if newest.status is not ApprovalStatus.CHANGES_REQUESTED:
            break
        answer = approval_rows.answering(conn, newest.id)
        if answer is None:
            break
        newest = approval_rows.latest_for_call(conn, answer.run_id, answer.call_id) or answer
    return newest


def _previous(conn: Connection, approval: Approval) -> PreviousProposalView | None:
    """The proposal a revision answers (a revert's `revises` is the write it undoes: none)."""
    if approval.revision <= 1 or approval.revises is None:
        return None
    try:
        revised = approval_rows.get_approval(conn, approval.revises)
    except BriefDeskError:
        return None  # the row is gone: the revision still reads on its own
    field = spec_of(conn, revised).content_field
    content = revised.args.get(field) if field else None
    return {
        "id": revised.id,
        "revision": revised.revision,
        "content": None if content is None else str(content),
        "reviewer": revised.reviewer,
    }


def _mcp_call(conn: Connection, spec: ToolSpec, approval: Approval) -> McpCallView | None:
    named = split_model_name(spec.name)
    if spec.source is None or named is None:
        return None
    return {
        "server": spec.source,
        "tool": named[1],
        "annotations": dict(spec.annotations),
        "outcome_unknown": unsettled(conn, spec, approval) is not None,
    }
