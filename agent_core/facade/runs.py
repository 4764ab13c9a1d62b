"""The façade's runs: create, drive (blocking or on the bridge's loop), answer, cancel, take
over, list, delete, and read their timelines.

Only driving imports the Agents SDK (`drive_async`, `prewarm_agent_runtime`): it costs seconds,
and `runs`, `timeline` and the window's lists never pay it.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Unpack, cast

from sqlalchemy import Connection

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.json_types import JsonObject
from agent_core.contract.statuses import RunStatus
from agent_core.contract.usage import total_usage
from agent_core.contract.views import (
    DamagedRunView,
    EventView,
    OwnerView,
    RunBudgetsView,
    RunOptions,
    RunView,
    UsageTotalView,
)
from agent_core.corpus import index as corpus_index
from agent_core.facade.base import WorkspaceBase
from agent_core.home import sandbox
from agent_core.home.clock import now_iso
from agent_core.home.config import existing_folder, prepare_folder
from agent_core.home.door import mask_incoming
from agent_core.home.mounts import refuse_system_folder
from agent_core.home.secrets import load_known_secrets
from agent_core.review.run_views import run_json, runs_json
from agent_core.runs import lifecycle, ownership, revert_run, stop_signals, transitions
from agent_core.runs.progress import RunLimits, RunProgress
from agent_core.storage.owner import Owner
from agent_core.storage.tables import memory, timeline
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables import settings as settings_store
from agent_core.storage.tables.run_deletion import delete_run_rows
from agent_core.storage.team.leases import Holder, Leases
from agent_core.tools.agent_calls.registry import refuse_agent_thread

if TYPE_CHECKING:
    from agents import TResponseInputItem


class RunCommands(WorkspaceBase):
    """Mixed into `Workspace`: everything about runs and their timelines."""

    def create_run(
        self,
        question: str,
        *,
        thread: str | None = None,
        model: str | None = None,
        mode: str | None = None,
        approval_ttl: float | None = None,
        max_turns: int | None = None,
        max_tool_calls: int | None = None,
        max_tokens: int | None = None,
        max_seconds: float | None = None,
        corpus: str | Path | None = None,
        artifacts: str | Path | None = None,
    ) -> str:
        """Store a new run of `question` (`created`, not yet driven) and return its id. Every
        option left None takes the setting's or the default value; each is checked first."""
        sandbox.require_supported()  # a run that could never be driven is not created
        from agent_core.models.registry import validate_model_spec

        prefs = self.settings()
        question = (question or "").strip()
        if not question:
            raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The question must not be empty.")
        model = model or str(prefs["model"])
        validate_model_spec(model)
        # A key pasted into the question is masked before it is stored or sent to a model.
        question = mask_incoming(question)
        refuse_agent_thread(thread)
        mode = mode or str(prefs["mode"])
        if mode not in settings_store.MODES:
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS,
                f"Unknown mode {mode!r}: use one of {settings_store.MODES}.",
            )
        defaults = RunLimits()
        limits = RunLimits(
            max_turns=defaults.max_turns if max_turns is None else max_turns,
            max_tool_calls=defaults.max_tool_calls if max_tool_calls is None else max_tool_calls,
            max_seconds=defaults.max_seconds if max_seconds is None else max_seconds,
            max_tokens=defaults.max_tokens if max_tokens is None else max_tokens,
            approval_ttl=prefs.approval_ttl if approval_ttl is None else approval_ttl,
        )
        corpus_dir = Path(corpus).expanduser().resolve() if corpus else self.default_corpus()
        artifacts_dir = Path(artifacts).expanduser().resolve() if artifacts else self.home.artifacts
        existing_folder(corpus_dir, "corpus folder")  # not_found; a file: invalid_arguments
        refuse_system_folder(artifacts_dir)  # /proc, /sys, ...: nothing to save, endless to watch
        self.home.check_artifacts(artifacts_dir)  # never beside state.db, the logs, the corpus
        prepare_folder(artifacts_dir, "artifacts folder")  # a file, read-only: refused
        run_id = "run-" + uuid.uuid4().hex[:12]
        with self.store.write() as conn:
            now = now_iso()
            new = run_rows.RunRow(
                run_id=run_id,
                thread_id=thread or ("th-" + uuid.uuid4().hex[:12]),
                status=RunStatus.CREATED,
                question=question,
                model=model,
                mode=mode,
                corpus_dir=str(corpus_dir),
                artifacts_dir=str(artifacts_dir),
                limits_json=limits.dumps(),
                state_json=RunProgress().dumps(),
                desk=self.desk,  # runs belong to the desk that created them
                created_at=now,
                updated_at=now,
            )
            lifecycle.create(conn, new)
        return run_id

    def start_run(self, question: str, **options: Unpack[RunOptions]) -> RunView:
        """`create_run` with these options, then `drive` it to its next stop (blocking)."""
        run_id = self.create_run(question, **options)
        return self.drive(run_id)

    def drive(self, run_id: str) -> RunView:
        """Claim the run and drive it to its next stop in this process (blocking)."""
        import asyncio

        return asyncio.run(self.drive_async(run_id))

    def take_over(self, run_id: str, *, reviewer: str | None = None) -> OwnerView | None:
        """End the claim of a `running` run's owner that cannot be proven alive (recorded under
        another host name, or dead here), so `resume` continues it; `run_in_progress` while the
        owner provably lives on this host. Returns who owned it (None: it had no owner).
        In team mode another desk's run moves to this desk once that desk's lease has lapsed
        (`run_owned_elsewhere` while it is live)."""
        by = self._acting_person(reviewer)
        with self.store.write() as conn:
            return lifecycle.take_over(conn, run_id, by=by, desk=self.team_desk)

    def check_own_desk(self, run_id: str) -> None:
        """`run_owned_elsewhere` for another desk's run that has not ended (team mode): only
        its desk resumes it. Before anything else: its folders are on that desk's machine."""
        with self.store.read() as conn:
            row = run_rows.get_run_row(conn, run_id)
            if run_rows.other_desk(row, self.team_desk) and not _unchanged_by_resume(row):
                raise ownership.owned_elsewhere(row, Leases.read(conn, self.team_desk))

    def run_owner(self, run_id: str) -> OwnerView | None:
        """Who drives a `running` run, as recorded, and since when; None for any other run."""
        with self.store.read() as conn:
            return ownership.owner_view(conn, run_rows.get_run_row(conn, run_id))

    def check_run_artifacts(self, folder: str | Path) -> None:
        """A stored run's artifacts folder passes the check `run --artifacts` passes, or the run
        is not driven (`write_forbidden`): a row written by an older version, or by hand."""
        self.home.check_artifacts(Path(folder), ErrorCode.WRITE_FORBIDDEN)

    async def drive_async(self, run_id: str) -> RunView:
        import asyncio

        sandbox.require_supported()  # refuse up front, not as a tool error the model sees
        self.sweep_expired()
        with self.store.read() as conn:
            row = run_rows.get_run_row(conn, run_id)
        if row.is_agent_run:
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS,
                f"Run {run_id} is {row.agent}'s session: it goes on when {row.agent} calls "
                "again, never through resume.",
            )
        if _unchanged_by_resume(row):
            return self.get_run(run_id)
        self.check_own_desk(run_id)  # before the SDK import and the folders: not ours to drive
        self.check_run_artifacts(row.artifacts_dir)  # before the claim: a refusal changes nothing
        if revert_run.waiting_revert(self.store, run_id) is not None:
            # A person's revert: executed (once approved) with no model turn, no SDK import.
            await asyncio.to_thread(self._run_revert, run_id)
            return self.get_run(run_id)
        from agent_core.runs.driver import RunDriver

        # The secrets BriefDesk holds, loaded off the loop (the keyring): masking in the run
        # (its tools, the corpus, MCP results) then never waits on D-Bus.
        await asyncio.to_thread(load_known_secrets)
        live = run_rows.effective_status(row) is RunStatus.RUNNING  # claim answers run_in_progress
        owner = Owner.current()
        holder = Holder(self.desk, owner) if self.team_mode else None
        driver = RunDriver(
            self.store,
            run_id,
            self.settings(),
            desk_store=self.desk_store if self.team_mode else None,
            holder=holder,
            log_dir=self.home.logs,
        )
        if not live:
            # A checkpoint this version cannot load is refused before the claim, so the
            # refusal changes nothing: no status change, no run_resumed event.
            await driver.preflight()
        # Searches only read the index: it is brought up to date once, before the run goes on.
        await asyncio.to_thread(
            corpus_index.reindex, self.desk_store, Path(row.corpus_dir), self.settings()
        )
        with self.store.write() as conn:
            row = run_rows.get_run_row(conn, run_id)
            if _unchanged_by_resume(row):
                return self.get_run(run_id)
            claim = lifecycle.claim(conn, run_id, owner, desk=self.team_desk)
            agent_input = self._first_input(conn, row) if claim.needs_input else None
        try:
            await driver.drive(agent_input)
        finally:
            driver.release()  # only if still ours and running (an unexpected exception)
        return self.get_run(run_id)

    def _run_revert(self, run_id: str) -> None:
        revert_run.run_revert(
            self.store,
            run_id,
            self.settings(),
            desk_store=self.desk_store if self.team_mode else None,
            holder=Holder(self.desk, Owner.current()) if self.team_mode else None,
        )

    def resume(self, run_id: str) -> RunView:
        return self.drive(run_id)

    def _first_input(self, conn: Connection, row: run_rows.RunRow) -> list[TResponseInputItem]:
        """A run's first input: the thread's earlier items, remembered notes, the question."""
        from agent_core.storage.tables.sessions import load_items

        items: list[JsonObject] = [
            *load_items(conn, row.thread_id, exclude_run=row.run_id),  # a replay: not its own
            *self._memory_notes(None if self.team_mode else conn),
            {"role": "user", "content": row.question},
        ]
        # Stored session items are the SDK's own input items, saved as JSON.
        return cast("list[TResponseInputItem]", items)

    def _memory_notes(self, conn: Connection | None) -> list[JsonObject]:
        """Long-term memory a new run starts with: only the remembered audience type. Read in
        the claim's transaction (`conn`), or apart from it when memory stays on the desk."""
        user = str(self.settings()["reviewer"])
        if conn is None:
            with self.desk_store.read() as desk_conn:
                facts = memory.recall(
                    desk_conn, tenant="local", user=user, purpose="brief_audience"
                )
        else:
            facts = memory.recall(conn, tenant="local", user=user, purpose="brief_audience")
        return [
            {
                "role": "developer",
                "content": "Remembered preference (long-term memory): "
                f"briefs are for {fact['value']}.",
            }
            for fact in facts
            if fact["key"] == "audience"
        ]

    def answer(self, run_id: str, text: str) -> RunView:
        if not text or not text.strip():
            raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The answer must not be empty.")
        with self.store.read() as conn:
            run_rows.get_run_row(conn, run_id)  # not_found before the keyring is asked
        text = mask_incoming(text.strip())  # as the question is
        with self.store.write() as conn:
            lifecycle.answer(conn, run_id, text)  # the first answer wins
        return self.get_run(run_id)

    def cancel(
        self, run_id: str, *, reviewer: str | None = None, take_over: bool = False
    ) -> RunView:
        """End a run that is not finished; a live owner stops at its next boundary.

        An owner recorded under another host name may never reach a boundary this machine
        sees: such a run ends only with `take_over` (the person's confirmation), else
        `run_in_progress` says so and nothing changes."""
        by = self._acting_person(reviewer)
        prices = self.prices()  # read first: never a read of the desk's store inside this write
        with self.store.write() as conn:
            row = run_rows.get_run_row(conn, run_id)
            status = row.status
            if status.is_terminal:
                return run_json(conn, row, desk=self.team_desk, prices=prices)
            owner = run_rows.owner_of(row)
            if run_rows.other_desk(row, self.team_desk):
                # Only its desk ends it; another desk only once that desk's lease has lapsed.
                if not take_over:
                    raise ownership.owned_elsewhere(row, Leases.read(conn, self.team_desk))
                lifecycle.take_over(conn, run_id, by=by, desk=self.team_desk)
                lifecycle.cancel(conn, run_id, None, by=by, reason="cancelled by a person")
            elif status is RunStatus.RUNNING and owner is not None and not owner.on_this_host():
                if not take_over:
                    raise ownership.in_progress(conn, row, owner)
                lifecycle.take_over(conn, run_id, by=by)
                lifecycle.cancel(conn, run_id, None, by=by, reason="cancelled by a person")
            elif run_rows.effective_status(row) is RunStatus.RUNNING and not row.is_agent_run:
                lifecycle.request_cancel(conn, run_id, by=by)
            else:
                lifecycle.cancel(conn, run_id, None, by=by, reason="cancelled by a person")
        stop_signals.tell_stop(run_id)  # committed: a driver in this process stops unread
        return self.get_run(run_id)

    def get_run(self, run_id: str) -> RunView:
        prices = self.prices()
        with self.store.read() as conn:
            return run_json(
                conn, run_rows.get_run_row(conn, run_id), desk=self.team_desk, prices=prices
            )

    def list_runs(self, run_ids: list[str] | None = None) -> list[RunView]:
        """Every run, newest first (or only the given ones that exist). A read: it never
        expires anything (see `sweep_expired`)."""
        prices = self.prices()
        with self.store.read() as conn:
            return runs_json(conn, run_ids, desk=self.team_desk, prices=prices)

    def list_runs_checked(self) -> tuple[list[RunView], list[DamagedRunView]]:
        """Every readable run, and apart from them the runs whose rows this app cannot read
        (each with its `storage_corrupt` error): `runs` shows both."""
        damaged: list[DamagedRunView] = []
        prices = self.prices()
        with self.store.read() as conn:
            return runs_json(conn, None, damaged, desk=self.team_desk, prices=prices), damaged

    def usage_total(self) -> UsageTotalView:
        """Model usage summed over every run of the home (this desk's prices)."""
        return total_usage(run["usage"] for run in self.list_runs())

    def run_budgets(self, run_id: str) -> RunBudgetsView:
        """How much of each of its budgets the run used (the window's Run details)."""
        with self.store.read() as conn:
            row = run_rows.get_run_row(conn, run_id)
        progress, limits = RunProgress.loads(row.state_json), RunLimits.loads(row.limits_json)
        return {
            "turns": {"used": progress.turns, "limit": limits.max_turns},
            "tool_calls": {"used": progress.tool_calls, "limit": limits.max_tool_calls},
            "tokens": {"used": progress.tokens, "limit": limits.max_tokens},
            "seconds": {"used": progress.active_s, "limit": limits.max_seconds},
        }

    def run_state(self, run_id: str) -> RunProgress:
        with self.store.read() as conn:
            return RunProgress.loads(run_rows.get_run_row(conn, run_id).state_json)

    def delete_run(self, run_id: str) -> str:
        with self.store.write() as conn:
            row = run_rows.get_run_row(conn, run_id)
            if not row.status.is_terminal:
                raise BriefDeskError(
                    ErrorCode.RUN_NOT_FINISHED,
                    f"Run {run_id} is {row.status}; cancel it before deleting it.",
                )
            delete_run_rows(conn, run_id)  # blobs another run uses pass to it
        return run_id

    # -- timeline -------------------------------------------------------------------------

    def timeline(
        self, run_id: str | None = None, since: int = 0, limit: int | None = None
    ) -> list[EventView]:
        with self.store.read() as conn:
            if run_id is not None:
                run_rows.get_run_row(conn, run_id)
            return [
                e.to_json()
                for e in timeline.read_events(conn, run_id=run_id, since=since, limit=limit)
            ]

    def home_events(self, since: int = 0, limit: int | None = None) -> list[EventView]:
        """Events of the home itself (`run_id` null): stray files seen while no run watched."""
        with self.store.read() as conn:
            return [
                e.to_json() for e in timeline.read_events(conn, home=True, since=since, limit=limit)
            ]

    # -- driving's import cost, paid before the first click --------------------------------

    @staticmethod
    def prewarm_agent_runtime() -> None:
        """Import and build what driving a run needs before the first run: the Agents SDK, the
        run driver, the embedded model, and the SDK's trace provider, which the first run
        otherwise builds (an HTTP client with its SSL context: about 0.1 s holding the GIL,
        a stall of the window right after the click). Tracing stays disabled per run."""
        from agents.tracing import get_trace_provider

        import agent_core.models.offline  # the default model
        import agent_core.runs.driver  # noqa: F401  (what `drive_async` imports)

        get_trace_provider()

    def last_event_seq(self) -> int:
        """The sequence number of the newest event in this home (0 when there is none)."""
        from agent_core.storage.tables.timeline import last_seq

        with self.store.read() as conn:
            return last_seq(conn)


def _unchanged_by_resume(row: run_rows.RunRow) -> bool:
    """Ended runs print unchanged, except a failure that says it may be retried."""
    if row.status is RunStatus.FAILED:
        return not transitions.is_retryable(row.error)
    return row.status.is_terminal
