"""After an agent's tool ran (its post-tool hook): the outcome on the run's timeline, and an
approved file write confirmed, file by file against each file's own base.

A call is found by its id where the agent sends one (Claude Code, Codex); Gemini's `AfterTool`
has none: its call is the run's newest consumed proposal of the same tool whose arguments are
the input that ran (a person's edit included, which is what Gemini reports having run).
"""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core.contract.approvals import Approval
from agent_core.contract.canonical import arg_hash, sha256_hex
from agent_core.contract.errors import BriefDeskError
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import ApprovalStatus
from agent_core.external_agents import call_events
from agent_core.external_agents.agent_proposals import args_of, base_text, bases_of
from agent_core.external_agents.hook_call import HookCall
from agent_core.external_agents.proposal_of_call import bounded_result
from agent_core.home.door import mask_incoming
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables.timeline import append_event
from agent_core.tools.agent_calls.files import read_text
from agent_core.tools.agent_calls.kinds import AgentTools, CallKind


def record_outcome(conn: Connection, run_id: str, call: HookCall, tools: AgentTools) -> None:
    tool = call.tool_name or ""
    approval = _approval_that_ran(conn, run_id, call)
    call_id = call.tool_use_id or (approval.call_id if approval is not None else "")
    returned = bounded_result(call.tool_response)
    call_events.result(conn, run_id, tool, call_id, "done", executed=True, returned=returned)
    if approval is None or approval.status is not ApprovalStatus.CONSUMED:
        return
    if tools.kind(tool, args_of(approval)) is CallKind.FILE_WRITE:
        confirm(conn, run_id, call.cwd, approval, tools)


def _approval_that_ran(conn: Connection, run_id: str, call: HookCall) -> Approval | None:
    if call.tool_use_id:
        return approval_rows.latest_for_call(conn, run_id, call.tool_use_id)
    if call.tool_name is None or call.tool_input is None:
        return None
    tool = call.tool_name
    ran = arg_hash(tool, mask_incoming(call.tool_input))
    consumed = [
        a
        for a in approval_rows.list_approvals(conn, status="consumed", run_id=run_id)
        if a.tool == tool and arg_hash(tool, a.args) == ran
    ]
    return consumed[-1] if consumed else None


def confirm(conn: Connection, run_id: str, cwd: str, approval: Approval, tools: AgentTools) -> None:
    """Each file the approved write changes holds the approved content (worked out from that
    file as it was proposed), or it is flagged `artifact_unexpected`."""
    bases = bases_of(conn, approval)
    kept = {path: base_text(conn, base) for path, base in bases.items()}
    if approval.target is not None and approval.target not in kept:
        kept[approval.target] = base_text(conn, approval.base_digest)
    try:
        expected = tools.file_changes(
            approval.tool, args_of(approval), cwd, lambda path: kept.get(path)
        )
    except BriefDeskError:
        expected = []  # its base was not kept: nothing can be confirmed against it
    for change in expected:
        now = read_text(change.path)
        data = {
            "path": change.path,
            "call_id": approval.call_id,
            "approval_id": approval.id,
            "content_hash": None if now is None else sha256_hex(now.encode()),
        }
        if now == change.after:
            append_event(conn, run_id, EventKind.ARTIFACT_CONFIRMED, tool=approval.tool, data=data)
        else:
            data["reason"] = "content_differs"
            append_event(conn, run_id, EventKind.ARTIFACT_UNEXPECTED, tool=approval.tool, data=data)
