"""Issue #5 drills, the way a reviewer runs them: real `briefdesk-cli` processes that SIGKILL
themselves at BRIEFDESK_CRASH_AT, then `runs` and `resume` from a fresh process.

Each drill runs twice: on the home's SQLite file and on a team PostgreSQL database named by the
home's `db.url` setting (the `home` fixture below), through the same commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent_core.facade.workspace import Workspace
from agent_core.storage.tables.checkpoints import CheckpointStore
from tests.drills.drill_support import (
    DEMO_QUESTION,
    KILLED_BY_SIGKILL,
    double_execution_problems,
    events_of,
    executions_per_call,
    file_identity,
    kinds,
    ledger_rows,
    sha256_file,
    turn_problems,
)
from tests.support.cli import CliRunner

pytestmark = pytest.mark.slow


@pytest.fixture
def home(backend_home: Path) -> Path:
    return backend_home


def _only_run(cli: CliRunner) -> dict[str, Any]:
    listed = cli("runs", check=True).body["runs"]
    assert len(listed) == 1, listed
    run = listed[0]
    assert isinstance(run, dict), run
    return run


def test_crash_before_second_tool_resumes_without_repeating_the_search(
    cli: CliRunner, ws: Workspace
) -> None:
    killed = cli("run", "--question", DEMO_QUESTION, env={"BRIEFDESK_CRASH_AT": "before_tool:2"})
    assert killed.code == KILLED_BY_SIGKILL, (killed.code, killed.stdout, killed.stderr)

    run = _only_run(cli)  # right after the kill: the owner pid is dead, so interrupted at once
    assert run["status"] == "interrupted"
    run_id = run["run_id"]
    search = [e for e in events_of(ws, run_id, "tool_result") if e["tool"] == "search_corpus"]
    assert len(search) == 1 and search[0]["data"]["executed"] is True
    found = search[0]["data"]["sources_found"]
    assert found, "the search found nothing to read"
    assert list(ws.run_state(run_id).sources_found) == found
    latest = CheckpointStore(ws.store).latest(run_id)
    assert latest is not None and latest.boundary == "A"
    assert "read_document" in latest.next_step, latest  # the next step is reading documents
    turns_before = [int(str(e["data"]["turn"])) for e in events_of(ws, run_id, "model_turn")]

    resumed = cli("resume", run_id)
    assert resumed.code == 0, resumed.stdout + resumed.stderr
    assert resumed.body["status"] == "waiting_approval"

    events = events_of(ws, run_id)
    lifecycle = [k for k in kinds(events) if k.startswith("run_")]
    assert lifecycle == ["run_started", "run_interrupted", "run_resumed"]
    executed = executions_per_call(events)
    search_calls = {
        str(e["data"]["call_id"])
        for e in events
        if e["tool"] == "search_corpus" and e["kind"] == "tool_result"
    }
    assert len(search_calls) == 1 and executed[next(iter(search_calls))] == 1
    assert [e["tool"] for e in events if e["kind"] == "tool_called"].count("search_corpus") == 1
    assert [r.tool for r in ledger_rows(ws, run_id)].count("search_corpus") == 1
    assert double_execution_problems(events) == []
    assert turn_problems(events) == []
    turns_after = [int(str(e["data"]["turn"])) for e in events if e["kind"] == "model_turn"]
    assert turns_after[: len(turns_before)] == turns_before and turns_after[-1] > turns_before[-1]
    # Replayed after the kill, each turn was asked again: each recorded response counted once.
    assert resumed.body["usage"]["requests"] == len(turns_after)
    assert resumed.body["usage"]["cost"] == 0 and resumed.body["usage"]["input_tokens"] == 0
    reads = [e for e in events if e["kind"] == "tool_result" and e["tool"] == "read_document"]
    assert {e["data"]["source_id"] for e in reads} <= set(found) and len(reads) == 3
    assert all(e["data"]["executed"] for e in reads)
    state = ws.run_state(run_id)
    assert list(state.sources_found) == found
    assert set(state.sources_read) == {e["data"]["source_id"] for e in reads}


def test_crash_after_write_before_confirm_reconciles_without_writing_again(
    cli: CliRunner, ws: Workspace, home: Path
) -> None:
    first = cli("run", "--question", DEMO_QUESTION, check=True).body
    assert first["status"] == "waiting_approval"
    run_id, approval = first["run_id"], first["approvals"][0]
    cli("approvals", "approve", approval["id"], "--reviewer", "drill", check=True)

    killed = cli("resume", run_id, env={"BRIEFDESK_CRASH_AT": "after_write_before_confirm"})
    assert killed.code == KILLED_BY_SIGKILL, (killed.code, killed.stdout, killed.stderr)
    assert _only_run(cli)["status"] == "interrupted"
    brief = Path(approval["target"])
    assert (
        brief.read_text(encoding="utf-8") == approval["args"]["content"]
    )  # durable before confirmed
    written = file_identity(brief)
    (entry,) = [r for r in ledger_rows(ws, run_id) if r.tool == "save_brief"]
    assert entry.status == "started" and entry.confirmed_at is None  # its fate is unknown

    resumed = cli("resume", run_id)
    assert resumed.code == 0, resumed.stdout + resumed.stderr
    assert resumed.body["status"] == "succeeded"

    assert file_identity(brief) == written, "the brief was written again"
    assert sha256_file(brief) == entry.expected_hash
    assert sorted(p.name for p in brief.parent.iterdir()) == [brief.name]
    events = events_of(ws, run_id)
    call_id = entry.call_id
    for_call = [
        e["kind"]
        for e in events
        if e["data"].get("call_id") == call_id and e["kind"] != "checkpoint_saved"
    ]
    unknown_at = for_call.index("outcome_unknown")
    assert for_call[unknown_at + 1 :] == ["reconciled", "tool_result"], for_call
    (result,) = [
        e for e in events if e["kind"] == "tool_result" and e["data"]["call_id"] == call_id
    ]
    assert result["data"]["executed"] is True and result["data"]["outcome"] == "success"
    assert result["data"]["reconciled"] is True
    assert double_execution_problems(events) == []
    assert turn_problems(events) == []
    (entry_after,) = [r for r in ledger_rows(ws, run_id) if r.tool == "save_brief"]
    assert entry_after.status == "confirmed"
    (consumed,) = ws.list_approvals(run_id=run_id)
    assert consumed["id"] == approval["id"] and consumed["status"] == "consumed"
