"""An agent's call made a proposal of its session's run, and put again when its files moved.

A file write's proposal records the base of every file it changes (`bases` on its
`approval_requested` event: each file's sha256, None for a file that does not exist yet, its
bytes kept as a blob): the diff, the check before the call is let through (a file changed since
the proposal: `target_changed`, and a new version against the file as it is now, the contract's
"MCP whole-file writes" rule, runs/reproposal.py), and the confirmation after it ran each use
the file's own base, whatever the number of files a patch changes.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import cast

from sqlalchemy import Connection

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import Approval
from agent_core.contract.canonical import arg_hash, iso
from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonObject, JsonValue
from agent_core.contract.statuses import ApprovalStatus
from agent_core.external_agents.proposal_of_call import AimedCall, aim
from agent_core.home.clock import utcnow
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import authority
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.blobs import get_blob, put_blob
from agent_core.storage.tables.timeline import read_events
from agent_core.tools.agent_calls.files import file_data, file_hash
from agent_core.tools.agent_calls.kinds import AgentTools, CallKind

EXPIRY_SLACK = timedelta(seconds=30)
"""A proposal's `expires_at` lies this far past the hook's own deadline: the hook expires it
itself; the sweep only closes one whose hook process died."""
TARGET_CHANGED = "target_changed"
TARGET_CHANGED_REASON = (
    "target_changed: the file was changed after this write was proposed; nothing was let "
    "through. Approve it against the file as it is now, or reject it"
)
_WHY = {
    CallKind.FILE_WRITE: "writes a file: a person approves every write",
    CallKind.SHELL: "runs a shell command: a person approves it",
    CallKind.FETCH: "reaches the network: a person approves it",
    CallKind.MCP: "calls an MCP server's tool: a person approves it",
}

Bases = dict[str, str | None]
"""Each file a write changes -> its sha256 when proposed (None: it did not exist)."""


def args_of(approval: Approval) -> JsonObject:
    """The proposal's arguments: the agent's tool input as read from its hook JSON."""
    return cast(JsonObject, dict(approval.args))


def new_approval(
    conn: Connection,
    run_id: str,
    tool: str,
    tool_input: JsonObject,
    call_id: str,
    aimed: AimedCall,
    *,
    desk: str | None,
    timeout_seconds: float,
    reason: str,
) -> Approval:
    now = utcnow()
    wait = timedelta(seconds=timeout_seconds) + EXPIRY_SLACK
    revision = approval_rows.next_revision(conn, run_id)
    run = run_rows.get_run_row(conn, run_id)
    return Approval(
        id=approval_rows.new_approval_id(),
        run_id=run_id,
        thread_id=run.thread_id,
        call_id=call_id,
        tool=tool,
        args=tool_input,
        target=aimed.target,
        base_hash=aimed.base_hash,
        risk="write" if aimed.kind is CallKind.FILE_WRITE else str(aimed.kind),
        reason=reason,
        arg_hash=arg_hash(tool, tool_input),
        state_version=0,
        version=1,
        status=ApprovalStatus.PENDING,
        created_at=iso(now),
        expires_at=iso(now + wait),
        desk=desk,
        base_digest=_kept_base(conn, aimed.target, aimed.base_hash, run_id),
        revision=revision.revision,
        revises=revision.revises,
        revision_note=revision.note,
    )


def propose(conn: Connection, approval: Approval, aimed: AimedCall, agent: str) -> Approval:
    """Put `approval` (new_approval's) on record, pending, with its files' bases."""
    approval_rows.insert_approval(conn, approval)
    approval_rows.append_approval_event(
        conn,
        approval,
        EventKind.APPROVAL_REQUESTED,
        reviewer=None,
        target=approval.target,
        agent=agent,
        bases=_record_bases(conn, aimed, approval.run_id),
    )
    return approval


def why_asked(kind: CallKind) -> str:
    return _WHY.get(kind, "a tool BriefDesk does not know: a person approves it")


def moved_files(conn: Connection, approval: Approval) -> list[str]:
    """The files of an approved write that changed since it was proposed (its bases)."""
    return sorted(
        path for path, base in bases_of(conn, approval).items() if file_hash(path) != base
    )


def propose_again(
    conn: Connection, approval: Approval, tools: AgentTools, cwd: str, agent: str
) -> Approval:
    """Supersede the approved `approval` by a pending version of the same call against its
    files as they are now (the new diff), within the same time to decide (its `expires_at`)."""
    aimed = aim(tools, approval.tool, args_of(approval), cwd)
    approval_rows.move(conn, approval, ApprovalMove.SUPERSEDE_BY_REPROPOSAL)
    again = replace(
        approval,
        id=approval_rows.new_approval_id(),
        version=approval.version + 1,
        status=ApprovalStatus.PENDING,
        reason=TARGET_CHANGED_REASON,
        target=aimed.target,
        base_hash=aimed.base_hash,
        base_digest=_kept_base(conn, aimed.target, aimed.base_hash, approval.run_id),
        created_at=iso(utcnow()),
        reviewer=None,
        decided_at=None,
        decided_by_rule=None,
        decision_reason=None,
        consumed_at=None,
    )
    approval_rows.insert_approval(conn, again)
    approval_rows.append_approval_event(
        conn, approval, EventKind.APPROVAL_DECIDED, reviewer=approval.reviewer,
        status=str(ApprovalStatus.SUPERSEDED), by=again.id,
    )  # fmt: skip
    approval_rows.append_approval_event(
        conn, again, EventKind.APPROVAL_REQUESTED, reviewer=None, target=again.target,
        agent=agent, version=again.version, bases=_record_bases(conn, aimed, again.run_id),
        target_changed=True,
    )  # fmt: skip
    return again


def bases_of(conn: Connection, approval: Approval) -> Bases:
    """The bases recorded for the call's newest proposal that recorded any (an edit by a
    reviewer records none: its call's earlier version's hold)."""
    chain = {a.id for a in authority.call_chain(conn, approval.run_id, approval.call_id)}
    found: Bases = {}
    for event in read_events(conn, run_id=approval.run_id):
        bases = event.data.get("bases")
        if (
            event.kind == EventKind.APPROVAL_REQUESTED
            and event.data.get("approval_id") in chain
            and isinstance(bases, dict)
        ):
            found = {str(p): h if isinstance(h, str) else None for p, h in bases.items()}
    return found


def base_text(conn: Connection, base: str | None) -> str | None:
    """A file's text as it was proposed (None: it did not exist, or was not kept)."""
    if base is None:
        return None
    return get_blob(conn, base).decode("utf-8", errors="replace")


def _record_bases(conn: Connection, aimed: AimedCall, run_id: str) -> dict[str, JsonValue]:
    recorded: dict[str, JsonValue] = {}
    for change in aimed.changes:
        data = file_data(change.path)
        recorded[change.path] = None if data is None else put_blob(conn, data, run_id=run_id)
    return recorded


def _kept_base(
    conn: Connection, target: str | None, base_hash: str | None, run_id: str
) -> str | None:
    """The target's bytes as a blob (its digest is the `base_hash`) for reviewers' diffs."""
    if target is None or base_hash is None:
        return None
    data = file_data(target)
    return None if data is None else put_blob(conn, data, run_id=run_id)
