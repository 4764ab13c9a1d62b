"""What the window can do, as small commands over the bridge, and the state they share.

Widgets hold no business logic: they call these commands and listen to the signals. Every
command goes through the bridge, so nothing here touches the database, the keyring or the SDK.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from agent_core.statuses import RunStatus
from desktop.bridge import Bridge, error_text

if TYPE_CHECKING:
    from agent_core.workspace import Workspace

DEMO_QUESTION = "How do checkpoints make agent runs durable?"
COMPROMISED_QUESTION = "Summarize the vendor integration notes for a security reviewer."
WAITING = frozenset({RunStatus.WAITING_APPROVAL, RunStatus.WAITING_INPUT})  # a person must act


class AppContext(QObject):
    """Shared state (settings, runs) and the commands the window's actions call."""

    settings_loaded = Signal(object)
    runs_loaded = Signal(object)
    status_changed = Signal(str, object, str)  # run_id, previous status (None: first seen), status
    run_created = Signal(str)
    run_stopped = Signal(object)  # a RUN dict after this process drove it to a stop
    message = Signal(str, str)  # level ("info", "success", "warning", "error"), text

    def __init__(self, bridge: Bridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.settings: dict[str, Any] = {}
        self.runs: dict[str, dict[str, Any]] = {}
        self.runs_seen = False
        bridge.runs_changed.connect(self._on_runs)
        bridge.drive_finished.connect(self._on_drive_finished)
        bridge.error.connect(lambda code, text: self.message.emit("error", f"{code}: {text}"))

    # -- state ----------------------------------------------------------------------------------

    def load_settings(self) -> None:
        self.bridge.submit(
            lambda ws: ws.settings(), on_done=self.set_settings, on_error=self._report
        )

    def set_settings(self, settings: dict[str, Any]) -> None:
        self.settings = dict(settings)
        self.settings_loaded.emit(self.settings)

    def run(self, run_id: str | None) -> dict[str, Any] | None:
        return self.runs.get(run_id) if run_id else None

    def pending_approvals(self) -> int:
        return sum(len(r.get("approvals") or []) for r in self.runs.values())

    def interrupted_runs(self) -> list[dict[str, Any]]:
        return [
            r
            for r in self.runs.values()
            # Only runs whose process died: a `created` run was never started, nothing crashed.
            if r.get("status") == RunStatus.INTERRUPTED and not self.bridge.is_driving(r["run_id"])
        ]

    def _on_runs(self, runs: list[dict[str, Any]]) -> None:
        previous = self.runs
        self.runs = {r["run_id"]: r for r in runs}
        first = not self.runs_seen
        self.runs_seen = True
        self.runs_loaded.emit(runs)
        for run in runs:
            before = previous.get(run["run_id"])
            old = before.get("status") if before else None
            if first or old != run.get("status"):
                self.status_changed.emit(
                    run["run_id"], None if first else old, str(run.get("status"))
                )

    def _merge_run(self, run: dict[str, Any]) -> None:
        old = self.runs.get(run["run_id"], {}).get("status")
        self.runs[run["run_id"]] = run
        if old != run.get("status"):
            self.status_changed.emit(run["run_id"], old, str(run.get("status")))

    def _on_drive_finished(self, run_id: str, run: dict[str, Any] | None) -> None:
        self.bridge.refresh()
        if run is None:
            return
        self._merge_run(run)
        self.run_stopped.emit(run)
        status = run.get("status")
        if status == RunStatus.FAILED:
            error = run.get("error") or {}
            self.message.emit(
                "error", f"{error.get('code', 'failed')}: {error.get('message', 'the run failed')}"
            )
        elif status == RunStatus.SUCCEEDED:
            self.message.emit("success", "The run succeeded.")

    def _report(self, exc: Exception) -> None:
        self.message.emit("error", error_text(exc))

    # -- commands -------------------------------------------------------------------------------

    def start_run(self, question: str, **options: Any) -> None:
        """Create the run, announce it (so the window selects it), then drive it."""
        options = {k: v for k, v in options.items() if v not in (None, "")}
        self._create_and_drive(lambda ws: ws.create_run(question, **options))

    def _create_and_drive(self, create: Callable[[Workspace], str]) -> None:
        def created(run_id: str) -> None:
            self.run_created.emit(run_id)
            self.bridge.refresh()
            self.bridge.drive(run_id, on_error=self._report)

        self.bridge.submit(create, on_done=created, on_error=self._report)

    def resume(self, run_id: str) -> None:
        if self.bridge.is_driving(run_id):
            self.message.emit("info", f"{run_id} is already running in this window.")
            return
        self.bridge.drive(run_id, on_error=self._report)

    def cancel(self, run_id: str) -> None:
        def done(run: dict[str, Any]) -> None:
            self._merge_run(run)
            self.bridge.refresh()
            stopping = self.bridge.is_driving(run_id) and run.get("status") == RunStatus.RUNNING
            self.message.emit(
                "info", "Stopping at the next tool boundary…" if stopping else "Run cancelled."
            )

        self.bridge.submit(lambda ws: ws.cancel(run_id), on_done=done, on_error=self._report)

    def decide_and_resume(
        self, approval_id: str, run_id: str, approve: bool, reason: str | None = None
    ) -> None:
        """The GUI's one click: record the decision, then continue the run."""
        reviewer = str(self.settings.get("reviewer") or "reviewer")

        def decide(ws: Any) -> dict[str, Any]:
            if approve:
                return ws.approve(approval_id, reviewer=reviewer, reason=reason)
            return ws.reject(approval_id, reviewer=reviewer, reason=reason)

        self.bridge.submit(decide, on_done=lambda _a: self.resume(run_id), on_error=self._report)

    def answer_and_resume(self, run_id: str, text: str) -> None:
        self.bridge.submit(
            lambda ws: ws.answer(run_id, text),
            on_done=lambda _r: self.resume(run_id),
            on_error=self._report,
        )

    def delete_run(self, run_id: str) -> None:
        self.bridge.submit(
            lambda ws: ws.delete_run(run_id),
            on_done=lambda _r: self.bridge.refresh(),
            on_error=self._report,
        )

    # -- demos ----------------------------------------------------------------------------------

    def arm_crash(self, point: str) -> None:
        """Arm crash injection in this process (on the bridge thread, before the next job)."""

        self.bridge.submit(lambda ws: ws.arm_crash(point), on_error=self._report)

    def demo_crash_next_tool(self, selected: dict[str, Any] | None, question: str) -> str:
        """SIGKILL this app at the next tool call: of the selected run if it can resume, else of a
        new demo run. Returns what it did ("resume" or "start")."""
        self.arm_crash("before_tool:next")
        if selected and selected.get("status") == RunStatus.INTERRUPTED:
            self.resume(selected["run_id"])
            return "resume"
        self.start_run(question or DEMO_QUESTION)
        return "start"

    def demo_crash_after_write(self, selected: dict[str, Any] | None, question: str) -> str:
        """SIGKILL this app after the brief is written and synced, before the ledger confirms it:
        approve the selected run's pending write, or start a demo run whose write needs no
        approval (acceptEdits)."""
        self.arm_crash("after_write_before_confirm")
        pending = [a for a in (selected or {}).get("approvals") or [] if a.get("content_field")]
        if selected and selected.get("status") == RunStatus.WAITING_APPROVAL and pending:
            self.decide_and_resume(pending[0]["id"], selected["run_id"], True, "crash demo")
            return "approve"
        if selected and selected.get("status") == RunStatus.INTERRUPTED:
            self.resume(selected["run_id"])
            return "resume"
        self.start_run(question or DEMO_QUESTION, mode="acceptEdits")
        return "start"

    def demo_compromised(self) -> None:
        """Play the attack script: every hostile call must show up as a block in the timeline."""
        self._create_and_drive(
            lambda ws: ws.create_run(COMPROMISED_QUESTION, model=ws.scripted_model("compromised"))
        )
