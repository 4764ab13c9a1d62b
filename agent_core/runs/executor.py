"""Running a decided call exactly once: ledger intent, the tool body, confirmation.

A side-effecting call first records its intent under an idempotency key (run, call, tool,
canonical arguments), then runs, then is confirmed together with its `tool_result` event and
checkpoint B. A confirmed key replays its recorded result (`executed: false`); a started but
unconfirmed call is `outcome_unknown` and is settled by its spec's `reconcile`, never redone
blindly. Every body runs in a worker thread (`asyncio.to_thread`): a slow fetch, a corpus walk
or a blocked disk never holds the event loop, so polls and a cancel request are still served.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import Connection

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import Approval
from agent_core.contract.canonical import arg_hash, idempotency_key
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonMapping
from agent_core.contract.statuses import ApprovalStatus, SideEffectStatus, ToolOutcomeStatus
from agent_core.home import crash
from agent_core.runs import approval_binding
from agent_core.runs.call_records import clip, refuse, tool_result
from agent_core.runs.checkpointing import save_checkpoint
from agent_core.runs.context import RunContext
from agent_core.runs.reproposal import mcp_base_moved
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import ledger
from agent_core.storage.tables.blobs import get_blob, put_blob
from agent_core.storage.tables.timeline import append_event
from agent_core.tools import network
from agent_core.tools.mcp.tool_spec import McpOutcomeUnknown
from agent_core.tools.mcp.whole_file import McpTargetChanged
from agent_core.tools.specs import ArgsJSON, ToolArgs, ToolEnv, ToolResult, ToolSpec

if TYPE_CHECKING:
    from agents.tool_context import ToolContext

    from agent_core.runs.model_bounds import Invoke

STARTED = SideEffectStatus.STARTED
OFFLOAD_CHARS = 8_000  # larger results go to a blob; the ledger keeps the digest


# Checks and checkpoint A of a call that ran without an SDK pause: the refusal, or None.
# The last argument writes the call's ledger intent in checkpoint A's transaction (told
# whether the call was recorded just now: then it has no ledger entry to look for).
Admit = Callable[[str, str, str, "Callable[[Connection, bool], None]"], "str | None"]


def _called(spec: ToolSpec, call_id: str, normalized: ArgsJSON) -> JsonMapping:
    """The `tool_called` event's data (an MCP call names its server on the timeline)."""
    called = {"call_id": call_id, "args": clip(normalized)}
    if spec.source is not None:
        called["server"] = spec.source
    return called


def _require_base(spec: ToolSpec, approval: Approval) -> None:
    """Just before an approved call goes out: a whole-file MCP write whose file changed since
    the person saw its diff is not sent; the run goes back to the call's pause, where the
    gate shows a person the new diff (runs/reproposal.py)."""
    if mcp_base_moved(spec, approval):
        raise McpTargetChanged(
            ErrorCode.TARGET_CHANGED,
            f"{approval.target} changed since it was approved; it was not sent.",
        )


class ToolExecutor:
    def __init__(self, ctx: RunContext, admit: Admit) -> None:
        self.ctx = ctx
        self.store = ctx.store
        self.run_id = ctx.run_id
        self.admit = admit
        self._running: set[asyncio.Future[str]] = set()
        # Intents written with checkpoint A (unpaused reads): key -> the entry found there.
        self._admitted: dict[str, ledger.LedgerEntry | None] = {}

    def invoker(self, tool: str, *, unpaused: bool) -> Invoke:
        """The SDK's on_invoke_tool; `unpaused`: the SDK did not stop before this call."""

        async def invoke(tool_ctx: ToolContext[None], raw: str) -> str:
            call_id = str(tool_ctx.tool_call_id)
            if unpaused:
                # On the loop, before the body's thread: parallel calls pass their checkpoint
                # A one by one, in the order the model proposed them.
                intent = functools.partial(self._intent_at_a, tool, call_id, raw)
                refusal = self.admit(tool, call_id, raw, intent)
                if refusal is not None:
                    return refusal
            # Admitted just now (`admit` checked the budgets and a cancel): not checked again.
            body = functools.partial(self.invoke, tool, call_id, raw, checked=unpaused)
            running = asyncio.ensure_future(asyncio.to_thread(body))
            self._running.add(running)
            running.add_done_callback(self._running.discard)
            return await asyncio.shield(running)  # a thread cannot be cancelled: let it finish

        return invoke

    async def drain(self) -> None:
        """Wait for every tool body still running (a sibling call failed, or a budget ended
        the run): the run must not end, and be pruned, under a call that is still writing."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)

    def _intent_at_a(self, tool: str, call_id: str, raw: str, conn: Connection, new: bool) -> None:
        """An unpaused read's ledger intent and `tool_called`, in checkpoint A's transaction
        (issue 29: one commit fewer a call). Validated by then: `parse` succeeds. A call
        recorded by this very turn has no entry (its key names the call): none is looked up."""
        spec = self.ctx.tools.spec_for(tool)
        args = spec.parse(raw)
        key = idempotency_key(self.run_id, call_id, tool, args.to_json())
        entry = None if new else ledger.get_entry(conn, key)
        if entry is None:
            self._write_intent(conn, spec, call_id, key, args, None, None)
        self._admitted[key] = entry

    def _write_intent(
        self,
        conn: Connection,
        spec: ToolSpec,
        call_id: str,
        key: str,
        args: ToolArgs,
        target: str | None,
        approval_id: str | None,
    ) -> None:
        normalized = args.to_json()
        ledger.start(
            conn,
            key,
            run_id=self.run_id,
            call_id=call_id,
            tool=spec.name,
            arg_hash=arg_hash(spec.name, normalized),
            target=target,
            expected_hash=spec.expected_hash(args),
            approval_id=approval_id,
        )
        append_event(
            conn, self.run_id, EventKind.TOOL_CALLED, tool=spec.name,
            data=_called(spec, call_id, normalized),
        )  # fmt: skip

    def invoke(self, tool: str, call_id: str, raw: str, *, checked: bool = False) -> str:
        if not checked:
            self.ctx.check_budgets()
        spec = self.ctx.tools.spec_for(tool)
        args = spec.parse(raw)
        approval: Approval | None = None
        if spec.has_side_effect:
            with self.store.read() as conn:
                approval = approval_rows.latest_for_call(conn, self.run_id, call_id)
                if approval is None or approval.status not in (
                    ApprovalStatus.APPROVED,
                    ApprovalStatus.CONSUMED,
                ):
                    return "Refused by BriefDesk: this call has no approval."
                args = spec.validate(approval.args)  # exactly what the person approved (an edit?)
                # Defence in depth: the row must be this call's, decided by a person, a live
                # rule or the run's own mode, whatever the store let someone write.
                unbound = approval_binding.refusal(
                    conn, approval, run_id=self.run_id, call_id=call_id, tool=tool,
                    scope=self.ctx.tool_scope(), model_raw=raw, will_run=args.to_json(),
                    tools=self.ctx.tools,
                )  # fmt: skip
            if unbound is not None:
                return self._refuse_unbound(tool, call_id, approval, unbound)
        normalized = args.to_json()
        key = idempotency_key(self.run_id, call_id, tool, normalized)
        target = approval.target if approval else None
        approval_id = approval.id if approval else None
        if key in self._admitted:  # an unpaused read: its intent was written with checkpoint A
            entry = self._admitted.pop(key)
            if entry is not None and entry.status is not SideEffectStatus.STARTED:
                with self.ctx.write() as conn:
                    return self._replay(conn, tool, call_id, entry)
        else:
            with self.ctx.write() as conn:
                entry = ledger.get_entry(conn, key)
                if approval is not None and (entry is None or entry.status is STARTED):
                    _require_base(spec, approval)  # raises before anything is recorded
                if entry is None:
                    self._write_intent(conn, spec, call_id, key, args, target, approval_id)
                elif entry.status is not SideEffectStatus.STARTED:
                    return self._replay(conn, tool, call_id, entry)
                elif not spec.reruns_after_unknown:
                    # Unknown outcome: runs again only under a person's newer approval (the
                    # gate asked them); never on its own.
                    if approval_id is None or entry.approval_id == approval_id:
                        return (
                            "Refused by BriefDesk: this call's outcome is unknown; a person "
                            "decides."
                        )
                    ledger.restart(conn, key, approval_id)
                    append_event(
                        conn, self.run_id, EventKind.TOOL_CALLED, tool=tool,
                        data=_called(spec, call_id, normalized),
                    )  # fmt: skip
                    entry = None  # a fresh attempt, not a reconciliation
        env = ToolEnv(
            store=self.store,
            desk_store=self.ctx.desk_store,
            holder=self.ctx.holder,
            scope=self.ctx.tool_scope(),
            run_id=self.run_id,
            call_id=call_id,
            target=target,
            base_hash=approval.base_hash if approval else None,
            answer=self.ctx.record.progress.answer_for(call_id),
        )
        try:
            result = self._settle_or_run(spec, env, args, key, unknown=entry is not None)
            if spec.source is not None:
                crash.after_mcp_call_before_confirm()
        except BriefDeskError as error:
            if error.code == ErrorCode.RUN_OWNED_ELSEWHERE:
                raise  # taken over while it ran: the ledger row is the new owner's to settle
            if isinstance(error, McpOutcomeUnknown) and not spec.reruns_after_unknown:
                self._leave_unknown(tool, call_id, key, error)
                raise  # the run goes back to this call's pause, where a person is asked
            if error.retryable:  # out of space: the run stops; `resume` settles and retries
                self._leave_unknown(tool, call_id, key, error)
                raise
            with self.ctx.write() as conn:
                ledger.finish(
                    conn,
                    key,
                    SideEffectStatus.FAILED,
                    str(ToolOutcomeStatus.ERROR),
                    {"error": error.to_json()},
                )
                refuse(conn, self.run_id, call_id, tool, error, resource=target)
                save_checkpoint(self.ctx, conn, "B", call_id, "model")
            return f"Refused by BriefDesk ({error.code}): {error.message}"
        self._confirm(tool, call_id, key, result, approval)
        return result.text

    def _refuse_unbound(
        self, tool: str, call_id: str, approval: Approval, error: BriefDeskError
    ) -> str:
        """An approval that does not authorise its call: a `blocked` event and a refused
        result, nothing run (the run goes on: the model reads the refusal)."""
        with self.ctx.write() as conn:
            refuse(conn, self.run_id, call_id, tool, error, resource=approval.target)
            save_checkpoint(self.ctx, conn, "B", call_id, "model")
        return f"Refused by BriefDesk ({error.code}): {error.message}"

    def _leave_unknown(self, tool: str, call_id: str, key: str, error: BriefDeskError) -> None:
        """A call stopped by a retryable error stays `started` in the ledger: its outcome is
        unknown (the write may have landed before the failure), so `resume` settles it by the
        target's hash before running it again, never twice."""
        facts = {"call_id": call_id, "idempotency_key": key, "code": error.code}
        try:
            with self.ctx.write() as conn:
                append_event(conn, self.run_id, EventKind.OUTCOME_UNKNOWN, tool=tool, data=facts)
                tool_result(
                    conn, self.run_id, tool, call_id, str(ToolOutcomeStatus.ERROR),
                    executed=False, code=error.code, retryable=True,
                )  # fmt: skip
        except BriefDeskError:  # the database's own disk is full: the `started` row says it
            pass

    def _settle_or_run(
        self, spec: ToolSpec, env: ToolEnv, args: ToolArgs, key: str, *, unknown: bool
    ) -> ToolResult:
        if unknown and spec.reconcile is not None:
            # Started before a crash, never confirmed: did the effect happen?
            facts = {"call_id": env.call_id, "idempotency_key": key}
            with self.ctx.write() as conn:
                append_event(
                    conn, self.run_id, EventKind.OUTCOME_UNKNOWN, tool=spec.name, data=facts
                )
            settled = spec.reconcile(env, args)
            if settled is not None:
                with self.ctx.write() as conn:
                    append_event(
                        conn,
                        self.run_id,
                        EventKind.RECONCILED,
                        tool=spec.name,
                        data={**facts, "path": env.target},
                    )
                return settled
        if spec.network_access or spec.source is not None:
            # An MCP server is another process (started on the run's loop, which the guard
            # would also stop): what it reaches is its own; BriefDesk governs the call.
            return spec.body(env, args)
        with network.socket_guard(frozenset()):
            return spec.body(env, args)

    def _confirm(
        self,
        tool: str,
        call_id: str,
        key: str,
        result: ToolResult,
        approval: Approval | None,
    ) -> None:
        record = result.to_record()
        with self.ctx.write() as conn:
            if len(result.text) > OFFLOAD_CHARS:
                record["text"] = None
                record["blob"] = put_blob(conn, result.text.encode("utf-8"), run_id=self.run_id)
            ledger.finish(conn, key, SideEffectStatus.CONFIRMED, str(result.outcome), record)
            summary = clip(result.summary)
            tool_result(
                conn, self.run_id, tool, call_id, str(result.outcome), executed=True,
                result=result.text, **(summary if isinstance(summary, dict) else {}),
            )  # fmt: skip
            listed = result.summary.get("sources_found")
            found = [str(s) for s in listed] if isinstance(listed, list) else []
            read = [str(result.summary["source_id"])] if "source_id" in result.summary else []
            progress = self.ctx.record.progress
            self.ctx.record.advance(conn, next_step="model", **progress.with_sources(found, read))
            if approval is not None and approval.status is ApprovalStatus.APPROVED:
                approval_rows.move(conn, approval, ApprovalMove.CONSUME)
            save_checkpoint(self.ctx, conn, "B", call_id, "model", confirmed=key)

    def _replay(self, conn: Connection, tool: str, call_id: str, entry: ledger.LedgerEntry) -> str:
        record = dict(entry.result or {})
        if entry.status is SideEffectStatus.FAILED:
            error = record.get("error")
            error = error if isinstance(error, dict) else {}
            text = f"Refused by BriefDesk ({error.get('code')}): {error.get('message')}"
        else:
            stored = record.get("text")
            text = str(stored) if stored else get_blob(conn, str(record["blob"])).decode("utf-8")
        tool_result(
            conn, self.run_id, tool, call_id, entry.outcome, executed=False, replayed=True,
            result=text,  # what the model gets again: the first execution's answer
        )  # fmt: skip
        return text
