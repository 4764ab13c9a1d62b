""" "Revert…" in the artifacts panel, offscreen, over a real home through the real bridge: it
asks first, proposes the revert, and the approval dialog decides it under its read guard."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.widgets import approval_guard
from desktop.widgets.approval_dialog import ApprovalDialog
from desktop.widgets.artifacts_panel import ArtifactsPanel
from tests.support.desktop import open_workspace, started_bridge
from tests.support.typed import present

QUESTION = "How do checkpoints make agent runs durable?"


class SkippingClock:
    """The read guard's clock: real time plus what the test skips (the guard itself is tested
    in test_cockpit_guard)."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> SkippingClock:
    skipping = SkippingClock()
    monkeypatch.setattr(approval_guard, "clock", skipping)
    return skipping


@pytest.fixture
def ws(home: Path) -> Iterator[Workspace]:
    with open_workspace(home) as workspace:
        yield workspace


@pytest.fixture
def bridge(qtbot: QtBot, ws: Workspace, home: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, home) as started:
        yield started


def test_revert_this_write_opens_the_approval_flow(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, clock: SkippingClock
) -> None:
    run = ws.start_run(QUESTION)
    written = run["approvals"][0]
    ws.approve(written["id"], reviewer="alice")
    run = ws.resume(run["run_id"])
    assert run["status"] == "succeeded"
    target = Path(str(written["target"]))
    assert target.exists()

    panel = ArtifactsPanel(bridge)
    qtbot.addWidget(panel)
    panel.show()
    panel.set_run(run)
    qtbot.waitUntil(lambda: str(target) in panel.executed, timeout=5000)
    item = next(
        panel.tree.topLevelItem(i)
        for i in range(panel.tree.topLevelItemCount())
        if panel.tree.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole) == str(target)
    )
    panel.tree.setCurrentItem(present(item))
    assert panel.revert_button.isEnabled()
    qtbot.mouseClick(panel.revert_button, Qt.MouseButton.LeftButton)
    box = panel.revert_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert ws.get_run(run["run_id"])["status"] == "succeeded"  # asked first: nothing yet
    propose = next(b for b in box.buttons() if "revert" in b.text().lower())
    with qtbot.waitSignal(panel.revert_proposed, timeout=10_000) as proposed:
        qtbot.mouseClick(propose, Qt.MouseButton.LeftButton)
    waiting = proposed.args[0]
    assert waiting["status"] == "waiting_approval"
    revert = waiting["approvals"][0]
    assert revert["revises"] == written["id"] and revert["args"]["content"] is None

    dialog = ApprovalDialog(bridge, revert["id"], "alice")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)
    assert "Revert" in dialog.title_label.text()
    assert "remove the file" in dialog.title_label.text()
    assert dialog.diff.model.removed > 0 and dialog.diff.model.added == 0
    assert not dialog.approve_button.isEnabled()  # under its read guard first
    clock.skipped += approval_guard.GUARD_MS / 1000
    qtbot.waitUntil(dialog.approve_button.isEnabled, timeout=5000)
    assert not dialog.edit_button.isEnabled()  # approved or rejected as it is
    assert not dialog.request_changes_button.isEnabled()
    assert not dialog.remember_check.isEnabled()
    with qtbot.waitSignal(dialog.decided, timeout=10_000):
        qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    assert target.exists()  # deciding never writes; resuming does
    assert ws.resume(run["run_id"])["status"] == "succeeded"
    assert not target.exists()
