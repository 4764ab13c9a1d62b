"""Running a decided call exactly once: ledger intent, the tool body, confirmation.

A side-effecting call first records its intent under an idempotency key (run, call, tool,
canonical arguments), then runs, then is confirmed together with its `tool_result` event and
checkpoint B. A confirmed key replays its recorded result (`executed: false`); a started but
unconfirmed write is `outcome_unknown` and is settled by the target's content hash, never
written twice.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from agent_core import crash
from agent_core.approvals import Approval, consume
from agent_core.canonical import arg_hash, idempotency_key, now_iso, sha256_hex
from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.events import EventKind
from agent_core.statuses import ApprovalStatus, SideEffectStatus, ToolOutcomeStatus
from agent_core.storage import approvals as approval_rows
from agent_core.storage import ledger
from agent_core.storage.blobs import get_blob, put_blob
from agent_core.storage.timeline import append_event
from agent_core.tools import bodies, network
from agent_core.tools.sandbox import atomic_write_nofollow, file_sha256, remove_stale_temps
from agent_core.tools.specs import TOOLS, Tier, validate_raw_args

if TYPE_CHECKING:
    from agent_core.tool_gate import ToolGate

OFFLOAD_CHARS = 8_000  # larger results go to a blob; the ledger keeps the digest
PREVIEW_CHARS = 300


def clip(value: Any, limit: int = PREVIEW_CHARS) -> Any:
    """Bound model-supplied text before it goes into an event (long strings are cut)."""
    if isinstance(value, str) and len(value) > limit:
        return value[:limit] + f"… ({len(value)} chars)"
    if isinstance(value, dict):
        return {k: clip(v, limit) for k, v in value.items()}
    return value


class ToolExecutor:
    def __init__(self, gate: ToolGate) -> None:
        self.gate = gate
        self.driver = gate.driver
        self.store = gate.store
        self.run_id = gate.run_id
        self.corpus = gate.corpus
        self.artifacts = gate.artifacts

    @property
    def state(self) -> dict[str, Any]:
        return self.gate.state

    def invoker(self, tool: str) -> Callable[[Any, str], Awaitable[str]]:
        async def invoke(ctx: Any, raw: str) -> str:
            return self.invoke(tool, str(ctx.tool_call_id), raw)

        return invoke

    def invoke(self, tool: str, call_id: str, raw: str) -> str:
        self.driver.check_budgets()
        args = validate_raw_args(tool, raw)
        approval: Approval | None = None
        if TOOLS[tool].tier in (Tier.WRITE, Tier.NETWORK):
            with self.store.read() as conn:
                approval = approval_rows.latest_for_call(conn, self.run_id, call_id)
            if approval is None or approval.status not in (
                ApprovalStatus.APPROVED,
                ApprovalStatus.CONSUMED,
            ):
                return "Refused by BriefDesk: this call has no approval."
            args = approval.args  # exactly what the person approved (maybe an edit)
        key = idempotency_key(self.run_id, call_id, tool, args)
        with self.store.write() as conn:
            entry = ledger.get_entry(conn, key)
            if entry is None:
                target = approval.target if approval else None
                expected = sha256_hex(args["content"]) if tool == "save_brief" else None
                ledger.start(
                    conn,
                    key,
                    run_id=self.run_id,
                    call_id=call_id,
                    tool=tool,
                    arg_hash=arg_hash(tool, args),
                    target=target,
                    expected_hash=expected,
                )
                append_event(
                    conn,
                    self.run_id,
                    EventKind.TOOL_CALLED,
                    tool=tool,
                    data={"call_id": call_id, "args": clip(args)},
                )
            elif entry.status is not SideEffectStatus.STARTED:
                return self._replay(conn, tool, call_id, entry)
        try:
            if tool == "save_brief" and approval is not None:
                result = self._save_brief(call_id, key, args, approval, unknown=entry is not None)
            else:
                result = self._run_body(tool, call_id, args)
        except BriefDeskError as error:
            with self.store.write() as conn:
                ledger.finish(
                    conn,
                    key,
                    SideEffectStatus.FAILED,
                    str(ToolOutcomeStatus.ERROR),
                    {"error": error.to_json()},
                )
                self.gate.refuse(
                    conn, call_id, tool, error, resource=approval.target if approval else None
                )
                self.driver.save_checkpoint(conn, "B", call_id, "model")
            return f"Refused by BriefDesk ({error.code}): {error.message}"
        self._confirm(tool, call_id, key, result, approval)
        return result.text

    def _run_body(self, tool: str, call_id: str, args: dict[str, Any]) -> bodies.ToolResult:
        if tool == "fetch_url":
            with self.store.read() as conn:
                used = network.calls_used(conn, self.run_id, exclude_call=call_id)
            return network.fetch(args["url"], self.driver.settings, calls_used=used)
        with network.socket_guard(frozenset()):
            return self._run_local_body(tool, call_id, args)

    def _run_local_body(self, tool: str, call_id: str, args: dict[str, Any]) -> bodies.ToolResult:
        if tool == "search_corpus":
            return bodies.search_corpus(self.store, self.corpus, args)
        if tool == "read_document":
            return bodies.read_document(self.corpus, args)
        if tool == "remember_audience":
            return bodies.remember_audience(
                self.store,
                args,
                user=str(self.driver.settings.get("reviewer") or "local"),
                run_id=self.run_id,
                ttl_days=float(self.driver.settings["memory.ttl_days"]),
            )
        if tool == "ask_question":
            answer = self.state.get("answers", {}).get(call_id, "")
            return bodies.ToolResult(
                ToolOutcomeStatus.SUCCESS, f"The person answered: {answer}", {}
            )
        raise BriefDeskError(ErrorCode.UNKNOWN_TOOL, f"There is no tool named {tool!r}.")

    def _save_brief(
        self, call_id: str, key: str, args: dict[str, Any], approval: Approval, *, unknown: bool
    ) -> bodies.ToolResult:
        target = Path(str(approval.target))
        expected = sha256_hex(args["content"])
        if unknown:
            with self.store.write() as conn:
                append_event(
                    conn,
                    self.run_id,
                    EventKind.OUTCOME_UNKNOWN,
                    tool="save_brief",
                    data={"call_id": call_id, "idempotency_key": key},
                )
            remove_stale_temps(target)  # a kill between fsync and rename leaves one behind
        current = file_sha256(target)
        if unknown and current == expected:
            with self.store.write() as conn:
                append_event(
                    conn,
                    self.run_id,
                    EventKind.RECONCILED,
                    tool="save_brief",
                    data={"call_id": call_id, "idempotency_key": key, "path": str(target)},
                )
            return _saved(target, args["content"], reconciled=True)
        if current != approval.base_hash:
            raise BriefDeskError(
                ErrorCode.TARGET_CHANGED,
                f"{target} changed since the proposal was shown; "
                "the approved diff no longer applies.",
            )
        relative = target.relative_to(self.artifacts.resolve()).as_posix()
        atomic_write_nofollow(
            self.artifacts,
            relative,
            args["content"].encode("utf-8"),
            after_durable=crash.after_write_before_confirm,
        )
        return _saved(target, args["content"], reconciled=False)

    def _confirm(
        self,
        tool: str,
        call_id: str,
        key: str,
        result: bodies.ToolResult,
        approval: Approval | None,
    ) -> None:
        record = result.to_record()
        with self.store.write() as conn:
            if len(result.text) > OFFLOAD_CHARS:
                record["text"] = None
                record["blob"] = put_blob(conn, result.text.encode("utf-8"), run_id=self.run_id)
            ledger.finish(conn, key, SideEffectStatus.CONFIRMED, str(result.outcome), record)
            self.gate.tool_result(
                conn, tool, call_id, str(result.outcome), executed=True, **clip(result.summary)
            )
            changes: dict[str, Any] = {"next_step": "model"}
            found = result.summary.get("sources_found")
            if found:
                changes["sources_found"] = _merge(self.state["sources_found"], found)
            if tool == "read_document":
                changes["sources_read"] = _merge(
                    self.state["sources_read"], [result.summary["source_id"]]
                )
            self.driver.record.write_state(conn, **changes)
            if approval is not None and approval.status is ApprovalStatus.APPROVED:
                approval_rows.transition(conn, approval, consume(approval, now_iso()))
            self.driver.save_checkpoint(conn, "B", call_id, "model")

    def _replay(self, conn: Connection, tool: str, call_id: str, entry: ledger.LedgerEntry) -> str:
        record = dict(entry.result or {})
        if entry.status is SideEffectStatus.FAILED:
            error = record.get("error", {})
            text = f"Refused by BriefDesk ({error.get('code')}): {error.get('message')}"
        else:
            text = record.get("text") or get_blob(conn, record["blob"]).decode("utf-8")
        self.gate.tool_result(conn, tool, call_id, entry.outcome, executed=False, replayed=True)
        return text


def _merge(existing: list[str], new: list[str]) -> list[str]:
    return existing + [s for s in new if s not in existing]


def _saved(target: Path, content: str, *, reconciled: bool) -> bodies.ToolResult:
    data = {
        "saved": True,
        "path": str(target),
        "bytes": len(content.encode("utf-8")),
        "sha256": sha256_hex(content),
    }
    summary = {"path": str(target), "bytes": data["bytes"], "reconciled": reconciled}
    return bodies.ToolResult(ToolOutcomeStatus.SUCCESS, json.dumps(data), summary)
