"""Issue 26, revisions in the approval dialog: a proposal made after a request for changes says
"Revision n — you asked: …" and shows the changes since the revision sent back beside the diff
against the file; a proposal replaced under the open dialog (here: sent back from elsewhere and
answered by the agent) is announced and offered, never swapped silently, and showing the new
one restarts the read guard. Offscreen, a real home, the real bridge thread and follower; the
"elsewhere" is a second Workspace on the same home, as another process would be."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.widgets.approval_dialog import ApprovalDialog
from tests.desktop.test_app_helpers import (  # noqa: F401  (registers the `make_window` fixture)
    DEMO_QUESTION,
    fixture_make_window,
    wait_for_run,
)
from tests.support.desktop import MakeWindow, StillClock, open_workspace, started_bridge

REVIEWER = "alice"
NOTE = "cite the source of the second point"
FIRST = "# Brief\n\n- point one [a.md]\n- point two\n"
SECOND = "# Brief\n\n- point one [a.md]\n- point two [b.md]\n"


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("revisions") / "home"


@pytest.fixture
def ws(shared_home: Path) -> Iterator[Workspace]:
    with open_workspace(shared_home) as workspace:
        yield workspace


@pytest.fixture
def bridge(qtbot: QtBot, shared_home: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, shared_home) as started:
        yield started


def waiting_run(ws: Workspace, name: str) -> dict[str, Any]:
    """A run whose model proposes briefs/NAME.md, and again after a request for changes."""
    script = ws.home.root / f"{name}.json"
    turns = [
        {"call": "save_brief", "args": {"relative_path": f"briefs/{name}.md", "content": text}}
        for text in (FIRST, SECOND)
    ]
    script.write_text(json.dumps([*turns, {"say": "saved"}]), encoding="utf-8")
    folder = ws.home.root / f"artifacts-{name}"
    run = ws.start_run(f"brief {name}", model=f"scripted:{script}", artifacts=folder)
    assert run["status"] == "waiting_approval", run
    return dict(run)


def open_dialog(qtbot: QtBot, bridge: Bridge, approval_id: str) -> ApprovalDialog:
    dialog = ApprovalDialog(bridge, approval_id, REVIEWER)
    qtbot.addWidget(dialog)
    dialog.resize(1180, 860)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.info is not None, timeout=10_000)
    return dialog


def revision_tab(dialog: ApprovalDialog) -> int:
    return dialog.content_tabs.indexOf(dialog.revision.diff)


def test_a_revision_says_what_was_asked_and_shows_the_changes_since_the_one_sent_back(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, clock: StillClock
) -> None:
    run = waiting_run(ws, "mine")
    first = run["approvals"][0]
    dialog = open_dialog(qtbot, bridge, first["id"])
    assert not dialog.revision.label.isVisible()  # a first proposal: nothing to say
    assert not dialog.content_tabs.isTabVisible(revision_tab(dialog))
    dialog.close()

    ws.reject(first["id"], reviewer=REVIEWER, reason=NOTE, revise=True)
    second = ws.resume(run["run_id"])["approvals"][0]
    dialog = open_dialog(qtbot, bridge, second["id"])

    assert dialog.revision.label.isVisible()
    assert dialog.revision.label.text() == f"Revision 2 — you asked: {NOTE}"
    tab = revision_tab(dialog)
    assert dialog.content_tabs.isTabVisible(tab)
    assert dialog.content_tabs.tabText(tab) == "Changes since revision 1"
    since = dialog.revision.diff.model
    assert (since.added, since.removed) == (1, 1)  # "point two" gained its citation
    assert not since.is_new_file
    against_file = dialog.diff.model  # the first tab: what approving writes (no file yet)
    assert against_file.is_new_file and against_file.added == len(SECOND.splitlines())
    assert dialog.content_tabs.currentIndex() == dialog.content_tabs.indexOf(dialog.diff)


def test_a_proposal_sent_back_elsewhere_and_answered_is_announced_not_swapped(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, clock: StillClock
) -> None:
    run = waiting_run(ws, "elsewhere")
    first = run["approvals"][0]
    bridge.start_following(200)
    dialog = open_dialog(qtbot, bridge, first["id"])
    clock.pass_the_guard()
    qtbot.waitUntil(dialog.approve_button.isEnabled, timeout=5000)

    ws.reject(first["id"], reviewer="bob", reason=NOTE, revise=True)  # another reviewer
    qtbot.waitUntil(lambda: "Sent back for changes" in dialog.banner.text(), timeout=5000)
    assert "bob" in dialog.banner.text() and not dialog.approve_button.isEnabled()
    assert not dialog.newest_button.isVisible()  # the agent has not answered yet

    second = ws.resume(run["run_id"])["approvals"][0]  # the agent's answer: revision 2
    qtbot.waitUntil(dialog.newest_button.isVisible, timeout=10_000)
    assert "Replaced" in dialog.banner.text() and "bob" in dialog.banner.text()
    assert dialog.newest_button.text() == "Show the new revision"
    assert dialog.approval_id == first["id"], "never swapped under the reader's eyes"
    assert dialog.diff.model.added == len(FIRST.splitlines())  # still the one sent back

    qtbot.mouseClick(dialog.newest_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.revision.label.isVisible(), timeout=5000)
    assert dialog.approval_id == second["id"]
    assert dialog.revision.label.text() == f"Revision 2 — bob asked: {NOTE}"
    assert not dialog.banner.isVisible() and not dialog.newest_button.isVisible()
    assert not dialog.approve_button.isEnabled(), "a new proposal shown: guarded again"
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    assert ws.get_approval(second["id"])["status"] == "pending"
    clock.pass_the_guard()
    qtbot.waitUntil(dialog.approve_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.decided, timeout=10_000) as decided:
        qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    assert decided.args == [second["id"], "approved"]


def test_in_the_window_a_request_made_elsewhere_brings_the_revision_saying_who_asked(
    qtbot: QtBot, home: Path, make_window: MakeWindow, clock: StillClock
) -> None:
    """The window drives the run; bob sends its proposal back from another process: the
    window goes on by itself, and the new proposal's dialog says whose request it answers."""
    window = make_window(home, poll_ms=150)
    window.run_form.question.setPlainText(DEMO_QUESTION)
    window.run_question()
    run = wait_for_run(qtbot, window, "waiting_approval")
    first = run["approvals"][0]
    with open_workspace(home) as elsewhere:
        elsewhere.reject(first["id"], reviewer="bob", reason="call it short.md", revise=True)

    def revision_shown() -> bool:
        dialog = window.prompts.dialog
        return bool(
            dialog is not None
            and dialog.isVisible()
            and dialog.approval_id != first["id"]
            and dialog.info is not None
        )

    qtbot.waitUntil(revision_shown, timeout=60_000)
    dialog = window.prompts.dialog
    assert dialog.approval["revises"] == first["id"]
    assert dialog.revision.label.text() == "Revision 2 — bob asked: call it short.md"
    assert dialog.content_tabs.isTabVisible(revision_tab(dialog))
    assert dialog.approval["target"].endswith("/short.md")
    assert not dialog.approve_button.isEnabled()  # shown by itself: guarded
