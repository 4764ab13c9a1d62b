"""Settings ▸ Agents (issue 42 item 1 in the window): each agent's version (the real CLIs from
npm on PATH), whether it is connected, its settings file and its trust note; Connect and
Disconnect show the settings file's diff first and write only when the person confirms.
Offscreen, on the real bridge; the agents' settings live in this test's folders
(CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME), read from outside as files.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.bridge import Bridge
from desktop.widgets.agents_settings import AgentsPage, ChangePreview
from tests.support.agent_clis import claude_bin, codex_bin, gemini_bin
from tests.support.desktop import started_bridge

KEPT = {"theme": "dark", "permissions": {"allow": ["Bash(ls:*)"]}}


@pytest.fixture
def agent_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The three agents' settings folders under this test's folder, their CLIs on PATH."""
    folders = tmp_path / "agents"
    for variable, name in (
        ("CLAUDE_CONFIG_DIR", "claude"),
        ("CODEX_HOME", "codex"),
        ("GEMINI_CLI_HOME", "gemini"),
    ):
        (folders / name).mkdir(parents=True)
        monkeypatch.setenv(variable, str(folders / name))
    bins = {str(b().parent) for b in (claude_bin, codex_bin, gemini_bin)}
    monkeypatch.setenv("PATH", os.pathsep.join([*sorted(bins), os.environ["PATH"]]))
    return folders


@pytest.fixture
def bridge(qtbot: QtBot, tmp_path: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, tmp_path / "home") as started:
        yield started


def preview_of(qtbot: QtBot, page: AgentsPage, button_name: str) -> ChangePreview:
    page.preview = None
    qtbot.mouseClick(getattr(page, button_name), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.preview is not None and page.preview.isVisible(), timeout=10_000)
    assert page.preview is not None
    return page.preview


def test_connect_shows_the_diff_first_writes_only_when_confirmed_and_disconnect_undoes_it(
    qtbot: QtBot, bridge: Bridge, agent_homes: Path
) -> None:
    settings = agent_homes / "claude" / "settings.json"
    settings.write_text(json.dumps(KEPT, indent=2) + "\n", encoding="utf-8")
    before = settings.read_text(encoding="utf-8")
    page = AgentsPage(bridge)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitUntil(lambda: len(page.statuses) == 3, timeout=20_000)
    names = [page.table.item(row, 0).text() for row in range(3)]
    assert names == ["Claude Code", "Codex", "Gemini CLI"]
    for row in range(3):  # the versions npm installed, read from the CLIs on PATH
        assert page.table.item(row, 1).text()[0].isdigit(), page.table.item(row, 1).text()
        assert page.table.item(row, 2).text() == "not connected"
    assert page.table.item(0, 3).text() == str(settings)
    page.table.selectRow(1)
    assert "Trust" in page.details.text()  # Codex runs only trusted hooks: said where it shows
    page.table.selectRow(0)

    # Connect: the diff first; Cancel writes nothing.
    preview = preview_of(qtbot, page, "connect_button")
    shown = preview.diff.toPlainText()
    assert "+" in shown and "PreToolUse" in shown and "hook claude-code" in shown
    assert settings.read_text(encoding="utf-8") == before
    preview.reject()
    assert settings.read_text(encoding="utf-8") == before

    # Confirmed: written, everything else kept, the row says connected.
    preview = preview_of(qtbot, page, "connect_button")
    qtbot.mouseClick(preview.apply_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.table.item(0, 2).text() == "connected", timeout=10_000)
    written = json.loads(settings.read_text(encoding="utf-8"))
    assert {k: written[k] for k in KEPT} == KEPT
    assert "PreToolUse" in json.dumps(written["hooks"])
    assert "connected" in page.status.text()

    # Disconnect likewise: previewed, then exactly what was added is gone.
    preview = preview_of(qtbot, page, "disconnect_button")
    assert "-" in preview.diff.toPlainText() and "PreToolUse" in preview.diff.toPlainText()
    assert "PreToolUse" in settings.read_text(encoding="utf-8")  # nothing written yet
    qtbot.mouseClick(preview.apply_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.table.item(0, 2).text() == "not connected", timeout=10_000)
    assert json.loads(settings.read_text(encoding="utf-8")) == KEPT
