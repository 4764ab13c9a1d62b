"""The main window: runs on the left, the question form and the live timeline in the centre,
artifacts and the run's details on the right. It only lays widgets out and routes signals;
commands live in `desktop.context`, the person-facing prompts in `desktop.widgets.banner`."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeySequence, QPaintEvent
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from agent_core.statuses import RunStatus
from desktop import theme
from desktop.bridge import Bridge
from desktop.context import WAITING, AppContext
from desktop.widgets.banner import BannerArea, Notifier, PersonPrompts
from desktop.widgets.runs_panel import (
    CorpusList,
    RunForm,
    RunsPanel,
    RunSummary,
    read_corpus_titles,
)
from desktop.widgets.timeline_view import TimelinePanel

# Runs that Stop can cancel: every status that is not an end (a `created` one too: it may never
# be started, and cancelling it ends it cleanly).
ACTIVE = frozenset(
    {
        RunStatus.CREATED,
        RunStatus.RUNNING,
        RunStatus.WAITING_APPROVAL,
        RunStatus.WAITING_INPUT,
        RunStatus.INTERRUPTED,
    }
)


class MainWindow(QMainWindow):
    first_painted = Signal()

    def __init__(
        self, bridge: Bridge, context: AppContext, icon: QIcon, qsettings: QSettings
    ) -> None:
        super().__init__()
        self.bridge = bridge
        self.context = context
        self.qsettings = qsettings
        self._painted = False
        self._dismissed_interrupted: frozenset[str] = frozenset()
        self.setWindowTitle("BriefDesk")
        self.setWindowIcon(icon)
        self.resize(1440, 880)
        self._build_central()
        self.notifier = Notifier(self, icon)
        self.prompts = PersonPrompts(self)
        self._build_menus()
        self._build_status_bar()
        self._connect()
        self._restore_geometry()
        self._update_state_label()  # nothing selected yet: Stop and Resume start disabled

    # -- layout ---------------------------------------------------------------------------------

    def _build_central(self) -> None:
        central = QWidget(self)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(8, 8, 8, 4)
        outer.setSpacing(6)
        self.banners = BannerArea(central)
        outer.addWidget(self.banners)
        self.runs_panel = RunsPanel()
        self.run_form = RunForm()
        self.timeline = TimelinePanel()
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.setSpacing(8)
        centre_layout.addWidget(self.run_form)
        centre_layout.addWidget(self.timeline, 1)
        self.side_tabs = QTabWidget()
        self.artifacts_panel = _optional_artifacts_panel(self.bridge)
        self.side_tabs.addTab(self.artifacts_panel, "Artifacts")
        self.summary = RunSummary()
        self.side_tabs.addTab(self.summary, "Run details")
        self.corpus_list = CorpusList()
        self.side_tabs.addTab(self.corpus_list, "Corpus")
        if isinstance(self.artifacts_panel, QLabel):  # no artifacts panel in this build
            self.side_tabs.setCurrentWidget(self.summary)
        self.runs_panel.setMinimumWidth(210)
        self.side_tabs.setMinimumWidth(240)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for widget in (self.runs_panel, centre, self.side_tabs):
            self.splitter.addWidget(widget)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 0)
        self.splitter.setSizes([300, 800, 340])
        self.splitter.setChildrenCollapsible(False)
        outer.addWidget(self.splitter, 1)
        self.setCentralWidget(central)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self.settings_action = self._action(file_menu, "&Settings…", self.open_settings, "Ctrl+,")
        self.refresh_action = self._action(file_menu, "&Refresh", self.bridge.refresh, "F5")
        file_menu.addSeparator()
        self.quit_action = self._action(file_menu, "&Quit", self.close, "Ctrl+Q")
        run_menu = bar.addMenu("&Run")
        self.run_action = self._action(
            run_menu, "&Run question", self.run_question, "Ctrl+Return", "Ctrl+Enter"
        )
        self.cancel_action = self._action(run_menu, "&Cancel run", self.cancel_selected, "Ctrl+.")
        self.resume_action = self._action(run_menu, "Res&ume run", self.resume_selected, "Ctrl+R")
        self.review_action = self._action(
            run_menu, "Re&view pending approval…", self.review_selected
        )
        run_menu.addSeparator()
        self.delete_action = self._action(run_menu, "&Delete finished run", self.delete_selected)
        demo = bar.addMenu("&Demo")
        self.crash_next_action = self._action(
            demo, "Crash at the next tool call", self.demo_crash_next
        )
        self.crash_write_action = self._action(
            demo, "Crash after the write, before confirmation", self.demo_crash_write
        )
        demo.addSeparator()
        self.compromised_action = self._action(
            demo, "Run with a compromised model", self.context.demo_compromised
        )
        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&About BriefDesk", self._about)

    def _action(self, menu: Any, text: str, slot: Any, *shortcuts: str) -> QAction:
        action = QAction(text, self)
        if shortcuts:
            action.setShortcuts([QKeySequence(s) for s in shortcuts])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        self.addAction(action)  # shortcuts work even while the menu bar is hidden
        return action

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        self.state_label = QLabel("Opening the home…")
        self.approvals_label = QLabel("")
        self.busy_label = QLabel("")
        for label in (self.busy_label, self.approvals_label):
            label.setContentsMargins(8, 0, 8, 0)
        status.addWidget(self.state_label, 1)
        status.addPermanentWidget(self.busy_label)
        status.addPermanentWidget(self.approvals_label)

    def _connect(self) -> None:
        ctx = self.context
        self.runs_panel.run_selected.connect(self.select_run)
        self.run_form.run_button.clicked.connect(self.run_question)
        self.run_form.stop_button.clicked.connect(self.cancel_selected)
        self.bridge.events_arrived.connect(self.timeline.append)
        self.bridge.busy_changed.connect(self._on_busy)
        self.bridge.ready.connect(self._on_ready)
        ctx.runs_loaded.connect(self._on_runs)
        ctx.settings_loaded.connect(self.run_form.apply_settings)
        ctx.run_created.connect(self.select_run)
        ctx.status_changed.connect(self._on_status_changed)
        ctx.run_stopped.connect(self._on_run_stopped)
        ctx.message.connect(self.show_message)

    def _on_ready(self) -> None:
        self.state_label.setText("Ready")
        self.bridge.submit(
            lambda ws: read_corpus_titles(ws.home.corpus), on_done=self.corpus_list.set_documents
        )

    # -- selection ----------------------------------------------------------------------------

    def selected_run(self) -> dict[str, Any] | None:
        return self.context.run(self.runs_panel.selected_run_id())

    def select_run(self, run_id: str | None) -> None:
        if run_id != self.runs_panel.selected_run_id():
            self.runs_panel.select_run(run_id)
        self.bridge.set_current_run(run_id)
        self.timeline.set_run(run_id, [])
        self.timeline.set_empty_text(
            "Loading the timeline…"
            if run_id
            else "Select a run on the left, or press Run (Ctrl+Enter) to start one."
        )
        if run_id:
            self.bridge.submit(
                lambda ws: ws.timeline(run_id),
                on_done=lambda events: self._timeline_loaded(run_id, events),
                run_id=run_id,
            )
        self._show_selected()

    def _timeline_loaded(self, run_id: str, events: list[dict[str, Any]]) -> None:
        self.timeline.set_run(run_id, events)
        self.timeline.set_empty_text("No events yet: they appear here as the run goes.")

    def _show_selected(self) -> None:
        run = self.selected_run()
        self.summary.show_run(run)
        set_run = getattr(self.artifacts_panel, "set_run", None)
        if set_run is not None:
            set_run(run)
        self._update_state_label()

    # -- updates ----------------------------------------------------------------------------------

    def _on_runs(self, runs: list[dict[str, Any]]) -> None:
        self.runs_panel.set_runs(runs)
        if self.runs_panel.selected_run_id() is None and runs and not self.bridge.current_run_id:
            self.select_run(runs[0]["run_id"])
        else:
            self._show_selected()
        pending = self.context.pending_approvals()
        self.approvals_label.setText(f"{pending} pending approval{'s' if pending != 1 else ''}")
        colour = theme.STATUS_COLOURS[RunStatus.WAITING_APPROVAL] if pending else ""
        self.approvals_label.setStyleSheet(
            f"color: {colour}; font-weight: bold;" if pending else ""
        )
        self._offer_recovery()

    def _offer_recovery(self) -> None:
        interrupted = self.context.interrupted_runs()
        ids = frozenset(r["run_id"] for r in interrupted)
        if not ids:
            self.banners.hide_banner("interrupted")
            return
        current = self.banners.banner("interrupted")
        if ids == self._dismissed_interrupted or (
            current is not None and current.property("ids") == sorted(ids)
        ):
            return
        newest = interrupted[0]
        question = str(newest.get("question", ""))[:80]
        if len(ids) > 1:
            head = (
                f"{len(ids)} runs were interrupted when their process died. Newest: “{question}”. "
            )
        else:
            head = f"“{question}” was interrupted when its process died. "
        text = head + "Resume continues from its last checkpoint without repeating a side effect."
        banner = self.banners.show_banner(
            "interrupted",
            "recovery",
            text,
            [
                ("Resume", lambda: self._resume_interrupted(newest["run_id"])),
                ("Show", lambda: self.select_run(newest["run_id"])),
            ],
        )
        banner.setProperty("ids", sorted(ids))
        banner.closed.connect(lambda: setattr(self, "_dismissed_interrupted", ids))

    def _resume_interrupted(self, run_id: str) -> None:
        self.banners.hide_banner("interrupted")
        self.select_run(run_id)
        self.context.resume(run_id)

    def _on_status_changed(self, run_id: str, old: str | None, new: str) -> None:
        run = self.context.run(run_id)
        if run is not None and new in WAITING:
            self.prompts.announce(run, alert=old is not None)
        elif old in WAITING:
            self.prompts.withdraw(run_id)
        if run_id == self.runs_panel.selected_run_id():
            self._show_selected()

    def _on_run_stopped(self, run: dict[str, Any]) -> None:
        if run.get("status") in WAITING:
            self.prompts.open_for(run)

    def _on_busy(self, busy: bool) -> None:
        self.busy_label.setText("● Agent working" if busy else "")
        self.busy_label.setStyleSheet(
            f"color: {theme.STATUS_COLOURS[RunStatus.RUNNING]};" if busy else ""
        )
        self._update_state_label()

    def _update_state_label(self) -> None:
        run = self.selected_run()
        if run is None:
            self.state_label.setText("No run selected")
            self.cancel_action.setEnabled(False)
            self.run_form.stop_button.setEnabled(False)
            self.resume_action.setEnabled(False)
            return
        status = str(run.get("status"))
        colour = theme.STATUS_COLOURS.get(status, "#8a8f98")
        self.state_label.setText(
            f"<span style='color:{colour}'>●</span> <b>{theme.status_label(status)}</b>"
            f" · {run['run_id']}"
        )
        active = status in ACTIVE
        self.cancel_action.setEnabled(active)
        self.run_form.stop_button.setEnabled(active)
        # A `created` run was never driven (say, made by `briefdesk-cli create`): Resume starts it.
        resumable = status in (RunStatus.INTERRUPTED, RunStatus.CREATED)
        self.resume_action.setEnabled(resumable and not self.bridge.is_driving(run["run_id"]))

    def show_message(self, level: str, text: str) -> None:
        if level == "error":
            self.banners.show_banner("error", "error", text, timeout_ms=20_000)
        self.statusBar().showMessage(text, 8000)

    # -- commands -------------------------------------------------------------------------------

    def run_question(self) -> None:
        question = self.run_form.question_text()
        if not question:
            self.show_message("error", "invalid_arguments: type a question first.")
            return
        self.context.start_run(question, **self.run_form.options())

    def cancel_selected(self) -> None:
        run = self.selected_run()
        if run is not None:
            self.context.cancel(run["run_id"])

    def resume_selected(self) -> None:
        run = self.selected_run()
        if run is not None:
            self.context.resume(run["run_id"])

    def review_selected(self) -> None:
        run = self.selected_run()
        if run is not None and run.get("status") in WAITING:
            self.prompts.open_for(run, force=True)

    def delete_selected(self) -> None:
        run = self.selected_run()
        if run is not None:
            self.context.delete_run(run["run_id"])
            self.select_run(None)

    def open_settings(self) -> None:
        from desktop.widgets.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.bridge, self.context.settings, self)
        dialog.saved.connect(self.context.set_settings)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        self.settings_dialog = dialog

    def demo_crash_next(self) -> None:
        if self._confirm_crash("at the next tool call"):
            self.context.demo_crash_next_tool(self.selected_run(), self.run_form.question_text())

    def demo_crash_write(self) -> None:
        if self._confirm_crash("right after the brief is written, before the write is confirmed"):
            self.context.demo_crash_after_write(self.selected_run(), self.run_form.question_text())

    def _confirm_crash(self, where: str) -> bool:
        answer = QMessageBox.question(
            self,
            "Crash demo",
            f"BriefDesk will kill itself (SIGKILL) {where}.\n\n"
            "Open it again to see the interrupted "
            "run and resume it: no side effect is repeated.",
        )
        return answer == QMessageBox.StandardButton.Yes

    def _about(self) -> None:
        import platform

        from PySide6 import __version__ as pyside_version
        from PySide6.QtCore import qVersion

        import agent_core  # the package version, from its metadata (agent_core.version)

        QMessageBox.about(
            self,
            "About BriefDesk",
            f"<h3>BriefDesk {agent_core.__version__}</h3>"
            "<p>BriefDesk runs a local research-brief agent with a checkpoint at every tool "
            "boundary, a person's approval before every risky action, and keys in the system "
            "keyring.</p>"
            f"<p><small>Qt {qVersion()} · PySide6 {pyside_version} · "
            f"Python {platform.python_version()}<br>Released under the MIT licence.</small></p>",
        )

    # -- window state ---------------------------------------------------------------------------

    def _restore_geometry(self) -> None:
        geometry = self.qsettings.value("window/geometry")
        if isinstance(geometry, QByteArray | bytes):
            self.restoreGeometry(QByteArray(geometry))
        splitter = self.qsettings.value("window/splitter")
        if isinstance(splitter, QByteArray | bytes):
            self.splitter.restoreState(QByteArray(splitter))

    def save_geometry(self) -> None:
        self.qsettings.setValue("window/geometry", self.saveGeometry())
        self.qsettings.setValue("window/splitter", self.splitter.saveState())
        self.qsettings.sync()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_painted.emit()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_geometry()
        self.bridge.stop()
        super().closeEvent(event)


def _optional_artifacts_panel(bridge: Bridge) -> QWidget:
    """The artifacts panel when its module is installed; a plain hint otherwise."""
    try:
        from desktop.widgets.artifacts_panel import ArtifactsPanel
    except ImportError:
        hint = QLabel("The artifacts panel is not available in this build.")
        hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        hint.setWordWrap(True)
        return hint
    panel: QWidget = ArtifactsPanel(bridge)
    return panel
