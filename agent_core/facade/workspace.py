"""The one front door: everything a user can do with a BriefDesk home.

`cli.py` and the desktop bridge are thin callers of this class, so no orchestration is written
twice. Methods that do not drive the agent never import the Agents SDK (it costs seconds).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.statuses import RunStatus
from agent_core.contract.terminal_text import terminal_block as visible_block  # noqa: F401 (desktop)
from agent_core.contract.terminal_text import terminal_line as visible_line  # noqa: F401 (desktop)
from agent_core.contract.views import (
    ApprovalView,
    AuditEntryView,
    DamagedRunView,
    DeskRoleView,
    EventView,
    GrantView,
    OwnerView,
    RuleView,
    RunView,
)
from agent_core.facade import grants
from agent_core.facade.team import TeamStoreFacade, team_db_url
from agent_core.home.config import (
    Home,
    default_reviewer,
    existing_folder,
    prepare_folder,
    resolve_home_dir,
)
from agent_core.home.door import mask_incoming
from agent_core.home.logs import configure_logging
from agent_core.home.mounts import refuse_system_folder
from agent_core.home.preferences import Settings
from agent_core.home.secrets import load_known_secrets
from agent_core.models.endpoint import PRESETS as PROVIDER_PRESETS  # noqa: F401 (desktop)
from agent_core.models.endpoint import Preset  # noqa: F401 (re-exported for the desktop)
from agent_core.review import decisions as review
from agent_core.review import person_door
from agent_core.review.audit_export import write_audit_export
from agent_core.runs import lifecycle
from agent_core.runs.progress import RunLimits, RunProgress
from agent_core.storage.engine import Store
from agent_core.storage.location import checked_db_option, parse_db_url, with_password
from agent_core.storage.migrate.home import open_store
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
from agent_core.storage.tables import audit, memory, timeline
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables import settings as settings_store
from agent_core.storage.tables.blobs import release_run_blobs
from agent_core.storage.team.changes import ChangeNotice, NoticeKind  # noqa: F401 (desktop)
from agent_core.storage.team.desks import desk_id
from agent_core.storage.team.leases import Holder, Leases
from agent_core.tools import sandbox

if TYPE_CHECKING:
    from agent_core.models.check import ProviderCheckView


class Workspace(TeamStoreFacade):
    """One home on this desk, and the store its runs live in.

    `store` holds runs, timelines, proposals, decisions and rules: the home's SQLite file, or in
    team mode a PostgreSQL database shared by several desks (`db`, $BRIEFDESK_DB or the
    `db.url` setting). `desk_store` is always the home's own file: this desk's settings, its
    corpus index and long-term memory, which stay on the desk.
    """

    def __init__(self, home: str | Path | None = None, *, db: str | None = None) -> None:
        self.desk = desk_id()  # a bad $BRIEFDESK_DESK is refused before anything is created
        self.db_option = checked_db_option(db)  # as given: the setting cannot move this store
        self.home = Home(resolve_home_dir(home))
        self.home.ensure()
        configure_logging(self.home.logs)
        self.desk_store: Store = open_store(self.home.db_path)
        try:
            self.store: Store = self._open_team_store(db)
        except BaseException:
            self.desk_store.dispose()
            raise

    def _open_team_store(self, explicit: str | None) -> Store:
        url = team_db_url(explicit, self.desk_store)
        if url is None:
            return self.desk_store
        return open_store(with_password(parse_db_url(url)))

    def close(self) -> None:
        if self.team_mode:
            self.store.dispose()
        self.desk_store.dispose()

    def follow_events(self, follower: Callable[[list[EventView]], None]) -> Callable[[], None]:
        """Hear of this process's events as soon as they commit, on the committing thread
        (other processes' events are read with `timeline(since=...)`). Returns the unfollow."""
        return self.store.follow_events(lambda events: follower([e.to_json() for e in events]))

    # -- settings -------------------------------------------------------------------------

    def settings(self) -> Settings:
        """The stored preferences, with the reviewer always a name (null: the OS user name)."""
        with self.desk_store.read() as conn:  # preferences are this desk's own
            prefs = settings_store.get_settings(conn)
        return prefs if prefs.reviewer else replace(prefs, reviewer=default_reviewer())

    def set_setting(self, key: str, value: Any) -> Settings:
        """Validate and store one setting (`invalid_arguments` on a bad one); the new settings."""
        with self.desk_store.write() as conn:
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
        sandbox.require_supported()  # a run that could never be driven is not created
        from agent_core.runs.driver import validate_model_spec

        prefs = self.settings()
        question = (question or "").strip()
        if not question:
            raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, "The question must not be empty.")
        model = model or str(prefs["model"])
        validate_model_spec(model)
        # A key pasted into the question is masked before it is stored or sent to a model.
        question = mask_incoming(question, person_door.provider_of(model))
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
        corpus_dir = Path(corpus).expanduser().resolve() if corpus else self.home.corpus
        artifacts_dir = Path(artifacts).expanduser().resolve() if artifacts else self.home.artifacts
        existing_folder(corpus_dir, "corpus folder")  # not_found; a file: invalid_arguments
        refuse_system_folder(artifacts_dir)  # /proc, /sys, ...: nothing to save, endless to watch
        self.home.check_artifacts(artifacts_dir)  # never beside state.db, the logs, the corpus
        prepare_folder(artifacts_dir, "artifacts folder")  # a file, read-only: refused
        run_id = "run-" + uuid.uuid4().hex[:12]
        with self.store.write() as conn:
            lifecycle.create(
                conn,
                run_id,
                thread_id=thread or ("th-" + uuid.uuid4().hex[:12]),
                question=question,
                model=model,
                mode=mode,
                corpus_dir=str(corpus_dir),
                artifacts_dir=str(artifacts_dir),
                limits_json=limits.dumps(),
                state_json=RunProgress().dumps(),
                desk=self.desk,  # runs belong to the desk that created them
            )
        return run_id

    def start_run(self, question: str, **options: Any) -> RunView:
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
        by = (reviewer or "").strip()[:80] or str(self.settings()["reviewer"])
        with self.store.write() as conn:
            return lifecycle.take_over(conn, run_id, by=by, desk=self.team_desk)

    def check_own_desk(self, run_id: str) -> None:
        """`run_owned_elsewhere` for another desk's run that has not ended (team mode): only
        its desk resumes it. Before anything else: its folders are on that desk's machine."""
        with self.store.read() as conn:
            row = run_rows.get_run_row(conn, run_id)
            if run_rows.other_desk(row, self.team_desk) and not _unchanged_by_resume(row):
                raise lifecycle.owned_elsewhere(row, Leases.read(conn, self.team_desk))

    def run_owner(self, run_id: str) -> OwnerView | None:
        """Who drives a `running` run, as recorded, and since when; None for any other run."""
        with self.store.read() as conn:
            return lifecycle.owner_view(conn, run_rows.get_run_row(conn, run_id))

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
        if _unchanged_by_resume(row):
            return self.get_run(run_id)
        self.check_own_desk(run_id)  # before the SDK import and the folders: not ours to drive
        from agent_core.runs.driver import RunDriver

        self.check_run_artifacts(row.artifacts_dir)  # before the claim: a refusal changes nothing
        # Known keys are masked in what the corpus tools hand the model (a thread: the keyring).
        await asyncio.to_thread(load_known_secrets, person_door.provider_of(row.model))
        live = run_rows.effective_status(row) is RunStatus.RUNNING  # claim answers run_in_progress
        owner = run_rows.Owner.current()
        holder = Holder(self.desk, owner) if self.team_mode else None
        driver = RunDriver(
            self.store,
            run_id,
            self.settings(),
            desk_store=self.desk_store if self.team_mode else None,
            holder=holder,
        )
        if not live:
            # A checkpoint this version cannot load is refused before the claim, so the
            # refusal changes nothing: no status change, no run_resumed event.
            await driver.preflight()
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

    def resume(self, run_id: str) -> RunView:
        return self.drive(run_id)

    def _first_input(self, conn: Connection, row: Any) -> list[Any]:
        """A run's first input: the thread's earlier items, remembered notes, the question."""
        from agent_core.storage.tables.sessions import load_items

        return [
            *load_items(conn, row.thread_id, exclude_run=row.run_id),  # a replay: not its own
            *self._memory_notes(None if self.team_mode else conn),
            {"role": "user", "content": row.question},
        ]

    def _memory_notes(self, conn: Connection | None) -> list[dict[str, str]]:
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
            model = run_rows.get_run_row(conn, run_id).model
        text = mask_incoming(text.strip(), person_door.provider_of(model))  # as the question is
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
        by = (reviewer or "").strip()[:80] or str(self.settings()["reviewer"])
        with self.store.write() as conn:
            row = run_rows.get_run_row(conn, run_id)
            status = RunStatus(row.status)
            if status.is_terminal:
                return review.run_json(conn, row, desk=self.team_desk)
            owner = run_rows.owner_of(row)
            if run_rows.other_desk(row, self.team_desk):
                # Only its desk ends it; another desk only once that desk's lease has lapsed.
                if not take_over:
                    raise lifecycle.owned_elsewhere(row, Leases.read(conn, self.team_desk))
                lifecycle.take_over(conn, run_id, by=by, desk=self.team_desk)
                lifecycle.cancel(conn, run_id, None, by=by, reason="cancelled by a person")
            elif status is RunStatus.RUNNING and owner is not None and not owner.on_this_host():
                if not take_over:
                    raise lifecycle.in_progress(conn, row, owner)
                lifecycle.take_over(conn, run_id, by=by)
                lifecycle.cancel(conn, run_id, None, by=by, reason="cancelled by a person")
            elif run_rows.effective_status(row) is RunStatus.RUNNING:
                lifecycle.request_cancel(conn, run_id, by=by)
            else:
                lifecycle.cancel(conn, run_id, None, by=by, reason="cancelled by a person")
        return self.get_run(run_id)

    def get_run(self, run_id: str) -> RunView:
        with self.store.read() as conn:
            return review.run_json(conn, run_rows.get_run_row(conn, run_id), desk=self.team_desk)

    def list_runs(self, run_ids: list[str] | None = None) -> list[RunView]:
        """Every run, newest first (or only the given ones that exist). A read: it never
        expires anything (see `sweep_expired`)."""
        with self.store.read() as conn:
            return review.runs_json(conn, run_ids, desk=self.team_desk)

    def list_runs_checked(self) -> tuple[list[RunView], list[DamagedRunView]]:
        """Every readable run, and apart from them the runs whose rows this app cannot read
        (each with its `storage_corrupt` error): `runs` shows both."""
        damaged: list[DamagedRunView] = []
        with self.store.read() as conn:
            return review.runs_json(conn, None, damaged, desk=self.team_desk), damaged

    def run_state(self, run_id: str) -> RunProgress:
        with self.store.read() as conn:
            return RunProgress.loads(run_rows.get_run_row(conn, run_id).state_json)

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

    # -- approvals (review/decisions.py) --

    def sweep_expired(self) -> int:
        """Expire every pending proposal past its time; their runs become `expired`."""
        return review.sweep_expired(self.store)

    def list_approvals(
        self, *, status: str | None = None, run_id: str | None = None
    ) -> list[ApprovalView]:
        if run_id is not None:
            with self.store.read() as conn:
                run_rows.get_run_row(conn, run_id)  # an unknown run is not_found, as in timeline
        return review.list_approvals(self.store, status=status, run_id=run_id)

    def get_approval(self, approval_id: str) -> ApprovalView:
        return review.get_approval(self.store, approval_id)

    def approve(
        self,
        approval_id: str,
        *,
        reviewer: str,
        reason: str | None = None,
        remember: str | None = None,
    ) -> ApprovalView:
        """Approve these exact arguments; with `remember`, also this tool under the folder."""
        return review.approve(
            self.store,
            approval_id,
            reviewer=reviewer,
            reason=person_door.decision_note(self.store, approval_id, reason),
            remember=remember,
            desk=self.team_desk,
        )

    def reject(
        self, approval_id: str, *, reviewer: str, reason: str | None = None, revise: bool = False
    ) -> ApprovalView:
        """Reject (the run ends `cancelled`); with `revise`, request changes: the note `reason`
        goes back to the model when the run is resumed, and it may propose again."""
        note = person_door.decision_note(self.store, approval_id, reason)  # capped, masked
        return review.reject(self.store, approval_id, reviewer=reviewer, reason=note, revise=revise)

    def edit(self, approval_id: str, *, reviewer: str, args: dict[str, Any] | str) -> ApprovalView:
        """A new version with edited arguments, validated again; the old one is superseded."""
        return review.edit(
            self.store,
            self.settings(),
            approval_id,
            reviewer=reviewer,
            args=person_door.edited_args(self.store, approval_id, args),
            desk=self.team_desk,
        )

    def describe_approval(self, approval_id: str) -> dict[str, Any]:
        """What a reviewer's dialog shows: the proposal, the target's text, whether it changed."""
        return review.describe_approval(self.store, approval_id, desk=self.team_desk)

    def validate_edit(self, approval_id: str, args: dict[str, Any]) -> dict[str, Any]:
        masked = person_door.edited_args(self.store, approval_id, args)  # what edit would store
        return review.validate_edit(self.store, self.settings(), approval_id, masked)

    def approve_edited(
        self,
        approval_id: str,
        *,
        reviewer: str,
        args: dict[str, Any],
        reason: str | None = None,
    ) -> ApprovalView:
        """The dialog's "Approve edited": a new version with these arguments, approved."""
        return review.approve_edited(
            self.store,
            self.settings(),
            approval_id,
            reviewer=reviewer,
            args=person_door.edited_args(self.store, approval_id, args),
            reason=person_door.decision_note(self.store, approval_id, reason),
            desk=self.team_desk,
        )

    # -- rules, audit, memory -------------------------------------------------------------

    def list_rules(self) -> list[RuleView]:
        return review.list_rules(self.store)

    def revoke_rule(self, rule_id: str) -> RuleView:
        return review.revoke_rule(self.store, rule_id)

    # -- grants: who may decide what ------------------------------------------------------

    def list_grants(self) -> list[GrantView]:
        return grants.list_grants(self.store)

    def add_grant(
        self,
        *,
        reviewer: str,
        tool: str | None = None,
        folder: str | None = None,
        role: str | None = None,
    ) -> GrantView:
        """Let `reviewer` decide `tool` (None: every tool) for targets under `folder` (None:
        anywhere), through the database role `role` (None: any). The first grant turns on
        the check for every decision; on PostgreSQL only the database's owner may add one."""
        return grants.add_grant(
            self.store,
            reviewer=reviewer,
            tool=tool,
            folder=folder,
            role=role,
            created_by=self.settings().reviewer or "",
        )

    def revoke_grant(self, grant_id: str) -> GrantView:
        return grants.revoke_grant(self.store, grant_id)

    def grant_desk_role(self, role: str) -> DeskRoleView:
        """Give a desk's own PostgreSQL role its privileges (run as the database's owner)."""
        return grants.grant_desk_role(self.store, role)

    def audit_entries(
        self, run_id: str | None = None, principal: str | None = None
    ) -> list[AuditEntryView]:
        """Decisions and blocks, oldest first; only one run's or one principal's when given."""
        with self.store.read() as conn:
            entries = audit.list_entries(conn, run_id, principal)
            if run_id is not None and not entries:
                # An unknown run is not_found (as in timeline); a deleted run's record stays.
                run_rows.get_run_row(conn, run_id)
            return entries

    def export_audit(
        self, path: str | Path, fmt: str, *, run_id: str | None = None, principal: str | None = None
    ) -> int:
        """Write the (filtered) audit log to `path` as `json` or `csv`, atomically; returns how
        many entries it holds."""
        entries = self.audit_entries(run_id, principal)
        write_audit_export(Path(path), entries, fmt)
        return len(entries)

    def memories(self) -> list[dict[str, Any]]:
        with self.desk_store.read() as conn:
            return memory.list_all(conn)

    def delete_user_memory(self, user: str) -> int:
        with self.desk_store.write() as conn:
            return memory.delete_user(conn, user)

    # -- what the window needs (desktop façade) --
    # The desktop imports only this module and the pure vocabulary (statuses, events, errors,
    # views): an import-linter contract holds it to that. Imports stay inside these methods so
    # importing the façade stays cheap and never pulls in the Agents SDK.

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

    def settle_unconfirmed_writes(self) -> int:
        """Record `artifact_confirmed` for writes of ended runs that a kill left unconfirmed,
        where the file still holds the approved content (agent_core/artifacts/settle.py); how many.
        Best effort: a home that cannot be written now (read-only, locked, full) settles
        nothing and still answers."""
        from agent_core.artifacts.settle import settle_unconfirmed_writes

        try:
            return len(settle_unconfirmed_writes(self.store, desk=self.team_desk))
        except BriefDeskError:
            return 0

    def watch_artifacts(self) -> Any:
        """Start the artifacts watcher on the home's artifacts folder: it confirms approved writes
        and flags unexpected ones. Returns it running; the caller `stop()`s it before `close()`."""
        from agent_core.artifacts.watcher import ArtifactWatcher

        return ArtifactWatcher(self.store, self.home.artifacts, desk=self.team_desk).start()

    def artifact_states(self, root: str | Path | None = None) -> list[dict[str, Any]]:
        """The files under `root` (default: the home's artifacts folder), each with the watcher's
        verdict: confirmed, duplicate, unexpected or unseen. Reads the disk."""
        from agent_core.artifacts.watcher import artifact_states

        return artifact_states(
            self.store, Path(root) if root else self.home.artifacts, desk=self.team_desk
        )

    @staticmethod
    def read_text_inside(root: str | Path, relative: str, *, max_bytes: int) -> tuple[str, bool]:
        """(text, truncated) of `root`/`relative`, read as the agent's tools read: a symlink out
        of `root` or a non-regular file raises `BriefDeskError` instead of being followed."""
        from agent_core.tools.sandbox import read_text_nofollow

        return read_text_nofollow(Path(root), relative, max_bytes=max_bytes)

    @staticmethod
    def file_hash(path: str | Path) -> str | None:
        """sha256 of the file as it is now, None if missing; a symlink is `path_outside_scope`."""
        from agent_core.tools.sandbox import file_sha256

        return file_sha256(Path(path))

    @staticmethod
    def describe_rule(tool: str, folder: str, scope: str, run_id: str | None = None) -> str:
        """How a remembered "always allow" rule reads, in the words used everywhere else."""
        from agent_core.tools.policy import Rule

        return Rule("", tool, folder, scope, run_id).describe()

    @staticmethod
    def redact(value: Any) -> Any:
        """A copy of a JSON-like value with known keys and key-shaped strings masked (no I/O)."""
        from agent_core.home.secrets import REDACTOR

        return REDACTOR.redact_json(value)

    @staticmethod
    def key_status(name: str) -> dict[str, Any]:
        """Whether a key for provider `name` is available and from where; never the key."""
        from agent_core.home import secrets

        return secrets.key_status(name)

    @staticmethod
    def set_key(name: str, secret: str) -> dict[str, Any]:
        """Store the key for provider `name` in the OS keyring; returns its new status."""
        from agent_core.home import secrets

        return secrets.set_key(name, secret)

    @staticmethod
    def delete_key(name: str) -> dict[str, Any]:
        """Remove the keyring entry for provider `name` (idempotent); returns its new status."""
        from agent_core.home import secrets

        return secrets.delete_key(name)

    def providers_check(self) -> ProviderCheckView:
        """One small request to the configured endpoint (`providers check`); blocking."""
        from agent_core.models.check import check_endpoint
        from agent_core.models.endpoint import EndpointConfig

        return check_endpoint(EndpointConfig.from_settings(self.settings())).to_json()

    async def providers_check_async(
        self,
        *,
        base_url: str | None = None,
        model: str | None = None,
        api: str | None = None,
    ) -> ProviderCheckView:
        """The same for the bridge's loop (the keyring and HTTP run in a worker thread), with
        the Settings dialog's values not yet saved (each validated as `settings set` would)."""
        import asyncio

        from agent_core.models.check import check_endpoint
        from agent_core.models.endpoint import EndpointConfig

        settings = self.settings()
        for key, value in (("openai.base_url", base_url), ("openai.model", model)):
            if value is not None:
                settings = settings.with_value(key, value)
        if api is not None:
            settings = settings.with_value("openai.api", api)
        endpoint = EndpointConfig.from_settings(settings)
        return (await asyncio.to_thread(check_endpoint, endpoint)).to_json()

    @staticmethod
    def arm_crash(point: str | None) -> None:
        """Arm crash injection in this process (None disarms): the Demo menu's SIGKILL drills."""
        from agent_core.home import crash

        crash.arm(point)

    @staticmethod
    def scripted_model(script: str) -> str:
        """The model spec that replays a shipped script, e.g. "compromised" (the attack demo)."""
        from agent_core.home.config import SCRIPTS_DIR

        return f"scripted:{SCRIPTS_DIR / f'{script}.json'}"


def _unchanged_by_resume(row: Any) -> bool:
    """Ended runs print unchanged, except a failure that says it may be retried."""
    status = RunStatus(row.status)
    if status is RunStatus.FAILED:
        return not lifecycle.is_retryable(json.loads(row.error_json) if row.error_json else None)
    return status.is_terminal
