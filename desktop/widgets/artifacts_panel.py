"""The artifacts panel: the files in a run's artifacts folder and what the watcher made of them.

States come from `Workspace.artifact_states`, read on the bridge thread: confirmed
(an approved write, seen once), duplicate (an approved write seen again), unexpected (nothing
approved it) or unseen (no watcher has looked at this write yet). The list refreshes when the
run changes, when artifact events arrive, and on Refresh; double-click or Open shows a file.
"Revert…" on a file the run wrote (an executed write) asks first, then proposes its revert
(`Workspace.revert`): the run waits on it and `revert_proposed` hands it to the window, which
opens the approval dialog, where a person decides under its guard as for any proposal.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.artifact_views import ArtifactStateView
from agent_core.contract.events import EventKind
from agent_core.contract.views import EventView, RunView
from desktop import theme
from desktop.i18n import QT_TRANSLATE_NOOP
from desktop.models.plain_errors import plain_exception
from desktop.models.visible_text import visible_line
from desktop.widgets.system_open import no_viewer_text, open_with_system
from desktop.widgets.window_fit import snug_width

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace
    from desktop.bridge import Bridge

STATE_TEXT = {
    "confirmed": (QT_TRANSLATE_NOOP("ArtifactsPanel", "✓ confirmed once"), "#1a7f37"),
    "duplicate": (QT_TRANSLATE_NOOP("ArtifactsPanel", "⚠ duplicate write"), "#9a6700"),
    "unexpected": (QT_TRANSLATE_NOOP("ArtifactsPanel", "✖ unexpected"), "#cf222e"),
    "unseen": (QT_TRANSLATE_NOOP("ArtifactsPanel", "… not checked yet"), "#57606a"),
}
_REFRESH_KINDS = frozenset(
    {
        EventKind.ARTIFACT_CONFIRMED,
        EventKind.ARTIFACT_UNEXPECTED,
        EventKind.TOOL_RESULT,
        EventKind.RECONCILED,
    }
)
COLUMNS = (
    QT_TRANSLATE_NOOP("ArtifactsPanel", "File"),
    QT_TRANSLATE_NOOP("ArtifactsPanel", "State"),
    QT_TRANSLATE_NOOP("ArtifactsPanel", "Writes seen"),
    QT_TRANSLATE_NOOP("ArtifactsPanel", "Size"),
    QT_TRANSLATE_NOOP("ArtifactsPanel", "Modified (UTC)"),
)
RUN_WRITES, FOLDER = "run", "folder"
SCOPES = (
    (RUN_WRITES, QT_TRANSLATE_NOOP("ArtifactsPanel", "This run's writes")),
    (FOLDER, QT_TRANSLATE_NOOP("ArtifactsPanel", "Whole folder")),
)


class ArtifactsPanel(QWidget):
    revert_proposed = Signal(dict)
    """A revert was proposed: the run (RunView) now waiting on it."""

    def __init__(self, bridge: Bridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.run: RunView | None = None
        self.states: list[ArtifactStateView] = []
        self.executed: dict[str, str] = {}
        """Path -> the approval of the run's newest executed write there (what Revert undoes)."""
        self.revert_box: QWidget | None = None
        self._generation = 0
        self.folder_label = QLabel(self.tr("No run selected."))
        self.folder_label.setWordWrap(True)
        self.scope_combo = QComboBox()
        for value, caption in SCOPES:
            self.scope_combo.addItem(self.tr(caption), value)
        self.scope_combo.setToolTip(
            self.tr(
                "This run's writes: the files the selected run wrote (and any its watcher "
                "flagged).\nWhole folder: every file in its artifacts folder, whichever run "
                "wrote it."
            )
        )
        self.scope_combo.currentIndexChanged.connect(lambda _index: self.refresh())
        self.viewer: QWidget | None = None
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr(column) for column in COLUMNS])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        header = self.tree.header()
        header.setStretchLastSection(False)  # the state keeps the width its text needs
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        # The panel is narrow: writes seen, size and time live in each row's tooltip instead.
        for column in (2, 3, 4):
            self.tree.setColumnHidden(column, True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # keep the file name's end
        self.open_button = QPushButton(self.tr("Open"))
        self.folder_button = QPushButton(self.tr("Folder"))  # short: the panel is narrow
        self.folder_button.setToolTip(self.tr("Open the artifacts folder in the file manager"))
        self.revert_button = QPushButton(self.tr("Revert…"))
        self.revert_button.setToolTip(
            self.tr(
                "Revert this write…: propose putting the file back as it was before this run "
                "wrote it (or removing it, if the run created it). You decide in the approval "
                "dialog; nothing changes before."
            )
        )
        self.refresh_button = QPushButton("↻")  # a glyph: the panel is narrow
        self.refresh_button.setToolTip(self.tr("Refresh the list"))
        self.refresh_button.setAccessibleName(self.tr("Refresh"))
        self.refresh_button.setMaximumWidth(36)
        buttons = QHBoxLayout()  # three whole buttons even at 1024 px (refresh sits above)
        for button in (self.open_button, self.revert_button, self.folder_button):
            button.setMinimumWidth(snug_width(button))  # not the style's 80 px: the panel is narrow
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        scope_row = QHBoxLayout()  # its items say what they show: no "Show:" label to fit
        self.scope_combo.setAccessibleName(self.tr("Show"))
        scope_row.addWidget(self.scope_combo, 1)
        scope_row.addWidget(self.refresh_button)
        layout.addLayout(scope_row)
        layout.addWidget(self.folder_label)
        layout.addWidget(self.tree, 1)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet(f"color: {theme.text_colour('#b42318')}; font-weight: bold;")
        self.message.setAccessibleName(self.tr("Files message"))
        self.message.hide()
        layout.addWidget(self.message)
        layout.addLayout(buttons)
        self.open_button.clicked.connect(self.open_selected)
        self.folder_button.clicked.connect(self.open_folder)
        self.revert_button.clicked.connect(self.revert_selected)
        self.refresh_button.clicked.connect(self.refresh)
        self.tree.itemDoubleClicked.connect(lambda _item, _col: self.open_selected())
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        events = getattr(bridge, "events_arrived", None)
        if events is not None:
            events.connect(self._on_events)
        self._update_buttons()

    def set_run(self, run: RunView | None) -> None:
        same = run is not None and self.run is not None and _folder_of(run) == _folder_of(self.run)
        self.run = run
        if same:  # the run's status or counters moved: its files change with events (_on_events)
            return
        self.message.hide()
        self._generation += 1  # a listing still on its way is for the run shown before
        if run is None:
            self.folder_label.setText(self.tr("No run selected."))
            self._show([])
            return
        self.folder_label.setText(self._what())
        self.refresh()

    def show_whole_folder(self) -> None:
        """List every file in the folder (say, to find a file nobody approved)."""
        self.scope_combo.setCurrentIndex(self.scope_combo.findData(FOLDER))

    @property
    def scope(self) -> str:
        """RUN_WRITES (the selected run's own files) or FOLDER (everything in its folder)."""
        return str(self.scope_combo.currentData())

    def _what(self, count: int | None = None) -> str:
        """What the list shows, in words (rich text)."""
        assert self.run is not None
        run_id, folder = escape(self.run["run_id"]), escape(self.run["artifacts"])
        files = (
            self.tr("files")
            if count is None
            else (self.tr("{n} file") if count == 1 else self.tr("{n} files")).format(n=count)
        )
        if self.scope == FOLDER:
            return self.tr(
                "<b>Whole folder</b>: {files} in <code>{folder}</code>, whichever run wrote them."
            ).format(files=files, folder=folder)
        return self.tr(
            "<b>This run's writes</b>: {files} that <b>{run}</b> wrote (or its watcher "
            "flagged) in <code>{folder}</code>."
        ).format(files=files, run=run_id, folder=folder)

    def refresh(self) -> None:
        if self.run is None:
            return
        self._generation += 1
        generation, root = self._generation, Path(self.run["artifacts"])
        run_id, whole_folder = self.run["run_id"], self.scope == FOLDER

        def work(ws: Workspace) -> tuple[list[ArtifactStateView], dict[str, str]]:
            states = ws.artifact_states(root)
            executed = executed_writes(ws, run_id)
            if whole_folder:
                return states, executed
            own = run_paths(ws.timeline(run_id))
            return [s for s in states if s["path"] in own or s["run_id"] == run_id], executed

        def done(result: tuple[list[ArtifactStateView], dict[str, str]]) -> None:
            if shiboken6.isValid(self) and generation == self._generation:
                states, self.executed = result
                self._show(states)
                self.folder_label.setText(self._what(len(states)))

        def failed(exc: Exception) -> None:
            if shiboken6.isValid(self) and generation == self._generation:
                self.folder_label.setText(
                    self.tr("Cannot list {folder}. {why}").format(
                        folder=escape(str(root)), why=escape(plain_exception(exc))
                    )
                )

        self.bridge.submit(work, done, failed)

    def _show(self, states: list[ArtifactStateView]) -> None:
        self.states = states
        selected = self.selected_path()
        self.tree.clear()
        for state in states:
            source, colour = STATE_TEXT.get(state["state"], (state["state"], "#57606a"))
            text = self.tr(source) if state["state"] in STATE_TEXT else source
            item = QTreeWidgetItem(
                [
                    state["relative"],
                    text,
                    str(state["writes_seen"]),
                    _size(state["size"]),
                    state["modified"].replace("T", " ").replace("+00:00", ""),
                ]
            )
            base = self.tree.palette().color(QPalette.ColorRole.Base)
            item.setForeground(1, QBrush(theme.readable(colour, base)))
            details = self.tr("{path}\nwrites seen: {writes}\nsize: {size}\nmodified: {at} UTC")
            details = details.format(
                path=state["path"], writes=state["writes_seen"], size=item.text(3), at=item.text(4)
            )
            for column in range(len(COLUMNS)):
                item.setToolTip(column, details)
            item.setData(0, Qt.ItemDataRole.UserRole, state["path"])
            self.tree.addTopLevelItem(item)
            if state["path"] == selected:
                item.setSelected(True)
        for column in range(1, len(COLUMNS)):
            self.tree.resizeColumnToContents(column)
        self._update_buttons()

    def selected_path(self) -> str | None:
        items = self.tree.selectedItems()
        return items[0].data(0, Qt.ItemDataRole.UserRole) if items else None

    def open_selected(self) -> None:
        """The system's program for the file, or else the in-app read-only viewer."""
        path, run = self.selected_path(), self.run
        if path and run is not None:
            relative = next(s["relative"] for s in self.states if s["path"] == path)

            def no_viewer(why: str) -> None:
                self.say(no_viewer_text(why) + " " + self.tr("Shown here, read-only."))
                self._show_in_app(run, relative)

            open_with_system(path, self, no_viewer)

    def _show_in_app(self, run: RunView, relative: str) -> None:
        from desktop.widgets.artifact_viewer import ArtifactViewer

        viewer = ArtifactViewer(self.bridge, run["artifacts"], relative, self, corpus=run["corpus"])
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        viewer.show()
        self.viewer = viewer

    def say(self, text: str) -> None:
        """A message under the list (no program for a file, say), until another run is shown."""
        self.message.setText(visible_line(text))
        # Its accessible name is the label's role ("Files message"): a screen reader gets the
        # words themselves from the description (Qt's labels offer no text of their own).
        self.message.setAccessibleDescription(visible_line(text))
        self.message.show()

    def revert_selected(self) -> None:
        """Ask first, then propose the revert of the selected file's executed write."""
        path = self.selected_path()
        approval_id = self.executed.get(path or "")
        if path is None or approval_id is None or self.run is None:
            return
        from desktop.widgets.confirm import ask_first

        self.revert_box = ask_first(
            self,
            title=self.tr("Revert this write?"),
            text=self.tr(
                "Propose putting {file} back as it was before approval {id} wrote it?\n\nThe "
                "run waits for your decision in the approval dialog, which shows the change; "
                "nothing is written before you approve it."
            ).format(file=Path(path).name, id=approval_id),
            action=self.tr("&Propose revert"),
            on_confirm=lambda: self._propose_revert(approval_id),
        )

    def _propose_revert(self, approval_id: str) -> None:
        def work(ws: Workspace) -> RunView:
            reviewer = str(ws.settings()["reviewer"] or "reviewer")
            revert = ws.revert(approval_id, reviewer=reviewer)
            return ws.get_run(revert["run_id"])

        def done(run: RunView) -> None:
            if shiboken6.isValid(self):
                self.revert_proposed.emit(run)

        def failed(exc: Exception) -> None:
            if shiboken6.isValid(self):
                self.folder_label.setText(
                    self.tr("Not reverted. {why}").format(why=escape(plain_exception(exc)))
                )

        self.bridge.submit(work, done, failed)

    def open_folder(self) -> None:
        if self.run is not None:
            folder = self.run["artifacts"]
            said = self.tr("No file manager opened {folder}: open it yourself.")
            open_with_system(folder, self, lambda _why: self.say(said.format(folder=folder)))

    def _update_buttons(self) -> None:
        self.open_button.setEnabled(self.selected_path() is not None)
        self.revert_button.setEnabled(self.selected_path() in self.executed)
        self.folder_button.setEnabled(self.run is not None)
        self.refresh_button.setEnabled(self.run is not None)

    def _on_events(self, events: list[EventView]) -> None:
        if self.run is None:
            return
        mine, root = self.run["run_id"], Path(self.run["artifacts"])

        def concerns(event: EventView) -> bool:
            path = (event.get("data") or {}).get("path")
            inside = isinstance(path, str) and Path(path).is_relative_to(root)  # no I/O: string ops
            return event.get("kind") in _REFRESH_KINDS and (event.get("run_id") == mine or inside)

        if any(concerns(e) for e in events):
            self.refresh()


def run_paths(events: list[EventView]) -> set[str]:
    """The files a run's events name: what it wrote (a tool result, a confirmation, a write
    settled after a crash) and what its watcher flagged as unexpected."""
    return {
        str(path)
        for event in events
        if event.get("kind") in _REFRESH_KINDS
        and isinstance(path := (event.get("data") or {}).get("path"), str)
    }


def executed_writes(ws: Workspace, run_id: str) -> dict[str, str]:
    """Bridge thread: each file the run's executed writes reached -> the newest one's id."""
    done = ws.list_approvals(run_id=run_id, status="consumed")
    newest_last = sorted(done, key=lambda a: a["created_at"])
    return {
        str(a["target"]): a["id"] for a in newest_last if a["target"] and a.get("content_field")
    }


def _size(size: int) -> str:
    return f"{size} B" if size < 1024 else f"{size / 1024:.1f} KB"


def _folder_of(run: RunView) -> tuple[str, str]:
    """What the panel lists for a run: the same for every version of that run."""
    return run["run_id"], run["artifacts"]
