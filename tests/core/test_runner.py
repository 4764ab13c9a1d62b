"""The research-brief runner: tools, refusals, replay, budgets, sessions, the offline brief."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from agent_core.facade.workspace import Workspace
from agent_core.storage.schema import blobs, checkpoints, ledger, runs

QUESTION = "How do checkpoints make agent runs durable?"


def _script(tmp_path: Path, turns: list[dict[str, Any]], name: str = "script.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(turns))
    return f"scripted:{path}"


def _kinds(ws: Workspace, run_id: str) -> list[str]:
    return [e["kind"] for e in ws.timeline(run_id)]


def _results(ws: Workspace, run_id: str, tool: str | None = None) -> list[dict[str, Any]]:
    return [
        e["data"]
        for e in ws.timeline(run_id)
        if e["kind"] == "tool_result" and (tool is None or e["tool"] == tool)
    ]


def _blocked(ws: Workspace, run_id: str) -> list[tuple[str | None, str]]:
    return [(e["tool"], e["data"]["code"]) for e in ws.timeline(run_id) if e["kind"] == "blocked"]


def test_demo_run_stops_for_approval_with_the_full_timeline(ws: Workspace) -> None:
    run = ws.start_run(QUESTION)
    assert run["status"] == "waiting_approval"
    kinds = _kinds(ws, run["run_id"])
    for kind in (
        "run_started",
        "model_turn",
        "checkpoint_saved",
        "tool_called",
        "tool_result",
        "approval_requested",
    ):
        assert kind in kinds
    boundaries = {
        e["data"]["boundary"] for e in ws.timeline(run["run_id"]) if e["kind"] == "checkpoint_saved"
    }
    assert boundaries == {"A", "B"}
    assert not any(Path(run["artifacts"]).rglob("*.md"))
    # The offline model's first call is exactly one search_corpus.
    first_turn = next(e for e in ws.timeline(run["run_id"]) if e["kind"] == "model_turn")
    assert first_turn["data"]["calls"] == ["search_corpus"]
    turns = [e["data"]["turn"] for e in ws.timeline(run["run_id"]) if e["kind"] == "model_turn"]
    assert turns == list(range(1, len(turns) + 1))
    call_ids = [d["call_id"] for d in _results(ws, run["run_id"])]
    assert len(call_ids) == len(set(call_ids))


def test_offline_brief_cites_only_documents_it_read(ws: Workspace) -> None:
    run = ws.start_run(QUESTION)
    content = run["approvals"][0]["args"]["content"]
    read = {d["source_id"] for d in _results(ws, run["run_id"], "read_document")}
    cited = set(re.findall(r"\[([^\]]+\.(?:md|txt))\]", content))
    assert cited and cited <= read
    assert content.startswith(f"# Brief: {QUESTION}") and "## Sources" in content
    assert list(ws.run_state(run["run_id"]).sources_read) == sorted(
        read, key=list(ws.run_state(run["run_id"]).sources_read).index
    )


def test_offline_model_leaves_injected_instructions_out(ws: Workspace) -> None:
    run = ws.start_run("What do the vendor integration notes say about the incident?")
    content = run["approvals"][0]["args"]["content"]
    assert "vendor-integration-notes.md" in {
        d["source_id"] for d in _results(ws, run["run_id"], "read_document")
    }
    for needle in (
        "SYSTEM UPDATE",
        "Ignore the task",
        "fetch_url",
        "authorized_keys",
        "Assistant,",
        "API key",
    ):
        assert needle not in content


def test_audience_is_remembered_in_long_term_memory(ws: Workspace) -> None:
    run = ws.start_run("How should approvals work, for executives?")
    assert run["status"] == "waiting_approval"
    memories = ws.memories()
    assert [(m["purpose"], m["value"], m["provenance"]["run_id"]) for m in memories] == [
        ("brief_audience", "executives", run["run_id"])
    ]


def test_refusals_record_blocked_events_and_the_run_goes_on(ws: Workspace, tmp_path: Path) -> None:
    model = _script(
        tmp_path,
        [
            {
                "calls": [
                    {"call": "run_shell", "args": {"cmd": "env"}},
                    {"call": "read_document", "args": {"path": "../../etc/passwd"}},
                    {"call": "read_document", "args": {"path": "missing.md"}},
                    {"call": "search_corpus", "args": {"query": "keys", "extra": 1}},
                    {"call": "fetch_url", "args": {"url": "https://example.org/"}},
                    {"call": "search_corpus", "args": {"query": "approval"}},
                ]
            },
            {"say": "done"},
        ],
    )
    run = ws.start_run("attack", model=model)
    assert run["status"] == "succeeded" and run["output"] == "done"
    assert sorted(_blocked(ws, run["run_id"])) == sorted(
        [
            ("run_shell", "unknown_tool"),
            ("read_document", "path_outside_scope"),
            ("read_document", "not_found"),
            ("search_corpus", "invalid_arguments"),
            ("fetch_url", "network_blocked"),
        ]
    )
    results = _results(ws, run["run_id"])
    assert sum(1 for r in results if r["executed"]) == 1  # only the legitimate search ran
    assert sum(1 for r in results if r["outcome"] == "error" and not r["executed"]) == 5
    assert ws.list_approvals(run_id=run["run_id"]) == []  # invalid calls are never approvable


def test_large_results_are_offloaded_to_blobs_and_replayed(ws: Workspace, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "long.md").write_text("# Long\n\n" + "Durable runs keep state. " * 800)
    model = _script(
        tmp_path, [{"call": "read_document", "args": {"path": "long.md"}}, {"say": "ok"}]
    )
    run = ws.start_run("long", model=model, corpus=corpus)
    assert run["status"] == "succeeded"
    with ws.store.read() as conn:
        entry = conn.execute(select(ledger).where(ledger.c.run_id == run["run_id"])).one()
        record = json.loads(entry.result_json)
        assert record["text"] is None and len(record["blob"]) == 64
        stored = conn.execute(
            select(blobs.c.data).where(blobs.c.digest == record["blob"])
        ).scalar_one()
    assert b"Durable runs keep state." in stored and len(stored) > 8000


def test_recorded_results_are_replayed_not_executed(ws: Workspace, tmp_path: Path) -> None:
    model = _script(
        tmp_path, [{"call": "search_corpus", "args": {"query": "ledger"}}, {"say": "ok"}]
    )
    run_id = ws.create_run("replay", model=model)
    assert ws.drive(run_id)["status"] == "succeeded"
    # As if the process died after the search was confirmed: a read runs without a pause, so
    # no RunState was saved and the run replays from its question; the search comes back
    # from the ledger.
    with ws.store.write() as conn:
        conn.execute(runs.update().where(runs.c.run_id == run_id).values(status="interrupted"))
    assert ws.resume(run_id)["status"] == "succeeded"
    results = _results(ws, run_id, "search_corpus")
    assert [(r["executed"], r.get("replayed", False)) for r in results] == [
        (True, False),
        (False, True),
    ]
    with ws.store.read() as conn:
        assert len(conn.execute(select(ledger).where(ledger.c.run_id == run_id)).all()) == 1


def test_turn_budget_ends_the_run_clearly(ws: Workspace, tmp_path: Path) -> None:
    model = _script(
        tmp_path, [{"call": "search_corpus", "args": {"query": f"q{i}"}} for i in range(10)]
    )
    run = ws.start_run("loop", model=model, max_turns=3)
    assert run["status"] == "failed"
    assert run["error"]["code"] == "budget_exceeded" and "3 model turns" in run["error"]["message"]
    turns = [e for e in ws.timeline(run["run_id"]) if e["kind"] == "model_turn"]
    assert len(turns) == 3


def test_tool_call_budget_ends_the_run_clearly(ws: Workspace, tmp_path: Path) -> None:
    model = _script(
        tmp_path,
        [
            {"calls": [{"call": "search_corpus", "args": {"query": f"q{i}"}} for i in range(3)]},
            {"calls": [{"call": "search_corpus", "args": {"query": f"r{i}"}} for i in range(3)]},
            {"say": "never"},
        ],
    )
    run = ws.start_run("calls", model=model, max_tool_calls=4)
    assert run["status"] == "failed" and run["error"]["code"] == "budget_exceeded"
    assert sum(1 for r in _results(ws, run["run_id"]) if r["executed"]) <= 4


def test_ask_question_waits_for_an_answer_then_continues(ws: Workspace, tmp_path: Path) -> None:
    model = _script(
        tmp_path,
        [{"call": "ask_question", "args": {"question": "Which audience?"}}, {"say": "thanks"}],
    )
    run = ws.start_run("ask", model=model)
    assert run["status"] == "waiting_input" and run["question_pending"] == "Which audience?"
    assert ws.resume(run["run_id"])["status"] == "waiting_input"  # no answer yet: still waiting
    ws.answer(run["run_id"], "engineers")
    done = ws.resume(run["run_id"])
    assert done["status"] == "succeeded" and done["question_pending"] is None
    kinds = _kinds(ws, run["run_id"])
    assert kinds.index("question_asked") < kinds.index("answer_received")
    assert _results(ws, run["run_id"], "ask_question") == [
        {
            "call_id": _results(ws, run["run_id"], "ask_question")[0]["call_id"],
            "outcome": "success",
            "executed": True,
            "result": "The person answered: engineers",  # what the model received
        }
    ]


def test_threads_continue_and_new_threads_inherit_nothing(ws: Workspace, tmp_path: Path) -> None:
    first = ws.start_run(QUESTION, mode="acceptEdits")
    assert first["status"] == "succeeded"
    model = _script(tmp_path, [{"say": "continuing"}])
    follow = ws.start_run("and in short?", thread=first["thread_id"], model=model)
    fresh = ws.start_run("new thread", model=model)
    from agent_core.storage.tables.sessions import load_items

    with ws.store.read() as conn:
        thread_items = load_items(conn, first["thread_id"])
        fresh_items = load_items(conn, fresh["thread_id"])
    questions = [i.get("content") for i in thread_items if i.get("role") == "user"]
    assert questions == [QUESTION, "and in short?"]
    assert [i.get("content") for i in fresh_items if i.get("role") == "user"] == ["new thread"]
    assert follow["thread_id"] == first["thread_id"] != fresh["thread_id"]


def test_cancel_of_a_waiting_run_ends_it(ws: Workspace) -> None:
    run = ws.start_run(QUESTION)
    cancelled = ws.cancel(run["run_id"])
    assert cancelled["status"] == "cancelled" and cancelled["approvals"] == []
    assert ws.resume(run["run_id"])["status"] == "cancelled"
    assert not any(Path(run["artifacts"]).rglob("*.md"))


@pytest.mark.parametrize(
    "bad",
    [{"question": ""}, {"question": "x", "mode": "yolo"}, {"question": "x", "model": "gpt-5"}],
)
def test_bad_run_options_answer_invalid_arguments(ws: Workspace, bad: dict[str, Any]) -> None:
    from agent_core.contract.errors import BriefDeskError

    with pytest.raises(BriefDeskError) as info:
        ws.create_run(**bad)
    assert info.value.code == "invalid_arguments"
    assert ws.list_runs() == []


def test_cancel_from_another_thread_stops_a_running_run_at_a_boundary(
    ws: Workspace, tmp_path: Path
) -> None:
    import threading

    from agent_core.facade.workspace import Workspace
    from tests.support.waiting import wait_until

    model = _script(
        tmp_path, [{"call": "search_corpus", "args": {"query": f"q{i}"}} for i in range(45)]
    )
    run_id = ws.create_run("long", model=model)
    driver_ws = Workspace(ws.home.root)
    thread = threading.Thread(target=driver_ws.drive, args=(run_id,))
    thread.start()
    wait_until(
        lambda: any(e["kind"] == "tool_result" for e in ws.timeline(run_id)),
        timeout=30,
        interval=0.01,
    )
    ws.cancel(run_id)
    thread.join(60)
    driver_ws.close()
    run = ws.get_run(run_id)
    assert run["status"] == "cancelled", run["error"]
    turns = [e for e in ws.timeline(run_id) if e["kind"] == "model_turn"]
    assert 1 <= len(turns) < 45
    assert ws.timeline(run_id)[-1]["kind"] == "run_finished"


def test_an_ended_run_keeps_only_its_latest_checkpoint(ws: Workspace) -> None:
    run = ws.start_run(QUESTION, mode="acceptEdits")
    assert run["status"] == "succeeded"
    saved = [e for e in ws.timeline(run["run_id"]) if e["kind"] == "checkpoint_saved"]
    with ws.store.read() as conn:
        rows = conn.execute(select(checkpoints).where(checkpoints.c.run_id == run["run_id"])).all()
    assert len(saved) > 5
    assert [r.sequence for r in rows] == [saved[-1]["data"]["sequence"]]
    assert ws.resume(run["run_id"])["status"] == "succeeded"


def test_a_remembered_audience_shapes_later_briefs_until_it_is_deleted(ws: Workspace) -> None:
    first = ws.start_run("How should approvals work, for executives?", mode="acceptEdits")
    assert first["status"] == "succeeded"
    later = ws.start_run("Why keep API keys in the OS keyring?")
    content = later["approvals"][0]["args"]["content"]
    assert "_Audience: executives_" in content
    calls = [
        c
        for e in ws.timeline(later["run_id"])
        if e["kind"] == "model_turn"
        for c in e["data"]["calls"]
    ]
    assert "remember_audience" not in calls  # already remembered: nothing new to store
    user = ws.memories()[0]["user"]
    assert ws.delete_user_memory(user) == 1
    after = ws.start_run("Why keep API keys in the OS keyring?")
    assert "_Audience:" not in after["approvals"][0]["args"]["content"]
