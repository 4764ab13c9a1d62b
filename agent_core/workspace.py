"""The one front door: everything a user can do with a BriefDesk home.

`cli.py` and the desktop bridge are thin callers of this class, so no orchestration is written
twice. Methods that do not drive the agent never import the Agents SDK (it costs seconds).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, delete, select

from agent_core import RUNTIME_VERSION, review
from agent_core.canonical import now_iso
from agent_core.config import Home, default_reviewer, resolve_home_dir
from agent_core.errors import BriefDeskError, ErrorCode
from agent_core.events import EventKind
from agent_core.logs import configure_logging
from agent_core.run_record import new_run_state
from agent_core.statuses import ApprovalStatus, RunStatus
from agent_core.storage import approvals as approval_rows
from agent_core.storage import audit, memory, timeline
from agent_core.storage import runs as run_rows
from agent_core.storage import settings as settings_store
from agent_core.storage.blobs import release_run_blobs
from agent_core.storage.engine import Store
from agent_core.storage.migrate import open_store
from agent_core.storage.schema import (
    approvals,
    artifact_sightings,
    checkpoints,
    events,
    ledger,
    rules,
    runs,
    session_items,
    tool_calls,
)

# Defaults: at least 50 turns and 100 tool calls (the contract); tokens bound a remote model's cost.
DEFAULT_LIMITS = {"max_turns": 50, "max_tool_calls": 100, "max_seconds": 900, "max_tokens": 500_000}


class Workspace:
    def __init__(self, home: str | Path | None = None) -> None:
        self.home = Home(resolve_home_dir(home))
        self.home.ensure()
        configure_logging(self.home.logs)
        self.store: Store = open_store(self.home.db_path)

    def close(self) -> None:
        self.store.dispose()

    # -- settings -------------------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        with self.store.read() as conn:
            values = settings_store.get_settings(conn)
        values["reviewer"] = values.get("reviewer") or default_reviewer()
        return values

    def set_setting(self, key: str, value: Any) -> dict[str, Any]:
        with self.store.write() as conn:
            settings_store.set_setting(conn, key, value)
        return self.settings()

    # -- runs -----------------------------------------------------------------------------

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
        from agent_core.runner import validate_model_spec

        prefs = self.settings()
        question = (question or "").strip()
        if not question:
            raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The question must not be empty.")
        model = model or str(prefs["model"])
        validate_model_spec(model)
        mode = mode or str(prefs["mode"])
        if mode not in settings_store.MODES:
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS,
                f"Unknown mode {mode!r}: use one of {settings_store.MODES}.",
            )
        ttl = float(approval_ttl if approval_ttl is not None else prefs["approval_ttl"])
        for name, value in (
            ("--approval-ttl", ttl),
            ("--max-turns", max_turns),
            ("--max-tool-calls", max_tool_calls),
            ("--max-tokens", max_tokens),
            ("--max-seconds", max_seconds),
        ):
            if value is not None and value <= 0:
                raise BriefDeskError(
                    ErrorCode.INVALID_ARGUMENTS, f"{name} takes a positive number."
                )
        corpus_dir = Path(corpus).expanduser().resolve() if corpus else self.home.corpus
        artifacts_dir = Path(artifacts).expanduser().resolve() if artifacts else self.home.artifacts
        if not corpus_dir.is_dir():
            raise BriefDeskError(
                ErrorCode.NOT_FOUND, f"The corpus folder {corpus_dir} does not exist."
            )
        artifacts_dir.mkdir(parents=True, exist_ok=True)
        limits = {
            **DEFAULT_LIMITS,
            "approval_ttl": ttl,
            **({"max_turns": int(max_turns)} if max_turns else {}),
            **({"max_tool_calls": int(max_tool_calls)} if max_tool_calls else {}),
            **({"max_tokens": int(max_tokens)} if max_tokens else {}),
            **({"max_seconds": float(max_seconds)} if max_seconds else {}),
        }
        run_id = "run-" + uuid.uuid4().hex[:12]
        with self.store.write() as conn:
            run_rows.insert_run(
                conn,
                run_id=run_id,
                thread_id=thread or ("th-" + uuid.uuid4().hex[:12]),
                status=str(RunStatus.INTERRUPTED),  # becomes running when a process claims it
                question=question,
                model=model,
                mode=mode,
                corpus_dir=str(corpus_dir),
                artifacts_dir=str(artifacts_dir),
                limits_json=json.dumps(limits),
                state_json=json.dumps(new_run_state()),
            )
        return run_id

    def start_run(self, question: str, **options: Any) -> dict[str, Any]:
        run_id = self.create_run(question, **options)
        return self.drive(run_id)

    def drive(self, run_id: str) -> dict[str, Any]:
        """Claim the run and drive it to its next stop in this process (blocking)."""
        import asyncio

        return asyncio.run(self.drive_async(run_id))

    async def drive_async(self, run_id: str) -> dict[str, Any]:
        from agent_core.runner import RunDriver

        self.sweep_expired()
        with self.store.read() as conn:
            row = run_rows.get_run_row(conn, run_id)
        live = run_rows.effective_status(row) is RunStatus.RUNNING  # _claim answers run_in_progress
        if not RunStatus(row.status).is_terminal and not live:
            # A checkpoint this version cannot load is refused before the claim, so the
            # refusal changes nothing: no status change, no run_resumed event.
            await RunDriver(self.store, run_id, self.settings()).preflight()
        agent_input = self._claim(run_id)
        if agent_input is None:
            return self.get_run(run_id)
        driver = RunDriver(self.store, run_id, self.settings())
        try:
            await driver.drive(agent_input if isinstance(agent_input, list) else None)
        finally:
            driver.record.release()  # only if still marked running (an unexpected exception)
        return self.get_run(run_id)

    def resume(self, run_id: str) -> dict[str, Any]:
        return self.drive(run_id)

    def _claim(self, run_id: str) -> list[Any] | bool | None:
        """Take ownership. Returns the first input for a new run, True to resume, None if ended."""
        owner = run_rows.Owner.current()
        with self.store.write() as conn:
            row = run_rows.get_run_row(conn, run_id)
            status = RunStatus(row.status)
            if status.is_terminal:
                return None
            effective = run_rows.effective_status(row)
            current = run_rows.owner_of(row)
            if status is RunStatus.RUNNING and effective is RunStatus.RUNNING and current != owner:
                raise BriefDeskError(
                    ErrorCode.RUN_IN_PROGRESS,
                    f"Run {run_id} is being driven by process {current.pid if current else '?'} "
                    f"on {current.host if current else '?'}.",
                )
            # No checkpoint yet (a process died before its first checkpoint A, maybe after the
            # SDK state was stored): resume loads nothing, so the run starts again from its
            # question instead of continuing from an empty input.
            needs_input = not conn.execute(
                select(checkpoints.c.id).where(checkpoints.c.run_id == run_id).limit(1)
            ).first()
            fresh = (
                needs_input
                and row.state_digest is None
                and not conn.execute(
                    select(events.c.seq).where(events.c.run_id == run_id).limit(1)
                ).first()
            )
            if status is RunStatus.RUNNING and effective is RunStatus.INTERRUPTED:
                timeline.append_event(
                    conn,
                    run_id,
                    EventKind.RUN_INTERRUPTED,
                    data={"previous_owner_pid": row.owner_pid},
                )
            run_rows.update_run(
                conn,
                run_id,
                status=str(RunStatus.RUNNING),
                owner_host=owner.host,
                owner_pid=owner.pid,
                owner_started=owner.started,
                cancel_requested=0,
            )
            kind = EventKind.RUN_STARTED if fresh else EventKind.RUN_RESUMED
            timeline.append_event(
                conn,
                run_id,
                kind,
                data={
                    "question": row.question,
                    "model": row.model,
                    "mode": row.mode,
                    "runtime": RUNTIME_VERSION,
                },
            )
            if not needs_input:
                return True
            from agent_core.storage.sessions import load_items

            notes = self._memory_notes(conn)
            return [
                *load_items(conn, row.thread_id),
                *notes,
                {"role": "user", "content": row.question},
            ]

    def _memory_notes(self, conn: Connection) -> list[dict[str, str]]:
        """Long-term memory a new run starts with: only the remembered audience type."""
        user = str(self.settings()["reviewer"])
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

    def answer(self, run_id: str, text: str) -> dict[str, Any]:
        if not text or not text.strip():
            raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The answer must not be empty.")
        with self.store.write() as conn:
            row = run_rows.get_run_row(conn, run_id)
            if row.status != RunStatus.WAITING_INPUT:
                raise BriefDeskError(
                    ErrorCode.RUN_NOT_WAITING, f"Run {run_id} is {row.status}, not waiting_input."
                )
            state = run_rows.run_state(row)
            call_id = state.get("waiting_call")
            state.setdefault("answers", {})[call_id] = text.strip()
            state["next_step"] = "continue with the answer"
            run_rows.update_run(conn, run_id, state_json=json.dumps(state), question_pending=None)
            timeline.append_event(
                conn,
                run_id,
                EventKind.ANSWER_RECEIVED,
                tool="ask_question",
                data={
                    "call_id": call_id,
                    "question": row.question_pending,
                    "answer": text.strip()[:500],
                },
            )
        return self.get_run(run_id)

    def cancel(self, run_id: str) -> dict[str, Any]:
        with self.store.write() as conn:
            row = run_rows.get_run_row(conn, run_id)
            status = RunStatus(row.status)
            if status.is_terminal:
                return review.run_json(conn, row)
            if status is RunStatus.RUNNING and run_rows.effective_status(row) is RunStatus.RUNNING:
                # The owner stops at its next boundary and records the end itself.
                run_rows.update_run(conn, run_id, cancel_requested=1)
            else:
                run_rows.update_run(
                    conn,
                    run_id,
                    status=str(RunStatus.CANCELLED),
                    question_pending=None,
                    owner_host=None,
                    owner_pid=None,
                    owner_started=None,
                )
                for ap in approval_rows.list_approvals(conn, status="pending", run_id=run_id):
                    approval_rows.transition(
                        conn,
                        ap,
                        replace(
                            ap,
                            status=ApprovalStatus.REJECTED,
                            reviewer="cancelled",
                            decided_at=now_iso(),
                        ),
                    )
                timeline.append_event(
                    conn,
                    run_id,
                    EventKind.RUN_FINISHED,
                    data={"status": "cancelled", "by": "cancel"},
                )
        return self.get_run(run_id)

    def get_run(self, run_id: str) -> dict[str, Any]:
        self.sweep_expired()
        with self.store.read() as conn:
            return review.run_json(conn, run_rows.get_run_row(conn, run_id))

    def list_runs(self) -> list[dict[str, Any]]:
        self.sweep_expired()
        with self.store.read() as conn:
            return [review.run_json(conn, row) for row in run_rows.list_run_rows(conn)]

    def run_state(self, run_id: str) -> dict[str, Any]:
        with self.store.read() as conn:
            return run_rows.run_state(run_rows.get_run_row(conn, run_id))

    def delete_run(self, run_id: str) -> str:
        with self.store.write() as conn:
            row = run_rows.get_run_row(conn, run_id)
            if not RunStatus(row.status).is_terminal:
                raise BriefDeskError(
                    ErrorCode.RUN_NOT_FINISHED,
                    f"Run {run_id} is {row.status}; cancel it before deleting it.",
                )
            # Blobs are shared by content: one still used by another run passes to it.
            release_run_blobs(conn, run_id)
            for table in (checkpoints, events, approvals, tool_calls, ledger, session_items):
                conn.execute(delete(table).where(table.c.run_id == run_id))
            # A rule remembered "for this run" dies with it; home rules and memories stay.
            conn.execute(delete(rules).where(rules.c.scope == "run", rules.c.run_id == run_id))
            conn.execute(delete(artifact_sightings).where(artifact_sightings.c.run_id == run_id))
            conn.execute(delete(runs).where(runs.c.run_id == run_id))
        return run_id

    # -- timeline -------------------------------------------------------------------------

    def timeline(
        self, run_id: str | None = None, since: int = 0, limit: int | None = None
    ) -> list[dict[str, Any]]:
        with self.store.read() as conn:
            if run_id is not None:
                run_rows.get_run_row(conn, run_id)
            return [
                e.to_json()
                for e in timeline.read_events(conn, run_id=run_id, since=since, limit=limit)
            ]

    # -- approvals (agent_core/review.py) --------------------------------------------------

    def sweep_expired(self) -> int:
        """Expire every pending proposal past its time; their runs become `expired`."""
        return review.sweep_expired(self.store)

    def list_approvals(
        self, *, status: str | None = None, run_id: str | None = None
    ) -> list[dict[str, Any]]:
        return review.list_approvals(self.store, status=status, run_id=run_id)

    def get_approval(self, approval_id: str) -> dict[str, Any]:
        return review.get_approval(self.store, approval_id)

    def approve(
        self,
        approval_id: str,
        *,
        reviewer: str,
        reason: str | None = None,
        remember: str | None = None,
    ) -> dict[str, Any]:
        """Approve these exact arguments; with `remember`, also this tool under the folder."""
        return review.approve(
            self.store, approval_id, reviewer=reviewer, reason=reason, remember=remember
        )

    def reject(
        self, approval_id: str, *, reviewer: str, reason: str | None = None
    ) -> dict[str, Any]:
        return review.reject(self.store, approval_id, reviewer=reviewer, reason=reason)

    def edit(
        self, approval_id: str, *, reviewer: str, args: dict[str, Any] | str
    ) -> dict[str, Any]:
        """A new version with edited arguments, validated again; the old one is superseded."""
        return review.edit(self.store, self.settings(), approval_id, reviewer=reviewer, args=args)

    def describe_approval(self, approval_id: str) -> dict[str, Any]:
        """What a reviewer's dialog shows: the proposal, the target's text, whether it changed."""
        return review.describe_approval(self.store, approval_id)

    def validate_edit(self, approval_id: str, args: dict[str, Any]) -> dict[str, Any]:
        return review.validate_edit(self.store, self.settings(), approval_id, args)

    def approve_edited(
        self,
        approval_id: str,
        *,
        reviewer: str,
        args: dict[str, Any],
        reason: str | None = None,
    ) -> dict[str, Any]:
        """The dialog's "Approve edited": a new version with these arguments, approved."""
        return review.approve_edited(
            self.store, self.settings(), approval_id, reviewer=reviewer, args=args, reason=reason
        )

    # -- rules, audit, memory -------------------------------------------------------------

    def list_rules(self) -> list[dict[str, Any]]:
        return review.list_rules(self.store)

    def revoke_rule(self, rule_id: str) -> dict[str, Any]:
        return review.revoke_rule(self.store, rule_id)

    def audit_entries(self, run_id: str | None = None) -> list[dict[str, Any]]:
        with self.store.read() as conn:
            return audit.list_entries(conn, run_id)

    def memories(self) -> list[dict[str, Any]]:
        with self.store.read() as conn:
            return memory.list_all(conn)

    def delete_user_memory(self, user: str) -> int:
        with self.store.write() as conn:
            return memory.delete_user(conn, user)
