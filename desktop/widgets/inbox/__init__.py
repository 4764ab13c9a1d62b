"""The inbox: every decision a person owes, as a view of the main window, kept live."""

from __future__ import annotations

from desktop.widgets.inbox.live import InboxKeeper
from desktop.widgets.inbox.panel import InboxPanel
from desktop.widgets.inbox.reject_dialog import RejectDialog
from desktop.widgets.inbox.tabs import CentreTabs

__all__ = ["CentreTabs", "InboxKeeper", "InboxPanel", "RejectDialog"]
