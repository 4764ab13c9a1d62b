"""Desktop notifications for decisions that wait: they tell, they never decide.

A decision that starts waiting (a proposal or a question, of any process: the follower hands
over every process's events) while no BriefDesk window is the active one gets one notification:
the run's question and the tool, with one action, which opens its dialog in the window. A
pending proposal with less than a tenth of its time left gets one reminder (replacing that
notification, or a new one). A decision taken, answered or expired takes its notification off
the screen. The setting `ui.notifications` turns them all off. What is owed is read from
`Workspace.inbox()` after each event that can change it, so a notification is about a decision
that really waits.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from agent_core.contract.events import EventKind
from desktop.models import agent_labels
from desktop.models.agent_labels import AgentInbox, Agents, read_agent_inbox
from desktop.notifications.bus import URGENCY_CRITICAL, URGENCY_NORMAL, Notice, NotificationBus

if TYPE_CHECKING:
    from agent_core.contract.views import EventView, InboxItemView, RunView
    from desktop.bridge import Bridge
    from desktop.context import AppContext

log = logging.getLogger(__name__)

APP_ID = "org.briefdesk.BriefDesk"  # the .desktop file's name and the icon's (packaging/)
OPEN_ACTION = "open"
SETTING = "ui.notifications"
REMINDER_SHARE = 0.1  # remind when less than this share of a proposal's time is left
RETRY_MS = 2000  # a reminder due while the person looks at the window: look again
MAX_WAIT_MS = 60_000  # the reminder timer never sleeps longer (clock changes, suspend)
# Events after which what is owed may have changed.
INBOX_KINDS = frozenset(
    {
        EventKind.APPROVAL_REQUESTED,
        EventKind.APPROVAL_DECIDED,
        EventKind.QUESTION_ASKED,
        EventKind.ANSWER_RECEIVED,
        EventKind.RUN_FINISHED,
        EventKind.RUN_INTERRUPTED,
        EventKind.RUN_RESUMED,
    }
)


def key_of(item: InboxItemView) -> str:
    return f"{item['kind']}:{item['id']}"


def notice_for(
    item: InboxItemView,
    *,
    reminder: bool = False,
    agent: tuple[str, str | None] | None = None,
) -> Notice:
    """The notification for one inbox item: what waits, never a way to decide it. An external
    agent's (`agent`: its name and folder) says whose: "Claude Code: Write notes.md"."""
    if item["kind"] == "question":
        summary = QCoreApplication.translate("DecisionNotices", "BriefDesk: a question waits")
        lines = [
            item["question"],
            QCoreApplication.translate("DecisionNotices", "The agent asks ({tool}): {text}"),
        ]
        lines[1] = lines[1].format(tool=item["tool"], text=item["summary"])
    else:
        summary = QCoreApplication.translate("DecisionNotices", "BriefDesk: a decision waits")
        if reminder:
            summary = QCoreApplication.translate(
                "DecisionNotices", "BriefDesk: a decision expires soon"
            )
        target = item["target"] or ""
        what = QCoreApplication.translate("DecisionNotices", "Tool: {tool}").format(
            tool=item["tool"]
        )
        lines = [item["question"], f"{what} → {target}" if target else what]
        if agent is not None:
            name, cwd = agent
            lines = [
                agent_labels.call_text(name, item["tool"], item["target"], cwd),
                agent_labels.session_text(name, cwd),
            ]
    return Notice(
        key=key_of(item),
        summary=summary,
        body="\n".join(lines),
        actions=(
            (OPEN_ACTION, QCoreApplication.translate("DecisionNotices", "Open in BriefDesk")),
        ),
        urgency=URGENCY_CRITICAL if reminder else URGENCY_NORMAL,
        hints={"desktop-entry": APP_ID},
        app_icon=APP_ID,
    )


def remind_at(item: InboxItemView) -> datetime | None:
    """When less than a tenth of the proposal's time is left; None: it never expires."""
    if not item["expires_at"]:
        return None
    created = _parse(item["created_at"])
    expires = _parse(item["expires_at"])
    return expires - (expires - created) * REMINDER_SHARE


def _parse(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class DecisionNotices(QObject):
    """Watches the window's events and the home's inbox; owns the window's notifications.

    Handed the window (to bring it forward), the bridge, the context and two callbacks, never
    the main window's class: it builds this, so knowing it would be an import cycle."""

    def __init__(
        self,
        window: QWidget,
        *,
        bridge: Bridge,
        context: AppContext,
        select_run: Callable[[str], None],
        open_run: Callable[[RunView], None],
        bus: NotificationBus | None = None,
    ) -> None:
        super().__init__(window)
        self.window, self.bridge, self.context = window, bridge, context
        self.select_run, self.open_run = select_run, open_run
        self.bus = bus or NotificationBus(self)
        self.items: dict[str, InboxItemView] = {}  # what is owed, as last read
        self.agents: Agents = {}  # runs that are external agents' sessions (whose, where)
        self._seen: set[str] = set()  # keys ever read: each notified once at most
        self._reminded: set[str] = set()
        self._read_once = False  # the first read: what waited before the window opened
        self._reading = False
        self._read_again = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._check_reminders)
        bridge.ready.connect(self.refresh)
        bridge.events_arrived.connect(self.on_events)
        context.settings_loaded.connect(lambda _settings: self._apply_setting())
        self.bus.action_invoked.connect(self._on_action)
        window.destroyed.connect(self.bus.shutdown)

    # -- state --------------------------------------------------------------------------------

    def enabled(self) -> bool:
        return self.context.settings.get(SETTING, True) is not False

    def handles_alerts(self) -> bool:
        """True: the tray message is not wanted (notifications are off, or sent here)."""
        return not self.enabled() or bool(self.bus.available)

    def looking(self) -> bool:
        """A BriefDesk window (the main window or one of its dialogs) is the active window."""
        widget: QWidget | None = QApplication.activeWindow()
        while widget is not None:
            if widget is self.window:
                return True
            widget = widget.parentWidget()
        return False

    # -- reading what is owed -----------------------------------------------------------------

    def on_events(self, events: list[EventView]) -> None:
        if any(e["kind"] in INBOX_KINDS for e in events):
            self.refresh()

    def refresh(self) -> None:
        if self._reading:
            self._read_again = True
            return
        self._reading = True
        self.bridge.submit(read_agent_inbox, on_done=self._on_inbox, on_error=self._on_error)

    def _on_error(self, exc: Exception) -> None:
        self._reading = False
        log.info("the inbox could not be read for notifications: %s", exc)

    def _on_inbox(self, read: AgentInbox) -> None:
        self._reading = False
        items = read.items
        self.agents.update(read.agents)
        fresh = {key_of(item): item for item in items}
        for key in set(self.items) - set(fresh):
            self.bus.close(key)  # decided, answered or expired: nothing left to ask
        first, self._read_once = not self._read_once, True
        for key, item in fresh.items():
            if key in self._seen:
                continue
            self._seen.add(key)
            if not first and self.enabled() and not self.looking():
                self.bus.notify(notice_for(item, agent=self.agents.get(item["run_id"])))
        self.items = fresh
        self._check_reminders()
        if self._read_again:
            self._read_again = False
            self.refresh()

    # -- reminders ----------------------------------------------------------------------------

    def _check_reminders(self) -> None:
        now = datetime.now(UTC)
        soonest: datetime | None = None
        for key, item in list(self.items.items()):
            due = remind_at(item)
            if due is None:
                continue
            expires = _parse(str(item["expires_at"]))
            if now >= expires:
                del self.items[key]  # past its time: no longer owed (the sweep records it)
                self.bus.close(key)
                continue
            if key in self._reminded:
                soonest = expires if soonest is None else min(soonest, expires)
                continue
            if now < due:
                soonest = due if soonest is None else min(soonest, due)
                continue
            if not self.enabled():
                continue
            if self.looking():
                soonest = now  # the person is here now; remind if they leave in time
                continue
            self._reminded.add(key)
            agent = self.agents.get(item["run_id"])
            self.bus.notify(notice_for(item, reminder=True, agent=agent))
        if soonest is None:
            self._timer.stop()
            return
        wait_ms = int((soonest - now).total_seconds() * 1000) + 50
        self._timer.start(min(max(wait_ms, RETRY_MS if soonest <= now else 0), MAX_WAIT_MS))

    def _apply_setting(self) -> None:
        if not self.enabled():
            for key in self.bus.shown():
                self.bus.close(key)

    # -- the one action -----------------------------------------------------------------------

    def _on_action(self, key: str, action: str) -> None:
        item = self.items.get(key)
        if item is None or action not in (OPEN_ACTION, "default"):
            return
        self.open_item(item)

    def open_item(self, item: InboxItemView) -> None:
        """The window comes forward with the item's dialog open; nothing is decided here."""
        window = self.window
        if window.isMinimized():
            window.showNormal()
        window.raise_()
        window.activateWindow()
        self.select_run(item["run_id"])
        run = self.context.run(item["run_id"])
        if run is not None:
            self.open_run(run)
            return

        def opened(runs: list[RunView]) -> None:
            for found in runs:
                self.open_run(found)

        # Not in the window's list yet (another desk, just now): read it first.
        self.bridge.submit(lambda ws: ws.list_runs([item["run_id"]]), on_done=opened)
