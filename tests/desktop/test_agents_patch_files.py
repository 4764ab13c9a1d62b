"""A Codex patch of several files in the approval dialog: one diff per file, the target's
first, each picked in turn (contract: an `apply_patch` shows one diff per file). The proposal
is made by the real hook (`briefdesk-cli hook codex`, Codex's PreToolUse payload shape)."""

from __future__ import annotations

import json
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.widgets.approval_dialog import ApprovalDialog
from tests.support.cli import cli_command, cli_env
from tests.support.desktop import open_workspace, started_bridge
from tests.support.waiting import wait_until

PATCH = (
    "*** Begin Patch\n*** Add File: added.txt\n+new file\n"
    "*** Update File: notes.txt\n@@\n alpha\n-beta\n+gamma\n*** End Patch\n"
)


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


def test_a_patch_of_two_files_shows_each_files_diff_the_target_first(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    payload = {
        "session_id": str(uuid.uuid4()),
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "apply_patch",
        "tool_input": {"command": PATCH},
        "tool_use_id": "call_1",
    }
    hook = subprocess.Popen(
        cli_command("--home", str(home), "hook", "codex"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
    )

    def pending() -> str:
        found = [a["id"] for a in ws.list_approvals(status="pending")]
        return found[0] if found else ""

    try:
        assert hook.stdin is not None
        hook.stdin.write(json.dumps(payload))
        hook.stdin.close()
        hook.stdin = None
        approval_id = wait_until(pending, message="no patch proposal")
        dialog = ApprovalDialog(bridge, approval_id, "ana")
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)

        picker = dialog.patch_files.widget
        assert picker.isVisible() and picker.count() == 2
        assert "added.txt" in picker.itemText(0) and "notes.txt" in picker.itemText(1)
        assert dialog.diff.model.old_lines == [] and dialog.diff.model.new_lines == ["new file"]
        picker.setCurrentIndex(1)
        qtbot.waitUntil(lambda: dialog.diff.model.new_lines == ["alpha", "gamma"], timeout=5000)
        assert dialog.diff.model.old_lines == ["alpha", "beta"]  # notes.txt as it is now
        assert (dialog.diff.model.added, dialog.diff.model.removed) == (1, 1)
    finally:  # the hook waits for a decision: give it one, so it ends
        if left := pending():
            ws.reject(left, reviewer="ana", reason="not now")
        hook.communicate(timeout=60)
