"""The inbox table model on its own: rows diffed by id (the selection survives a refresh), the
time left from the clock, red-ish under a tenth of the whole; and the status words that never
say "Needs approval" with nothing pending."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QTableView
from pytestqt.qtbot import QtBot

from agent_core.contract.views import InboxItemView
from desktop.models.inbox_model import QUESTION, TARGET, TIME_LEFT, URGENT_ROLE, InboxModel
from desktop.models.run_state import READY, status_words

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def _item(item_id: str, *, minutes: float | None = 60, question: str = "Q") -> InboxItemView:
    return InboxItemView(
        kind="approval" if minutes is not None else "question",
        id=item_id,
        run_id=f"run-{item_id}",
        desk="desk-a",
        tool="save_brief",
        target="/home/me/artifacts/very/long/path/to/the/brief.md",
        summary=question,
        question=question,
        created_at=T0.isoformat(),
        expires_at=(T0 + timedelta(minutes=minutes)).isoformat() if minutes is not None else None,
        revision=1,
    )


def test_refresh_inserts_removes_and_moves_rows_and_keeps_the_selection(qtbot: QtBot) -> None:
    model = InboxModel(clock=lambda: T0)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    model.set_items([_item("a"), _item("b"), _item("c")])
    resets: list[bool] = []
    model.modelReset.connect(lambda: resets.append(True))
    view.selectionModel().setCurrentIndex(
        model.index(1, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )

    model.set_items([_item("new"), _item("a"), _item("b", question="changed")])  # c decided
    assert [i["id"] for i in model.items()] == ["new", "a", "b"]
    assert view.currentIndex().row() == 2, "the selection followed its row, b"
    assert model.index(2, QUESTION).data() == "changed"
    model.set_items([_item("b"), _item("new")])  # a decided, b moved to the top
    assert [i["id"] for i in model.items()] == ["b", "new"]
    assert view.currentIndex().row() == 0
    assert not resets, "never a full reset"


def test_time_left_ticks_and_turns_urgent_under_a_tenth(qtbot: QtBot) -> None:
    now = [T0]
    model = InboxModel(clock=lambda: now[0])
    model.set_items([_item("a", minutes=100), _item("q", minutes=None)])
    changed: list[int] = []
    model.dataChanged.connect(lambda top, _bottom, _roles: changed.append(top.column()))
    assert model.index(0, TIME_LEFT).data() == "1 h 40 min"
    assert model.index(1, TIME_LEFT).data() == "no expiry"
    assert model.index(0, TIME_LEFT).data(URGENT_ROLE) is False
    now[0] = T0 + timedelta(minutes=91, seconds=30)
    model.tick()
    assert changed == [TIME_LEFT]
    assert model.index(0, TIME_LEFT).data() == "8 min 30 s"
    assert model.index(0, TIME_LEFT).data(URGENT_ROLE) is True
    assert model.index(0, TIME_LEFT).data(Qt.ItemDataRole.ForegroundRole) is not None
    assert model.index(1, TIME_LEFT).data(URGENT_ROLE) is False
    now[0] = T0 + timedelta(minutes=101)
    model.tick()
    assert model.index(0, TIME_LEFT).data() == "expired"
    whole = _item("a")["target"]
    assert model.index(0, TARGET).data(Qt.ItemDataRole.ToolTipRole) == whole


def test_status_words_never_need_approval_with_nothing_pending() -> None:
    proposal = {"id": "ap-1"}
    assert status_words({"status": "waiting_approval", "approvals": [proposal]}) == (
        "Needs approval"
    )
    assert status_words({"status": "waiting_approval", "approvals": []}) == READY
    assert status_words({"status": "waiting_input", "question_pending": "Who?"}) == (
        "Needs an answer"
    )
    assert status_words({"status": "waiting_input", "question_pending": None}) == READY
    assert status_words({"status": "succeeded", "approvals": []}) == "Succeeded"
    assert status_words(None) == ""
