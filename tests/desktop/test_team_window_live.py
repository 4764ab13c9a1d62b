"""Team mode in the window (issue 14, items 4 and 7): a decision made on another desk shows
at once, by LISTEN/NOTIFY (the poll timer is set to a minute, so it cannot be what brings it);
a team database that cannot be used is a banner, never a crash, and the banner goes when the
server is back.

Real windows offscreen, the session's PostgreSQL server, a real `briefdesk-cli` process as the
other desk. How long the notice takes is measured in benchmarks/bench_team_live.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from agent_core.facade.workspace import Workspace
from tests.desktop.test_app_helpers import DEMO_QUESTION, fixture_make_window  # noqa: F401  (registers the `make_window` fixture)
from tests.support.cli import CliRunner
from tests.support.desktop import MakeWindow, MakeWindowUnready
from tests.support.fake_openai import FakeOpenAI
from tests.support.own_cluster import StoppingPlanner, own_cluster
from tests.support.typed import present

KEY = "sk-test-outage-0123456789"
NO_POLL_MS = 60_000  # the timer would not fire during the test: only notices can refresh


def on_team_db(home: Path, db_url: str) -> Path:
    setup = Workspace(home)
    setup.set_setting("db.url", db_url)
    setup.close()
    return home


def test_a_decision_made_on_another_desk_shows_in_the_window_without_polling(
    qtbot: QtBot,
    tmp_path: Path,
    pg_url: str,
    make_window: MakeWindow,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    desk_b = on_team_db(tmp_path / "desk-b", pg_url)
    monkeypatch.setenv("BRIEFDESK_DESK", "desk-b")
    elsewhere = Workspace(desk_b)
    try:
        run = elsewhere.start_run(DEMO_QUESTION)  # stops at the brief's proposal
    finally:
        elsewhere.close()
    assert run["status"] == "waiting_approval"
    approval_id = run["approvals"][0]["id"]

    monkeypatch.setenv("BRIEFDESK_DESK", "desk-a")
    window = make_window(on_team_db(tmp_path / "desk-a", pg_url), poll_ms=NO_POLL_MS)
    qtbot.waitUntil(lambda: window.approvals_label.text() == "1 pending approval", timeout=10_000)
    qtbot.waitUntil(lambda: window.runs_panel.selected_run_id() == run["run_id"])

    decided = CliRunner(desk_b)(  # another process, as another desk's CLI is
        "--db", pg_url, "approvals", "approve", approval_id, "--reviewer", "eve",
        env={"BRIEFDESK_DESK": "desk-b"},
    )  # fmt: skip
    assert decided.code == 0, decided.stdout + decided.stderr

    qtbot.waitUntil(lambda: window.approvals_label.text() == "0 pending approvals", timeout=10_000)
    shown = present(window.runs_panel.model.run(run["run_id"]))
    assert shown["status"] == "waiting_approval" and shown["approvals"] == []  # decided

    def kinds() -> list[str]:
        model = window.timeline.model
        return [present(model.event_at(r))["kind"] for r in range(model.rowCount())]

    qtbot.waitUntil(lambda: "approval_decided" in kinds(), timeout=10_000)


def test_a_window_whose_server_goes_away_mid_run_shows_a_banner_and_goes_on_when_it_is_back(
    qtbot: QtBot, tmp_path: Path, make_window: MakeWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server stops while the window's run waits for the model: the run stops at its next
    boundary, a banner names the host, nothing else breaks; the server starts again: the
    banner goes and the run goes on by itself, to its brief, written once."""
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", KEY)
    with own_cluster(monkeypatch) as cluster:
        planner = StoppingPlanner(cluster, "postgres")
        with FakeOpenAI(planner=planner) as server:
            home = on_team_db(tmp_path / "desk", cluster.url())
            setup = Workspace(home)
            setup.set_setting("openai.base_url", server.base_url)
            setup.close()
            window = make_window(home, poll_ms=300)
            artifacts = tmp_path / "briefs-out"
            window.context.start_run(
                DEMO_QUESTION, model="openai", mode="acceptEdits", artifacts=str(artifacts)
            )
            qtbot.waitUntil(lambda: window.banners.banner("storage") is not None, timeout=60_000)
            assert planner.before, "the server was stopped under the run"
            text = window.banners.banner("storage").text
            assert cluster.host in text and "Traceback" not in text
            qtbot.waitUntil(lambda: not window.bridge.is_driving(), timeout=30_000)
            [run_id] = window.context.stalled  # stopped at its boundary, waiting for the server

            cluster.start()
            qtbot.waitUntil(lambda: window.banners.banner("storage") is None, timeout=30_000)
            qtbot.waitUntil(
                lambda: (window.context.run(run_id) or {"status": None})["status"] == "succeeded",
                timeout=60_000,
            )
            assert not window.banners.banner("error")  # the outage was said once, and went
            [brief] = list(artifacts.rglob("*.md"))
            assert brief.read_text(encoding="utf-8").strip()
            elsewhere = Workspace(home)
            try:
                timeline = elsewhere.timeline(run_id)
            finally:
                elsewhere.close()
        seqs = [(e["seq"], e["kind"]) for e in timeline]
        assert seqs[: len(planner.before)] == planner.before  # nothing lost
        written = [
            e
            for e in timeline
            if e["kind"] == "tool_result" and e["tool"] == "save_brief" and e["data"]["executed"]
        ]
        assert len(written) == 1


def test_a_window_opened_while_its_server_is_away_says_so_and_opens_once_it_is_back(
    qtbot: QtBot,
    tmp_path: Path,
    make_window_unready: MakeWindowUnready,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with own_cluster(monkeypatch) as cluster:
        home = on_team_db(tmp_path / "desk", cluster.url())
        cluster.stop()
        window = make_window_unready(home)
        qtbot.waitUntil(lambda: window.banners.banner("storage") is not None, timeout=20_000)
        text = window.banners.banner("storage").text
        assert cluster.host in text and "cannot be reached" in text
        assert "Traceback" not in text and "OperationalError" not in text
        assert not window.banners.banner("error")  # one banner says it, not two
        assert window.isVisible() and not window.context.runs_seen

        cluster.start()  # an empty database: the first desk to open it initialises it
        qtbot.waitUntil(lambda: window.context.runs_seen, timeout=30_000)
        qtbot.waitUntil(lambda: window.banners.banner("storage") is None, timeout=10_000)
        qtbot.waitUntil(lambda: bool(window.context.settings))  # read again once it opened
        window.close()  # before its server goes


def test_approving_another_desks_proposal_says_its_desk_goes_on_and_shows_no_error(
    qtbot: QtBot,
    tmp_path: Path,
    pg_url: str,
    make_window: MakeWindow,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The walk-through's false red "belongs to desk ..." (issue 26, item 7): the desk that
    decides another desk's proposal records the decision and says who continues the run; it
    never tries to drive that run itself."""
    desk_b = on_team_db(tmp_path / "desk-b", pg_url)
    monkeypatch.setenv("BRIEFDESK_DESK", "desk-b")
    elsewhere = Workspace(desk_b)
    try:
        run = elsewhere.start_run(DEMO_QUESTION)
    finally:
        elsewhere.close()
    approval_id = run["approvals"][0]["id"]

    monkeypatch.setenv("BRIEFDESK_DESK", "desk-a")
    window = make_window(on_team_db(tmp_path / "desk-a", pg_url), store=True)
    said: list[tuple[str, str]] = []
    window.context.message.connect(lambda level, text: said.append((level, text)))
    qtbot.waitUntil(lambda: window.context.run(run["run_id"]) is not None, timeout=10_000)

    window.context.decide_and_resume(approval_id, run["run_id"], approve=True)

    qtbot.waitUntil(lambda: any("desk-b continues" in text for _, text in said), timeout=10_000)
    assert [text for level, text in said if level == "error"] == []
    assert not window.bridge.is_driving(run["run_id"])
    check = Workspace(desk_b)
    try:
        assert check.get_approval(approval_id)["status"] == "approved"
        assert check.get_run(run["run_id"])["status"] == "waiting_approval"  # desk-b goes on
    finally:
        check.close()
