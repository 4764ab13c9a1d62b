"""Issue 26 item 1, offscreen: nothing in the approval dialog's button row moves under the pointer.

When the read guard ended, Approve widened and slid over the place Close had a moment before.
Here the dialog opens on a real proposal (real home, real bridge thread); the guard's clock
stands still until the test moves it, and every button of the row is measured (geometry mapped
to the dialog) at the first show, during the guard, after its countdown text changed, and after
it. Every control must also carry an accessible name, so a screen reader can read the dialog.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.widgets import approval_guard
from desktop.widgets.approval_actions import MAIN
from desktop.widgets.approval_dialog import ApprovalDialog
from tests.support.desktop import StillClock, open_workspace, started_bridge

QUESTION = "How do checkpoints make agent runs durable?"
SCREENSHOTS_ENV = "BRIEFDESK_SCREENSHOTS_DIR"  # set it to keep the grabs (to look at them)
CONTROLS = (QAbstractButton, QLineEdit, QTextEdit, QPlainTextEdit, QComboBox)


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("approval-buttons") / "home"


@pytest.fixture
def ws(shared_home: Path) -> Iterator[Workspace]:
    with open_workspace(shared_home) as workspace:
        yield workspace


@pytest.fixture
def bridge(qtbot: QtBot, shared_home: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, shared_home) as started:
        yield started


def pending_approval(ws: Workspace, name: str) -> str:
    run = ws.start_run(QUESTION, artifacts=ws.home.root / f"artifacts-{name}")
    assert run["status"] == "waiting_approval", run
    return str(run["approvals"][0]["id"])


def row_places(dialog: ApprovalDialog) -> dict[str, QRect]:
    """Every button of the main row, by accessible name: its rectangle in the dialog."""
    row = dialog.action_stack.widget(MAIN)
    assert row is not None
    return {
        button.accessibleName(): QRect(button.mapTo(dialog, QPoint(0, 0)), button.size())
        for button in row.findChildren(QPushButton)
    }


def fixed_and_unclipped(dialog: ApprovalDialog) -> list[str]:
    """The action area's buttons whose size is not fixed, or (shown) that are too small for
    their text now or not wholly inside the dialog."""

    def clipped(button: QPushButton) -> bool:
        place = QRect(button.mapTo(dialog, QPoint(0, 0)), button.size())
        small = button.width() < button.sizeHint().width()
        return button.isVisibleTo(dialog) and (small or not dialog.rect().contains(place))

    return [
        button.text()
        for button in dialog.action_stack.findChildren(QPushButton)
        if button.minimumSize() != button.maximumSize() or clipped(button)
    ]


def grab(qtbot: QtBot, dialog: ApprovalDialog, path: Path) -> None:
    """The dialog's picture once its layout has settled: two grabs in a row are the same."""
    last: list[QImage] = []

    def same_as_before() -> bool:
        image = dialog.grab().toImage()
        settled = bool(last) and image == last[-1]
        last[:] = [image]
        return settled

    qtbot.waitUntil(same_as_before, timeout=3000)
    path.parent.mkdir(parents=True, exist_ok=True)
    assert last[-1].save(str(path))


@pytest.mark.parametrize(("name", "size"), [("fitted", None), ("smallest", (640, 420))])
def test_no_button_of_the_row_moves_or_resizes_through_the_guard(
    qtbot: QtBot,
    clock: StillClock,
    bridge: Bridge,
    ws: Workspace,
    tmp_path: Path,
    name: str,
    size: tuple[int, int] | None,
) -> None:
    out = Path(os.environ.get(SCREENSHOTS_ENV) or tmp_path)
    dialog = ApprovalDialog(bridge, pending_approval(ws, f"row-{name}"), "alice")
    qtbot.addWidget(dialog)
    if size is not None:
        dialog.resize(*size)
    dialog.show()
    qtbot.waitExposed(dialog)
    first = row_places(dialog)
    assert {"Approve", "Close", "Reject…", "Edit…", "Request changes…"} <= set(first)

    qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)
    qtbot.waitUntil(lambda: "(in 1.0 s)" in dialog.approve_button.text(), timeout=5000)
    assert not dialog.approve_button.isEnabled() and not dialog.close_button.isEnabled()
    during = row_places(dialog)
    grab(qtbot, dialog, out / f"approval-guard-during-{name}.png")  # the labels wrap meanwhile
    settled = row_places(dialog)

    clock.now += 0.6  # the countdown's text changes; its width must not
    qtbot.waitUntil(lambda: "(in 0.4 s)" in dialog.approve_button.text(), timeout=5000)
    counting = row_places(dialog)
    assert fixed_and_unclipped(dialog) == []

    clock.now += approval_guard.GUARD_MS / 1000
    qtbot.waitUntil(dialog.approve_button.isEnabled, timeout=5000)
    assert dialog.close_button.isEnabled() and "(in" not in dialog.approve_button.text()
    after = row_places(dialog)
    grab(qtbot, dialog, out / f"approval-guard-after-{name}.png")
    assert fixed_and_unclipped(dialog) == []

    assert during == first, "loading the proposal moved a button"
    assert settled == first, "the layout settling around the proposal moved a button"
    assert counting == first, "the countdown moved a button"
    assert after == first, "the end of the guard moved a button"


def test_every_control_of_the_dialog_has_an_accessible_name(
    qtbot: QtBot, clock: StillClock, bridge: Bridge, ws: Workspace
) -> None:
    dialog = ApprovalDialog(bridge, pending_approval(ws, "names"), "alice")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)
    controls: list[QWidget] = [w for w in dialog.findChildren(QWidget) if isinstance(w, CONTROLS)]
    assert len(controls) > 20, "the dialog's controls are found"
    unnamed = [
        f"{type(w).__name__}({getattr(w, 'text', lambda: '')()!r})"
        for w in controls
        if not w.accessibleName().strip()
    ]
    assert unnamed == []
    # the guarded buttons keep their name while their text counts down, and say why they wait
    assert dialog.approve_button.accessibleName() == "Approve"
    assert "enabled after" in dialog.approve_button.accessibleDescription()
    assert "enabled after" in dialog.approve_edited_button.accessibleDescription()
