"""The main window's side tabs (Files, Details, Corpus): every title whole, never behind
scroll arrows, on a 1024x700 laptop too. Short titles, and a panel never narrower than them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

if TYPE_CHECKING:
    from desktop.bridge import Bridge

MINIMUM_WIDTH = 200  # the whole window still fits a 1024x700 laptop screen


class SideTabs(QTabWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        bar = self.tabBar()
        bar.setUsesScrollButtons(False)
        bar.setElideMode(Qt.TextElideMode.ElideNone)
        bar.setExpanding(False)
        self.setDocumentMode(False)

    def add_page(self, page: QWidget, title: str, tooltip: str) -> int:
        index = self.addTab(page, title)
        self.setTabToolTip(index, tooltip)
        # Narrow (its pages wrap and elide) but never narrower than all its titles together,
        # nor than a page's row of buttons (an explicit minimum overrides the pages' own).
        bar = self.tabBar()
        titles = sum(bar.tabSizeHint(i).width() for i in range(bar.count()))
        frame = self.width() - self.contentsRect().width() + 8  # the tab widget's own border
        pages = max(page.minimumSizeHint().width(), self.minimumWidth() - frame)
        self.setMinimumWidth(max(MINIMUM_WIDTH, titles + 4, pages + frame))
        return index


def optional_artifacts_panel(bridge: Bridge) -> QWidget:
    """The artifacts panel when its module is installed; a plain hint otherwise."""
    try:
        from desktop.widgets.artifacts_panel import ArtifactsPanel
    except ImportError:
        hint = QLabel(
            QCoreApplication.translate(
                "SideTabs", "The artifacts panel is not available in this build."
            )
        )
        hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        hint.setWordWrap(True)
        return hint
    panel: QWidget = ArtifactsPanel(bridge)
    return panel
