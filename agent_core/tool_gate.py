"""The gate every tool call passes: record, validate, decide, execute once, confirm.

`record_model_turn` sees the model's calls as they arrive (unknown tools are refused here, so a
deceived model's call becomes a refusal and the run goes on). `handle_pause` decides each call
at the SDK's approval pause (checkpoint A). Its ToolExecutor (tool_executor.py) then runs a
decided call inside the side-effect ledger and confirms it (checkpoint B); a confirmed call is
replayed, never executed again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openai.types.responses import ResponseFunctionToolCall
from sqlalchemy import Connection, select
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from agent_core import crash
from agent_core.approvals import Approval, is_expired
from agent_core.canonical import arg_hash, iso, now_iso, utcnow
from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.events import EventKind
from agent_core.statuses import ApprovalStatus, RunStatus, ToolOutcomeStatus
from agent_core.storage import approvals as approval_rows
from agent_core.storage import audit
from agent_core.storage import runs as run_rows
from agent_core.storage.schema import rules as rules_table
from agent_core.storage.schema import tool_calls
from agent_core.storage.timeline import append_event
from agent_core.tool_executor import ToolExecutor, clip
from agent_core.tools import network
from agent_core.tools.policy import Decision, Mode, Verdict, decide, risk_label, rules_from_rows
from agent_core.tools.sandbox import file_sha256
from agent_core.tools.specs import TOOLS, Tier
from agent_core.tools.validation import describe_resource, printable, validate_call

if TYPE_CHECKING:
    from agents import RunState
    from agents.items import ModelResponse

    from agent_core.runner import PauseOutcome, RunDriver


RULE_FOR_CODE = {
    ErrorCode.INVALID_ARGUMENTS: "schema.strict",
    ErrorCode.UNKNOWN_TOOL: "tools.unknown",
    ErrorCode.PATH_OUTSIDE_SCOPE: "sandbox.path",
    ErrorCode.NOT_FOUND: "sandbox.path",
    ErrorCode.WRITE_FORBIDDEN: "sandbox.write",
    ErrorCode.NETWORK_BLOCKED: "network.off",
    ErrorCode.PREVIOUSLY_REJECTED: "approvals.previously_rejected",
    ErrorCode.TARGET_CHANGED: "approvals.target_changed",
}


class ToolGate:
    def __init__(self, driver: RunDriver) -> None:
        self.driver = driver
        self.store = driver.store
        self.run_id = driver.run_id
        row = driver.record.row()
        self.corpus = Path(row.corpus_dir)
        self.artifacts = Path(row.artifacts_dir)
        self.mode = Mode(row.mode)
        self.thread_id = row.thread_id
        self.executor = ToolExecutor(self)

    def invoker(self, tool: str) -> Callable[[Any, str], Awaitable[str]]:
        return self.executor.invoker(tool)

    @property
    def state(self) -> dict[str, Any]:
        return self.driver.record.state

    # -- model turns ----------------------------------------------------------------------

    def record_model_turn(self, response: ModelResponse) -> None:
        calls = [o for o in response.output if isinstance(o, ResponseFunctionToolCall)]
        texts = [
            part.text
            for o in response.output
            if getattr(o, "type", None) == "message"
            for part in getattr(o, "content", [])
            if hasattr(part, "text")
        ]
        with self.store.write() as conn:
            turn = int(self.state["turns"]) + 1
            proposed = int(self.state["tool_calls"])
            fresh: list[Any] = []
            for call in calls:
                inserted = conn.execute(
                    sqlite_insert(tool_calls)
                    .values(
                        run_id=self.run_id,
                        call_id=call.call_id,
                        idx=proposed + len(fresh) + 1,
                        turn=turn,
                        tool=call.name,
                        raw_args=call.arguments,
                        created_at=now_iso(),
                    )
                    .on_conflict_do_nothing()
                ).rowcount
                if inserted:
                    fresh.append(call)
            self.driver.record.write_state(
                conn,
                turns=turn,
                tool_calls=proposed + len(fresh),
                tokens=int(self.state.get("tokens", 0)) + _tokens_of(response),
                next_step="tools" if calls else "answer",
            )
            append_event(
                conn,
                self.run_id,
                EventKind.MODEL_TURN,
                data={
                    "turn": turn,
                    "calls": [printable(c.name, 80) for c in calls],  # model text: bounded
                    "text": clip(" ".join(texts), 500) if texts else None,
                },
            )
            for call in fresh:
                if call.name not in TOOLS:
                    error = BriefDeskError(
                        ErrorCode.UNKNOWN_TOOL, f"There is no tool named {call.name[:80]!r}."
                    )
                    name = printable(call.name, 80)
                    self.refuse(conn, call.call_id, name, error, resource=name)

    # -- refusals -------------------------------------------------------------------------

    def refuse(
        self,
        conn: Connection,
        call_id: str,
        tool: str,
        error: BriefDeskError,
        *,
        resource: str | None,
    ) -> None:
        known = error.code in ErrorCode._value2member_map_
        # The refusing boundary's own rule id when it names one (network.allowlist, ...).
        rule = error.details.get("rule") or (
            RULE_FOR_CODE.get(ErrorCode(error.code), "policy") if known else "policy"
        )
        conn.execute(
            tool_calls.update()
            .where(tool_calls.c.run_id == self.run_id, tool_calls.c.call_id == call_id)
            .values(decision="deny", code=error.code)
        )
        clipped = printable(resource) if resource else None
        append_event(
            conn,
            self.run_id,
            EventKind.BLOCKED,
            tool=tool,
            data={
                "call_id": call_id,
                "rule": rule,
                "code": error.code,
                "resource": clipped,
                "message": clip(error.message, 300),
            },
        )
        self.tool_result(
            conn, tool, call_id, str(ToolOutcomeStatus.ERROR), executed=False, code=error.code
        )
        audit.record(
            conn,
            entry="block",
            principal="model",
            run_id=self.run_id,
            tool=tool,
            resource=clipped,
            rule_id=rule,
            code=error.code,
            detail=error.message,
        )

    # -- validation and policy ------------------------------------------------------------

    def validate(self, tool: str, raw: str) -> tuple[dict[str, Any], str | None]:
        """Schema, sandbox and network checks; returns (normalized args, resolved target)."""
        used = None
        if tool == "fetch_url":
            with self.store.read() as conn:
                used = network.calls_used(conn, self.run_id)
        return validate_call(
            tool,
            raw,
            corpus=self.corpus,
            artifacts=self.artifacts,
            settings=self.driver.settings,
            network_calls_used=used,
        )

    def _rules(self, conn: Connection) -> list[Any]:
        return rules_from_rows(list(conn.execute(select(rules_table))))

    def handle_pause(self, state: RunState[Any]) -> PauseOutcome:
        from agent_core.runner import PauseOutcome

        self.driver.record.reload_state()
        self.driver.check_budgets()  # a cancel request or the wall-time budget ends it here
        outcome = PauseOutcome()
        for item in state.get_interruptions():
            raw_item = item.raw_item
            call_id = str(getattr(raw_item, "call_id", None) or raw_item.get("call_id"))  # type: ignore[union-attr]
            tool = str(item.tool_name)
            raw = str(getattr(raw_item, "arguments", None) or "{}")
            verdict = self._decide_one(state, item, call_id, tool, raw)
            if verdict is RunStatus.EXPIRED or (
                verdict is not None and outcome.stop_status is None
            ):
                outcome.stop_status = verdict
        return outcome

    def _call_row(self, conn: Connection, call_id: str) -> Any:
        return conn.execute(
            select(tool_calls).where(
                tool_calls.c.run_id == self.run_id, tool_calls.c.call_id == call_id
            )
        ).first()

    def _decide_one(
        self, state: Any, item: Any, call_id: str, tool: str, raw: str
    ) -> RunStatus | None:
        with self.store.read() as conn:
            row = self._call_row(conn, call_id)
        index = int(row.idx) if row is not None else 0
        budget = int(self.driver.record.limits["max_tool_calls"])
        if index > budget:
            raise BriefDeskError(
                ErrorCode.BUDGET_EXCEEDED,
                f"The run used its {budget} tool calls (call {index} refused).",
            )
        if row is not None and row.decision == "deny":
            state.reject(item, rejection_message=f"Refused by BriefDesk ({row.code}).")
            return None
        spec = TOOLS[tool]
        try:
            args, target = self.validate(tool, raw)
            if spec.tier in (Tier.WRITE, Tier.NETWORK):
                with self.store.read() as conn:
                    earlier = approval_rows.rejected_in_thread(
                        conn, self.thread_id, arg_hash(tool, args)
                    )
                if earlier is not None and earlier.call_id != call_id:
                    raise BriefDeskError(
                        ErrorCode.PREVIOUSLY_REJECTED,
                        f"A reviewer already rejected this exact {tool} in this thread "
                        f"({earlier.id}).",
                    )
        except BriefDeskError as error:
            with self.store.write() as conn:
                resource = describe_resource(
                    tool, raw, corpus=self.corpus, artifacts=self.artifacts
                )
                self.refuse(conn, call_id, tool, error, resource=resource)
            state.reject(
                item, rejection_message=f"Refused by BriefDesk ({error.code}): {error.message}"
            )
            return None
        if spec.tier is Tier.INTERACTION:
            return self._question(state, item, call_id, args, index)
        with self.store.read() as conn:
            decision = decide(
                spec.tier,
                tool,
                mode=self.mode,
                target=target,
                run_id=self.run_id,
                rules=self._rules(conn),
            )
        if spec.tier in (Tier.WRITE, Tier.NETWORK):
            return self._gated(state, item, call_id, tool, args, target, decision, index)
        self._approve(state, item, call_id, tool, index)
        return None

    def _approve(self, state: Any, item: Any, call_id: str, tool: str, index: int) -> None:
        with self.store.write() as conn:
            self.driver.save_checkpoint(conn, "A", call_id, f"run {tool}")
        crash.before_tool(index)
        state.approve(item)

    def _question(
        self, state: Any, item: Any, call_id: str, args: dict[str, Any], index: int
    ) -> RunStatus | None:
        if call_id in self.state.get("answers", {}):
            self._approve(state, item, call_id, "ask_question", index)
            return None
        with self.store.write() as conn:
            row = run_rows.get_run_row(conn, self.run_id)
            if row.question_pending != args["question"]:
                run_rows.update_run(conn, self.run_id, question_pending=args["question"])
                self.driver.record.write_state(
                    conn, waiting_call=call_id, next_step="wait for an answer"
                )
                append_event(
                    conn,
                    self.run_id,
                    EventKind.QUESTION_ASKED,
                    tool="ask_question",
                    data={"call_id": call_id, "question": args["question"]},
                )
                self.driver.save_checkpoint(conn, "A", call_id, "wait for an answer")
        return RunStatus.WAITING_INPUT

    def _gated(
        self,
        state: Any,
        item: Any,
        call_id: str,
        tool: str,
        args: dict[str, Any],
        target: str | None,
        decision: Decision,
        index: int,
    ) -> RunStatus | None:
        with self.store.write() as conn:
            approval = approval_rows.latest_for_call(conn, self.run_id, call_id)
            if approval is None:
                approval = self._propose(conn, call_id, tool, args, target, decision)
                if approval.status is ApprovalStatus.PENDING:
                    self.driver.save_checkpoint(conn, "A", call_id, f"wait for approval of {tool}")
                    return RunStatus.WAITING_APPROVAL
            if approval.status is ApprovalStatus.PENDING:
                if is_expired(approval, utcnow()):
                    expired = approval_rows.transition(
                        conn,
                        approval,
                        replace(approval, status=ApprovalStatus.EXPIRED, decided_at=now_iso()),
                    )
                    approval_rows.append_approval_event(
                        conn, expired, EventKind.APPROVAL_DECIDED, reviewer=None
                    )
                    return RunStatus.EXPIRED
                return RunStatus.WAITING_APPROVAL
            if approval.status is ApprovalStatus.EXPIRED:
                return RunStatus.EXPIRED
            if approval.status is ApprovalStatus.REJECTED:
                self.driver.record.write_state(conn, rejected=True)
        if approval.status is ApprovalStatus.REJECTED:
            reason = f" Reason: {approval.decision_reason}" if approval.decision_reason else ""
            state.reject(
                item,
                rejection_message=(
                    f"The reviewer rejected {tool} (approval {approval.id}); nothing was "
                    f"written.{reason} Do not propose another write."
                ),
            )
            return None
        self._approve(state, item, call_id, tool, index)
        return None

    def _propose(
        self,
        conn: Connection,
        call_id: str,
        tool: str,
        args: dict[str, Any],
        target: str | None,
        decision: Decision,
    ) -> Approval:
        now = utcnow()
        ttl = float(run_rows.limits(run_rows.get_run_row(conn, self.run_id))["approval_ttl"])
        base_hash = file_sha256(Path(target)) if tool == "save_brief" and target else None
        auto = decision.verdict is Verdict.ALLOW
        approval = Approval(
            id=approval_rows.new_approval_id(),
            run_id=self.run_id,
            thread_id=self.thread_id,
            call_id=call_id,
            tool=tool,
            args=args,
            target=target,
            base_hash=base_hash,
            risk=risk_label(TOOLS[tool].tier),
            reason=decision.reason,
            arg_hash=arg_hash(tool, args),
            state_version=int(self.state.get("state_version", 0)),
            version=1,
            status=ApprovalStatus.APPROVED if auto else ApprovalStatus.PENDING,
            created_at=iso(now) or "",
            expires_at=iso(now + timedelta(seconds=ttl)) or "",
            reviewer=decision.principal if auto else None,
            decided_at=iso(now) if auto else None,
            decided_by_rule=decision.rule_id or (decision.principal if auto else None),
        )
        approval_rows.insert_approval(conn, approval)
        approval_rows.append_approval_event(
            conn, approval, EventKind.APPROVAL_REQUESTED, reviewer=approval.reviewer, target=target
        )
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
                tool=tool,
                arg_hash=approval.arg_hash,
                resource=target,
                rule_id=decision.rule_id,
                decision="approved",
                detail=decision.reason,
            )
        self.driver.record.write_state(
            conn, next_step=f"wait for approval of {tool}" if not auto else f"run {tool}"
        )
        return approval

    def tool_result(
        self,
        conn: Connection,
        tool: str,
        call_id: str,
        outcome: str | None,
        *,
        executed: bool,
        **extra: Any,
    ) -> None:
        """`executed` is true on exactly one tool_result per call: its one real execution."""
        data = {"call_id": call_id, "outcome": outcome, "executed": executed, **extra}
        append_event(conn, self.run_id, EventKind.TOOL_RESULT, tool=tool, data=data)


def _tokens_of(response: ModelResponse) -> int:
    usage = getattr(response, "usage", None)
    return int(getattr(usage, "total_tokens", 0) or 0)
