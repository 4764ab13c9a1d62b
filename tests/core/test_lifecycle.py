"""One run lifecycle: the transition table row by row, and the bugs that lived at a run's edges.

Each bug test failed before runs/lifecycle.py existed: a cancel marked pending proposals
`rejected` with no event and no audit row (and a later run was then refused with
`previously_rejected`), only one of four ends pruned checkpoints, and a new run was stored as
`interrupted`.

Every test with a real store runs twice: on the home's SQLite file and on a team PostgreSQL
database named by the home's `db.url` setting (the `ws` fixture at the end).
"""

from __future__ import annotations

import ast
import asyncio
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from agent_core.contract.statuses import RunStatus
from agent_core.facade.workspace import Workspace
from agent_core.home import clock
from agent_core.home.clock import ManualClock
from agent_core.runs import lifecycle
from agent_core.runs.transitions import IllegalTransition, Transition, target_of
from agent_core.storage.schema import runs
from agent_core.tools.registry import TOOLS

QUESTION = "How do checkpoints make crash recovery safe?"
REPO = Path(__file__).resolve().parents[2]

S = RunStatus
# Written out by hand (not derived from the code): what each transition may start from.
EXPECTED: dict[Transition, tuple[set[RunStatus], RunStatus]] = {
    Transition.START: ({S.CREATED}, S.RUNNING),
    Transition.RESUME: (
        {S.RUNNING, S.INTERRUPTED, S.WAITING_APPROVAL, S.WAITING_INPUT, S.FAILED},
        S.RUNNING,
    ),
    Transition.WAIT_APPROVAL: ({S.RUNNING}, S.WAITING_APPROVAL),
    Transition.WAIT_INPUT: ({S.RUNNING}, S.WAITING_INPUT),
    Transition.SUCCEED: ({S.RUNNING}, S.SUCCEEDED),
    Transition.FAIL: ({S.RUNNING}, S.FAILED),
    Transition.CANCEL: (
        {S.CREATED, S.RUNNING, S.INTERRUPTED, S.WAITING_APPROVAL, S.WAITING_INPUT},
        S.CANCELLED,
    ),
    Transition.EXPIRE: ({S.RUNNING, S.WAITING_APPROVAL}, S.EXPIRED),
    Transition.RELEASE: ({S.RUNNING}, S.INTERRUPTED),
    Transition.TAKE_OVER: ({S.RUNNING}, S.INTERRUPTED),
    # A revert: any run no process drives and that waits on no proposal; back afterwards.
    Transition.WAIT_REVERT: (
        {S.INTERRUPTED, S.WAITING_INPUT, S.SUCCEEDED, S.FAILED, S.CANCELLED, S.EXPIRED},
        S.WAITING_APPROVAL,
    ),
    Transition.RUN_REVERT: ({S.WAITING_APPROVAL, S.RUNNING}, S.RUNNING),
    Transition.END_REVERT: ({S.WAITING_APPROVAL, S.RUNNING}, S.INTERRUPTED),
    # An external agent's ended session that calls again (runs/agent_sessions.py).
    Transition.REOPEN: ({S.SUCCEEDED}, S.RUNNING),
}
ROWS = [(t, s) for t in Transition for s in RunStatus]


@pytest.mark.parametrize(("transition", "status"), ROWS, ids=lambda v: str(v))
def test_the_transition_table_row_by_row(transition: Transition, status: RunStatus) -> None:
    sources, target = EXPECTED[transition]
    if status in sources:
        assert target_of(status, transition) is target
    else:
        with pytest.raises(IllegalTransition):
            target_of(status, transition)


def test_no_ended_run_moves_except_a_retryable_failure_or_a_revert() -> None:
    for status in RunStatus:
        if status.is_terminal:
            movable = {t for t in Transition if status in EXPECTED[t][0]} - {Transition.WAIT_REVERT}
            allowed = {S.FAILED: {Transition.RESUME}, S.SUCCEEDED: {Transition.REOPEN}}
            assert movable == allowed.get(status, set())


@pytest.mark.parametrize("to", list(RunStatus), ids=str)
def test_a_revert_gives_back_only_a_status_it_may_have_come_from(to: RunStatus) -> None:
    for current in RunStatus:
        if current in EXPECTED[Transition.END_REVERT][0] and (
            to in EXPECTED[Transition.WAIT_REVERT][0] or to is S.INTERRUPTED
        ):
            assert target_of(current, Transition.END_REVERT, to=to) is to
        else:
            with pytest.raises(IllegalTransition):
                target_of(current, Transition.END_REVERT, to=to)


def test_the_status_writer_asks_the_table_walked_above_and_decides_nothing_itself() -> None:
    """`move` once repeated `target_of`'s check, so the walk above tested a function production
    never called (issue 40, item 4): the writer must ask `target_of`, and read no rule."""
    source = (REPO / "agent_core/runs/transitions.py").read_text(encoding="utf-8")
    [writer] = [
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and node.name == "move"
    ]
    called = {
        n.func.id
        for n in ast.walk(writer)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    read = {n.id for n in ast.walk(writer) if isinstance(n, ast.Name)}
    attributes = {n.attr for n in ast.walk(writer) if isinstance(n, ast.Attribute)}
    assert "target_of" in called
    assert "TRANSITIONS" not in read and not {"sources", "also"} & attributes


def test_an_illegal_transition_raises_and_changes_nothing(ws: Workspace) -> None:
    run_id = ws.create_run(QUESTION)
    before = _row(ws, run_id)
    with pytest.raises(IllegalTransition), ws.store.write() as conn:
        lifecycle.succeed(conn, run_id, ws.run_state(run_id), "nope")
    assert _row(ws, run_id) == before


# -- created ----------------------------------------------------------------------------------


def test_a_new_run_is_created_not_interrupted_until_first_driven(ws: Workspace) -> None:
    run_id = ws.create_run(QUESTION)
    assert ws.get_run(run_id)["status"] == "created"
    assert [r["status"] for r in ws.list_runs() if r["run_id"] == run_id] == ["created"]
    assert ws.timeline(run_id) == []
    run = ws.resume(run_id)
    assert run["status"] == "waiting_approval"
    kinds = [e["kind"] for e in ws.timeline(run_id)]
    assert kinds[0] == "run_started" and "run_interrupted" not in kinds


def test_cancelling_a_created_run_ends_it(ws: Workspace) -> None:
    run_id = ws.create_run(QUESTION)
    assert ws.cancel(run_id, reviewer="ana")["status"] == "cancelled"
    finished = [e["data"] for e in ws.timeline(run_id) if e["kind"] == "run_finished"]
    assert finished and finished[0]["by"] == "ana"


# -- cancel ----------------------------------------------------------------------------------


def test_cancel_closes_pending_proposals_as_cancelled_on_record(ws: Workspace) -> None:
    run = ws.start_run(QUESTION)
    assert run["status"] == "waiting_approval"
    approval_id = run["approvals"][0]["id"]

    ws.cancel(run["run_id"], reviewer="ana")

    approval = ws.get_approval(approval_id)
    assert (approval["status"], approval["reviewer"]) == ("cancelled", "ana")
    decided = [
        e["data"]
        for e in ws.timeline(run["run_id"])
        if e["kind"] == "approval_decided" and e["data"]["approval_id"] == approval_id
    ]
    assert decided == [{"approval_id": approval_id, "status": "cancelled", "reviewer": "ana"}]
    entries = [
        e
        for e in ws.audit_entries(run["run_id"])
        if e["entry"] == "decision" and e["decision"] == "cancelled"
    ]
    assert [(e["principal"], e["tool"]) for e in entries] == [("person:ana", "save_brief")]
    assert ws.list_approvals(status="rejected") == []


def test_a_cancelled_proposal_never_counts_as_a_rejection(ws: Workspace) -> None:
    first = ws.start_run(QUESTION)
    ws.cancel(first["run_id"], reviewer="ana")
    second = ws.start_run(QUESTION, thread=first["thread_id"])
    # The same write again in the same thread waits for a person; nobody rejected it.
    assert second["status"] == "waiting_approval", second
    assert second["approvals"][0]["arg_hash"] == first["approvals"][0]["arg_hash"]
    blocked = [e for e in ws.timeline(second["run_id"]) if e["kind"] == "blocked"]
    assert blocked == []


# -- every end prunes and releases -----------------------------------------------------------


def _ended_by(ws: Workspace, how: str) -> str:
    if how == "succeeded":
        run = ws.start_run(QUESTION, mode="acceptEdits")
    elif how == "cancelled":
        run = ws.start_run(QUESTION)
        run = ws.cancel(run["run_id"], reviewer="ana")
    elif how == "rejected":
        run = ws.start_run(QUESTION)
        ws.reject(run["approvals"][0]["id"], reviewer="ana")
        run = ws.resume(run["run_id"])
    elif how == "expired":
        stopped = ManualClock()
        with clock.use(stopped):
            run = ws.start_run(QUESTION, approval_ttl=0.5)
            stopped.advance(1)
            assert ws.get_run(run["run_id"])["status"] == "expired"
            ws.sweep_expired()  # reads only show it; the sweep (a timer tick, a command) records it
        run = ws.get_run(run["run_id"])
    else:  # failed: a budget of 2 tool calls ends it
        run = ws.start_run(QUESTION, max_tool_calls=2)
    assert run["status"] == ("cancelled" if how == "rejected" else how), run
    return run["run_id"]


@pytest.mark.parametrize("how", ["succeeded", "cancelled", "rejected", "expired", "failed"])
def test_every_end_prunes_to_one_checkpoint_and_releases_the_owner(ws: Workspace, how: str) -> None:
    run_id = _ended_by(ws, how)
    row = _row(ws, run_id)
    assert (row["owner_pid"], row["owner_host"], row["question_pending"]) == (None, None, None)
    assert _count(ws, "checkpoints", run_id) == 1
    assert ws.list_approvals(status="pending", run_id=run_id) == []
    finished = [e["data"]["status"] for e in ws.timeline(run_id) if e["kind"] == "run_finished"]
    assert finished == [row["status"]]


# -- blocking work off the loop ----------------------------------------------------------------


@pytest.fixture
def blocking_search(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[threading.Event, threading.Event]]:
    entered, release = threading.Event(), threading.Event()
    spec = TOOLS["search_corpus"]

    def body(env: Any, args: Any) -> Any:
        entered.set()
        assert release.wait(60), "the test never released the tool body"
        return spec.body(env, args)

    monkeypatch.setitem(TOOLS, "search_corpus", replace(spec, body=body))
    yield entered, release
    release.set()


def test_a_blocked_tool_body_leaves_the_loop_free_for_polls_and_a_cancel(
    ws: Workspace, blocking_search: tuple[threading.Event, threading.Event]
) -> None:
    entered, release = blocking_search
    run_id = ws.create_run(QUESTION)

    async def scenario() -> tuple[int, list[str], str]:
        drive = asyncio.create_task(ws.drive_async(run_id))
        while not entered.is_set():
            assert not drive.done(), drive
            await asyncio.sleep(0.01)
        # The body is blocked now. The same loop still serves a heartbeat, a poll, a cancel.
        ticks = 0
        for _ in range(10):
            await asyncio.sleep(0.01)
            ticks += 1
        polled = [e["kind"] for e in ws.timeline(run_id)]
        status = ws.cancel(run_id, reviewer="ana")["status"]
        assert not drive.done()
        release.set()
        await asyncio.wait_for(drive, timeout=60)
        return ticks, polled, status

    ticks, polled, status_while_blocked = asyncio.run(scenario())
    assert ticks == 10 and "tool_called" in polled
    assert status_while_blocked == "running"  # a live owner stops at its next boundary
    run = ws.get_run(run_id)
    assert run["status"] == "cancelled"
    finished = [e["data"] for e in ws.timeline(run_id) if e["kind"] == "run_finished"]
    assert [f["by"] for f in finished] == ["ana"]  # the owner names who asked it to stop
    results = [e["data"] for e in ws.timeline(run_id) if e["kind"] == "tool_result"]
    assert [r["executed"] for r in results] == [True]  # the blocked call finished, once
    assert _count(ws, "checkpoints", run_id) == 1


# -- helpers -----------------------------------------------------------------------------------


@pytest.fixture
def ws(backend_home: Path) -> Iterator[Workspace]:
    """A home on each store: its own SQLite file, and a team PostgreSQL database."""
    workspace = Workspace(backend_home)
    yield workspace
    workspace.close()


def _row(ws: Workspace, run_id: str) -> dict[str, Any]:
    with ws.store.read() as conn:
        return dict(conn.execute(select(runs).where(runs.c.run_id == run_id)).mappings().one())


def _count(ws: Workspace, table: str, run_id: str) -> int:
    with ws.store.read() as conn:
        query = text(f"SELECT count(*) FROM {table} WHERE run_id = :run_id")
        return int(conn.execute(query, {"run_id": run_id}).scalar_one())
