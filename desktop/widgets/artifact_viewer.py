"""A read-only text viewer for an artifact, for systems with no program to open it.

The file is read on the bridge thread, through the same sandbox as the agent's tools (a symlink
out of the folder is refused, not followed) and bounded in size, so a huge or hostile file never
stalls the window. What it shows has its control characters escaped, like the diff.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop.models.plain_errors import plain_exception
from desktop.models.visible_text import visible_block

VIEW_MAX_BYTES = 2_000_000  # beyond this the viewer shows the start and says so


if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace
    from desktop.bridge import Bridge


class ArtifactViewer(QDialog):
    def __init__(
        self, bridge: Bridge, root: str, relative: str, parent: QWidget | None = None
    ) -> None:
        """Shows `relative` (a path inside the artifacts folder `root`)."""
        super().__init__(parent)
        self.setWindowTitle(f"{relative} — BriefDesk")
        self.resize(820, 640)
        self.note = QLabel(f"Reading {relative}…")
        self.note.setWordWrap(True)
        self.text = QPlainTextEdit(readOnly=True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)

        def read(ws: Workspace) -> tuple[str, bool]:
            text, truncated = ws.read_text_inside(root, relative, max_bytes=VIEW_MAX_BYTES)
            return visible_block(text), truncated

        def shown(result: tuple[str, bool]) -> None:
            if not shiboken6.isValid(self):
                return
            text, truncated = result
            self.text.setPlainText(text)
            self.note.setText(
                f"{relative} (read-only: no program on this system opens it)"
                + (f"; only its first {VIEW_MAX_BYTES:,} bytes are shown." if truncated else ".")
            )

        def failed(exc: Exception) -> None:
            if shiboken6.isValid(self):
                self.note.setText(f"{relative} cannot be shown. {plain_exception(exc)}")

        bridge.submit(read, on_done=shown, on_error=failed)
