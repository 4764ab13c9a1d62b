"""The gate every tool call passes before it runs: record, validate, decide.

`record_model_turn` sees the model's calls as they arrive (unknown tools are refused here, so a
deceived model's call becomes a refusal and the run goes on). `handle_pause` decides each call
at the SDK's approval pause (checkpoint A) and returns what the run should do as data: go on,
or stop waiting for a person. Execution is the executor's job (runs/executor.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import TYPE_CHECKING

from openai.types.responses import ResponseFunctionToolCall
from sqlalchemy import Connection

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import Approval, change_request_result, is_expired
from agent_core.contract.canonical import arg_hash, iso
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import ApprovalStatus, RunStatus, ToolOutcomeStatus
from agent_core.home import crash
from agent_core.home.clock import utcnow
from agent_core.runs import reproposal
from agent_core.runs import unknown_outcome as unknown
from agent_core.runs.call_records import clip, refuse, tool_result
from agent_core.runs.checkpointing import save_checkpoint
from agent_core.runs.context import RunContext, StopRun, TurnRecord
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import audit
from agent_core.storage.tables import rules as rule_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables import tool_calls as call_rows
from agent_core.storage.tables.timeline import append_event
from agent_core.storage.tables.turn_responses import remember_response
from agent_core.tools import network
from agent_core.tools.mcp.server_identity import rules_that_hold
from agent_core.tools.mcp.servers import split_model_name
from agent_core.tools.policy import Decision, Verdict, decide, risk_label, rules_from_rows
from agent_core.tools.proposal_base import keep_base
from agent_core.tools.specs import ArgsJSON, Tier, ToolSpec
from agent_core.tools.validation import describe_resource, printable, validate_call

if TYPE_CHECKING:
    from agents import RunState
    from agents.items import ModelResponse, ToolApprovalItem

    from agent_core.runs.model_bounds import ScreenedTurn

LISTED_CALLS = 100


@dataclass(frozen=True)
class CallVerdict:
    """The gate's word on one call at its pause, whoever paused it: the SDK's run loop
    (`handle_pause`) or an MCP client's request (external_agents/mcp_serve.py)."""

    run: bool = False
    """Run it now (checkpoint A is saved)."""
    refusal: str | None = None
    """Not run: what the caller (the model, the client) is told."""
    stop: RunStatus | None = None
    """Not run yet: the run waits for a person (or its proposal expired)."""


@dataclass(frozen=True)
class PauseOutcome:
    """What the driver does after a pause: continue (None) or stop with this status."""

    stop_status: RunStatus | None = None


class ToolGate:
    def __init__(self, ctx: RunContext) -> None:
        self.ctx = ctx
        self.store = ctx.store
        self.run_id = ctx.run_id

    # -- model turns ----------------------------------------------------------------------

    def record_model_turn(
        self,
        response: ModelResponse,
        screened: ScreenedTurn | None = None,
        *,
        kept_as: tuple[str, str] | None = None,
    ) -> None:
        """The turn's calls, counts and event, written together first thing in the run's next
        write (checkpoint A of its first call, as a rule: runs/model_turns.py says why that is
        as safe as a commit of its own); `kept_as` (input digest, the response's JSON) keeps a
        remote model's response for a resume (runs/model_turns.py)."""
        calls = [o for o in response.output if isinstance(o, ResponseFunctionToolCall)]
        texts = [
            part.text
            for o in response.output
            if getattr(o, "type", None) == "message"
            for part in getattr(o, "content", [])
            if hasattr(part, "text")
        ]
        used = _usage_of(response)
        self.ctx.flush_turn()  # an earlier turn none of whose calls wrote anything goes first
        before = self.ctx.record.progress

        def write(conn: Connection) -> None:
            # From the progress before the turn, whenever it is written: a write that rolled
            # back (and took the turn with it) writes the very same turn again.
            record = self.ctx.record
            record.progress = before
            self.ctx.new_calls.clear()  # only this turn's calls are looked up here
            turn = before.turns + 1
            proposed = before.tool_calls
            fresh: list[ResponseFunctionToolCall] = []
            # A refused turn's calls get no row: none runs, none counts against the budget.
            for call in [] if screened is not None and screened.refused else calls:
                if call_rows.record_call(
                    conn,
                    self.run_id,
                    call.call_id,
                    idx=proposed + len(fresh) + 1,
                    turn=turn,
                    tool=call.name,
                    raw_args=call.arguments,
                ):
                    fresh.append(call)
            record.advance(
                conn,
                turns=turn,
                tool_calls=proposed + len(fresh),
                # Counted in the write that records the turn: a response is counted once,
                # or (killed before this commit) not at all and asked for again on resume.
                tokens=before.tokens + used.total,
                input_tokens=before.input_tokens + used.input,
                output_tokens=before.output_tokens + used.output,
                next_step="tools" if calls else "answer",
            )
            append_event(
                conn,
                self.run_id,
                EventKind.MODEL_TURN,
                data={
                    "turn": turn,
                    # Model text: bounded (a refused turn may name thousands of calls).
                    "calls": [printable(c.name, 80) for c in calls[:LISTED_CALLS]],
                    "text": clip(" ".join(texts), 500) if texts else None,
                    "input_tokens": used.input,
                    "output_tokens": used.output,
                },
            )
            if kept_as is not None:
                remember_response(conn, self.run_id, *kept_as)
            if screened is not None:
                screened.record(conn, self.run_id, turn)
            for index, call in enumerate(fresh, start=proposed + 1):
                if call.name in self.ctx.tools:
                    self.ctx.new_calls[call.call_id] = index
                    continue
                error = self.not_offered(call.name)
                name = printable(call.name, 80)
                refuse(conn, self.run_id, call.call_id, name, error, resource=name)

        self.ctx.pending_turn = TurnRecord(before, write)

    def not_offered(self, name: str) -> BriefDeskError:
        """Why the server of a tool did not start when the run listed its tools
        (`mcp_server_unavailable`, `sandbox_unavailable`); `unknown_tool` for any other name."""
        server, _tool = split_model_name(name) or ("", "")
        why = self.ctx.tools.unavailable.get(server)
        if why is not None:
            return BriefDeskError(why.code, why.message, server=server)
        return BriefDeskError(ErrorCode.UNKNOWN_TOOL, f"There is no tool named {name[:80]!r}.")

    # -- the pause ------------------------------------------------------------------------

    def handle_pause(self, state: RunState[None]) -> PauseOutcome:
        self.ctx.flush_turn()  # the pause's calls are read from the store: on record first
        self.ctx.record.reload()
        self.ctx.check_budgets()  # a cancel request or the wall-time budget ends it here
        stop: RunStatus | None = None
        for item in state.get_interruptions():
            call_id = str(_raw_field(item, "call_id"))
            tool = str(item.tool_name)
            raw = str(getattr(item.raw_item, "arguments", None) or "{}")
            decided = self.decide_call(call_id, tool, raw)
            if decided.refusal is not None:
                state.reject(item, rejection_message=decided.refusal)
            elif decided.run:
                state.approve(item)
            verdict = decided.stop
            if verdict is RunStatus.EXPIRED or (verdict is not None and stop is None):
                stop = verdict
        return PauseOutcome(stop)

    def admit_unpaused(
        self, tool: str, call_id: str, raw: str, intent: Callable[[Connection, bool], None]
    ) -> str | None:
        """A read the SDK runs without a pause (ToolSpec.runs_without_pause): the checks of a
        pause, then checkpoint A with the call's ledger intent (`intent`, told whether the
        call is new) and the turn's record if it is not written yet, in one commit. Returns
        the refusal the model is told, or None to run it."""
        self.ctx.check_budgets()
        spec = self.ctx.tools.spec_for(tool)
        try:
            self._validate(spec, raw)
            invalid = None
        except BriefDeskError as error:
            invalid = error
        with self.ctx.write() as conn:
            # A cancel asked from anywhere, as of this transaction: the boundary writes nothing
            # (the turn's record rolls back with it, and is written with the run's end).
            if self.ctx.cancel_requested_in(conn):
                raise StopRun()
            row, index, new = self._call_row(call_id, conn)
            if row is not None and row.decision == "deny":
                return f"Refused by BriefDesk ({row.code})."
            if invalid is not None:
                return self._refuse_in(conn, tool, call_id, raw, invalid)
            save_checkpoint(self.ctx, conn, "A", call_id, f"run {tool}")
            intent(conn, new)
        crash.before_tool(index)
        return None

    def _refuse(self, tool: str, call_id: str, raw: str, error: BriefDeskError) -> str:
        """Record a refused call (blocked, its result, an audit row); returns what the model
        is told."""
        with self.ctx.write() as conn:
            return self._refuse_in(conn, tool, call_id, raw, error)

    def _refuse_in(
        self, conn: Connection, tool: str, call_id: str, raw: str, error: BriefDeskError
    ) -> str:
        facts = self.ctx.facts
        resource = describe_resource(tool, raw, corpus=facts.corpus, artifacts=facts.artifacts)
        refuse(conn, self.run_id, call_id, tool, error, resource=resource)
        return f"Refused by BriefDesk ({error.code}): {error.message}"

    def _call_row(
        self, call_id: str, conn: Connection | None = None
    ) -> tuple[call_rows.ToolCallRow | None, int, bool]:
        """The call's row, its index in the run and whether this process recorded it just now
        (no row is read then: nothing refused it yet), refused past the tool-call budget."""
        row = None
        index = self.ctx.new_calls.pop(call_id, None)  # once: later looks read the row
        new = index is not None
        if index is None:
            if conn is None:
                with self.store.read() as own:
                    row = call_rows.get_call(own, self.run_id, call_id)
            else:
                row = call_rows.get_call(conn, self.run_id, call_id)
            index = row.idx if row is not None else 0
        budget = self.ctx.facts.limits.max_tool_calls
        if index > budget:
            raise BriefDeskError(
                ErrorCode.BUDGET_EXCEEDED,
                f"The run used its {budget} tool calls (call {index} refused).",
            )
        return row, index, new

    def decide_call(self, call_id: str, tool: str, raw: str) -> CallVerdict:
        """Decide one recorded call at its pause: run it, refuse it, or wait for a person."""
        row, index, _new = self._call_row(call_id)
        if row is not None and row.decision == "deny":
            return CallVerdict(refusal=f"Refused by BriefDesk ({row.code}).")
        spec = self.ctx.tools.spec_for(tool)
        try:
            args, target = self._validate(spec, raw)
            if spec.has_side_effect:
                self._refuse_if_rejected_before(spec, args, call_id)
        except BriefDeskError as error:
            return CallVerdict(refusal=self._refuse(tool, call_id, raw, error))
        if spec.tier is Tier.INTERACTION:
            return self._question(call_id, spec, args, index)
        with self.store.read() as conn:
            # An MCP rule holds only for the server it was made for (server_identity.py).
            held = rules_that_hold(rule_rows.list_rules(conn), self.ctx.tools.server_digests)
            rules = rules_from_rows(held)
            revision = approval_rows.next_revision(conn, self.run_id).revision  # > 1: a person
        decision = decide(
            spec.tier, tool, mode=self.ctx.mode, target=target, run_id=self.run_id, rules=rules,
            revision=revision, artifact_write=spec.writes_files,
        )  # fmt: skip
        if spec.has_side_effect:
            return self._gated(call_id, spec, args, target, decision, index)
        return self._approve(call_id, tool, index)

    def _validate(self, spec: ToolSpec, raw: str) -> tuple[ArgsJSON, str | None]:
        used = None
        if spec.network_access:
            with self.store.read() as conn:
                used = network.calls_used(conn, self.run_id)
        scope = self.ctx.tool_scope(network_calls_used=used)
        return validate_call(spec.name, raw, scope, self.ctx.tools)

    def _refuse_if_rejected_before(self, spec: ToolSpec, args: ArgsJSON, call_id: str) -> None:
        with self.store.read() as conn:
            earlier = approval_rows.rejected_in_thread(
                conn, self.ctx.facts.thread_id, arg_hash(spec.name, args)
            )
        if earlier is not None and earlier.call_id != call_id:
            raise BriefDeskError(
                ErrorCode.PREVIOUSLY_REJECTED,
                f"A reviewer already rejected this exact {spec.name} in this thread "
                f"({earlier.id}).",
            )

    def _approve(self, call_id: str, tool: str, index: int) -> CallVerdict:
        with self.ctx.write() as conn:
            save_checkpoint(self.ctx, conn, "A", call_id, f"run {tool}")
        crash.before_tool(index)
        return CallVerdict(run=True)

    def _question(self, call_id: str, spec: ToolSpec, args: ArgsJSON, index: int) -> CallVerdict:
        """An interaction-tier call: the run waits for a person's answer (once answered, the
        call runs and hands the model the answer)."""
        if self.ctx.record.progress.answer_for(call_id) is not None:
            return self._approve(call_id, spec.name, index)
        question = str(args["question"])
        with self.ctx.write() as conn:
            row = run_rows.get_run_row(conn, self.run_id)
            if row.question_pending != question:
                run_rows.update_run(conn, row, replace(row, question_pending=question))
                self.ctx.record.advance(conn, waiting_call=call_id, next_step="wait for an answer")
                append_event(
                    conn,
                    self.run_id,
                    EventKind.QUESTION_ASKED,
                    tool=spec.name,
                    data={"call_id": call_id, "question": question},
                )
                save_checkpoint(self.ctx, conn, "A", call_id, "wait for an answer")
        return CallVerdict(stop=RunStatus.WAITING_INPUT)

    def _gated(
        self,
        call_id: str,
        spec: ToolSpec,
        args: ArgsJSON,
        target: str | None,
        decision: Decision,
        index: int,
    ) -> CallVerdict:
        tool = spec.name
        with self.ctx.write() as conn:
            approval = approval_rows.latest_for_call(conn, self.run_id, call_id)
            if approval is None:
                approval = self._propose(conn, call_id, spec, args, target, decision)
                if approval.status is ApprovalStatus.PENDING:
                    save_checkpoint(self.ctx, conn, "A", call_id, f"wait for approval of {tool}")
                    return CallVerdict(stop=RunStatus.WAITING_APPROVAL)
            if approval.status is ApprovalStatus.PENDING:
                if is_expired(approval, utcnow()):
                    expired = approval_rows.move(conn, approval, ApprovalMove.EXPIRE)
                    approval_rows.append_approval_event(
                        conn, expired, EventKind.APPROVAL_DECIDED, reviewer=None
                    )
                    return CallVerdict(stop=RunStatus.EXPIRED)
                return CallVerdict(stop=RunStatus.WAITING_APPROVAL)
            if approval.status is ApprovalStatus.EXPIRED:
                return CallVerdict(stop=RunStatus.EXPIRED)
            if approval.status is ApprovalStatus.REJECTED:
                self.ctx.record.advance(conn, rejected=True)
                unknown.not_executed(conn, self.run_id, spec, approval)
            if approval.status is ApprovalStatus.CHANGES_REQUESTED:
                # Not executed, not a rejection: the model reads the note and may propose again.
                tool_result(
                    conn, self.run_id, tool, call_id, str(ToolOutcomeStatus.ERROR),
                    executed=False, approval_id=approval.id, changes_requested=True,
                    note=approval.decision_reason or "",  # the timeline reads it as a decision
                )  # fmt: skip
                self.ctx.record.advance(conn, next_step=f"revise {tool}")
        if approval.status is ApprovalStatus.CHANGES_REQUESTED:
            return CallVerdict(refusal=change_request_result(approval))
        if approval.status is ApprovalStatus.REJECTED:
            reason = f" Reason: {approval.decision_reason}" if approval.decision_reason else ""
            return CallVerdict(
                refusal=(
                    f"The reviewer rejected {tool} (approval {approval.id}); nothing was "
                    f"written.{reason} Do not propose another write."
                )
            )
        if approval.status is ApprovalStatus.APPROVED:
            with self.ctx.write() as conn:
                # Its outcome is unknown, or its file changed since the person saw it.
                asked = unknown.ask_again(conn, self.ctx, spec, approval)
                if asked or reproposal.ask_if_target_changed(conn, self.ctx, spec, approval):
                    save_checkpoint(self.ctx, conn, "A", call_id, f"wait for approval of {tool}")
                    return CallVerdict(stop=RunStatus.WAITING_APPROVAL)
        return self._approve(call_id, tool, index)

    def _propose(
        self,
        conn: Connection,
        call_id: str,
        spec: ToolSpec,
        args: ArgsJSON,
        target: str | None,
        decision: Decision,
    ) -> Approval:
        now = utcnow()
        ttl = self.ctx.facts.limits.approval_ttl
        auto = decision.verdict is Verdict.ALLOW
        base_hash = spec.base_hash(target)
        revision = approval_rows.next_revision(conn, self.run_id)
        approval = Approval(
            id=approval_rows.new_approval_id(),
            run_id=self.run_id,
            thread_id=self.ctx.facts.thread_id,
            call_id=call_id,
            tool=spec.name,
            args=dict(args),
            target=target,
            base_hash=base_hash,
            risk=risk_label(spec.tier),
            reason=decision.reason,
            arg_hash=arg_hash(spec.name, args),
            state_version=self.ctx.record.progress.state_version,
            version=1,
            status=ApprovalStatus.APPROVED if auto else ApprovalStatus.PENDING,
            created_at=iso(now) or "",
            expires_at=iso(now + timedelta(seconds=ttl)) or "",
            reviewer=decision.principal if auto else None,
            decided_at=iso(now) if auto else None,
            decided_by_rule=decision.rule_id or (decision.principal if auto else None),
            desk=self.ctx.desk,  # the run's desk
            # What it replaces, for reviewers whose machine does not have the file.
            base_digest=keep_base(conn, spec, target, base_hash, run_id=self.run_id),
            revision=revision.revision,
            revises=revision.revises,
            revision_note=revision.note,
        )
        approval_rows.insert_approval(conn, approval)
        # The server it goes to, for a rule a person may remember from it (on any desk).
        server = {} if spec.source is None else {"server_digest": self._server_digest(spec)}
        approval_rows.append_approval_event(
            conn, approval, EventKind.APPROVAL_REQUESTED, reviewer=approval.reviewer,
            target=target, **server,
        )  # fmt: skip
        if auto:
            approval_rows.append_approval_event(
                conn, approval, EventKind.APPROVAL_DECIDED, reviewer=approval.reviewer,
                rule=decision.rule_id,
            )  # fmt: skip
            audit.record(
                conn,
                entry="decision",
                principal=decision.principal,
                run_id=self.run_id,
                tool=spec.name,
                arg_hash=approval.arg_hash,
                resource=target,
                rule_id=decision.rule_id,
                decision="approved",
                detail=decision.reason,
            )
        self.ctx.record.advance(
            conn,
            next_step=f"run {spec.name}" if auto else f"wait for approval of {spec.name}",
        )
        return approval

    def _server_digest(self, spec: ToolSpec) -> str | None:
        return self.ctx.tools.server_digests.get(spec.source or "")


@dataclass(frozen=True)
class _Used:
    input: int
    output: int
    total: int


def _usage_of(response: ModelResponse) -> _Used:
    """The tokens a response reported (the SDK's Usage; the embedded models' is all zeros)."""
    usage = getattr(response, "usage", None)

    def tokens(name: str) -> int:
        value = getattr(usage, name, 0)
        return value if isinstance(value, int) and value > 0 else 0

    used = _Used(tokens("input_tokens"), tokens("output_tokens"), tokens("total_tokens"))
    # An endpoint that reports only the parts still counts against the token budget.
    return used if used.total else replace(used, total=used.input + used.output)


def _raw_field(item: ToolApprovalItem, name: str) -> object:
    """A field of the call the SDK paused at: an attribute of its item, or a key of its dict."""
    raw = item.raw_item
    value = getattr(raw, name, None)
    if value is None and isinstance(raw, dict):
        value = raw.get(name)
    return value
