"""Issue 28 in the approval dialog: an MCP call shows its server, its tool and what the server
says of it; when its outcome is unknown (here: a write past `mcp.call_timeout`, on the tests'
own fault server) the dialog explains it and offers the third answer, "It did happen", which
records the call as done without calling it again. Offscreen, a real home, the real bridge."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.widgets.approval_dialog import ApprovalDialog
from tests.support.desktop import StillClock, open_workspace, started_bridge
from tests.support.mcp_servers.real import FAULT_SERVER


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def ws(home: Path) -> Iterator[Workspace]:
    with open_workspace(home) as workspace:
        yield workspace


@pytest.fixture
def bridge(qtbot: QtBot, home: Path, ws: Workspace) -> Iterator[Bridge]:
    with started_bridge(qtbot, home) as started:
        yield started


def unknown_outcome_question(ws: Workspace) -> dict[str, Any]:
    """A write that was approved, reached the server and timed out: asked again."""
    ws.set_setting("mcp.call_timeout", 1)
    ws.mcp_add("faults", sys.executable, [str(FAULT_SERVER)])
    script = ws.home.root / "slow.json"
    script.write_text(json.dumps([{"call": "mcp__faults__slow", "args": {"seconds": 20}}]))
    run = ws.start_run("slow", model=f"scripted:{script}")
    [first] = run["approvals"]
    ws.approve(first["id"], reviewer="ana")
    again = ws.resume(run["run_id"])
    assert again["status"] == "waiting_approval", again
    [question] = again["approvals"]
    return dict(question)


def test_an_unknown_outcome_is_explained_and_it_did_happen_records_it_once(
    qtbot: QtBot,
    bridge: Bridge,
    ws: Workspace,
    clock: StillClock,
) -> None:
    question = unknown_outcome_question(ws)
    dialog = ApprovalDialog(bridge, question["id"], "ana")
    qtbot.addWidget(dialog)
    dialog.resize(1024, 700)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)
    assert dialog.mcp.widget.isVisible()
    shown = dialog.mcp.text.text()
    assert "<b>faults</b>" in shown and "<b>slow</b>" in shown
    assert "read-only: no" in shown and "idempotent: no" in shown  # the server's own claims
    assert "may have happened" in shown
    assert dialog.mcp.done_button.isVisible()
    assert not dialog.mcp.done_button.isEnabled()  # guarded like the other answers
    clock.pass_the_guard()
    qtbot.waitUntil(dialog.mcp.done_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.decided, timeout=10_000) as decided:
        qtbot.mouseClick(dialog.mcp.done_button, Qt.MouseButton.LeftButton)
    assert decided.args == [question["id"], "consumed"]
    finished = ws.resume(question["run_id"])
    assert finished["status"] == "succeeded", finished
    events = ws.timeline(question["run_id"])
    assert [e["kind"] for e in events].count("tool_called") == 1  # never called again


def test_a_plain_mcp_proposal_shows_its_server_without_the_third_answer(
    qtbot: QtBot,
    bridge: Bridge,
    ws: Workspace,
    clock: StillClock,
) -> None:
    ws.mcp_add("faults", sys.executable, [str(FAULT_SERVER)])
    script = ws.home.root / "append.json"
    line = {"path": str(ws.home.root / "out.txt"), "line": "x\u202eevil"}
    script.write_text(json.dumps([{"call": "mcp__faults__append_line", "args": line}]))
    [proposal] = ws.start_run("append", model=f"scripted:{script}")["approvals"]
    dialog = ApprovalDialog(bridge, proposal["id"], "ana")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)
    assert dialog.mcp.widget.isVisible() and not dialog.mcp.done_button.isVisible()
    assert "\\u202e" in dialog.args_view.toPlainText()  # a bidi override shown as what it is
    assert "\u202e" not in dialog.args_view.toPlainText()
