"""Settings' "MCP servers" page: this desk's servers (as `mcp list`: with their granted folders,
network and sandbox), Add…, Remove…, and
"Show tools" (as `mcp tools`), where a tool's tier can be changed (as `mcp tier`).

Every read and write goes through the bridge; starting a server to list its tools is awaited
on the bridge's loop, never on the GUI thread. No environment value is ever shown: a server's
environment appears as its keys only (the view carries nothing else).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.mcp_views import McpServerView, McpTierView, McpToolView
from desktop.i18n import QT_TRANSLATE_NOOP, core_words
from desktop.jobs import AsyncJob, Job
from desktop.models.plain_errors import plain_exception
from desktop.widgets.confirm import ask_first
from desktop.widgets.guarded_submit import submit_async_while_open, submit_while_open

if TYPE_CHECKING:
    from desktop.bridge import Bridge

T = TypeVar("T")
TIERS = ("read", "write", "network", "interaction")  # the contract's tier rule
COMMAND_COLUMN, FOLDERS_COLUMN = 1, 5  # the servers table's two columns of paths
HINTS = (
    (
        "readOnlyHint",
        QT_TRANSLATE_NOOP("McpServersPage", "read-only"),
        QT_TRANSLATE_NOOP("McpServersPage", "may change things"),
    ),
    (
        "destructiveHint",
        QT_TRANSLATE_NOOP("McpServersPage", "destructive"),
        QT_TRANSLATE_NOOP("McpServersPage", "not destructive"),
    ),
    (
        "idempotentHint",
        QT_TRANSLATE_NOOP("McpServersPage", "idempotent"),
        QT_TRANSLATE_NOOP("McpServersPage", "not idempotent"),
    ),
    (
        "openWorldHint",
        QT_TRANSLATE_NOOP("McpServersPage", "reaches outside"),
        QT_TRANSLATE_NOOP("McpServersPage", "closed world"),
    ),
)


def hint_words(annotations: object, tr: Callable[[str], str] = str) -> str:
    """`{"readOnlyHint": true, ...}` as words; hints the server did not declare are left out."""
    found = annotations if isinstance(annotations, dict) else {}
    words = [
        tr(str(yes if found[key] else no))
        for key, yes, no in HINTS
        if isinstance(found.get(key), bool)
    ]
    return ", ".join(words)


def remote_only_note() -> str:
    """Said where a server is added: the offline model never calls an MCP server's tools."""
    return QCoreApplication.translate(
        "McpServersPage",
        "MCP servers are used only by a remote (OpenAI-compatible) model: with the offline "
        "model (Model ▸ Offline) a run does not call their tools.",
    )


class NewServer(NamedTuple):
    """What the Add dialog asks, as `Workspace.mcp_add` (and `mcp add`) take it."""

    name: str
    command: str
    args: list[str]
    env: list[str]
    trust_hints: bool
    roots: list[str]
    """Granted folders (read-write), besides those named as arguments: `--root`, repeatable."""
    network: bool
    sandbox: bool
    """False: it runs unconfined (`--no-sandbox`)."""


class AddServerDialog(QDialog):
    """Name, command line, environment entries, granted folders, network, sandbox, trust:
    `submitted` carries a `NewServer`; the page keeps the dialog open until the desk has stored
    it (or says why not)."""

    submitted = Signal(object)  # NewServer

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add an MCP server"))
        form = QFormLayout(self)
        self.remote_note = QLabel(remote_only_note())
        self.remote_note.setWordWrap(True)
        self.remote_note.setStyleSheet("font-weight: bold;")
        form.addRow(self.remote_note)
        self.name_field = QLineEdit()
        self.name_field.setPlaceholderText(self.tr("lower case, e.g. time"))
        self.name_field.setAccessibleName(self.tr("Server name"))
        form.addRow(self.tr("Name"), self.name_field)
        self.command_field = QLineEdit()
        self.command_field.setPlaceholderText(self.tr("e.g. uvx mcp-server-time"))
        self.command_field.setAccessibleName(self.tr("Command line"))
        form.addRow(self.tr("Command line"), self.command_field)
        self.env_field = QPlainTextEdit()
        self.env_field.setPlaceholderText(self.tr("KEY=VALUE or KEY=keyring:NAME, one a line"))
        self.env_field.setAccessibleName(self.tr("Environment entries"))
        self.env_field.setFixedHeight(80)
        form.addRow(self.tr("Environment"), self.env_field)
        self.roots_field = QPlainTextEdit()
        self.roots_field.setPlaceholderText(
            self.tr("Folders it may write in besides those named in its command, one a line")
        )
        self.roots_field.setAccessibleName(self.tr("Granted folders"))
        self.roots_field.setFixedHeight(60)
        browse = QPushButton(self.tr("Add a folder…"))
        browse.setAutoDefault(False)
        browse.clicked.connect(self._browse_root)
        roots_row = QHBoxLayout()
        roots_row.addWidget(self.roots_field, 1)
        roots_row.addWidget(browse)
        form.addRow(self.tr("Granted folders"), roots_row)
        self.network = QCheckBox(self.tr("It may reach the network"))
        self.network.setToolTip(
            self.tr("Otherwise it has only a loopback of its own (as `mcp add --network`).")
        )
        form.addRow("", self.network)
        self.no_sandbox = QCheckBox(self.tr("Run it without a sandbox (unconfined)"))
        self.no_sandbox.setToolTip(
            self.tr(
                "Only for a server that cannot run confined: it then reads and writes whatever "
                "you can (as `mcp add --no-sandbox`)."
            )
        )
        form.addRow("", self.no_sandbox)
        self.trust = QCheckBox(self.tr("Trust the server's read-only hints"))
        form.addRow("", self.trust)
        explain = QLabel(
            self.tr(
                "Then a tool the server calls read-only runs without asking; otherwise every "
                "tool of it asks for approval, as a write does."
            )
        )
        explain.setWordWrap(True)
        form.addRow("", explain)
        self.error = QLabel("")
        self.error.setWordWrap(True)
        self.error.setVisible(False)
        form.addRow("", self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(self.tr("Add"))
        buttons.accepted.connect(self._submit)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.setMinimumWidth(480)

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(True)
        self.ok.setEnabled(True)

    def _submit(self) -> None:
        try:
            words = shlex.split(self.command_field.text())
        except ValueError:
            self.show_error(self.tr("The command line has an unclosed quote."))
            return
        if not words:
            self.show_error(self.tr("Give the command that starts the server."))
            return
        self.ok.setEnabled(False)
        self.submitted.emit(
            NewServer(
                name=self.name_field.text().strip(),
                command=words[0],
                args=words[1:],
                env=_lines(self.env_field),
                trust_hints=self.trust.isChecked(),
                roots=_lines(self.roots_field),
                network=self.network.isChecked(),
                sandbox=not self.no_sandbox.isChecked(),
            )
        )

    def _browse_root(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("A folder the server may write in"))
        if folder:
            self.roots_field.appendPlainText(folder)


def _lines(field: QPlainTextEdit) -> list[str]:
    return [line.strip() for line in field.toPlainText().splitlines() if line.strip()]


class McpServersPage(QWidget):
    """The page; it loads the servers when first built and after every change."""

    def __init__(self, bridge: Bridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.servers: list[McpServerView] = []
        self.tools_of: str | None = None
        self.add_dialog: AddServerDialog | None = None
        self.seen: dict[str, str] = {}  # what "Show tools" found out this time, by server
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Tools from Model Context Protocol servers on this desk. A server is started "
                "only to list its tools; environment values are never shown."
            )
            + " "
            + remote_only_note()
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = self._table(
            self.tr("MCP servers"),
            [
                self.tr("Name"),
                self.tr("Command"),
                self.tr("Environment"),
                self.tr("Hints"),
                self.tr("Status"),
                self.tr("Granted folders"),
                self.tr("Network"),
                self.tr("Sandbox"),
            ],
        )
        # The command and the folders share what room is left (each whole text is its tooltip):
        # the other columns stay on screen however long the paths.
        for column in (COMMAND_COLUMN, FOLDERS_COLUMN):
            self.table.horizontalHeader().setSectionResizeMode(
                column, QHeaderView.ResizeMode.Stretch
            )
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        layout.addWidget(self.table, 2)
        row = QHBoxLayout()
        self.add_button = self._button(self.tr("Add…"), self.tr("Add an MCP server"), self._add)
        self.remove_button = self._button(
            self.tr("Remove…"), self.tr("Remove the selected MCP server"), self._remove
        )
        self.tools_button = self._button(
            self.tr("Show tools"), self.tr("Show the selected server's tools"), self._show_tools
        )
        for button in (self.add_button, self.remove_button, self.tools_button):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setAccessibleName(self.tr("MCP servers message"))
        layout.addWidget(self.message)
        self.tools = self._table(
            self.tr("MCP tools"),
            [self.tr("Tool"), self.tr("Model name"), self.tr("Tier"), self.tr("Hints")],
        )
        layout.addWidget(self.tools, 3)
        self._selection_changed()
        self.reload()

    def _table(self, name: str, headers: list[str]) -> QTableWidget:
        table = QTableWidget(0, len(headers))
        table.setHorizontalHeaderLabels(headers)
        table.setAccessibleName(name)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.verticalHeader().setVisible(False)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setStretchLastSection(True)
        return table

    def _button(self, text: str, name: str, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(text)
        button.setAccessibleName(name)
        button.clicked.connect(slot)
        return button

    # -- jobs -------------------------------------------------------------------------------

    def _submit(self, job: Job[T], on_done: Callable[[T], None]) -> None:
        submit_while_open(self.bridge, self, lambda: True, job, on_done, self._failed)

    def _failed(self, exc: Exception) -> None:
        self.message.setText(plain_exception(exc))

    def reload(self) -> None:
        self._submit(lambda ws: ws.mcp_servers(), self._show_servers)

    def selected(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return self.servers[rows[0].row()]["name"] if rows else None

    def _show_servers(self, servers: list[McpServerView]) -> None:
        keep = self.selected()
        self.servers = servers
        self.table.setRowCount(len(servers))
        for index, server in enumerate(servers):
            cells = (
                server["name"],
                shlex.join([server["command"], *server["args"]]),
                ", ".join(server["env_keys"]) or self.tr("none"),
                self.tr("trusted") if server["trust_hints"] else self.tr("not trusted"),
                self.seen.get(server["name"], self.tr("configured")),
                ", ".join(server["roots"]) or self.tr("none"),
                self.tr("allowed") if server["network"] else self.tr("loopback only"),
                self.tr("sandboxed") if server["sandbox"] else self.tr("unconfined"),
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip("\n".join(server["roots"]) if column == FOLDERS_COLUMN else text)
                self.table.setItem(index, column, item)
            if server["name"] == keep:
                self.table.selectRow(index)
        if self.tools_of not in {s["name"] for s in servers}:
            self.tools_of = None
            self.tools.setRowCount(0)
        self._selection_changed()

    def _selection_changed(self) -> None:
        chosen = self.selected() is not None
        self.remove_button.setEnabled(chosen)
        self.tools_button.setEnabled(chosen)

    # -- add, remove ------------------------------------------------------------------------

    def _add(self) -> None:
        dialog = AddServerDialog(self)
        dialog.submitted.connect(lambda values: self._store(dialog, values))
        self.add_dialog = dialog
        dialog.open()

    def _store(self, dialog: AddServerDialog, new: NewServer) -> None:
        name = new.name

        job: Job[McpServerView] = lambda ws: ws.mcp_add(  # noqa: E731
            name,
            new.command,
            new.args,
            env=new.env,
            trust_hints=new.trust_hints,
            roots=new.roots,
            network=new.network,
            sandbox=new.sandbox,
        )

        def done(_view: McpServerView) -> None:
            dialog.accept()
            self.message.setText(self.tr("Added the server “%1”.").replace("%1", name))
            self.reload()

        def failed(exc: Exception) -> None:
            dialog.show_error(plain_exception(exc))

        submit_while_open(self.bridge, dialog, dialog.isVisible, job, done, failed)

    def _remove(self) -> None:
        name = self.selected()
        if name is None:
            return
        ask_first(
            self,
            title=self.tr("Remove an MCP server"),
            text=self.tr("Remove the MCP server “%1”? Its tier choices are removed too.").replace(
                "%1", name
            ),
            action=self.tr("Remove"),
            on_confirm=lambda: self._submit(lambda ws: ws.mcp_remove(name), self._removed),
        )

    def _removed(self, name: str) -> None:
        self.message.setText(self.tr("Removed the server “%1”.").replace("%1", name))
        self.reload()

    # -- tools ------------------------------------------------------------------------------

    def _show_tools(self) -> None:
        name = self.selected()
        if name is None:
            return
        self.message.setText(self.tr("Starting “%1” to list its tools…").replace("%1", name))
        self.tools_button.setEnabled(False)
        job: AsyncJob[list[McpToolView]] = lambda ws: ws.mcp_tools_async(name)  # noqa: E731

        def done(tools: list[McpToolView]) -> None:
            self.tools_button.setEnabled(self.selected() is not None)
            self.message.setText(
                self.tr("“%1” has %n tool(s).", "", len(tools)).replace("%1", name)
            )
            self.seen[name] = self.tr("started (%n tool(s))", "", len(tools))
            self._list_tools(name, tools)
            self._show_servers(self.servers)

        def failed(exc: Exception) -> None:
            self.tools_button.setEnabled(self.selected() is not None)
            self.seen[name] = self.tr("unavailable")
            self._failed(exc)
            self._show_servers(self.servers)

        submit_async_while_open(self.bridge, self, lambda: True, job, done, failed)

    def _list_tools(self, server: str, tools: list[McpToolView]) -> None:
        self.tools_of = server
        self.tools.setRowCount(len(tools))
        for index, tool in enumerate(tools):
            self.tools.setItem(index, 0, QTableWidgetItem(tool["name"]))
            self.tools.setItem(index, 1, QTableWidgetItem(tool["model_name"]))
            tier = QComboBox()
            for code in TIERS:  # the tier in the window's words, the code as its data
                tier.addItem(core_words.risk(code), code)
            tier.setCurrentIndex(max(0, tier.findData(tool["tier"])))
            tier.setAccessibleName(self.tr("Tier of %1").replace("%1", tool["name"]))
            tier.currentIndexChanged.connect(
                lambda _index, box=tier, t=tool["name"]: self._set_tier(
                    server, t, str(box.currentData())
                )
            )
            self.tools.setCellWidget(index, 2, tier)
            self.tools.setItem(index, 3, QTableWidgetItem(hint_words(tool["annotations"], self.tr)))

    def _set_tier(self, server: str, tool: str, tier: str) -> None:
        def done(view: McpTierView) -> None:
            self.message.setText(
                self.tr("“%1” is now %2.")
                .replace("%1", view["tool"])
                .replace("%2", core_words.risk(view["tier"]))
            )

        self._submit(lambda ws: ws.mcp_tier(server, tool, tier), done)
