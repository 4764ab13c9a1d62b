"""The run of one MCP client connection to `mcp serve`, and its calls.

Every call goes through the machinery of a run's MCP call, not a copy of it: the gate
(runs/gate.py `decide_call`: validation, tiers, remembered rules, proposals with their diff
and base, an unknown outcome or a moved file asked again) and the executor (runs/executor.py:
the ledger's intent and confirmation, exactly once). Only the pause differs: where the SDK's
run loop would stop the run and let the process exit, the client's request stays open and
this module waits for the person's word (or `agents.decision_timeout`, then `not_approved`).

Calls are decided and run one at a time (the run's progress has one writer): a client's
second call waits behind a first one that waits for a person.
"""

from __future__ import annotations

import logging
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection

from agent_core.contract.approval_moves import ApprovalMove
from agent_core.contract.approvals import Approval
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonObject
from agent_core.contract.statuses import ApprovalStatus, RunStatus, ToolOutcomeStatus
from agent_core.home import clock
from agent_core.home.clock import now_iso
from agent_core.home.door import mask_arguments
from agent_core.home.preferences import Settings
from agent_core.runs import agent_sessions, lifecycle
from agent_core.runs.context import RunContext, StopRun
from agent_core.runs.progress import RunLimits, RunProgress
from agent_core.runs.record import RunRecord
from agent_core.storage.owner import Owner
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import ledger
from agent_core.storage.tables import mcp_servers as server_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables import tool_calls as call_rows
from agent_core.storage.tables.mcp_servers import McpServerRow
from agent_core.storage.tables.run_mcp_tools import record_tools
from agent_core.tools.mcp.run_servers import Listing, RunServers
from agent_core.tools.mcp.server_identity import server_facts
from agent_core.tools.mcp.tool_spec import McpOutcomeUnknown, run_toolset
from agent_core.tools.mcp.whole_file import McpTargetChanged

if TYPE_CHECKING:
    from agent_core.runs.executor import ToolExecutor
    from agent_core.runs.gate import ToolGate

log = logging.getLogger(__name__)
POLL_S = 0.2
"""How often a waiting call reads its proposal (another process decides it)."""
NO_DECISION = "no decision in time"
CLIENT_LEFT = "the MCP client left"


@dataclass(frozen=True)
class ServeDesk:
    """What `mcp serve` needs of the desk; the façade's caller hands it over."""

    store: Store
    """Where runs and proposals live (the team database in team mode)."""
    desk_store: Store
    """This desk's own store (its registered MCP servers)."""
    settings: Settings
    desk: str | None
    """This desk's name: its runs and proposals record it."""
    team_desk: str | None
    """This desk's name in team mode (the run is claimed and held under it), else None."""
    log_dir: Path | None
    corpus: Path
    artifacts: Path

    def registered_servers(self) -> dict[str, McpServerRow]:
        """The desk's registered MCP servers, read once when the client connects."""
        with self.desk_store.read() as conn:
            return {row.name: row for row in server_rows.list_all(conn)}


@dataclass(frozen=True)
class CallAnswer:
    """What the client receives: one text block, an error or not."""

    text: str
    is_error: bool = False

    @staticmethod
    def refused(code: str, message: str) -> CallAnswer:
        return CallAnswer(f"{code}: {message}", is_error=True)


class ClientRun:
    """One client connection: its run (made at its first call), its servers, its calls."""

    def __init__(self, desk: ServeDesk, rows: dict[str, McpServerRow]) -> None:
        self.desk = desk
        self.rows = rows
        self.servers = RunServers(
            rows, log_dir=desk.log_dir, call_timeout=desk.settings.mcp_call_timeout
        )
        self.closing = threading.Event()
        """Set when the client went away: a waiting call stops waiting."""
        self._listing: Listing | None = None
        self._ctx: RunContext | None = None
        self._gate: ToolGate | None = None
        self._executor: ToolExecutor | None = None
        self.session_id = "mcp-" + uuid.uuid4().hex
        """The connection's session: one run per connection."""

    @property
    def run_id(self) -> str | None:
        return None if self._ctx is None else self._ctx.run_id

    # -- on the loop ---------------------------------------------------------------------

    async def listing(self) -> Listing:
        """The desk's servers started once for the connection and their tools listed; a
        server that does not start is left out (and said so in the log)."""
        if self._listing is None:
            self._listing = await self.servers.list_all()
            for name, why in self._listing.unavailable.items():
                log.warning("MCP server %s left out: %s", name, why.message)
        return self._listing

    # -- in a worker thread --------------------------------------------------------------

    def start(self, agent: str) -> str:
        """The connection's run, made at its first call: `agent` the client's name, a fresh
        session id, the serve process's folder; the tools listed are recorded as offered.
        Like an agent session's run (runs/agent_sessions.py) it is never resumed by anyone
        else; unlike one, its thread is a run's own, since its calls are MCP calls of
        recorded tools (their proposals are shown as any MCP call's)."""
        # Imported at the first call, not before the client's `initialize` is answered.
        from agent_core.runs.executor import ToolExecutor
        from agent_core.runs.gate import ToolGate

        listing = self._listing or Listing()
        run_id = "run-" + uuid.uuid4().hex[:12]
        with self.desk.store.write() as conn:
            now = now_iso()
            prefs = self.desk.settings
            row = run_rows.RunRow(
                run_id=run_id,
                thread_id="th-" + uuid.uuid4().hex[:12],
                status=RunStatus.CREATED,
                question=f"MCP calls of {agent}",
                model=agent,
                mode=str(prefs.mode),
                corpus_dir=str(self.desk.corpus),
                artifacts_dir=str(self.desk.artifacts),
                limits_json=RunLimits(approval_ttl=prefs.approval_ttl).dumps(),
                state_json=RunProgress().dumps(),
                desk=self.desk.desk,
                created_at=now,
                updated_at=now,
                agent=agent,
                session_id=self.session_id,
                cwd=str(Path.cwd()),
            )
            lifecycle.create(conn, row)
            lifecycle.claim(conn, run_id, Owner.current(), desk=self.desk.team_desk)
            record_tools(conn, run_id, listing.tools)
        ctx = RunContext(
            self.desk.store,
            RunRecord(self.desk.store, run_id),
            self.desk.settings,
            desk_store=self.desk.desk_store,
        )
        ctx.tools = run_toolset(
            listing.tools,
            self.servers.call_from_thread,
            listing.unavailable,
            servers=server_facts(self.rows.values(), ctx.desk),
        )
        self.servers.expect(listing.tools)
        self._ctx = ctx
        self._gate = ToolGate(ctx)
        self._executor = ToolExecutor(ctx, admit=self._gate.admit_unpaused)
        return run_id

    def call(self, agent: str, tool: str, arguments: JsonObject) -> CallAnswer:
        """One client call (`tool` = the model name `mcp__SERVER__TOOL`), decided and run as
        a run's MCP call; returns when it ran, was refused or was not approved."""
        import json

        if self._ctx is None:
            self.start(agent)
        ctx, gate = self._context()
        ended = self._called(agent)
        if ended is not None:
            return CallAnswer.refused(ErrorCode.NOT_APPROVED, ended)
        if tool not in ctx.tools:
            unknown = gate.not_offered(tool)  # why its server is missing, or unknown_tool
            return CallAnswer.refused(unknown.code, unknown.message)
        # A client's arguments pass the door like a model's: no secret reaches the store.
        raw = mask_arguments(json.dumps(arguments, ensure_ascii=False))
        call_id = "mcp-" + uuid.uuid4().hex[:16]
        try:
            self._record(call_id, tool, raw)
            return self._decide_and_run(call_id, tool, raw)
        except StopRun:  # cancelled while the call waited
            return CallAnswer.refused(ErrorCode.NOT_APPROVED, self._ended() or "cancelled")
        except BriefDeskError as error:
            return CallAnswer.refused(error.code, error.message)

    def end(self) -> None:
        """The client went away: its run ends (`succeeded`, unless a person ended it)."""
        self.closing.set()
        if self._ctx is not None:
            with self._ctx.write() as conn:
                agent_sessions.end_session(conn, self._ctx.run_id, CLIENT_LEFT)

    # -- the steps -----------------------------------------------------------------------

    def _context(self) -> tuple[RunContext, ToolGate]:
        if self._ctx is None or self._gate is None:
            raise RuntimeError("the client's run is not started")
        return self._ctx, self._gate

    def _called(self, agent: str) -> str | None:
        """The run is called now (an idle sweep ended it: it opens again); why no call of
        this connection runs any more (a person cancelled its run), or None."""
        ctx, _gate = self._context()
        with ctx.write() as conn:
            agent_sessions.session_run(
                conn, agent=agent, session_id=self.session_id, cwd=str(Path.cwd()),
                desk=self.desk.desk, run_id=ctx.run_id,
            )  # fmt: skip
        ctx.record.reload()
        return self._ended()

    def _record(self, call_id: str, tool: str, raw: str) -> None:
        """The call on record, as a model's proposed call is (its index counts against the
        run's tool-call budget); a client's call is its own turn."""
        ctx, _gate = self._context()
        ctx.started_clock = clock.monotonic()  # the time between calls is not driving time
        ctx.check_budgets(next_call=True)
        progress = ctx.record.progress
        with ctx.write() as conn:
            call_rows.record_call(
                conn,
                ctx.run_id,
                call_id,
                idx=progress.tool_calls + 1,
                turn=progress.turns,
                tool=tool,
                raw_args=raw,
            )
            ctx.record.advance(conn, tool_calls=progress.tool_calls + 1, next_step="tools")

    def _decide_and_run(self, call_id: str, tool: str, raw: str) -> CallAnswer:
        ctx, gate = self._context()
        executor = self._executor
        assert executor is not None
        while True:
            ctx.check_budgets()
            verdict = gate.decide_call(call_id, tool, raw)
            if verdict.refusal is not None:
                return self._not_run(call_id, verdict.refusal)
            if verdict.stop is RunStatus.WAITING_APPROVAL:
                waited = self._wait_for_person(call_id)
                if waited is not None:
                    return waited
                continue  # decided: the gate reads the decision
            if verdict.stop is not None:  # its proposal expired meanwhile
                return CallAnswer.refused(ErrorCode.NOT_APPROVED, NO_DECISION)
            try:
                text = executor.invoke(tool, call_id, raw, checked=True)
            except (McpOutcomeUnknown, McpTargetChanged):
                continue  # back to the call's pause: the gate asks a person again
            return self._ran(call_id, text)

    def _not_run(self, call_id: str, refusal: str) -> CallAnswer:
        """A refusal of the gate: a person's rejection (or note) is `not_approved` with the
        person's reason; anything else is told as the gate worded it."""
        ctx, _gate = self._context()
        with ctx.store.read() as conn:
            approval = approval_rows.latest_for_call(conn, ctx.run_id, call_id)
        if approval is not None and approval.status in (
            ApprovalStatus.REJECTED,
            ApprovalStatus.CHANGES_REQUESTED,
        ):
            reason = approval.decision_reason or "no reason given"
            return CallAnswer.refused(
                ErrorCode.NOT_APPROVED, f"rejected by {approval.reviewer}: {reason}"
            )
        return CallAnswer(refusal, is_error=True)

    def _ran(self, call_id: str, text: str) -> CallAnswer:
        """The executor's answer: the server's result when the ledger confirmed it (an error
        result when the server said so), else the refusal it worded."""
        ctx, _gate = self._context()
        with ctx.store.read() as conn:
            entry = ledger.confirmed_for_call(conn, ctx.run_id, call_id)
        if entry is None:
            return CallAnswer(text, is_error=True)
        return CallAnswer(text, is_error=entry.outcome != str(ToolOutcomeStatus.SUCCESS))

    def _wait_for_person(self, call_id: str) -> CallAnswer | None:
        """The run waits while the client's request stays open: None once a person (or a
        rule) decided, else the answer (no decision in time, the client left, cancelled)."""
        ctx, _gate = self._context()
        with ctx.write() as conn:
            agent_sessions.wait_for_person(conn, ctx.run_id)
        deadline = clock.monotonic() + ctx.settings.agents_decision_timeout
        pending = self._pending(call_id)
        while pending is not None and clock.monotonic() < deadline:
            if self.closing.wait(POLL_S):
                return CallAnswer.refused(ErrorCode.NOT_APPROVED, "the client left")
            pending = self._pending(call_id)
        with ctx.write() as conn:
            if run_rows.get_run_row(conn, ctx.run_id).status.is_terminal:
                raise StopRun()  # a person cancelled the run (its proposal with it)
            if pending is not None:
                _expire(conn, pending)
            agent_sessions.back_to_work(conn, ctx.run_id)
        ctx.started_clock = clock.monotonic()
        if pending is not None:
            return CallAnswer.refused(ErrorCode.NOT_APPROVED, NO_DECISION)
        return None

    def _pending(self, call_id: str) -> Approval | None:
        ctx, _gate = self._context()
        with ctx.store.read() as conn:
            latest = approval_rows.latest_for_call(conn, ctx.run_id, call_id)
        return latest if latest is not None and latest.status is ApprovalStatus.PENDING else None

    def _ended(self) -> str | None:
        """Why no call of this connection runs any more (a person cancelled its run), or
        None while it goes on."""
        ctx, _gate = self._context()
        with ctx.store.read() as conn:
            row = run_rows.get_run_row(conn, ctx.run_id)
            if row.status is RunStatus.CANCELLED:
                return f"cancelled by {agent_sessions.cancelled_by(conn, ctx.run_id)}"
        return f"run {row.run_id} is {row.status}" if row.status.is_terminal else None


def _expire(conn: Connection, pending: Approval) -> None:
    """No decision by `agents.decision_timeout`: the proposal is closed on record (expired),
    so no later approval can run what the client was told did not run."""
    expired = approval_rows.move(conn, pending, ApprovalMove.EXPIRE)
    approval_rows.append_approval_event(conn, expired, EventKind.APPROVAL_DECIDED, reviewer=None)
