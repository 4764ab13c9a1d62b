"""The ask-question dialog, offscreen, on a real run waiting at `ask_question`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from agent_core.contract.views import RunView
from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.widgets.question_dialog import QuestionDialog
from tests.support.desktop import open_workspace, started_bridge
from tests.support.typed import present

QUESTION = "Which audience should the brief address?"


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("questions") / "home"


@pytest.fixture
def ws(shared_home: Path) -> Iterator[Workspace]:
    with open_workspace(shared_home) as workspace:
        yield workspace


@pytest.fixture
def bridge(qtbot: QtBot, shared_home: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, shared_home) as started:
        yield started


@pytest.fixture
def waiting_run(ws: Workspace, tmp_path: Path) -> RunView:
    """A scripted model asks one question, then answers with what it was told."""
    script = tmp_path / "ask.json"
    script.write_text(
        json.dumps([{"call": "ask_question", "args": {"question": QUESTION}}, {"say": "Noted."}])
    )
    run = ws.start_run("Write a brief about ledgers.", model=f"scripted:{script}")
    assert (run["status"], run["question_pending"]) == ("waiting_input", QUESTION), run
    return run


def open_dialog(qtbot: QtBot, bridge: Bridge, run: RunView) -> QuestionDialog:
    dialog = QuestionDialog(bridge, run["run_id"], present(run["question_pending"]))
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_the_answer_is_recorded_and_the_run_can_resume(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, waiting_run: RunView
) -> None:
    dialog = open_dialog(qtbot, bridge, waiting_run)
    assert dialog.question_label.text() == QUESTION and not dialog.send_button.isEnabled()
    qtbot.keyClicks(dialog.answer_edit, "security engineers")
    with qtbot.waitSignal(dialog.answered, timeout=10_000) as signal:
        qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    assert signal.args == [waiting_run["run_id"]]
    received = [e for e in ws.timeline(waiting_run["run_id"]) if e["kind"] == "answer_received"]
    assert [e["data"]["answer"] for e in received] == ["security engineers"]
    assert ws.get_run(waiting_run["run_id"])["question_pending"] is None
    assert ws.resume(waiting_run["run_id"])["status"] == "succeeded"


def test_cancel_ends_the_run(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, waiting_run: RunView
) -> None:
    dialog = open_dialog(qtbot, bridge, waiting_run)
    answered: list[str] = []
    dialog.answered.connect(answered.append)
    with qtbot.waitSignal(dialog.cancelled, timeout=10_000) as signal:
        qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert signal.args == [waiting_run["run_id"]] and answered == []
    run = ws.get_run(waiting_run["run_id"])
    assert (run["status"], run["question_pending"]) == ("cancelled", None)
    finished = [
        e["data"] for e in ws.timeline(waiting_run["run_id"]) if e["kind"] == "run_finished"
    ]
    reviewer = str(ws.settings()["reviewer"])
    assert finished == [{"status": "cancelled", "by": reviewer, "reason": "cancelled by a person"}]


def test_an_answer_given_elsewhere_closes_the_question(
    qtbot: QtBot, bridge: Bridge, ws: Workspace, waiting_run: RunView
) -> None:
    dialog = open_dialog(qtbot, bridge, waiting_run)
    ws.answer(waiting_run["run_id"], "from the command line")
    qtbot.waitUntil(lambda: "settled elsewhere" in dialog.status_label.text(), timeout=5000)
    assert not dialog.send_button.isEnabled() and not dialog.cancel_button.isEnabled()
