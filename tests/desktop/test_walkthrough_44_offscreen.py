"""Issue 44 on real widgets offscreen, where a real window would add only start-up time:

- item 5: the timeline's detail of a `tool_result` shows what the tool returned, bounded,
  escaped and with the key BriefDesk holds masked, for an MCP tool (the tests' fault server's
  `echo`, a real subprocess) and a built-in one (`search_corpus`), from a real run of a scripted
  model through the CLI;
- item 7 / issue 39: Settings ▸ MCP servers lists each server's granted folders, network and
  sandbox (test_walkthrough_44_xvfb adds one so in the real window, in both languages).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop.models.timeline_model import TOOL
from desktop.widgets.mcp_settings import McpServersPage
from desktop.widgets.timeline_view import TimelinePanel
from tests.support.cli import CliRunner
from tests.support.desktop import started_bridge
from tests.support.mcp_servers.real import FAULT_SERVER

KEY = "sk-walkthrough44" + "Q" * 32  # key-shaped, and held by BriefDesk through the env
SAID = f"Terminal\x1b[2J escape and key {KEY}. " + "An echo of many words. " * 300


def test_a_tool_results_detail_shows_what_it_returned_for_mcp_and_builtin_tools(
    qtbot: QtBot, tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = CliRunner(home, capsys)
    cli(
        "mcp", "add", "faults", "--trust-hints", "--", sys.executable, str(FAULT_SERVER), check=True
    )
    script = tmp_path / "script.json"
    turns = [
        {"call": "mcp__faults__echo", "args": {"text": SAID}},
        {"call": "search_corpus", "args": {"query": "checkpoints", "limit": 2}},
        {"say": "done"},
    ]
    script.write_text(json.dumps(turns), encoding="utf-8")
    env = {"BRIEFDESK_OPENAI_API_KEY": KEY}
    run = cli("run", "--question", "echo", "--model", f"scripted:{script}", env=env, check=True)
    run_id = run.body["run_id"]
    assert run.body["status"] == "succeeded", run.body
    events = cli("timeline", run_id, env=env, check=True).body["events"]
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.set_run(run_id, events)
    details: dict[str, str] = {}
    for row in range(panel.model.rowCount()):
        event = panel.model.event_at(row)
        if event is not None and event["kind"] == "tool_result":
            panel.select_row(row)
            details[str(panel.model.index(row, TOOL).data())] = panel.detail.toPlainText()
    echo, search = details["mcp__faults__echo"], details["search_corpus"]
    for detail in (echo, search):
        assert "What the tool returned:" in detail, detail
    returned = echo.split("What the tool returned:", 1)[1]
    assert "Terminal\\x1b[2J escape and key" in returned, "the escape shows as text"
    assert "\x1b" not in echo and KEY not in echo, "no raw escape, and the key is masked"
    assert len(returned.encode("utf-8")) <= 4096 + 64 and "bytes in all)" in returned, "bounded"
    assert ".md" in search.split("What the tool returned:", 1)[1], "the hits it found"


def test_the_servers_table_lists_folders_network_and_sandbox(
    qtbot: QtBot, tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = CliRunner(home, capsys)
    granted = [tmp_path / "a", tmp_path / "b"]
    for folder in granted:
        folder.mkdir()
    roots = [arg for folder in granted for arg in ("--root", str(folder))]
    cli("mcp", "add", "open", *roots, "--network", "--no-sandbox", "--", "true", check=True)
    cli("mcp", "add", "shut", "--", "true", check=True)
    with started_bridge(qtbot, home) as bridge:
        page = McpServersPage(bridge)
        qtbot.addWidget(page)
        qtbot.waitUntil(lambda: page.table.rowCount() == 2, timeout=10_000)
        table = page.table
        headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
        rows = {
            table.item(r, 0).text(): {
                h: table.item(r, c).text() for c, h in enumerate(headers) if table.item(r, c)
            }
            for r in range(table.rowCount())
        }
    assert rows["open"]["Granted folders"] == ", ".join(str(f) for f in granted), rows
    assert (rows["open"]["Network"], rows["open"]["Sandbox"]) == ("allowed", "unconfined")
    assert rows["shut"]["Granted folders"] == "none", rows
    assert (rows["shut"]["Network"], rows["shut"]["Sandbox"]) == ("loopback only", "sandboxed")
