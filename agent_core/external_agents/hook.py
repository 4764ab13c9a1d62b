"""The flow of one hook call, whatever the agent (its format is formats/'s).

Before a tool: a read is recorded and allowed at once; anything else is decided by a
remembered rule (as BriefDesk's own tools are: agent_rules.py), or becomes a proposal of the
session's run that waits for a person (polling the store: no Agents SDK, nothing to import)
until it is approved (allowed, with a person's edit as the new input), rejected or sent back
(denied with the reason or note), its run cancelled, or `agents.decision_timeout` passes: then
it is denied `no decision in time` and the proposal expires. An approved write whose files
changed since it was proposed is not let through: it is proposed again against the files as
they are now, and the same hook call waits for that (agent_proposals.py). Nothing unexpected
ever allows: every error reaches the caller, whose answer is a denial.

A call the agent sends without an id (Codex's `PermissionRequest` after its `PreToolUse`) is
answered from the run's newest proposal of the same tool and arguments when there is one
(earlier_calls.py), never proposed twice; an id is never made from a call's tool and input
(two identical writes of a session are two decisions). After a tool: outcomes.py.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace

from sqlalchemy import Connection

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import Approval
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonObject
from agent_core.contract.statuses import ApprovalStatus, RunStatus
from agent_core.external_agents import agent_proposals, call_events
from agent_core.external_agents.hook_call import HookAnswer, HookCall, HookEvent, Verdict
from agent_core.external_agents.proposal_of_call import AimedCall, aim
from agent_core.home.clock import now_iso
from agent_core.home.door import mask_incoming
from agent_core.home.preferences import Settings
from agent_core.runs import agent_sessions
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.tools.agent_calls.kinds import AgentTools, CallKind

POLL_SECONDS = 0.2
"""How often a waiting hook reads its proposal: a decision reaches the agent this soon."""
NO_DECISION = "no decision in time"


@dataclass(frozen=True)
class HookDesk:
    """What a hook call works with: the home's store (or the team's), its settings, its desk."""

    store: Store
    settings: Settings
    desk: str | None


@dataclass(frozen=True)
class _Call:
    """One call before its tool, as the flow passes it along."""

    desk: HookDesk
    call: HookCall
    tools: AgentTools
    run_id: str
    tool: str
    tool_input: JsonObject
    call_id: str


def answer_call(
    desk: HookDesk,
    call: HookCall,
    tools: AgentTools,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> HookAnswer:
    """BriefDesk's answer to one hook call (raises on anything unexpected: the caller denies)."""
    if call.event is HookEvent.OTHER:
        return HookAnswer(Verdict.NO_OPINION)
    if not call.session_id or not call.cwd:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The hook call has no session or cwd.")
    with desk.store.write() as conn:
        agent_sessions.end_idle_sessions(conn, desk.settings.agents_idle_end)
        run = agent_sessions.session_run(
            conn,
            agent=call.agent,
            session_id=call.session_id,
            cwd=call.cwd,
            desk=desk.desk,
            run_id="run-" + uuid.uuid4().hex[:12],
        )
        if call.event is HookEvent.SESSION_END:
            agent_sessions.end_session(conn, run.run_id)
            return HookAnswer(Verdict.NO_OPINION)
        if run.status.is_terminal:
            return _ended(conn, run)
        if call.event is HookEvent.POST_TOOL:
            from agent_core.external_agents.outcomes import record_outcome

            record_outcome(conn, run.run_id, call, tools)
            return HookAnswer(Verdict.NO_OPINION)
    tool = call.tool_name or ""
    if not tool or call.tool_input is None:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The hook call names no tool input.")
    this = _Call(
        desk,
        call,
        tools,
        run.run_id,
        tool,
        mask_incoming(call.tool_input),
        call.tool_use_id or "call-" + uuid.uuid4().hex[:12],
    )
    return _before_tool(this, clock, sleep)


def _ended(conn: Connection, run: run_rows.RunRow) -> HookAnswer:
    if run.status is RunStatus.CANCELLED:
        who = agent_sessions.cancelled_by(conn, run.run_id)
        return HookAnswer(Verdict.DENY, f"cancelled by {who}")
    return HookAnswer(Verdict.DENY, f"BriefDesk ended this session's run ({run.status}).")


def _before_tool(
    this: _Call, clock: Callable[[], float], sleep: Callable[[float], None]
) -> HookAnswer:
    call, run_id, tool, tool_input = this.call, this.run_id, this.tool, this.tool_input
    try:
        aimed = aim(this.tools, tool, tool_input, call.cwd, call.mcp_server)
    except BriefDeskError as exc:  # an edit the agent's own tool would refuse too
        with this.desk.store.write() as conn:
            call_events.called(conn, run_id, tool, this.call_id, tool_input, None)
            call_events.result(
                conn, run_id, tool, this.call_id, "denied", executed=False, reason=exc.message
            )
        return HookAnswer(Verdict.DENY, exc.message)
    with this.desk.store.write() as conn:
        if aimed.kind is CallKind.READ:
            call_events.called(conn, run_id, tool, this.call_id, tool_input, aimed.target)
            call_events.result(
                conn, run_id, tool, this.call_id, "allowed", executed=False, reason="read-only"
            )
            return HookAnswer(Verdict.ALLOW, "allowed, read-only")
        waiting = _earlier(conn, this) if call.event is HookEvent.PERMISSION else None
        if isinstance(waiting, HookAnswer):
            return waiting
        if waiting is None:
            if approval_rows.latest_for_call(conn, run_id, this.call_id) is not None:
                # The agent sent this call again: a new one.
                this = replace(this, call_id=this.call_id + "-" + uuid.uuid4().hex[:8])
            call_events.called(conn, run_id, tool, this.call_id, tool_input, aimed.target)
            ruled = _by_rule(conn, this, aimed)
            if ruled is not None:
                return ruled
            waiting = agent_proposals.propose(conn, _new(conn, this, aimed), aimed, call.agent)
        agent_sessions.wait_for_person(conn, run_id)
    return _wait(this, waiting, aimed, clock, sleep)


def _earlier(conn: Connection, this: _Call) -> HookAnswer | Approval | None:
    """A call without an id the run proposed already (by its tool and arguments): its answer
    once decided, its proposal to wait for while it waits; None: a call not seen before."""
    if this.call.tool_use_id:
        return None
    from agent_core.external_agents.earlier_calls import newest_with_args

    found = newest_with_args(conn, this.run_id, this.tool, this.tool_input)
    if found is None:
        return None
    if found.status is ApprovalStatus.CONSUMED:
        edited = agent_proposals.args_of(found)
        return HookAnswer(
            Verdict.ALLOW,
            f"approved by {found.reviewer or 'a person'}",
            updated_input=None if edited == this.tool_input else edited,
        )
    return found


def _new(conn: Connection, this: _Call, aimed: AimedCall, why: str | None = None) -> Approval:
    return agent_proposals.new_approval(
        conn,
        this.run_id,
        this.tool,
        this.tool_input,
        this.call_id,
        aimed,
        desk=this.desk.desk,
        timeout_seconds=this.desk.settings.agents_decision_timeout,
        reason=why or agent_proposals.why_asked(aimed.kind),
    )


def _wait(
    this: _Call,
    approval: Approval,
    aimed: AimedCall,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> HookAnswer:
    deadline = clock() + this.desk.settings.agents_decision_timeout
    while True:
        with this.desk.store.write() as conn:
            answer = _decided(conn, this, approval, aimed)
            if answer is None and clock() >= deadline:
                answer = _expire(conn, approval)
            if answer is not None:
                agent_sessions.back_to_work(conn, this.run_id)
                return answer
        sleep(POLL_SECONDS)


def _by_rule(conn: Connection, this: _Call, aimed: AimedCall) -> HookAnswer | None:
    """A remembered rule that covers the call approves it, on record, as for our own tools."""
    from agent_core.external_agents.agent_rules import rule_deciding
    from agent_core.storage.tables import audit

    rule = rule_deciding(
        conn,
        this.tools,
        run_id=this.run_id,
        tool=this.tool,
        tool_input=this.tool_input,
        aimed=aimed,
        desk=this.desk.desk,
    )
    if rule is None:
        return None
    why = f"remembered: {rule.describe()}"
    approved = replace(
        _new(conn, this, aimed, why),
        status=ApprovalStatus.APPROVED,
        reviewer=f"rule:{rule.id}",
        decided_at=now_iso(),
        decided_by_rule=rule.id,
    )
    approval_rows.insert_approval(conn, approved)
    approved = approval_rows.move(conn, approved, ApprovalMove.CONSUME)
    approval_rows.append_approval_event(
        conn, approved, EventKind.APPROVAL_DECIDED, reviewer=approved.reviewer, rule=rule.id
    )
    audit.record(
        conn,
        entry="decision",
        principal=f"rule:{rule.id}",
        run_id=this.run_id,
        tool=this.tool,
        arg_hash=approved.arg_hash,
        resource=aimed.target,
        rule_id=rule.id,
        decision=str(ApprovalStatus.APPROVED),
        detail=why,
    )
    return HookAnswer(Verdict.ALLOW, why)


def _decided(conn: Connection, this: _Call, first: Approval, aimed: AimedCall) -> HookAnswer | None:
    """The answer once the newest version of the call is decided (None while it waits)."""
    newest = approval_rows.latest_for_call(conn, first.run_id, first.call_id) or first
    status = newest.status
    if status is ApprovalStatus.PENDING:
        return None
    by = newest.reviewer or "a person"
    note = f": {newest.decision_reason}" if newest.decision_reason else ""
    if status is ApprovalStatus.APPROVED:
        moved = (
            agent_proposals.moved_files(conn, newest) if aimed.kind is CallKind.FILE_WRITE else []
        )
        if moved:
            return _target_changed(conn, this, newest, moved)
        approval_rows.move(conn, newest, ApprovalMove.CONSUME, at=now_iso())
        args = agent_proposals.args_of(newest)
        return HookAnswer(
            Verdict.ALLOW,
            f"approved by {by}{note}",
            updated_input=args if args != this.tool_input else None,
        )
    if status is ApprovalStatus.REJECTED:
        return HookAnswer(Verdict.DENY, f"Rejected by {by}{note}")
    if status is ApprovalStatus.CHANGES_REQUESTED:
        return HookAnswer(
            Verdict.DENY, f"{by} asked for changes instead of approving this call{note}"
        )
    if status is ApprovalStatus.EXPIRED:
        return HookAnswer(Verdict.DENY, _no_decision(newest))
    run = run_rows.get_run_row(conn, first.run_id)
    if run.status is RunStatus.CANCELLED:
        return _ended(conn, run)
    return HookAnswer(Verdict.DENY, f"BriefDesk closed this proposal ({status}).")


def _target_changed(
    conn: Connection, this: _Call, approved: Approval, moved: list[str]
) -> HookAnswer | None:
    """The approval was for files as they were: not let through (on the timeline as denied
    `target_changed`), and put to a person again against the files now, which the same call
    then waits for (None); denied when the change no longer applies to them at all."""
    why = f"{agent_proposals.TARGET_CHANGED}: {', '.join(moved)} changed after it was proposed"
    call_events.result(
        conn, this.run_id, this.tool, approved.call_id, "denied", executed=False, reason=why
    )
    try:
        agent_proposals.propose_again(conn, approved, this.tools, this.call.cwd, this.call.agent)
    except BriefDeskError as exc:
        return HookAnswer(Verdict.DENY, f"{why}; the change no longer applies: {exc.message}")
    return None


def _no_decision(newest: Approval) -> str:
    if newest.reason != agent_proposals.TARGET_CHANGED_REASON:
        return NO_DECISION
    return (
        f"{NO_DECISION} ({agent_proposals.TARGET_CHANGED}: {newest.target} changed after the "
        "write was proposed; it was not let through)"
    )


def _expire(conn: Connection, approval: Approval) -> HookAnswer:
    newest = approval_rows.latest_for_call(conn, approval.run_id, approval.call_id) or approval
    expired = approval_rows.move(conn, newest, ApprovalMove.EXPIRE)
    approval_rows.append_approval_event(conn, expired, EventKind.APPROVAL_DECIDED, reviewer=None)
    reason = _no_decision(newest)
    call_events.result(
        conn, approval.run_id, approval.tool, approval.call_id, "denied", executed=False,
        reason=reason,
    )  # fmt: skip
    return HookAnswer(Verdict.DENY, reason)
