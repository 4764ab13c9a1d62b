"""Desks and leases (issue 14, item 2), one behaviour per test, on a real PostgreSQL server.

A run belongs to the desk that created it, and so do its proposals. Across machines a run's
owner is judged by its desk's lease (renewed by a heartbeat, read on the server's clock), never
by a pid: another desk's run is `running` while that lease is live and `interrupted` once it
lapses, while the desk itself still sees its own process. Another desk resumes or cancels it
only by taking it over, and only once the lease has lapsed; a desk whose run was taken over
meanwhile stops at its next boundary without writing.

Leases last a few seconds here (BRIEFDESK_LEASE_S); every wait is on a condition.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_core.contract.errors import BriefDeskError
from agent_core.facade.workspace import Workspace
from agent_core.models.planned import History, TurnPlan
from agent_core.runs import lifecycle
from agent_core.storage.location import parse_db_url, with_password
from agent_core.storage.migrate.home import open_store
from agent_core.storage.owner import Owner
from agent_core.storage.team.leases import Heartbeat, Holder
from tests.drills.drill_support import DEMO_QUESTION
from tests.support.cli import REPO_ROOT, cli_command, cli_env
from tests.support.fake_openai import FakeOpenAI, offline_planner
from tests.support.pg import PgServer
from tests.team.conftest import Desk
from tests.team.desk_support import call_as, environment, lease_of, wait_until

LEASE_S = 3.0
KEY = "sk-desks-test-" + "k" * 24


@pytest.fixture
def desks(
    two_desks: tuple[Desk, Desk], monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Desk, Desk, Workspace, Workspace]]:
    """desk-a and desk-b, each with a Workspace in this process; leases of LEASE_S."""
    monkeypatch.setenv("BRIEFDESK_LEASE_S", str(LEASE_S))
    a, b = two_desks
    ws_a, ws_b = a.workspace(), b.workspace()
    try:
        yield a, b, ws_a, ws_b
    finally:
        ws_a.close()
        ws_b.close()


def claim_for(ws: Workspace, run_id: str) -> None:
    """This process takes the run for `ws`'s desk, as a driving process does (it takes the
    desk's lease), and lives on; no heartbeat renews the lease."""
    with ws.store.write() as conn:
        lifecycle.claim(conn, run_id, Owner.current(), desk=ws.team_desk)


def refused(attempt: Any) -> BriefDeskError:
    with pytest.raises(BriefDeskError) as caught:
        attempt()
    return caught.value


def test_runs_and_their_proposals_carry_the_desk_that_created_them(
    desks: tuple[Desk, Desk, Workspace, Workspace], tmp_path: Path
) -> None:
    _, _, ws_a, ws_b = desks
    run = ws_a.start_run(DEMO_QUESTION)
    assert (run["status"], run["desk"]) == ("waiting_approval", "desk-a")

    [seen] = ws_b.list_runs()  # every desk sees every run of the team, with its desk
    assert seen["desk"] == "desk-a"
    [proposal] = ws_b.list_approvals(status="pending")
    assert proposal["desk"] == "desk-a"

    with environment(BRIEFDESK_DESK="solo-desk"):  # a home's own file records it too
        solo = Workspace(tmp_path / "solo")
    try:
        assert solo.get_run(solo.create_run(DEMO_QUESTION))["desk"] == "solo-desk"
    finally:
        solo.close()


def test_another_desks_running_run_lives_by_its_lease_not_by_its_pid(
    desks: tuple[Desk, Desk, Workspace, Workspace],
) -> None:
    _, _, ws_a, ws_b = desks
    run_id = ws_a.create_run(DEMO_QUESTION)
    claim_for(ws_a, run_id)  # its owner (this process) stays alive throughout

    assert ws_b.get_run(run_id)["status"] == "running"
    wait_until(lambda: ws_b.get_run(run_id)["status"] == "interrupted", "desk-a's lease to lapse")
    assert [r["status"] for r in ws_b.list_runs()] == ["interrupted"]
    # Its own desk, on its own host, still sees the live process: the pid check.
    assert ws_a.get_run(run_id)["status"] == "running"


def test_another_desk_is_refused_while_the_lease_is_live_and_takes_the_run_once_it_lapses(
    desks: tuple[Desk, Desk, Workspace, Workspace],
) -> None:
    _, _, ws_a, ws_b = desks
    run_id = ws_a.create_run(DEMO_QUESTION)
    claim_for(ws_a, run_id)
    lease, live = lease_of(ws_b, "desk-a")
    assert live and lease is not None

    for attempt in (
        lambda: ws_b.resume(run_id),
        lambda: ws_b.cancel(run_id),
        lambda: ws_b.take_over(run_id),
        lambda: ws_b.cancel(run_id, take_over=True),
    ):
        error = refused(attempt)
        assert error.code == "run_owned_elsewhere"
        assert "'desk-a'" in error.message and f"live until {lease.until}" in error.message
    run = ws_a.get_run(run_id)
    assert (run["status"], run["desk"]) == ("running", "desk-a")  # refusals change nothing
    assert ws_b.audit_entries(run_id) == []

    wait_until(lambda: not lease_of(ws_b, "desk-a")[1], "desk-a's lease to lapse")
    error = refused(lambda: ws_b.resume(run_id))  # only by its desk, or taken over
    assert error.code == "run_owned_elsewhere" and f"resume {run_id} --take-over" in error.message

    owner = ws_b.take_over(run_id, reviewer="bea")
    assert owner is not None and owner["desk"] == "desk-a"
    run = ws_b.get_run(run_id)
    assert (run["status"], run["desk"]) == ("interrupted", "desk-b")
    [moved] = [e for e in ws_b.timeline(run_id) if e["kind"] == "run_interrupted"]
    assert moved["data"]["previous_desk"] == "desk-a" and moved["data"]["taken_over_by"] == "bea"
    [entry] = ws_b.audit_entries(run_id)
    assert entry["entry"] == "take_over" and entry["principal"] == "person:bea"
    assert "desk-a" in str(entry["detail"])
    # Now desk-b's: desk-a is the other desk (which holds no lease).
    error = refused(lambda: ws_a.resume(run_id))
    assert error.code == "run_owned_elsewhere" and "'desk-b'" in error.message


def test_resume_take_over_moves_a_waiting_run_to_this_desk_once_the_lease_lapsed(
    desks: tuple[Desk, Desk, Workspace, Workspace],
) -> None:
    a, b, ws_a, ws_b = desks
    run_id = ws_a.start_run(DEMO_QUESTION)["run_id"]  # waiting_approval, on desk-a

    code, body, _ = call_as(b, "resume", run_id)
    assert (code, body["error"]["code"]) == (2, "run_owned_elsewhere")
    assert "'desk-a'" in body["error"]["message"]

    wait_until(lambda: not lease_of(ws_b, "desk-a")[1], "desk-a's lease to lapse")
    code, body, _ = call_as(b, "resume", run_id, "--take-over")
    assert code == 0, body
    assert (body["status"], body["desk"]) == ("waiting_approval", "desk-b")  # still waits
    [proposal] = body["approvals"]
    assert proposal["desk"] == "desk-a"  # where it was proposed
    [entry] = ws_b.audit_entries(run_id)
    assert entry["entry"] == "take_over" and "from desk desk-a" in str(entry["detail"])
    code, body, _ = call_as(a, "cancel", run_id)  # desk-a's no more
    assert (code, body["error"]["code"]) == (2, "run_owned_elsewhere")


class HeldPlanner:
    """The offline model's plan, except that its answer at `step` waits for the test."""

    def __init__(self, step: int) -> None:
        self.step = step
        self.entered = threading.Event()
        self.release = threading.Event()

    def __call__(self, history: History) -> TurnPlan:
        if history.steps_taken == self.step and not self.entered.is_set():
            self.entered.set()
            self.release.wait(timeout=300)
        return offline_planner(history)


def _holds_the_writer_lock(ws: Workspace) -> bool:
    """Does any session of this database hold an advisory lock (the team's writer lock)?"""
    with ws.store.read() as conn:
        return bool(
            conn.exec_driver_sql(
                "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database "
                "WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()"
            ).scalar()
        )


def _freeze(proc: subprocess.Popen[str], ws: Workspace) -> None:
    """SIGSTOP, at a moment the process holds no transaction open on the writer lock (a
    frozen writer would hold up every desk; that is not what this test is about)."""
    while True:
        os.kill(proc.pid, signal.SIGSTOP)
        if not _holds_the_writer_lock(ws):
            return
        os.kill(proc.pid, signal.SIGCONT)


@pytest.mark.slow
def test_a_desk_whose_run_was_taken_over_stops_at_its_next_boundary_without_writing(
    two_desks: tuple[Desk, Desk],
) -> None:
    """desk-a drives a run (its heartbeat keeps its lease past the lease's length), then
    freezes while its model answers (SIGSTOP: a laptop lid closed). Its lease lapses and desk-b
    takes the run over. desk-a wakes, gets its model's answer, and stops there: nothing of it
    reaches the run's timeline, and it says run_owned_elsewhere."""
    a, b = two_desks
    planner = HeldPlanner(step=1)  # the model's second answer, after search_corpus
    with FakeOpenAI(planner=planner) as server:
        setup = a.workspace()
        setup.set_setting("openai.base_url", server.base_url)
        setup.close()
        ws_b = b.workspace()
        proc = subprocess.Popen(
            cli_command("--home", str(a.home), "--json", "run",
                        "--question", DEMO_QUESTION, "--model", "openai", "--mode", "acceptEdits"),
            env=cli_env(
                BRIEFDESK_DESK="desk-a", BRIEFDESK_LEASE_S=str(LEASE_S),
                BRIEFDESK_OPENAI_API_KEY=KEY,
            ),
            cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert planner.entered.wait(timeout=180), "desk-a never asked its model again"
            [run] = ws_b.list_runs()
            run_id = run["run_id"]
            first, _ = lease_of(ws_b, "desk-a")
            assert first is not None
            # While it drives, its heartbeat renews the lease beyond the lease's length.
            wait_until(
                lambda: (
                    (lease := lease_of(ws_b, "desk-a")[0])
                    and lease.renewed_at > first.renewed_at + LEASE_S
                ),
                "desk-a's heartbeat to renew its lease past one lease length",
            )
            assert ws_b.get_run(run_id)["status"] == "running"

            _freeze(proc, ws_b)
            wait_until(
                lambda: ws_b.get_run(run_id)["status"] == "interrupted", "the lease to lapse"
            )
            assert ws_b.take_over(run_id, reviewer="bea") is not None
            at_take_over = ws_b.timeline(run_id)
        finally:
            os.kill(proc.pid, signal.SIGCONT)
            planner.release.set()
            out, err = proc.communicate(timeout=180)
        ws_b.close()

    assert proc.returncode == 2, (out, err)
    assert "Traceback" not in err, err
    error = json.loads(out)["error"]
    assert error["code"] == "run_owned_elsewhere" and "'desk-b'" in error["message"]
    ws_b = b.workspace()
    try:
        assert ws_b.timeline(run_id) == at_take_over  # desk-a wrote nothing after
        run = ws_b.get_run(run_id)
        assert (run["status"], run["desk"]) == ("interrupted", "desk-b")
    finally:
        ws_b.close()


def test_a_heartbeat_that_cannot_reach_the_database_keeps_beating_and_renews_once_back(
    pg_server: PgServer, pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    database = pg_url.rsplit("/", 1)[1]
    store = open_store(with_password(parse_db_url(pg_url)))
    beat = Heartbeat(store, Holder("desk-a", Owner.current()), length=1.0).start()

    def renewed_at() -> float | None:
        with pg_server.admin(database) as conn:
            row = conn.execute("SELECT renewed_at FROM leases WHERE desk = 'desk-a'").fetchone()
        return None if row is None else float(row[0])

    def server_now() -> float:
        with pg_server.admin() as conn:
            return float(conn.execute("SELECT extract(epoch from clock_timestamp())").fetchone()[0])

    def failures() -> int:
        return sum("could not renew the lease" in r.getMessage() for r in caplog.records)

    try:
        with caplog.at_level(logging.WARNING, logger="agent_core.storage.team.leases"):
            wait_until(renewed_at, "a first renewal")
            with pg_server.admin() as admin:
                admin.execute(f'ALTER DATABASE "{database}" WITH ALLOW_CONNECTIONS false')
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = %s AND pid <> pg_backend_pid()",
                    (database,),
                )
            try:
                wait_until(lambda: failures() >= 2, "two renewals to fail")
                assert beat.beating
            finally:
                with pg_server.admin() as admin:
                    admin.execute(f'ALTER DATABASE "{database}" WITH ALLOW_CONNECTIONS true')
            back = server_now()
            wait_until(lambda: (at := renewed_at()) and at > back, "a renewal once it is back")
            assert beat.beating
    finally:
        beat.stop()
        store.dispose()


def test_a_bad_desk_id_is_refused_before_anything_is_created(tmp_path: Path) -> None:
    from tests.support.cli import CliRunner

    home = tmp_path / "home"
    result = CliRunner(home)("runs", env={"BRIEFDESK_DESK": "desk a/../b"})
    assert result.code == 2, result.stdout + result.stderr
    assert result.body["error"]["code"] == "invalid_arguments"
    assert "BRIEFDESK_DESK" in result.body["error"]["message"]
    assert not home.exists(), "a refused desk id leaves no home behind"
