"""What the window can do, as small commands over the bridge, and the state they share.

Widgets hold no business logic: they call these commands and listen to the signals. Every
command goes through the bridge, so nothing here touches the database, the keyring or the SDK.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypedDict, Unpack

from PySide6.QtCore import QObject, Signal

from agent_core.contract.errors import ErrorCode
from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import ApprovalView, OwnerView, RunView
from desktop.bridge import Bridge
from desktop.i18n import QT_TRANSLATE_NOOP
from desktop.models.plain_errors import plain_error, plain_exception
from desktop.models.run_state import NOT_FINISHED, words

if TYPE_CHECKING:
    from agent_core.facade.base import Settings  # what `settings()` returns
    from agent_core.facade.workspace import Workspace

DEMO_QUESTION = QT_TRANSLATE_NOOP(
    "RunForm", "How do checkpoints make agent runs durable?"
)  # the form shows it translated
COMPROMISED_QUESTION = "Summarize the vendor integration notes for a security reviewer."
WAITING = frozenset({RunStatus.WAITING_APPROVAL, RunStatus.WAITING_INPUT})  # a person must act


class FormOptions(TypedDict, total=False):
    """The run form's choices for a new run (`Workspace.create_run`'s keywords)."""

    model: str | None
    mode: str | None
    corpus: str | None
    artifacts: str | None


class AppContext(QObject):
    """Shared state (settings, runs) and the commands the window's actions call."""

    settings_loaded = Signal(object)
    runs_loaded = Signal(object)
    status_changed = Signal(str, object, str)  # run_id, previous status (None: first seen), status
    run_created = Signal(str)
    run_stopped = Signal(object)  # a RUN dict after this process drove it to a stop
    # run_id: a waiting run's decision or answer has landed, from this window or any process
    person_step_done = Signal(str)
    message = Signal(str, str)  # level ("info", "success", "warning", "error"), text

    def __init__(self, bridge: Bridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.settings: dict[str, object] = {}  # by public dotted key, as `settings()` reads
        self.runs: dict[str, RunView] = {}
        self.runs_seen = False
        self.driven_here: set[str] = set()  # runs this window started or resumed
        self.this_desk: str | None = None  # this installation's desk, once the store is known
        # Runs this window drove that stopped because the team database went away: they go on
        # by themselves once it answers again (the banner says so meanwhile).
        self.stalled: set[str] = set()
        bridge.runs_changed.connect(self._on_runs)
        bridge.storage_back.connect(self._continue_stalled)
        bridge.drive_finished.connect(self._on_drive_finished)
        bridge.error.connect(lambda code, text: self.message.emit("error", plain_error(code, text)))

    # -- state ----------------------------------------------------------------------------------

    def load_settings(self) -> None:
        def failed(exc: Exception) -> None:
            if getattr(exc, "code", None) == ErrorCode.STORAGE_UNAVAILABLE:
                # The team database was away as the window opened: read them once it opens.
                self.bridge.ready.connect(self._load_settings_once)
            self._report(exc)

        self.bridge.submit(lambda ws: ws.settings(), on_done=self.set_settings, on_error=failed)

    def _load_settings_once(self) -> None:
        self.bridge.ready.disconnect(self._load_settings_once)
        self.load_settings()

    def set_settings(self, settings: Settings | Mapping[str, object]) -> None:
        self.settings = dict(settings)
        self.settings_loaded.emit(self.settings)

    def run(self, run_id: str | None) -> RunView | None:
        return self.runs.get(run_id) if run_id else None

    def pending_approvals(self) -> int:
        return sum(len(r.get("approvals") or []) for r in self.runs.values())

    def interrupted_runs(self) -> list[RunView]:
        return [
            r
            for r in self.runs.values()
            # Only runs whose process died: a `created` run was never started, nothing crashed.
            if r.get("status") == RunStatus.INTERRUPTED and not self.bridge.is_driving(r["run_id"])
        ]

    def _on_runs(self, runs: list[RunView]) -> None:
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
            if _person_step_landed(before, run):
                self.person_step_done.emit(run["run_id"])
                if run["run_id"] in self.driven_here:
                    # Decided elsewhere: go on, as after a click (unless another process did).
                    self.continue_run(run["run_id"], echo=True)

    def _merge_run(self, run: RunView) -> None:
        known = self.runs.get(run["run_id"])
        old = known.get("status") if known else None
        self.runs[run["run_id"]] = run
        if old != run.get("status"):
            self.status_changed.emit(run["run_id"], old, str(run.get("status")))

    def _on_drive_finished(self, run_id: str, run: RunView | None) -> None:
        self.bridge.refresh()
        if run is None:
            return
        self._merge_run(run)
        self.run_stopped.emit(run)
        status = run.get("status")
        if status == RunStatus.FAILED:
            error = run.get("error")
            said = (
                plain_error(error.get("code"), error.get("message"))
                if error
                else plain_error(None, None)
            )
            self.message.emit("error", self.tr("The run failed. {why}").format(why=said))
        elif status == RunStatus.SUCCEEDED:
            self.message.emit("success", self.tr("The run succeeded."))

    def _report(self, exc: Exception) -> None:
        if getattr(exc, "code", None) == ErrorCode.STORAGE_UNAVAILABLE:
            return  # the bridge's banner says it, and stays until the database is back
        self.message.emit("error", plain_exception(exc))

    def _continue_stalled(self) -> None:
        stalled, self.stalled = self.stalled, set()
        for run_id in sorted(stalled):
            self.continue_run(run_id, echo=True)

    # -- commands -------------------------------------------------------------------------------

    def start_run(self, question: str, **options: Unpack[FormOptions]) -> None:
        """Create the run, announce it (so the window selects it), then drive it. An option
        left empty is the home's setting (None and "" alike)."""
        model, mode = options.get("model") or None, options.get("mode") or None
        corpus, artifacts = options.get("corpus") or None, options.get("artifacts") or None
        self._create_and_drive(
            lambda ws: ws.create_run(
                question, model=model, mode=mode, corpus=corpus, artifacts=artifacts
            )
        )

    def _create_and_drive(self, create: Callable[[Workspace], str]) -> None:
        def created(run_id: str) -> None:
            self.run_created.emit(run_id)
            self.bridge.refresh()
            self.continue_run(run_id)

        self.bridge.submit(create, on_done=created, on_error=self._report)

    def resume(self, run_id: str) -> None:
        if self.bridge.is_driving(run_id):
            self.message.emit(
                "info", self.tr("{run} is already running in this window.").format(run=run_id)
            )
            return
        self.continue_run(run_id)

    def take_over(self, run_id: str) -> None:
        """A person confirmed it: end the claim of an owner recorded on another computer, then
        drive the run here (a live owner on this computer keeps it: `run_in_progress`)."""

        def taken(_owner: OwnerView | None) -> None:
            self.bridge.refresh()
            self.continue_run(run_id)

        self.bridge.submit(lambda ws: ws.take_over(run_id), on_done=taken, on_error=self._report)

    def continue_run(self, run_id: str, *, echo: bool = False) -> None:
        """Drive the run on unless this window drives it already (a decision made here and its
        echo from the events both ask to continue: the second ask is quietly dropped). With
        `echo` (the events said it may go on), another process taking it first is no error."""
        if self.bridge.is_driving(run_id):
            return
        self.driven_here.add(run_id)
        report = self._report_unless_taken if echo else self._report

        def failed(exc: Exception) -> None:
            if getattr(exc, "code", None) == ErrorCode.STORAGE_UNAVAILABLE:
                self.stalled.add(run_id)  # stopped at its boundary, nothing lost: go on later
            report(exc)

        self.bridge.drive(run_id, on_error=failed)

    def _report_unless_taken(self, exc: Exception) -> None:
        if getattr(exc, "code", None) == ErrorCode.RUN_IN_PROGRESS:
            return  # another process took it on first: its events will show it going
        self._report(exc)

    def cancel(self, run_id: str) -> None:
        def done(run: RunView) -> None:
            self._merge_run(run)
            self.bridge.refresh()
            stopping = self.bridge.is_driving(run_id) and run.get("status") == RunStatus.RUNNING
            self.message.emit(
                "info",
                self.tr("Stopping at the next tool boundary…")
                if stopping
                else self.tr("Run cancelled."),
            )

        self.bridge.submit(lambda ws: ws.cancel(run_id), on_done=done, on_error=self._report)

    def decide_and_resume(
        self, approval_id: str, run_id: str, approve: bool, reason: str | None = None
    ) -> None:
        """The GUI's one click: record the decision, then continue the run."""
        reviewer = str(self.settings.get("reviewer") or "reviewer")

        def decide(ws: Workspace) -> ApprovalView:
            if approve:
                return ws.approve(approval_id, reviewer=reviewer, reason=reason)
            return ws.reject(approval_id, reviewer=reviewer, reason=reason)

        self.bridge.submit(decide, on_done=lambda _a: self._go_on(run_id), on_error=self._report)

    def answer_and_resume(self, run_id: str, text: str) -> None:
        self.bridge.submit(
            lambda ws: ws.answer(run_id, text),
            on_done=lambda _r: self._go_on(run_id),
            on_error=self._report,
        )

    def _go_on(self, run_id: str) -> None:
        """After a person's step: drive the run on here, unless it is another desk's (team
        mode), which only its own desk continues: then say so, never a refusal in red."""
        run = self.runs.get(run_id)
        desk = run.get("desk") if run else None
        if desk and self.this_desk and desk != self.this_desk:
            self.message.emit(
                "info",
                self.tr("Your decision is recorded. Desk {desk} continues the run.").format(
                    desk=desk
                ),
            )
            return
        self.continue_run(run_id)

    def delete_run(self, run_id: str) -> None:
        def refused(exc: Exception) -> None:
            if getattr(exc, "code", None) == ErrorCode.RUN_NOT_FINISHED:  # it went on meanwhile
                self.message.emit("error", words(NOT_FINISHED))
                self.bridge.refresh()
            else:
                self._report(exc)

        self.bridge.submit(
            lambda ws: ws.delete_run(run_id),
            on_done=lambda _r: self.bridge.refresh(),
            on_error=refused,
        )

    # -- demos ----------------------------------------------------------------------------------

    def arm_crash(self, point: str) -> None:
        """Arm crash injection in this process (on the bridge thread, before the next job)."""

        self.bridge.submit(lambda ws: ws.arm_crash(point), on_error=self._report)

    def demo_crash_next_tool(
        self, selected: RunView | None, question: str, **options: Unpack[FormOptions]
    ) -> str:
        """SIGKILL this app at the next tool call: of the selected run if it can resume, else of a
        new run of `question` with `options` (the form's). Returns "resume" or "start"."""
        self.arm_crash("before_tool:next")
        if selected and selected.get("status") == RunStatus.INTERRUPTED:
            self.resume(selected["run_id"])
            return "resume"
        self.start_run(question or DEMO_QUESTION, **options)
        return "start"

    def demo_crash_after_write(
        self, selected: RunView | None, question: str, **options: Unpack[FormOptions]
    ) -> str:
        """SIGKILL this app after the brief is written and synced, before the ledger confirms it:
        resume the selected interrupted run, or start `question` with `options` (the window
        passes its form's, whose Mode box it set to acceptEdits and said so). It never decides
        a proposal: a write that waits for a person still waits for that person."""
        self.arm_crash("after_write_before_confirm")
        if selected and selected.get("status") == RunStatus.INTERRUPTED:
            self.resume(selected["run_id"])
            return "resume"
        self.start_run(question or DEMO_QUESTION, **options)
        return "start"

    def demo_compromised(self) -> None:
        """Play the attack script: every hostile call must show up as a block in the timeline."""
        self._create_and_drive(
            lambda ws: ws.create_run(COMPROMISED_QUESTION, model=ws.scripted_model("compromised"))
        )


def _person_step_landed(before: RunView | None, run: RunView) -> bool:
    """The run still waits, but what it waited for (a decision, an answer) has arrived."""
    if run.get("status") not in WAITING or not run.get("ready_to_continue"):
        return False
    return (
        before is None
        or not before.get("ready_to_continue")
        or before.get("status") != run.get("status")
    )
