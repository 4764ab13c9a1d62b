"""The bridge: jobs run on its thread, results come back on the GUI thread, stale ones are
dropped, errors arrive typed, other jobs are served while a run drives, and the follower picks
up runs made by briefdesk-cli in another process."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from agent_core.contract.errors import BriefDeskError
from agent_core.contract.views import EventView, RunView
from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge
from desktop.jobs import error_text
from tests.desktop.test_app_helpers import DEMO_QUESTION, FakeOpenAI, tool_call_message
from tests.support.cli import CliRunner
from tests.support.desktop import started_bridge
from tests.support.typed import present


@pytest.fixture
def bridge(qtbot: QtBot, home: Path) -> Iterator[Bridge]:
    with started_bridge(qtbot, home) as started:
        yield started


def test_jobs_run_on_the_bridge_thread_and_results_arrive_on_the_gui_thread(
    qtbot: QtBot, bridge: Bridge
) -> None:
    seen: dict[str, Any] = {}

    def job(ws: Workspace) -> str:
        seen["job_thread"] = threading.get_ident()
        seen["home"] = ws.home.root
        return "result"

    def done(result: str) -> None:
        seen["done_thread"] = threading.get_ident()
        seen["result"] = result

    bridge.submit(job, on_done=done)
    qtbot.waitUntil(lambda: "result" in seen)
    assert seen["job_thread"] == bridge.thread_ident
    assert seen["job_thread"] != threading.get_ident()
    assert seen["done_thread"] == threading.get_ident()
    assert seen["home"] == Path(str(present(bridge.home))).resolve()


def test_core_errors_arrive_typed_and_unhandled_ones_as_a_signal(
    qtbot: QtBot, bridge: Bridge
) -> None:
    errors: list[Exception] = []
    bridge.submit(lambda ws: ws.get_run("run-missing"), on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors))
    assert isinstance(errors[0], BriefDeskError) and errors[0].code == "not_found"
    assert error_text(errors[0]).startswith("not_found: ")
    with qtbot.waitSignal(bridge.error) as blocker:
        bridge.submit(lambda ws: ws.set_setting("mode", "yolo"))
    assert blocker.args[0] == "invalid_arguments"
    assert "mode must be one of" in blocker.args[1]


def test_stale_results_are_dropped_by_run_id(qtbot: QtBot, bridge: Bridge) -> None:
    delivered: list[str] = []
    bridge.set_current_run("run-b")
    bridge.submit(lambda ws: "for a", on_done=delivered.append, run_id="run-a")
    bridge.submit(lambda ws: "for b", on_done=delivered.append, run_id="run-b")
    bridge.submit(lambda ws: "unkeyed", on_done=delivered.append)
    # Jobs run in order on the one bridge thread and come back in order: once a later job is
    # delivered, the stale one has been decided on (dropped, or wrongly delivered before it).
    bridge.submit(lambda ws: "sentinel", on_done=delivered.append)
    qtbot.waitUntil(lambda: "sentinel" in delivered)
    assert delivered == ["for b", "unkeyed", "sentinel"]


def test_other_jobs_are_served_while_a_run_drives(
    qtbot: QtBot, bridge: Bridge, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRIEFDESK_OPENAI_API_KEY", "sk-test-fake-key-for-local-server")
    with FakeOpenAI(
        [
            tool_call_message("search_corpus", {"query": "checkpoints"}),
            {"role": "assistant", "content": "Done."},
        ]
    ) as server:
        settled: list[Any] = []
        bridge.submit(
            lambda ws: ws.set_setting("openai.base_url", server.base_url), on_done=settled.append
        )
        bridge.submit(
            lambda ws: ws.create_run(DEMO_QUESTION, model="openai"), on_done=settled.append
        )
        qtbot.waitUntil(lambda: len(settled) == 2)
        run_id = settled[1]
        finished: list[RunView] = []
        bridge.drive(run_id, on_done=finished.append)
        assert bridge.is_driving(run_id)
        assert server.arrived.wait(30), "the model endpoint was never called"
        # The run is parked on its model call; the bridge still answers other jobs.
        statuses: list[str] = []
        bridge.submit(lambda ws: ws.get_run(run_id)["status"], on_done=statuses.append)
        qtbot.waitUntil(lambda: bool(statuses), timeout=5000)
        assert statuses == ["running"] and not finished
        server.release()
        qtbot.waitUntil(lambda: bool(finished), timeout=60_000)
    assert finished[0]["status"] == "succeeded"
    assert not bridge.is_driving()


def test_follower_reports_runs_and_events_from_another_process(
    qtbot: QtBot, bridge: Bridge, cli: CliRunner
) -> None:
    events: list[EventView] = []
    runs: list[list[RunView]] = []
    bridge.events_arrived.connect(events.extend)
    bridge.runs_changed.connect(runs.append)
    bridge.start_following(100)
    qtbot.waitUntil(lambda: bool(runs))
    assert runs[-1] == []
    result = cli("run", "--question", DEMO_QUESTION, check=True)
    run_id = result.body["run_id"]
    qtbot.waitUntil(
        lambda: any(r["run_id"] == run_id and r["status"] == "waiting_approval" for r in runs[-1]),
        timeout=10_000,
    )
    qtbot.waitUntil(lambda: any(e["kind"] == "approval_requested" for e in events), timeout=10_000)
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
    assert {e["run_id"] for e in events} == {run_id}
    assert events[0]["kind"] == "run_started"


def test_this_processs_events_reach_the_window_without_waiting_for_the_timer(
    qtbot: QtBot, bridge: Bridge
) -> None:
    events: list[EventView] = []
    runs: list[list[RunView]] = []
    bridge.events_arrived.connect(events.extend)
    bridge.runs_changed.connect(runs.append)
    bridge.start_following(3_600_000)  # one first read, then no timer tick for an hour
    qtbot.waitUntil(lambda: bool(runs))
    made: list[str] = []

    def create_and_cancel(ws: Workspace) -> str:
        run_id = str(ws.create_run("pushed, not polled"))
        ws.cancel(run_id, reviewer="carol")  # commits run_finished in this process
        return run_id

    bridge.submit(create_and_cancel, on_done=made.append)
    qtbot.waitUntil(lambda: any(e["kind"] == "run_finished" for e in events), timeout=5_000)
    (run_id,) = made
    assert {e["run_id"] for e in events} == {run_id}
    seqs = [e["seq"] for e in events]
    assert len(seqs) == len(set(seqs))  # delivered once
    # The runs list follows from the event: only that run was read again.
    qtbot.waitUntil(
        lambda: any(r["run_id"] == run_id and r["status"] == "cancelled" for r in runs[-1]),
        timeout=5_000,
    )


def test_a_poll_does_not_deliver_again_what_was_pushed(
    qtbot: QtBot, bridge: Bridge, home: Path
) -> None:
    events: list[EventView] = []
    bridge.events_arrived.connect(events.extend)
    bridge.start_following(50)
    bridge.submit(lambda ws: ws.cancel(ws.create_run("twice?"), reviewer="c"))
    qtbot.waitUntil(lambda: any(e["kind"] == "run_finished" for e in events), timeout=5_000)
    # A sentinel the poll must bring (written outside the bridge, as another process would):
    # once it is here, the poll has read over the pushed sequence numbers too.
    from agent_core.facade.workspace import Workspace

    other = Workspace(home)
    other_run = str(other.create_run("from elsewhere"))
    other.cancel(other_run, reviewer="d")
    other.close()
    qtbot.waitUntil(lambda: any(e["run_id"] == other_run for e in events), timeout=5_000)
    seqs = [e["seq"] for e in events]
    assert len(seqs) == len(set(seqs))


def test_a_commit_here_brings_earlier_events_of_other_processes_first(
    qtbot: QtBot, bridge: Bridge, home: Path
) -> None:
    """Events arrive in the order they were committed, whoever wrote them: a view that drops
    what it has already passed (by sequence) must never see this process's event first."""
    events: list[EventView] = []
    runs: list[list[RunView]] = []
    bridge.events_arrived.connect(events.extend)
    bridge.runs_changed.connect(runs.append)
    bridge.start_following(3_600_000)  # no timer tick during the test
    qtbot.waitUntil(lambda: bool(runs))
    from agent_core.facade.workspace import Workspace

    other = Workspace(home)  # as another process: its commits reach the bridge by reading
    run_id = str(other.create_run("two writers"))
    other.cancel(run_id, reviewer="elsewhere")  # commits run_finished
    other.close()
    assert events == []  # nothing read yet: no tick, no commit here
    mine: list[str] = []
    bridge.submit(lambda ws: ws.cancel(ws.create_run("mine"), reviewer="here")["run_id"],
                  on_done=mine.append)  # fmt: skip
    qtbot.waitUntil(lambda: bool(mine) and any(e["run_id"] == mine[0] for e in events),
                    timeout=5_000)  # fmt: skip
    assert [e["run_id"] for e in events] == [run_id, mine[0]]  # theirs first, then ours
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
