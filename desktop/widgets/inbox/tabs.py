"""The centre of the main window under the Question box: the selected run's timeline, and the
inbox, whose title counts what waits ("Inbox (2)")."""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget, QWidget

from desktop.widgets.inbox.panel import InboxPanel


class CentreTabs(QTabWidget):
    def __init__(self, timeline: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        self.timeline = timeline
        self.addTab(timeline, self.tr("Timeline"))
        self.setTabToolTip(0, self.tr("The selected run's timeline"))
        self.inbox = InboxPanel()
        self.inbox_tab = self.addTab(self.inbox, self.tr("Inbox"))
        self.setTabToolTip(self.inbox_tab, self.tr("Every decision you owe, across runs (Ctrl+I)"))
        self.inbox.count_changed.connect(self._count)

    def _count(self, count: int) -> None:
        title = self.tr("Inbox ({n})").format(n=count) if count else self.tr("Inbox")
        self.setTabText(self.inbox_tab, title)

    def show_inbox(self) -> None:
        """The inbox tab, its table taking the keys."""
        self.setCurrentWidget(self.inbox)
        self.inbox.focus_table()
