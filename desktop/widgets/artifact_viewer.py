"""A read-only viewer for an artifact, for systems with no program to open it.

The file is read on the bridge thread, through the same sandbox as the agent's tools (a symlink
out of the folder is refused, not followed) and bounded in size, so a huge or hostile file never
stalls the window. What it shows has its control characters escaped, like the diff. A brief
(Markdown) is shown as it reads, and its citations are links to the documents they cite
(desktop/widgets/citation_links.py); any other text is shown as it is, its citations linked too.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from desktop.models.plain_errors import plain_exception
from desktop.widgets.citation_links import CitationBrowser

VIEW_MAX_BYTES = 2_000_000  # beyond this the viewer shows the start and says so
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})


if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace
    from desktop.bridge import Bridge


class ArtifactViewer(QDialog):
    def __init__(
        self,
        bridge: Bridge,
        root: str,
        relative: str,
        parent: QWidget | None = None,
        *,
        corpus: str | None = None,
    ) -> None:
        """Shows `relative` (a path inside the artifacts folder `root`); its citations are of
        `corpus` (the run's corpus folder; None: the home's)."""
        super().__init__(parent)
        self.setWindowTitle(f"{relative} — BriefDesk")
        self.resize(820, 640)
        self.note = QLabel(self.tr("Reading {file}…").format(file=relative))
        self.note.setWordWrap(True)
        self.text = CitationBrowser(bridge)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        markdown = PurePosixPath(relative).suffix.lower() in MARKDOWN_SUFFIXES

        def read(ws: Workspace) -> tuple[str, bool]:
            return ws.read_text_inside(root, relative, max_bytes=VIEW_MAX_BYTES)

        def shown(result: tuple[str, bool]) -> None:
            if not shiboken6.isValid(self):
                return
            text, truncated = result
            self.text.set_brief(text, corpus, markdown=markdown)
            links = (
                self.tr(" Citations are links to the documents they cite.")
                if self.text.citations
                else ""
            )
            said = (
                self.tr(
                    "{file} (read-only: no program on this system opens it); only its first "
                    "{n} bytes are shown."
                )
                if truncated
                else self.tr("{file} (read-only: no program on this system opens it).")
            )
            self.note.setText(said.format(file=relative, n=f"{VIEW_MAX_BYTES:,}") + links)

        def failed(exc: Exception) -> None:
            if shiboken6.isValid(self):
                self.note.setText(
                    self.tr("{file} cannot be shown. {why}").format(
                        file=relative, why=plain_exception(exc)
                    )
                )

        bridge.submit(read, on_done=shown, on_error=failed)
