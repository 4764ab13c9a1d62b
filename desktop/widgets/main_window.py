"""The main window: runs on the left, the question form and the live timeline in the centre,
artifacts and the run's details on the right. It only lays widgets out and routes signals;
commands live in `desktop.context`, the person-facing prompts in `desktop.widgets.banner`.

Kept whole past 500 lines: it is one concept, the window's composition. It builds its parts,
hands each what it uses (never itself: no part imports this module) and routes their signals;
cut by count, the wiring would only be scattered over modules that import each other."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QGuiApplication,
    QIcon,
    QPaintEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import EventView, OwnerView, RunView, StoreView
from desktop import i18n, theme
from desktop.bridge import Bridge
from desktop.context import WAITING, AppContext
from desktop.corpus_keeper import CorpusKeeper
from desktop.models.run_state import (
    ACTIVE,
    JUST_PRESSED,
    deletable,
    delete_tip,
    owned_elsewhere,
    status_words,
    words,
)
from desktop.notifications.decisions import DecisionNotices
from desktop.widgets.approval_buttons import APPROVE_KEYS
from desktop.widgets.approval_guard import ReadGuard
from desktop.widgets.banner import BannerArea, Notifier, PersonPrompts
from desktop.widgets.confirm import ask_first, delete_question, take_over_question
from desktop.widgets.corpus_panel import CorpusPanel
from desktop.widgets.crash_demos import CrashDemos
from desktop.widgets.help_menu import add_help_menu
from desktop.widgets.inbox import CentreTabs, InboxKeeper
from desktop.widgets.runs_panel import RunForm, RunsPanel, RunSummary
from desktop.widgets.side_tabs import SideTabs, optional_artifacts_panel
from desktop.widgets.store_status import StoreStatus
from desktop.widgets.timeline_view import TimelinePanel
from desktop.widgets.window_actions import add_action, opened, reopened
from desktop.widgets.window_banners import WindowBanners
from desktop.widgets.window_fit import clamp_to_screen, restore_window_state, save_window_state

if TYPE_CHECKING:
    from desktop.widgets.records_windows import AuditWindow, RulesWindow
    from desktop.widgets.suggest_rules import SuggestRulesWindow


PREFERRED_SIZE = QSize(1440, 880)  # on first start, shrunk to fit the screen


class MainWindow(QMainWindow):
    first_painted = Signal()
    reopen_requested = Signal()  # on another store: desktop.app.reopen_window answers it

    def __init__(
        self, bridge: Bridge, context: AppContext, icon: QIcon, qsettings: QSettings
    ) -> None:
        super().__init__()
        self.bridge = bridge
        self.context = context
        self.qsettings = qsettings
        self._painted = False
        self.poll_ms = 300  # how often other processes' events are read (start_background)
        self.successor: MainWindow | None = None  # the window reopened on another store
        self.rules_window: RulesWindow | None = None
        self.suggest_window: SuggestRulesWindow | None = None
        self.audit_window: AuditWindow | None = None
        self.setWindowTitle("BriefDesk")
        self.setWindowIcon(icon)
        self._build_central()
        self.notifier = Notifier(self, icon)
        # A Run pressed twice, or meant for a dialog that just opened by itself, starts no run.
        self.run_guard = ReadGuard(self)
        # The window's parts get what they use, never this class (no import cycle back here).
        self.prompts = PersonPrompts(
            self,
            bridge=bridge,
            context=context,
            banners=self.banners,
            notifier=self.notifier,
            run_guard=self.run_guard,
        )
        self.decision_notices = DecisionNotices(  # desktop notifications, never deciding
            self,
            bridge=bridge,
            context=context,
            select_run=self.select_run,
            open_run=lambda run: self.prompts.open_for(run, force=True),
        )
        # The tray's message would say the same thing a second time.
        self.notifier.handled_elsewhere = self.decision_notices.handles_alerts
        self.home_banners = WindowBanners(
            self.banners,
            context,
            select_run=self.select_run,
            resume_interrupted=self._resume_interrupted,
            show_whole_folder=self._show_whole_folder,
        )
        self.inbox = InboxKeeper(
            self,
            self.inbox_panel,
            bridge=bridge,
            context=context,
            banners=self.banners,
            prompts=self.prompts,
            select_run=self.select_run,
            show_inbox=self.centre_tabs.show_inbox,
        )
        self.crash_demos = CrashDemos(self, context, self.run_form, self.selected_run)
        self._build_menus()
        self._build_status_bar()
        self._connect()
        restore_window_state(self, self.splitter, self.qsettings, PREFERRED_SIZE)
        self._update_state_label()  # nothing selected yet: Stop and Resume start disabled
        self.run_form.question.setFocus()  # the keyboard starts where a new home starts: asking

    # -- layout ---------------------------------------------------------------------------------

    def _build_central(self) -> None:
        central = QWidget(self)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(8, 8, 8, 4)
        outer.setSpacing(6)
        self.banners = BannerArea(central)
        outer.addWidget(self.banners)
        self.runs_panel = RunsPanel(bridge=self.bridge)
        self.run_form = RunForm()
        self.timeline = TimelinePanel()
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.setSpacing(8)
        centre_layout.addWidget(self.run_form)  # the Question box stays first, at the top
        self.centre_tabs = CentreTabs(self.timeline)  # and the inbox of every decision owed
        self.inbox_panel = self.centre_tabs.inbox
        centre_layout.addWidget(self.centre_tabs, 1)
        self.side_tabs = SideTabs()  # short titles, all whole at 1024x700
        self.artifacts_panel = optional_artifacts_panel(self.bridge)
        self.summary = RunSummary(bridge=self.bridge)
        self.corpus_panel = CorpusPanel()  # kept current by the keeper (watcher + reindex)
        self.corpus_keeper = CorpusKeeper(self.bridge, self.corpus_panel, self)
        for page, title, tip in (
            (self.artifacts_panel, self.tr("Files"), self.tr("The run's artifacts")),
            (self.summary, self.tr("Details"), self.tr("Run details")),
            (self.corpus_panel, self.tr("Corpus"), self.tr("The documents runs read")),
        ):
            self.side_tabs.add_page(page, title, tip)
        if isinstance(self.artifacts_panel, QLabel):  # no artifacts panel in this build
            self.side_tabs.setCurrentWidget(self.summary)
        # Narrow enough that the whole window fits a 1024x700 laptop screen.
        self.runs_panel.setMinimumWidth(150)
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
        file_menu = bar.addMenu(self.tr("&File"))
        self.settings_action = add_action(
            self, file_menu, self.tr("&Settings…"), self.open_settings, "Ctrl+,"
        )
        self.refresh_action = add_action(
            self, file_menu, self.tr("&Refresh"), self.bridge.refresh, "F5"
        )
        file_menu.addSeparator()
        self.quit_action = add_action(self, file_menu, self.tr("&Quit"), self.close, "Ctrl+Q")
        run_menu = bar.addMenu(self.tr("&Run"))
        self.run_action = add_action(
            self, run_menu, self.tr("&Run question"), self.run_question, "Ctrl+Return", "Ctrl+Enter"
        )
        self.cancel_action = add_action(
            self, run_menu, self.tr("&Cancel run"), self.cancel_selected, "Ctrl+."
        )
        self.resume_action = add_action(
            self, run_menu, self.tr("Res&ume run"), self.resume_selected, "Ctrl+R"
        )
        self.review_action = add_action(
            self, run_menu, self.tr("Re&view pending approval…"), self.review_selected, APPROVE_KEYS
        )
        run_menu.addSeparator()
        run_menu.setToolTipsVisible(True)  # Delete's tip says why it is not offered
        self.delete_action = add_action(
            self, run_menu, self.tr("&Delete finished run"), self.delete_selected
        )
        review_menu = bar.addMenu(self.tr("Re&view"))
        self.rules_action = add_action(
            self, review_menu, self.tr("Remembered &rules…"), self.open_rules
        )
        self.suggest_action = add_action(
            self, review_menu, self.tr("&Suggest a rule…"), self.open_suggestions
        )
        self.audit_action = add_action(self, review_menu, self.tr("&Audit log…"), self.open_audit)
        review_menu.addSeparator()
        self.inbox_action = add_action(
            self, review_menu, self.tr("&Inbox"), self.centre_tabs.show_inbox, "Ctrl+I"
        )
        demo = bar.addMenu(self.tr("&Demo"))
        self.crash_next_action = add_action(
            self, demo, self.tr("Crash at the next tool call"), self.demo_crash_next
        )
        self.crash_write_action = add_action(
            self, demo, self.tr("Crash after the write, before confirmation"), self.demo_crash_write
        )
        demo.addSeparator()
        self.compromised_action = add_action(
            self, demo, self.tr("Run with a compromised model"), self.context.demo_compromised
        )
        self.shortcuts_action, self.docs_action = add_help_menu(self, bar.addMenu(self.tr("&Help")))

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        self.state_label = QLabel(self.tr("Opening the home…"))
        self.approvals_label = QLabel("")
        self.busy_label = QLabel("")
        for label in (self.busy_label, self.approvals_label):
            label.setContentsMargins(8, 0, 8, 0)
        status.addWidget(self.state_label, 1)
        self.store_status = StoreStatus(self.bridge)  # "Team database HOST/DB · desk ID"
        self.store_status.loaded.connect(self._know_this_desk)
        status.addPermanentWidget(self.store_status)
        status.addPermanentWidget(self.busy_label)
        status.addPermanentWidget(self.approvals_label)

    def _connect(self) -> None:
        ctx = self.context
        self.runs_panel.run_selected.connect(self.select_run)
        self.run_form.run_button.clicked.connect(self.run_question)
        self.run_form.stop_button.clicked.connect(self.cancel_selected)
        self.bridge.events_arrived.connect(self.timeline.append)
        self.bridge.events_arrived.connect(self.home_banners.flag_home_events)
        self.bridge.busy_changed.connect(self._on_busy)
        self.bridge.storage_lost.connect(self.home_banners.storage_lost)
        self.bridge.storage_back.connect(self.home_banners.storage_back)
        self.bridge.ready.connect(self._on_ready)
        ctx.runs_loaded.connect(self._on_runs)
        ctx.settings_loaded.connect(self.run_form.apply_settings)
        ctx.settings_loaded.connect(lambda s: theme.apply_choice(s.get("ui.theme")))
        ctx.settings_loaded.connect(  # read before the next window is built (desktop.i18n)
            lambda s: self.qsettings.setValue(i18n.QSETTINGS_KEY, s.get("ui.language", "system"))
        )
        ctx.run_created.connect(self.select_run)
        ctx.status_changed.connect(self._on_status_changed)
        ctx.person_step_done.connect(self.prompts.settled)
        ctx.run_stopped.connect(self._on_run_stopped)
        revert_proposed = getattr(self.artifacts_panel, "revert_proposed", None)
        if revert_proposed is not None:  # its dialog opens as any proposal's does
            revert_proposed.connect(lambda run: self.prompts.open_for(run, force=True))
        ctx.message.connect(self.show_message)

    def _on_ready(self) -> None:
        self.state_label.setText(self.tr("Ready"))
        self.corpus_keeper.start()  # after the first paint: the bridge starts behind it

    # -- selection ----------------------------------------------------------------------------

    def selected_run(self) -> RunView | None:
        return self.context.run(self.runs_panel.selected_run_id())

    def select_run(self, run_id: str | None) -> None:
        if run_id != self.runs_panel.selected_run_id():
            self.runs_panel.select_run(run_id)
        self.bridge.set_current_run(run_id)
        self.timeline.set_run(run_id, [])
        self.timeline.set_empty_text(
            self.tr("Loading the timeline…")
            if run_id
            else self.tr("Select a run on the left, or press Run (Ctrl+Enter) to start one.")
        )
        if run_id:
            self.bridge.submit(
                lambda ws: ws.timeline(run_id),
                on_done=lambda events: self._timeline_loaded(run_id, events),
                run_id=run_id,
            )
        self._show_selected()

    def _timeline_loaded(self, run_id: str, events: list[EventView]) -> None:
        self.timeline.set_run(run_id, events)
        self.timeline.set_empty_text(self.tr("No events yet: they appear here as the run goes."))

    def _show_selected(self) -> None:
        run = self.selected_run()
        self.summary.show_run(run)
        self.corpus_keeper.use_folder(run["corpus"] if run else None)  # a run on another folder
        set_run = getattr(self.artifacts_panel, "set_run", None)
        if set_run is not None:
            set_run(run)
        self._update_state_label()

    # -- updates ----------------------------------------------------------------------------------

    def _on_runs(self, runs: list[RunView]) -> None:
        self.runs_panel.set_runs(runs)
        if self.runs_panel.selected_run_id() is None and runs and not self.bridge.current_run_id:
            self.select_run(runs[0]["run_id"])
        else:
            self._show_selected()
        pending = self.context.pending_approvals()
        one, many = self.tr("{n} pending approval"), self.tr("{n} pending approvals")  # no en .ts
        self.approvals_label.setText((one if pending == 1 else many).format(n=pending))
        colour = theme.status_text_colour(RunStatus.WAITING_APPROVAL) if pending else ""
        style = f"color: {colour}; font-weight: bold;" if pending else ""
        if style != self.approvals_label.styleSheet():  # a new sheet repolishes, even the same
            self.approvals_label.setStyleSheet(style)
        self.home_banners.offer_recovery()

    def _show_whole_folder(self) -> None:
        show_whole_folder = getattr(self.artifacts_panel, "show_whole_folder", None)
        if show_whole_folder is not None:
            self.side_tabs.setCurrentWidget(self.artifacts_panel)
            show_whole_folder()

    def _know_this_desk(self, view: StoreView) -> None:
        self.context.this_desk = view["desk"]
        self.runs_panel.set_this_desk(view["desk"])
        self.inbox_panel.model.set_this_desk(view["desk"])

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

    def _on_run_stopped(self, run: RunView) -> None:
        if run["status"] in WAITING:
            self.prompts.open_for(run)

    def _on_busy(self, busy: bool) -> None:
        self.busy_label.setText(self.tr("● Agent working") if busy else "")
        self.busy_label.setStyleSheet(
            f"color: {theme.status_text_colour(RunStatus.RUNNING)};" if busy else ""
        )
        self._update_state_label()

    def _update_state_label(self) -> None:
        run = self.selected_run()
        for say in (self.delete_action.setToolTip, self.delete_action.setStatusTip):
            say(delete_tip(run))
        self.delete_action.setEnabled(deletable(run))
        if run is None:
            self.state_label.setText(self.tr("No run selected"))
            self.cancel_action.setEnabled(False)
            self.run_form.stop_button.setEnabled(False)
            self.resume_action.setEnabled(False)
            return
        status = run["status"]
        colour = theme.STATUS_COLOURS.get(status, "#8a8f98")
        self.state_label.setText(
            f"<span style='color:{colour}'>●</span> <b>{status_words(run)}</b> · {run['run_id']}"
        )
        active = status in ACTIVE
        self.cancel_action.setEnabled(active)
        self.run_form.stop_button.setEnabled(active)
        # Decided or answered (here or in any process), interrupted, never started (`created`),
        # or failed in a way a retry may mend: the core says whether Resume would go on.
        resumable = bool(run.get("ready_to_continue")) or owned_elsewhere(run) is not None
        self.resume_action.setEnabled(resumable and not self.bridge.is_driving(run["run_id"]))

    def show_message(self, level: str, text: str) -> None:
        if level == "error":
            self.banners.show_banner("error", "error", text, timeout_ms=20_000)
        self.statusBar().showMessage(text, 8000)

    # -- commands -------------------------------------------------------------------------------

    def run_question(self) -> None:
        question = self.run_form.question_text()
        if not question:
            self.show_message("error", self.tr("Type a question first."))
            return
        if self.run_guard.holds():  # the same key pressed twice: one run, not two
            self.statusBar().showMessage(words(JUST_PRESSED), 5000)
            return
        self.run_guard.restart()
        self.context.start_run(question, **self.run_form.options())

    def cancel_selected(self) -> None:
        run = self.selected_run()
        if run is not None:
            self.context.cancel(run["run_id"])

    def resume_selected(self) -> None:
        run = self.selected_run()
        if run is None:
            return
        owner = owned_elsewhere(run)
        if owner is None:
            self.context.resume(run["run_id"])
        else:
            self._confirm_take_over(run["run_id"], owner)

    def _confirm_take_over(self, run_id: str, owner: OwnerView) -> None:
        """Ask first: the run is recorded as running on another computer, which this one cannot
        see; taking it over is right only if it no longer runs there."""
        self.take_over_box = ask_first(
            self,
            title=self.tr("Take over this run?"),
            text=take_over_question(owner),
            action=self.tr("&Take over and resume"),
            on_confirm=lambda: self.context.take_over(run_id),
        )

    def review_selected(self) -> None:
        """Review… and, here, the dialog's own Approve key: the dialog comes forward, focused
        and under a fresh read guard (a dialog that opened by itself lacks the keys); it never
        decides."""
        run = self.selected_run()
        if run is not None and run["status"] in WAITING:
            self.prompts.open_for(run, force=True)

    def delete_selected(self) -> None:
        """Ask first: deleting a run removes its timeline, checkpoints and approvals for good."""
        run = self.selected_run()
        if run is None or not deletable(run):  # a key or a stale menu: say why, in words
            self.statusBar().showMessage(delete_tip(run), 8000)
            return
        run_id = run["run_id"]

        def delete() -> None:
            self.context.delete_run(run_id)
            if self.runs_panel.selected_run_id() == run_id:
                self.select_run(None)

        self.delete_box = ask_first(
            self,
            title=self.tr("Delete this run?"),
            text=delete_question(run),
            action=self.tr("&Delete"),
            on_confirm=delete,
            icon=QMessageBox.Icon.Warning,
            role=QMessageBox.ButtonRole.DestructiveRole,
        )

    def open_rules(self) -> None:
        from desktop.widgets.records_windows import RulesWindow

        if not reopened(self.rules_window):
            self.rules_window = opened(RulesWindow(self.bridge, self))
            self.rules_window.suggest_requested.connect(self.open_suggestions)

    def open_suggestions(self) -> None:
        """Rules that would have decided what a person approved three times (none is made
        without the person's confirmation)."""
        from desktop.widgets.suggest_rules import SuggestRulesWindow

        if not reopened(self.suggest_window):
            self.suggest_window = opened(SuggestRulesWindow(self.bridge, self))

    def open_audit(self) -> None:
        """The audit log, filtered to the selected run (the filter offers every run)."""
        from desktop.widgets.records_windows import AuditWindow

        if not reopened(self.audit_window):
            run = self.selected_run()
            run_id = run["run_id"] if run else None
            self.audit_window = opened(AuditWindow(self.bridge, self, run_id=run_id))

    def open_settings(self) -> None:
        from desktop.widgets.agents_settings import AgentsPage
        from desktop.widgets.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.bridge, self.context.settings, self)
        # Settings ▸ Agents: Claude Code, Codex, Gemini CLI (the dialog is at its size limit)
        dialog.tabs.addTab(AgentsPage(self.bridge), self.tr("Agents"))
        dialog.saved.connect(self.context.set_settings)
        dialog.corpus_folder_changed.connect(self.corpus_keeper.default_changed)
        dialog.store_changed.connect(self._store_saved)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        self.settings_dialog = dialog

    def _store_saved(self) -> None:
        """Settings saved another team database: reopen on it, or say why not yet."""

        def tell(level: str, text: str) -> None:
            self.banners.show_banner("store", level, text)
            self.statusBar().showMessage(text, 8000)

        self.store_status.after_save(
            lambda: QTimer.singleShot(0, self, self.reopen_requested.emit), tell
        )

    def demo_crash_next(self, *, confirm: bool = True) -> None:
        self.crash_demos.crash_next(confirm=confirm)

    def demo_crash_write(self, *, confirm: bool = True) -> None:
        self.crash_demos.crash_write(confirm=confirm)

    # -- window state ---------------------------------------------------------------------------

    def save_geometry(self) -> None:
        save_window_state(self, self.splitter, self.qsettings)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._painted:  # the frame is known now: keep all of it on the screen
            QTimer.singleShot(0, self, lambda: clamp_to_screen(self))

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_painted.emit()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_geometry()
        # Gone from the screen first: stopping may wait for the SDK import behind the first
        # paint to finish (about 2 s on a loaded machine), and a quit must look instant.
        self.hide()
        QGuiApplication.sync()
        self.corpus_keeper.stop()  # its unwatch job runs before the bridge's shutdown
        self.bridge.stop()
        super().closeEvent(event)
