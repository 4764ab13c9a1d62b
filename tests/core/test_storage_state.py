"""The four kinds of state stay apart, and rows hold references, not copies of large bodies, so
storage grows linearly with a run. Checked on a real offline demo run."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from agent_core.contract.views import RunView
from agent_core.facade.workspace import Workspace
from agent_core.home.config import DEMO_CORPUS_DIR
from tests.core.conformance.backends import DEMO_QUESTION

QUESTION = DEMO_QUESTION.rstrip("?") + " for executives?"
MAX_CHECKPOINT_ROW_BYTES = 4096


@dataclass
class DemoRun:
    home: Path
    run: RunView
    db: sqlite3.Connection

    def rows(self, sql: str, *params: Any) -> list[sqlite3.Row]:
        return list(self.db.execute(sql, params))


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoRun]:
    home = tmp_path_factory.mktemp("state") / "home"
    ws = Workspace(home)
    try:
        run = ws.start_run(QUESTION)
        assert run["status"] == "waiting_approval", run
        ws.approve(run["approvals"][0]["id"], reviewer="alice")
        run = ws.resume(run["run_id"])
        assert run["status"] == "succeeded", run
    finally:
        ws.close()
    db = sqlite3.connect(home / "state.db")
    db.row_factory = sqlite3.Row
    yield DemoRun(home, run, db)
    db.close()


def _documents() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in DEMO_CORPUS_DIR.iterdir()}


def _row_text(row: sqlite3.Row) -> str:
    return "\n".join(str(v) for v in tuple(row) if v is not None)


def test_each_kind_of_state_lives_in_its_own_table(demo: DemoRun) -> None:
    run_id, thread_id = demo.run["run_id"], demo.run["thread_id"]
    (run_row,) = demo.rows("SELECT * FROM runs WHERE run_id = ?", run_id)
    state = json.loads(run_row["state_json"])
    assert state["sources_read"] and all(s in _documents() for s in state["sources_read"])
    assert state["turns"] >= 3 and state["tool_calls"] >= 5

    session = demo.rows("SELECT * FROM session_items WHERE thread_id = ?", thread_id)
    assert session and {r["run_id"] for r in session} == {run_id}
    assert any(json.loads(r["item_json"]).get("role") == "user" for r in session)
    assert "item_json" not in run_row.keys()  # noqa: SIM118  # messages are the session's, not the run's

    # Checkpoints live until the run ends; an ended run keeps only its latest one.
    cps = demo.rows("SELECT * FROM checkpoints WHERE run_id = ? ORDER BY sequence", run_id)
    saved = demo.rows(
        "SELECT data_json FROM events WHERE run_id = ? AND kind = 'checkpoint_saved'", run_id
    )
    assert len(saved) >= 5 and {json.loads(r["data_json"])["boundary"] for r in saved} == {"A", "B"}
    assert [r["sequence"] for r in cps] == [json.loads(saved[-1]["data_json"])["sequence"]]
    assert all(
        r["runtime_version"] and r["next_step"] and json.loads(r["budgets_json"]) for r in cps
    )

    (mem,) = demo.rows("SELECT * FROM memories")
    assert (mem["tenant"], mem["purpose"], mem["key"], mem["value"]) == (
        "local",
        "brief_audience",
        "audience",
        "executives",
    )
    assert mem["user"] and mem["policy_version"] >= 1
    assert mem["created_at"] < mem["expires_at"]
    assert json.loads(mem["provenance_json"])["run_id"] == run_id


def test_run_and_checkpoint_rows_hold_references_not_document_bodies(demo: DemoRun) -> None:
    docs = _documents()
    read = json.loads(demo.rows("SELECT state_json FROM runs")[0][0])["sources_read"]
    assert len(read) >= 3
    rows = [*demo.rows("SELECT * FROM runs"), *demo.rows("SELECT * FROM checkpoints")]
    for row in rows:
        stored = _row_text(row)
        for name in read:
            body = docs[name].strip()
            assert body not in stored, f"{name} copied into a state row"
            middle = body[len(body) // 4 : len(body) // 4 + 400]
            assert middle not in stored, f"a 400-char stretch of {name} copied into a state row"


def test_the_sdk_run_state_is_stored_once_per_run(demo: DemoRun) -> None:
    run_id = demo.run["run_id"]
    blobs = demo.rows("SELECT digest, data FROM blobs WHERE run_id = ?", run_id)
    states = [
        b
        for b in blobs
        if bytes(b["data"]).lstrip().startswith(b"{") and b'"$schemaVersion"' in bytes(b["data"])
    ]
    assert len(states) == 1
    (runs_digest,) = demo.rows("SELECT state_digest FROM runs WHERE run_id = ?", run_id)
    assert states[0]["digest"] == runs_digest[0]
    # The history lives in that one blob: the documents the run read are in it, once.
    assert b"untrusted_document" in bytes(states[0]["data"])


def test_checkpoint_rows_stay_small_so_storage_grows_linearly(demo: DemoRun) -> None:
    run_id = demo.run["run_id"]
    sizes = [
        sum(len(str(v).encode()) for v in tuple(r) if v is not None)
        for r in demo.rows("SELECT * FROM checkpoints WHERE run_id = ?", run_id)
    ]
    assert sizes and max(sizes) < MAX_CHECKPOINT_ROW_BYTES, sizes
    (state_size,) = demo.rows(
        "SELECT size FROM blobs WHERE digest = (SELECT state_digest FROM runs WHERE run_id = ?)",
        run_id,
    )
    # A full RunState per checkpoint would cost len(checkpoints) x the state; we pay it once.
    assert sum(sizes) < state_size[0]
