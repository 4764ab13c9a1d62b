"""Keeps the inbox live and acts on it: one `ws.inbox()` read per burst of events, a banner
when a decision starts waiting in another process, and the triage commands.

Every process's events reach the window through the follower (this process's at once, others'
by poll or NOTIFY); the events that change what a person owes ask for a read, and reads asked
while one is under way fold into a single read after it. A proposal or question that arrives
for a run this window did not start (the CLI, another window, another desk) gets a banner whose
Open button opens its dialog; the banner goes when the decision leaves the inbox.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from agent_core.contract.events import EventKind
from agent_core.contract.views import EventView, InboxItemView, RunView
from desktop.models import agent_labels
from desktop.models.event_text import cut_words
from desktop.models.plain_errors import plain_exception
from desktop.models.store_text import other_desk
from desktop.models.visible_text import visible_line
from desktop.widgets.inbox.panel import InboxPanel
from desktop.widgets.inbox.reject_dialog import RejectDialog

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from desktop.bridge import Bridge
    from desktop.context import AppContext
    from desktop.widgets.banner import BannerArea, PersonPrompts

DEBOUNCE_MS = 120  # a burst of events (a proposal and its checkpoint) costs one read
BANNER = "elsewhere"  # a decision that started waiting in another process
READY_BANNER = "ready"  # a run nobody here drives whose decision landed: Continue offers it
INBOX_KINDS = frozenset(
    {
        EventKind.APPROVAL_REQUESTED,
        EventKind.APPROVAL_DECIDED,
        EventKind.QUESTION_ASKED,
        EventKind.ANSWER_RECEIVED,
        EventKind.RUN_STARTED,
        EventKind.RUN_RESUMED,
        EventKind.RUN_INTERRUPTED,
        EventKind.RUN_FINISHED,
    }
)


class InboxKeeper(QObject):
    """Handed what it uses (the window only as its dialogs' parent), never the main window's
    class: the window builds it, so knowing that class would be an import cycle."""

    loaded = Signal(object)  # list[InboxItemView], after each read

    def __init__(
        self,
        window: QWidget,
        panel: InboxPanel,
        *,
        bridge: Bridge,
        context: AppContext,
        banners: BannerArea,
        prompts: PersonPrompts,
        select_run: Callable[[str], None],
        show_inbox: Callable[[], None],
    ) -> None:
        super().__init__(window)
        self.window, self.panel, self.bridge, self.context = window, panel, bridge, context
        self.banners, self.prompts = banners, prompts
        self.select_run, self.show_inbox = select_run, show_inbox
        self.items: list[InboxItemView] = []
        self.reads = 0  # reads finished (tests and figures: one per burst)
        self._inflight = False
        self._again = False
        self._arrived: list[str] = []  # ids that started waiting elsewhere, oldest first
        self._banner_id: str | None = None
        self._ready_run: str | None = None
        self.reject_dialog: RejectDialog | None = None
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self._read)
        self.bridge.ready.connect(self.refresh)
        self.bridge.events_arrived.connect(self._on_events)
        self.context.status_changed.connect(self._on_status_changed)
        self.context.runs_loaded.connect(self._set_roots)
        self.context.person_step_done.connect(self._offer_continue)
        panel.open_requested.connect(self.open_item)
        panel.reject_requested.connect(self.ask_reason)

    # -- reading ----------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the inbox soon: calls within the debounce (or during a read) make one read."""
        if self._inflight:
            self._again = True
        elif not self._debounce.isActive():
            self._debounce.start()

    def _read(self) -> None:
        self._inflight = True
        self.bridge.submit(lambda ws: ws.inbox(), on_done=self._loaded, on_error=self._failed)

    def _failed(self, _exc: Exception) -> None:  # the storage banner or the poll says why
        self._settle()

    def _settle(self) -> None:
        self._inflight = False
        if self._again:
            self._again = False
            self.refresh()

    def _loaded(self, items: list[InboxItemView]) -> None:
        self.items = items
        self.reads += 1
        self._set_roots()
        self.panel.set_items(items)
        self._update_banner(items)
        self.loaded.emit(items)
        self._settle()

    def _set_roots(self, _runs: object = None) -> None:
        runs = [r for r in (self.context.run(i["run_id"]) for i in self.items) if r is not None]
        self.panel.model.set_roots({run["run_id"]: str(run.get("artifacts") or "") for run in runs})
        self.panel.model.set_agents(
            {
                run["run_id"]: (str(run.get("agent")), run.get("cwd"))
                for run in runs
                if agent_labels.is_agent(run.get("agent"))
            }
        )

    def _on_events(self, events: list[EventView]) -> None:
        relevant = [e for e in events if e["kind"] in INBOX_KINDS]
        if not relevant:
            return
        for event in relevant:
            run_id = event["run_id"]
            if run_id is None or run_id in self.context.driven_here:
                continue  # this window's runs open their dialogs by themselves
            if event["kind"] == EventKind.APPROVAL_REQUESTED:
                approval_id = event["data"].get("approval_id")
                if isinstance(approval_id, str):
                    self._arrived.append(approval_id)
            elif event["kind"] == EventKind.QUESTION_ASKED:
                self._arrived.append(run_id)
        self.refresh()

    def _on_status_changed(self, run_id: str, old: str | None, new: str) -> None:
        self.refresh()
        if run_id == self._ready_run and new != old:
            run = self.context.run(run_id)
            if run is None or not run.get("ready_to_continue"):
                self.banners.hide_banner(READY_BANNER)
                self._ready_run = None

    # -- the banner -------------------------------------------------------------------------------

    def _update_banner(self, items: list[InboxItemView]) -> None:
        by_id = {it["id"]: it for it in items}
        arrived = [i for i in self._arrived if i in by_id]  # auto-approved ones never waited
        self._arrived = []
        if arrived:
            self._show_banner(by_id[arrived[-1]], len(set(arrived)))
        elif self._banner_id is not None and self._banner_id not in by_id:
            self.banners.hide_banner(BANNER)  # decided, here or anywhere
            self._banner_id = None

    def _show_banner(self, item: InboxItemView, count: int) -> None:
        question = visible_line(cut_words(item["question"], 70))
        if (agent := self.panel.model.agent_of(item)) is not None:
            question = agent_labels.session_text(*agent)  # "Claude Code in ~/project"
        if item["kind"] == "approval":
            what = self.tr("approval of {tool} → {target}").format(
                tool=visible_line(item["tool"]), target=visible_line(item.get("target") or "")
            )
        else:
            what = self.tr("an answer: {q}").format(q=visible_line(item["summary"]))
        desk = other_desk(item.get("desk"), self.panel.model.this_desk)
        where = self.tr(" on desk {desk}").format(desk=visible_line(desk)) if desk else ""
        text = self.tr("From another process{where}: “{question}” waits for {what}").format(
            where=where, question=question, what=what
        )
        if count > 1:
            text += self.tr(" ({n} new decisions in the inbox)").format(n=count)
        self.prompts.withdraw(item["run_id"])  # one banner per decision, not two
        item_id = item["id"]
        actions: list[tuple[str, Callable[[], None]]] = [
            (self.tr("Open"), lambda: self._open_from_banner(item_id)),
            (self.tr("Inbox"), self.show_inbox),
        ]
        banner = self.banners.show_banner(BANNER, "warning", text, actions)
        banner.buttons[self.tr("Open")].setAccessibleName(self.tr("Open its dialog"))
        banner.buttons[self.tr("Inbox")].setAccessibleName(self.tr("Show the inbox"))
        self._banner_id = item_id

    def _open_from_banner(self, item_id: str) -> None:
        item = next((it for it in self.items if it["id"] == item_id), None)
        if item is None:  # decided meanwhile: nothing left to open
            self.banners.hide_banner(BANNER)
            self.refresh()
            return
        self.open_item(item)

    def _offer_continue(self, run_id: str) -> None:
        """A decision or an answer landed for a run this window does not drive: it goes on here
        when the person asks (Continue), never by itself."""
        run = self.context.run(run_id)
        if run is None or run_id in self.context.driven_here or not run.get("ready_to_continue"):
            return
        question = visible_line(cut_words(str(run.get("question") or ""), 70))
        text = self.tr("“{question}” was decided and is ready to continue.").format(
            question=question
        )
        self._ready_run = run_id
        self.banners.show_banner(
            READY_BANNER, "info", text, [(self.tr("Continue"), lambda: self._continue(run))]
        )

    def _continue(self, run: RunView) -> None:
        self.banners.hide_banner(READY_BANNER)
        self._ready_run = None
        self.select_run(run["run_id"])
        self.context.resume(run["run_id"])

    # -- triage -----------------------------------------------------------------------------------

    def open_item(self, item: InboxItemView) -> None:
        """The full dialog: the approval dialog (approving happens there, after its guard) or
        the question dialog."""
        prompts = self.prompts
        if item["kind"] == "approval":
            prompts.open_approval(item["run_id"], item["id"], invited=True)
            return
        run = self.context.run(item["run_id"])
        pending = (run.get("question_pending") if run else None) or item["summary"]
        prompts.open_question(item["run_id"], pending, invited=True)

    def ask_reason(self, item: InboxItemView) -> None:
        dialog = RejectDialog(item, self.window)
        dialog.reject_with.connect(lambda reason: self.reject(item, reason))
        dialog.finished.connect(lambda _result: self.panel.focus_table())
        dialog.open()
        self.reject_dialog = dialog

    def reject(self, item: InboxItemView, reason: str) -> None:
        """Reject through the bridge; a run of this desk then goes on (and ends cancelled), as
        after Reject in the full dialog; another desk's run is its desk's to continue."""
        reviewer = str(self.context.settings.get("reviewer") or "reviewer")
        approval_id, run_id = item["id"], item["run_id"]
        ours = other_desk(item.get("desk"), self.panel.model.this_desk) is None

        def done(_approval: object) -> None:
            self.context.message.emit("info", self.tr("Rejected: {reason}").format(reason=reason))
            self.prompts.settled(run_id)
            self.refresh()
            if ours:
                self.context.continue_run(run_id, echo=True)

        def failed(exc: Exception) -> None:
            self.context.message.emit("error", plain_exception(exc))
            self.refresh()

        self.bridge.submit(
            lambda ws: ws.reject(approval_id, reviewer=reviewer, reason=reason),
            on_done=done,
            on_error=failed,
        )
