"""The live timeline: table model, kind icons and colours, filters, detail pane, auto-scroll,
and batched inserts that stay fast with 10,000+ events."""

from __future__ import annotations

import json
import time
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from agent_core.home.secrets import REDACTED, REDACTOR
from desktop import theme
from desktop.models import event_text
from desktop.models.timeline_model import (
    CATEGORY_ROLE,
    COLUMNS,
    DURATION,
    EVENT_ROLE,
    KIND,
    OUTCOME,
    SUMMARY,
    TOOL,
    TimelineModel,
)
from desktop.widgets.timeline_view import TimelinePanel

RUN = "run-aaaaaaaaaaaa"


def event(
    seq: int,
    kind: str,
    *,
    run_id: str = RUN,
    tool: str | None = None,
    at: str | None = None,
    **data: Any,
) -> dict[str, Any]:
    return {
        "seq": seq,
        "run_id": run_id,
        "kind": kind,
        "tool": tool,
        "data": data,
        "at": at or f"2026-01-01T10:00:{seq % 60:02d}.{seq % 1000:03d}+00:00",
    }


def demo_events() -> list[dict[str, Any]]:
    return [
        event(1, "run_started", question="How?", model="offline", mode="default"),
        event(2, "model_turn", turn=1, calls=["search_corpus"]),
        event(3, "checkpoint_saved", sequence=1, boundary="A", next_step="run search_corpus"),
        event(
            4,
            "tool_called",
            tool="search_corpus",
            at="2026-01-01T10:00:04.000+00:00",
            call_id="c1",
            args={"query": "checkpoints", "limit": 5},
        ),
        event(
            5,
            "tool_result",
            tool="search_corpus",
            at="2026-01-01T10:00:04.250+00:00",
            call_id="c1",
            outcome="success",
            executed=True,
            hits=2,
            sources_found=["a.md", "b.md"],
        ),
        event(6, "checkpoint_saved", sequence=2, boundary="B", next_step="model"),
        event(
            7,
            "approval_requested",
            tool="save_brief",
            approval_id="ap-1",
            status="pending",
            target="/h/artifacts/briefs/x.md",
        ),
        event(
            8,
            "blocked",
            tool="read_document",
            call_id="c2",
            rule="sandbox",
            code="path_outside_scope",
            resource="../etc/passwd",
        ),
        event(9, "run_interrupted", previous_owner_pid=42),
        event(10, "run_resumed", model="offline"),
        event(
            11, "artifact_confirmed", tool="save_brief", path="/h/artifacts/briefs/x.md", count=1
        ),
        event(12, "run_finished", status="succeeded"),
    ]


def test_columns_icons_and_colours_per_kind(qtbot: QtBot) -> None:
    model = TimelineModel()
    model.set_run(RUN, demo_events())
    assert [
        model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())
    ] == list(COLUMNS)
    assert model.rowCount() == 12
    categories = [model.data(model.index(r, KIND), CATEGORY_ROLE) for r in range(12)]
    assert categories[:8] == [
        "lifecycle",
        "model",
        "checkpoint",
        "tool",
        "tool",
        "checkpoint",
        "approval",
        "block",
    ]
    assert categories[8:11] == ["recovery", "recovery", "artifact"]
    # One icon and one colour per kind, and checkpoints A/B get different badges.
    for row in range(12):
        icon = model.data(model.index(row, KIND), Qt.ItemDataRole.DecorationRole)
        assert isinstance(icon, QIcon) and not icon.isNull()
        colour = model.data(model.index(row, KIND), Qt.ItemDataRole.ForegroundRole)
        assert isinstance(colour, QColor)
        assert colour == theme.category_colour(categories[row])
    a_icon = model.data(model.index(2, KIND), Qt.ItemDataRole.DecorationRole)
    b_icon = model.data(model.index(5, KIND), Qt.ItemDataRole.DecorationRole)
    assert a_icon.pixmap(16).toImage() != b_icon.pixmap(16).toImage()
    assert model.data(model.index(2, KIND)) == "Checkpoint A"
    assert model.data(model.index(5, KIND)) == "Checkpoint B"
    # Tool, summary, duration (tool_called -> tool_result) and outcome columns.
    assert model.data(model.index(3, TOOL)) == "search_corpus"
    assert model.data(model.index(3, SUMMARY)) == "query=checkpoints  limit=5"
    assert model.data(model.index(4, SUMMARY)) == "2 hits: a.md, b.md"
    assert model.data(model.index(4, DURATION)) == "250 ms"
    assert model.data(model.index(4, OUTCOME)) == "success"
    assert model.data(model.index(7, OUTCOME)) == "refused"
    assert "path_outside_scope" in model.data(model.index(7, SUMMARY))
    assert model.data(model.index(11, OUTCOME)) == "succeeded"
    green = QColor(theme.STATUS_COLOURS["succeeded"])
    assert model.data(model.index(11, OUTCOME), Qt.ItemDataRole.ForegroundRole) == green


def test_append_ignores_other_runs_and_repeats(qtbot: QtBot) -> None:
    model = TimelineModel()
    model.set_run(RUN, demo_events()[:3])
    added = model.append([*demo_events()[:5], event(6, "model_turn", run_id="run-other", turn=1)])
    assert added == 2
    assert [model.event_at(r)["seq"] for r in range(model.rowCount())] == [1, 2, 3, 4, 5]
    assert model.append(demo_events()[:5]) == 0


def test_ten_thousand_events_arrive_in_batches_and_stay_smooth(qtbot: QtBot) -> None:
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    panel.show()
    panel.set_run(RUN, [])
    inserts: list[tuple[int, int]] = []
    panel.model.rowsInserted.connect(lambda _parent, first, last: inserts.append((first, last)))
    kinds = ["model_turn", "checkpoint_saved", "tool_called", "tool_result", "checkpoint_saved"]
    events = [
        event(
            seq,
            kinds[seq % 5],
            tool="read_document" if seq % 5 in (2, 3) else None,
            call_id=f"c{seq // 5}",
            outcome="success",
            boundary="AB"[seq % 2],
            turn=seq,
            args={"path": f"doc-{seq}.md"},
        )
        for seq in range(1, 12_001)
    ]
    started = time.perf_counter()
    for first in range(0, len(events), 1000):
        panel.append(events[first : first + 1000])
        QApplication.processEvents()  # lay out and paint between batches, as the follower does
    elapsed = time.perf_counter() - started
    assert panel.model.rowCount() == 12_000
    assert len(inserts) == 12, "one beginInsertRows per batch"
    assert inserts[0] == (0, 999) and inserts[-1] == (11_000, 11_999)
    assert elapsed < 5.0, f"12,000 events took {elapsed:.2f} s to show"
    # Filtering 12,000 rows by text is interactive too.
    started = time.perf_counter()
    panel.search.setText("doc-11999.md")
    assert panel.proxy.rowCount() == 1
    assert time.perf_counter() - started < 2.0
    assert panel.count_label.text() == "1 of 12,000"


def test_filter_by_kind_and_text(qtbot: QtBot) -> None:
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.set_run(RUN, demo_events())
    assert panel.proxy.rowCount() == 12
    for category, button in panel.kind_buttons.items():
        if category not in ("block", "approval"):
            button.setChecked(False)
    kinds = [
        panel.proxy.index(r, 0).data(EVENT_ROLE)["kind"] for r in range(panel.proxy.rowCount())
    ]
    assert kinds == ["approval_requested", "blocked"]
    panel.search.setText("passwd")
    assert panel.proxy.rowCount() == 1
    for button in panel.kind_buttons.values():
        button.setChecked(True)
    panel.search.setText("save_brief artifacts")  # every word must match
    assert {
        panel.proxy.index(r, 0).data(EVENT_ROLE)["seq"] for r in range(panel.proxy.rowCount())
    } == {7, 11}
    panel.search.clear()
    assert panel.proxy.rowCount() == 12


def test_detail_pane_shows_redacted_json(qtbot: QtBot) -> None:
    secret = "not-a-real-key-7f3a9c21d4e8b6"
    REDACTOR.add(secret)
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    leaked = event(
        1,
        "tool_result",
        tool="fetch_url",
        call_id="c9",
        outcome="error",
        note=f"header was Bearer {secret}",
        api_key="plain-text-value",
    )
    panel.set_run(RUN, [leaked])
    panel.select_row(0)
    text = panel.detail.toPlainText()
    assert secret not in text and "plain-text-value" not in text
    assert REDACTED in text
    shown = json.loads(text)
    assert shown["seq"] == 1 and shown["data"]["call_id"] == "c9"


def test_auto_scroll_pauses_while_the_user_scrolls_up(qtbot: QtBot) -> None:
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.resize(900, 400)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_run(RUN, [])
    bar = panel.table.verticalScrollBar()
    panel.append([event(s, "model_turn", turn=s) for s in range(1, 201)])
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    assert bar.value() == bar.maximum(), "follows new events"
    bar.setValue(0)  # the person scrolls up to read
    assert not panel.following and not panel.follow_button.isChecked()
    # The range growing is the sentinel: the view follows (or not) as it handles that change.
    reading_max = bar.maximum()
    panel.append([event(s, "model_turn", turn=s) for s in range(201, 301)])
    qtbot.waitUntil(lambda: bar.maximum() > reading_max)
    assert bar.value() == 0, "does not yank the view while the person reads"
    bar.setValue(bar.maximum())  # back at the bottom: following again
    assert panel.following
    bottom_max = bar.maximum()
    panel.append([event(s, "model_turn", turn=s) for s in range(301, 401)])
    qtbot.waitUntil(lambda: bar.maximum() > bottom_max)
    assert bar.value() == bar.maximum()


def test_summaries_read_like_sentences() -> None:
    long_content = "word " * 200
    called = event(
        1,
        "tool_called",
        tool="save_brief",
        relative_path="briefs/a.md",
        args={"relative_path": "briefs/a.md", "content": long_content},
    )
    text = event_text.summary(called)
    assert text.startswith("relative_path=briefs/a.md  content=word word")
    assert f"({len(long_content):,} chars)" in text
    finished = event(
        2, "run_finished", status="failed", error={"code": "budget_exceeded", "message": "50 turns"}
    )
    assert event_text.summary(finished) == "Finished: failed · budget_exceeded: 50 turns"
    assert event_text.duration_text(0.0123) == "12 ms"
    assert event_text.duration_text(75) == "75.0 s"


def test_a_call_sent_back_with_a_note_reads_as_a_decision_not_a_red_error(qtbot: QtBot) -> None:
    """Issue 26: a request for changes is a person's decision: the row says so, with the note,
    among the approvals and in their colour, never as a failed tool (red)."""
    common = {"call_id": "c1", "executed": False, "approval_id": "apr-1"}
    sent_back = event(
        1, "tool_result", tool="save_brief", outcome="error", changes_requested=True,
        note="name the source\nof the second point", **common,
    )  # fmt: skip
    older = event(2, "tool_result", tool="save_brief", outcome="error", changes_requested=True)
    failed = event(3, "tool_result", tool="save_brief", outcome="error", **common)
    model = TimelineModel()
    model.set_run(RUN, [sent_back, older, failed])

    assert model.data(model.index(0, KIND)) == "Decision"
    assert model.data(model.index(0, SUMMARY)) == "Changes requested: name the source …"
    assert model.data(model.index(1, SUMMARY)) == "Changes requested"  # an event before notes
    assert model.data(model.index(0, OUTCOME)) == "changes requested"
    assert model.data(model.index(0, KIND), CATEGORY_ROLE) == "approval"
    red = QColor("#d64545")
    outcome_colour = model.data(model.index(0, OUTCOME), Qt.ItemDataRole.ForegroundRole)
    assert outcome_colour != red and outcome_colour == QColor(theme.CATEGORIES["approval"][1])
    # an ordinary failed call still reads as the error it is
    assert model.data(model.index(2, KIND)) == "Tool result"
    assert model.data(model.index(2, OUTCOME), Qt.ItemDataRole.ForegroundRole) == red


def test_an_mcp_call_names_its_server() -> None:
    called = event(
        1,
        "tool_called",
        tool="mcp__git__git_commit",
        server="git",
        args={"repo_path": "/r", "message": "m"},
    )
    assert event_text.summary(called).startswith("MCP server git · repo_path=/r")
