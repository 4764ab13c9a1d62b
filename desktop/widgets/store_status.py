"""The status bar's word on where the runs live ("This computer" or "Team database
HOST/DBNAME") and this desk's id, read from the Workspace once it is open (on the bridge).

After Settings saved another team database it decides what happens to this window: it reopens
on the new store (the window asks for that with `reopen`), or it says plainly why it cannot yet:
a `--db` or BRIEFDESK_DB choice outranks the setting, and a run this window drives is not cut
off mid-way."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QWidget

from desktop.i18n import QT_TRANSLATE_NOOP
from desktop.models import store_text

if TYPE_CHECKING:
    from agent_core.contract.views import StoreView
    from desktop.bridge import Bridge

RUN_IN_PROGRESS = QT_TRANSLATE_NOOP(
    "StoreStatus",
    "Saved. A run is being driven in this window, so it stays on its database for now: "
    "BriefDesk uses the new one the next time it starts.",
)


class StoreStatus(QLabel):
    loaded = Signal(object)  # the StoreView, once the Workspace is open

    def __init__(self, bridge: Bridge, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.bridge = bridge
        self.view: StoreView | None = None
        self.setContentsMargins(8, 0, 8, 0)
        bridge.ready.connect(self.reload)

    def reload(self) -> None:
        self.bridge.submit(lambda ws: ws.store_view(), on_done=self._show)

    def _show(self, view: StoreView) -> None:
        self.view = view
        self.setText(store_text.store_label(view))
        self.setToolTip(store_text.store_tooltip(view))
        self.loaded.emit(view)

    @property
    def this_desk(self) -> str | None:
        return self.view["desk"] if self.view else None

    def after_save(self, reopen: Callable[[], None], tell: Callable[[str, str], object]) -> None:
        """Settings saved another `db.url`: `reopen` the window on it, or `tell` why not now."""
        why = store_text.chosen_elsewhere(self.view) if self.view else None
        if why:
            tell("info", self.tr("Saved. {why}").format(why=why))
        elif self.bridge.is_driving():
            tell("warning", self.tr(RUN_IN_PROGRESS))
        else:
            reopen()
