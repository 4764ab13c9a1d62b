"""Settings' "Agents" page: Claude Code, Codex and Gemini CLI, each with its installed version,
whether BriefDesk decides for it (its hook connected), its settings file and, where the agent
runs only trusted hooks or folders, what the person must do once (`trust`).

Connect and Disconnect show the change to the agent's settings file as a diff first
(`connect_agent(dry_run=True)`) and write it only when the person confirms; every call runs on
the bridge's thread (each reads or writes a file and asks the agent's CLI for its version).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.agent_views import AgentChangeView, AgentStatusView
from desktop.jobs import Job
from desktop.models import agent_labels
from desktop.models.plain_errors import plain_exception
from desktop.models.visible_text import visible_block, visible_line
from desktop.widgets.guarded_submit import OnError, submit_while_open

if TYPE_CHECKING:
    from desktop.bridge import Bridge

T = TypeVar("T")
AGENT, VERSION, CONNECTED, SETTINGS = range(4)
ADDED, REMOVED, HUNK = "#1a7f37", "#b42318", "#57606a"


def diff_html(diff: str) -> str:
    """A unified diff as coloured, escaped HTML lines (nothing in it is parsed as markup)."""
    lines = []
    for line in visible_block(diff).splitlines():
        colour = (
            ADDED
            if line.startswith("+") and not line.startswith("+++")
            else REMOVED
            if line.startswith("-") and not line.startswith("---")
            else HUNK
            if line.startswith(("@@", "---", "+++"))
            else ""
        )
        style = f' style="color:{colour};"' if colour else ""
        lines.append(f"<span{style}>{escape(line) or '&nbsp;'}</span>")
    return '<pre style="margin:0;">' + "<br>".join(lines) + "</pre>"


class ChangePreview(QDialog):
    """The change to an agent's settings file, before it is written: Cancel is the default;
    the change is made only on its own button (`confirmed`)."""

    confirmed = Signal()

    def __init__(
        self, change: AgentChangeView, *, connect: bool, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        title = agent_labels.agent_title(change["agent"]["name"])
        path = visible_line(change["agent"]["settings_path"])
        asked = self.tr("Connect {agent}?") if connect else self.tr("Disconnect {agent}?")
        self.setWindowTitle(asked.format(agent=title))
        intro = QLabel(
            (
                self.tr(
                    "BriefDesk adds its hook to <b>{path}</b>, changing nothing else in the "
                    "file (a copy of it is kept beside it). Then {agent} asks BriefDesk before "
                    "it writes, edits, runs a command, fetches or calls an MCP tool; a call "
                    "nobody decides in time is denied."
                )
                if connect
                else self.tr(
                    "BriefDesk removes exactly the hook it added from <b>{path}</b>; the rest "
                    "of the file stays as it is. {agent} then decides its calls by itself again."
                )
            ).format(path=escape(path), agent=escape(title))
        )
        intro.setWordWrap(True)
        intro.setTextFormat(Qt.TextFormat.RichText)
        self.diff = QTextBrowser()
        self.diff.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.diff.setHtml(diff_html(change["diff"]))
        self.diff.setAccessibleName(self.tr("The change to the settings file"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button = buttons.addButton(
            self.tr("Connect") if connect else self.tr("Disconnect"),
            QDialogButtonBox.ButtonRole.AcceptRole,
        )
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setDefault(True)  # Return never writes: only the button does
        self.apply_button.setAutoDefault(False)
        buttons.accepted.connect(self._confirm)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.diff, 1)
        layout.addWidget(buttons)
        self.resize(720, 460)

    def _confirm(self) -> None:
        self.confirmed.emit()
        self.accept()


class AgentsPage(QWidget):
    """One row per agent; Connect… / Disconnect… on the selected one, after a preview."""

    changed = Signal(object)  # AgentChangeView, once written

    def __init__(self, bridge: Bridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.statuses: list[AgentStatusView] = []
        self.preview: ChangePreview | None = None
        self._open = True
        intro = QLabel(
            self.tr(
                "BriefDesk can decide for the coding agents you already run: connected, the "
                "agent asks BriefDesk before it writes, edits, runs a command, fetches or calls "
                "an MCP tool, and waits for your decision here (reads pass at once)."
            )
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(
            [self.tr("Agent"), self.tr("Version"), self.tr("Connected"), self.tr("Settings file")]
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SETTINGS, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.details = QLabel("")
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status = QLabel(self.tr("Loading…"))
        self.status.setWordWrap(True)
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.connect_button = QPushButton(self.tr("Connect…"))
        self.disconnect_button = QPushButton(self.tr("Disconnect…"))
        for button in (self.refresh_button, self.connect_button, self.disconnect_button):
            button.setAutoDefault(False)
        self.refresh_button.clicked.connect(self.reload)
        self.connect_button.clicked.connect(lambda: self.ask(connect=True))
        self.disconnect_button.clicked.connect(lambda: self.ask(connect=False))
        buttons = QHBoxLayout()
        buttons.addWidget(self.refresh_button)
        buttons.addStretch(1)
        buttons.addWidget(self.connect_button)
        buttons.addWidget(self.disconnect_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self.destroyed.connect(self._closed)
        self._selection_changed()
        self._read_once = False  # read when first shown: Settings opens on another tab

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._read_once:
            self._read_once = True
            self.reload()

    # -- reading --------------------------------------------------------------------------------

    def reload(self) -> None:
        from agent_core.facade.agents import agents_status  # loaded on the bridge's thread

        self._submit(lambda _ws: agents_status(), self._loaded)

    def _loaded(self, statuses: list[AgentStatusView]) -> None:
        chosen = self.selected()
        self.statuses = statuses
        self.table.setRowCount(len(statuses))
        for row, status in enumerate(statuses):
            name = agent_labels.agent_title(status["name"])
            version = status["version"] or self.tr("not installed")
            connected = self.tr("connected") if status["connected"] else self.tr("not connected")
            cells = (name, visible_line(version), connected, visible_line(status["settings_path"]))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                if column == AGENT:
                    item.setIcon(agent_labels.agent_icon(status["name"]))
                self.table.setItem(row, column, item)
        names = [s["name"] for s in statuses]
        keep = names.index(chosen["name"]) if chosen and chosen["name"] in names else 0
        if statuses:
            self.table.selectRow(keep)
        if self.status.text() == self.tr("Loading…"):
            self.status.setText("")  # what a change said stays until the next one
        self._selection_changed()

    def selected(self) -> AgentStatusView | None:
        rows = self.table.selectionModel().selectedRows()
        row = rows[0].row() if rows else -1
        return self.statuses[row] if 0 <= row < len(self.statuses) else None

    def _selection_changed(self) -> None:
        status = self.selected()
        self.connect_button.setEnabled(status is not None and not status["connected"])
        self.disconnect_button.setEnabled(status is not None and status["connected"])
        if status is None:
            self.details.setText("")
            return
        lines = [
            self.tr("<b>{agent}</b> reads its settings from {path}").format(
                agent=escape(agent_labels.agent_title(status["name"])),
                path=escape(visible_line(status["settings_path"])),
            )
        ]
        if trust := status.get("trust"):
            lines.append(self.tr("<b>Trust:</b> {text}").format(text=escape(visible_line(trust))))
        self.details.setText("<br>".join(lines))

    # -- changing -------------------------------------------------------------------------------

    def ask(self, *, connect: bool) -> None:
        """Show the change first (nothing written); write it only when confirmed."""
        status = self.selected()
        if status is None:
            return
        name, home = status["name"], self.bridge.home
        from agent_core.facade.agents import connect_agent, disconnect_agent

        def preview(_ws: object) -> AgentChangeView:
            if connect:
                return connect_agent(name, home=home, dry_run=True)
            return disconnect_agent(name, dry_run=True)

        self.status.setText(self.tr("Reading {path}…").format(path=status["settings_path"]))
        self._submit(preview, lambda change: self._show_preview(change, connect))

    def _show_preview(self, change: AgentChangeView, connect: bool) -> None:
        if not change["changed"]:
            self.status.setText(
                self.tr("Nothing to change: {agent} is already as asked.").format(
                    agent=agent_labels.agent_title(change["agent"]["name"])
                )
            )
            self.reload()
            return
        self.status.setText("")
        self.preview = ChangePreview(change, connect=connect, parent=self)
        self.preview.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.preview.confirmed.connect(lambda: self._write(change["agent"]["name"], connect))
        self.preview.open()

    def _write(self, name: str, connect: bool) -> None:
        from agent_core.facade.agents import connect_agent, disconnect_agent

        home = self.bridge.home

        def write(_ws: object) -> AgentChangeView:
            if connect:
                return connect_agent(name, home=home)
            return disconnect_agent(name)

        self._submit(write, self._written)

    def _written(self, change: AgentChangeView) -> None:
        agent = agent_labels.agent_title(change["agent"]["name"])
        if change["agent"]["connected"]:
            said = self.tr("{agent} is connected: it asks BriefDesk from its next start.")
        else:
            said = self.tr("{agent} is disconnected: its settings are as before.")
        said = said.format(agent=agent)
        if change["backup_path"]:
            said += " " + self.tr("The file as it was: {path}").format(
                path=visible_line(change["backup_path"])
            )
        self.status.setText(said)
        self.changed.emit(change)
        self.reload()

    # -- plumbing -------------------------------------------------------------------------------

    def _failed(self, exc: Exception) -> None:
        self.status.setText(plain_exception(exc))

    def _closed(self) -> None:
        self._open = False

    def _submit(
        self,
        job: Job[T],
        on_done: Callable[[T], None],
        on_error: OnError | None = None,
    ) -> None:
        submit_while_open(
            self.bridge, self, lambda: self._open, job, on_done, on_error or self._failed
        )
