"""Connections open once per thread, never cross a fork, and a tool call commits few times.

A TEMP table lives on one SQLite connection only, so it tells from the database itself which
connection a transaction ran on: the same one each time on one thread, another one on another
thread or in a forked child, and the parent's still intact after the child used the store.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event

from agent_core.contract.events import EventKind
from agent_core.contract.views import EventView
from agent_core.facade.workspace import Workspace
from agent_core.storage.migrate.home import open_store
from agent_core.storage.store import Store
from agent_core.storage.tables.timeline import append_event


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "state.db")
    yield opened
    opened.dispose()


def _mark_connection(store: Store) -> None:
    with store.read() as conn:
        conn.exec_driver_sql("CREATE TEMP TABLE IF NOT EXISTS here (x)")


def _marked(store: Store) -> bool:
    with store.read() as conn:
        found = conn.exec_driver_sql(
            "SELECT count(*) FROM temp.sqlite_master WHERE name = 'here'"
        ).scalar()
    return bool(found)


def test_one_thread_reuses_its_connection_across_transactions(store: Store) -> None:
    _mark_connection(store)
    for _ in range(20):
        with store.write() as conn:
            conn.exec_driver_sql("UPDATE runs SET mode = mode WHERE 0")
    assert _marked(store)  # the same read connection, 20 write transactions later


def test_each_thread_has_a_connection_of_its_own(store: Store) -> None:
    _mark_connection(store)
    seen: list[bool] = []
    errors: list[BaseException] = []

    def other_thread() -> None:
        try:
            seen.append(_marked(store))
            for _ in range(50):
                with store.write() as conn:
                    conn.exec_driver_sql("UPDATE runs SET mode = mode WHERE 0")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=other_thread) for _ in range(4)]
    for t in threads:
        t.start()
    for _ in range(50):
        with store.write() as conn:
            conn.exec_driver_sql("UPDATE runs SET mode = mode WHERE 0")
    for t in threads:
        t.join()
    assert errors == [] and seen == [False] * 4
    assert _marked(store)


def test_a_forked_child_opens_its_own_connection_and_leaves_the_parents_alone(
    store: Store, tmp_path: Path
) -> None:
    _mark_connection(store)
    report = tmp_path / "child.json"
    pid = os.fork()
    if pid == 0:  # the child: use the store it inherited, then leave without cleanup
        code = 1
        try:
            inherited = _marked(store)
            with store.write() as conn:
                conn.exec_driver_sql("CREATE TABLE written_by_child (x)")
            report.write_text(json.dumps({"inherited": inherited}))
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert json.loads(report.read_text()) == {"inherited": False}
    assert _marked(store)  # the parent's connection is still its own, still open
    with store.read() as conn:
        names = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master")}
    assert "written_by_child" in names
    assert store.integrity_check() == "ok"


def test_followers_hear_of_committed_events_only(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "home")
    heard: list[list[EventView]] = []
    unfollow = ws.follow_events(heard.append)
    run_id = ws.create_run("follow me")
    with ws.store.write() as conn:
        append_event(conn, run_id, EventKind.MODEL_TURN, data={"turn": 1})
        assert heard == []  # not before the commit
        append_event(conn, run_id, EventKind.MODEL_TURN, data={"turn": 2})
    committed = ws.timeline(run_id)
    assert [e["seq"] for batch in heard for e in batch] == [e["seq"] for e in committed]
    assert heard[-1][-1] == committed[-1]  # the same EVENT the timeline reads back
    heard.clear()
    with pytest.raises(RuntimeError), ws.store.write() as conn:
        append_event(conn, run_id, EventKind.MODEL_TURN, data={"turn": 99})
        raise RuntimeError("rolled back")
    assert heard == [] and len(ws.timeline(run_id)) == len(committed)
    unfollow()
    ws.close()


def _commits_of_a_run(home: Path, calls: int) -> int:
    script = home.parent / f"script-{calls}.json"
    script.write_text(
        json.dumps([{"call": "search_corpus", "args": {"query": "checkpoint"}}] * calls
                   + [{"say": "done"}])
    )  # fmt: skip
    ws = Workspace(home)
    commits: list[object] = []
    event.listen(ws.store.write_engine, "commit", commits.append)
    run = ws.start_run("commits", model=f"scripted:{script}")
    assert run["status"] == "succeeded"
    ws.close()
    return len(commits)


def test_a_scripted_tool_call_commits_at_most_three_times(tmp_path: Path) -> None:
    """Model turn, checkpoint A (with the conversation's last turn), a read's ledger intent
    with its result + checkpoint B (issue 29)."""
    one = _commits_of_a_run(tmp_path / "one", 1)
    many = _commits_of_a_run(tmp_path / "many", 13)
    # Before: six per call (the RunState apart from checkpoint A, the index synced per search),
    # then four (a read's ledger intent in a commit of its own).
    assert (many - one) / 12 <= 3, f"{many - one} more commits for 12 more calls"
    with Workspace(tmp_path / "many").store.read() as conn:
        confirmed = [json.loads(r[0]) for r in conn.exec_driver_sql(
            "SELECT confirmed_json FROM checkpoints")]  # fmt: skip
    assert confirmed and all(len(keys) <= 1 for keys in confirmed)  # none grows with the run


def _writer_marked(store: Store) -> bool:
    with store.write() as conn:
        found = conn.exec_driver_sql(
            "SELECT count(*) FROM temp.sqlite_master WHERE name = 'mine'"
        ).scalar()
    return bool(found)


def test_a_refusal_inside_a_write_rolls_back_but_keeps_the_connection(store: Store) -> None:
    with store.write() as conn:
        conn.exec_driver_sql("CREATE TEMP TABLE mine (x)")
    with pytest.raises(ValueError), store.write() as conn:
        conn.exec_driver_sql("UPDATE runs SET mode = mode WHERE 0")
        raise ValueError("refused by the caller")
    assert _writer_marked(store)  # same connection: no reconnect for a caller's refusal
    with pytest.raises(Exception), store.write() as conn:  # noqa: B017 (any storage error)
        conn.exec_driver_sql("SELECT * FROM no_such_table")
    assert not _writer_marked(store)  # a database error: the next write starts afresh
