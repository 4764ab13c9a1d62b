"""Settings' "MCP servers" page on real widgets offscreen, a real bridge and home, and a real
MCP server (tests/support/mcp_servers/fault_server.py, started by the page through the bridge):
add through the dialog, listed with its env keys and never a value, Show tools with tiers and
hints, a tier change stored, Remove after confirming, a server that cannot start in words.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from PySide6.QtWidgets import QComboBox, QLabel, QMessageBox, QTableWidget, QWidget
from pytestqt.qtbot import QtBot

from desktop.widgets.mcp_settings import AddServerDialog, McpServersPage, hint_words
from desktop.widgets.settings_dialog import SettingsDialog
from tests.support.desktop import open_workspace, started_bridge
from tests.support.mcp_servers.real import FAULT_SERVER

SECRET = "literal-value-5c2e"
SHOTS = os.environ.get("BRIEFDESK_TEST_SHOTS")  # a folder: save what the test looks at
START_MS = 30_000  # a Python server's start (its mcp import) on a shared machine


def texts_on_screen(root: QWidget) -> str:
    """Every text the page shows: labels, table cells, combo boxes."""
    found = [label.text() for label in root.findChildren(QLabel)]
    for table in root.findChildren(QTableWidget):
        for row in range(table.rowCount()):
            for column in range(table.columnCount()):
                item = table.item(row, column)
                found.append(item.text() if item is not None else "")
    found += [box.currentText() for box in root.findChildren(QComboBox)]
    return "\n".join(found)


def cell(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    return item.text() if item is not None else ""


def add_through_dialog(qtbot: QtBot, page: McpServersPage, name: str, env: str) -> None:
    page.add_button.click()
    dialog = page.add_dialog
    assert isinstance(dialog, AddServerDialog)
    qtbot.waitExposed(dialog)
    dialog.name_field.setText(name)
    dialog.command_field.setText(shlex.join([sys.executable, str(FAULT_SERVER)]))
    dialog.env_field.setPlainText(env)
    dialog.trust.setChecked(True)
    if SHOTS:
        dialog.grab().save(str(Path(SHOTS) / f"mcp-add-{name}.png"))
    dialog.ok.click()
    qtbot.waitUntil(lambda: not dialog.isVisible() or dialog.error.isVisible(), timeout=10_000)
    assert not dialog.error.isVisible(), dialog.error.text()
    qtbot.waitUntil(lambda: name in [s["name"] for s in page.servers], timeout=10_000)


def row_of(page: McpServersPage, name: str) -> int:
    return [s["name"] for s in page.servers].index(name)


def test_add_list_show_tools_change_a_tier_and_remove(qtbot: QtBot, home: Path) -> None:
    with started_bridge(qtbot, home) as bridge:
        dialog = SettingsDialog(bridge, {})
        qtbot.addWidget(dialog)
        page = dialog.findChild(McpServersPage)
        assert isinstance(page, McpServersPage)
        dialog.tabs.setCurrentWidget(page)
        dialog.resize(1000, 650)  # a 1024x700 laptop screen, title bar and panel aside
        dialog.show()
        qtbot.waitExposed(dialog)
        for part in (
            page.table,
            page.tools,
            page.add_button,
            page.remove_button,
            page.tools_button,
        ):
            assert part.accessibleName(), part
        add_through_dialog(qtbot, page, "faults", f"GREETING={SECRET}\nOTHER=x")

        row = row_of(page, "faults")
        assert cell(page.table, row, 2) == "GREETING, OTHER"
        assert cell(page.table, row, 3) == "trusted"
        assert str(FAULT_SERVER) in cell(page.table, row, 1)
        assert SECRET not in texts_on_screen(dialog)

        page.table.selectRow(row)
        page.tools_button.click()
        qtbot.waitUntil(lambda: page.tools.rowCount() > 0, timeout=START_MS)
        names = [cell(page.tools, r, 0) for r in range(page.tools.rowCount())]
        echo = names.index("echo")
        assert cell(page.tools, echo, 1) == "mcp__faults__echo"
        assert cell(page.table, row, 4) == f"started ({len(names)} tool(s))"
        assert cell(page.tools, echo, 3) == "read-only, idempotent"
        tier = page.tools.cellWidget(echo, 2)
        assert isinstance(tier, QComboBox) and tier.currentText() == "read"  # trusted hint
        slow = page.tools.cellWidget(names.index("slow"), 2)
        assert isinstance(slow, QComboBox) and slow.currentText() == "write"
        assert SECRET not in texts_on_screen(dialog)
        if SHOTS:
            dialog.grab().save(str(Path(SHOTS) / "mcp-settings.png"))

        tier.setCurrentText("network")
        qtbot.waitUntil(lambda: "now network" in page.message.text(), timeout=10_000)
        with open_workspace(home) as ws:
            assert ws.mcp_server("faults").tiers == {"echo": "network"}

        page.remove_button.click()
        box = page.findChild(QMessageBox)
        assert isinstance(box, QMessageBox) and "faults" in box.text()
        confirm = next(b for b in box.buttons() if b.text() == "Remove")
        confirm.click()
        qtbot.waitUntil(lambda: page.servers == [], timeout=10_000)
        assert page.table.rowCount() == 0 and page.tools.rowCount() == 0
        with open_workspace(home) as ws:
            assert ws.mcp_servers() == []


def test_a_server_that_cannot_start_is_told_in_words(qtbot: QtBot, home: Path) -> None:
    with started_bridge(qtbot, home) as bridge:
        page = McpServersPage(bridge)
        qtbot.addWidget(page)
        page.resize(900, 560)
        page.show()
        qtbot.waitExposed(page)
        add_through_dialog(qtbot, page, "broken", "FAULT=crash_at_start")
        page.table.selectRow(row_of(page, "broken"))
        page.tools_button.click()
        qtbot.waitUntil(page.tools_button.isEnabled, timeout=START_MS)
        said = page.message.text()
        assert said and "Starting" not in said
        assert "mcp_server_unavailable" not in said and "Traceback" not in said
        assert "Error" not in said  # no class name
        assert "broken" in said and "unavailable" in said  # the core's sentence, whole
        assert page.tools.rowCount() == 0
        assert cell(page.table, row_of(page, "broken"), 4) == "unavailable"


def test_a_bad_name_keeps_the_dialog_open_with_the_reason(qtbot: QtBot, home: Path) -> None:
    with started_bridge(qtbot, home) as bridge:
        page = McpServersPage(bridge)
        qtbot.addWidget(page)
        page.show()
        page.add_button.click()
        dialog = page.add_dialog
        assert dialog is not None
        dialog.name_field.setText("Bad Name")
        dialog.command_field.setText("true")
        dialog.ok.click()
        qtbot.waitUntil(dialog.error.isVisible, timeout=10_000)
        assert dialog.isVisible() and "invalid_arguments" not in dialog.error.text()
        dialog.command_field.setText("'unclosed")
        dialog.ok.click()
        assert "quote" in dialog.error.text()


def test_hints_in_words() -> None:
    assert hint_words({"readOnlyHint": False, "destructiveHint": True}) == (
        "may change things, destructive"
    )
    assert hint_words({}) == "" and hint_words(None) == ""
