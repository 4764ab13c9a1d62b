"""Saved checkpoints from other runtime versions: the current one loads and continues; an older,
foreign or corrupt one is refused with `migration_required` and the run is left untouched.

The payloads live in tests/fixtures/checkpoints/ (see regenerate.py there); every file in that
folder is tested, each against the outcome it declares in `expect`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from agent_core import RUNTIME_VERSION
from agent_core.contract.statuses import RunStatus
from agent_core.facade.workspace import Workspace
from agent_core.home.clock import now_iso
from agent_core.storage.schema import approvals, blobs, checkpoints, events, ledger, runs
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.checkpoints import Checkpoint, CheckpointStore, save_state_string
from tests.drills.drill_support import double_execution_problems, turn_problems
from tests.support.cli import REPO_ROOT, CliRunner

pytestmark = pytest.mark.slow

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "checkpoints"
PAYLOADS = sorted(FIXTURES.glob("*.json"))


def _install(ws: Workspace, payload: dict[str, Any]) -> str:
    """Put the payload's run into this home as an interrupted run with that latest checkpoint."""
    run = payload["run"]
    cp = payload["checkpoint"]
    with ws.store.write() as conn:
        run_rows.insert_run(
            conn,
            run_rows.RunRow(
                run_id=run["run_id"],
                thread_id=run["thread_id"],
                status=RunStatus.INTERRUPTED,
                question=run["question"],
                model=run["model"],
                mode=run["mode"],
                corpus_dir=str(ws.home.corpus),
                artifacts_dir=str(ws.home.artifacts),
                limits_json=json.dumps(run["limits"]),
                state_json=json.dumps(run["state"]),
                created_at=now_iso(),
                updated_at=now_iso(),
            ),
        )
        digest = save_state_string(conn, run["run_id"], payload["run_state_string"])
        CheckpointStore(ws.store).save(
            conn,
            Checkpoint(
                run_id=run["run_id"],
                boundary=cp["boundary"],
                next_step=cp["next_step"],
                run_state=cp["run_state"],
                budgets=cp["budgets"],
                runtime_version=cp["runtime_version"],
                confirmed=cp["confirmed"],
                call_id=cp["call_id"],
                state_digest=digest,
            ),
        )
    return str(run["run_id"])


def _snapshot(ws: Workspace, run_id: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row the run owns, as stored."""
    with ws.store.read() as conn:
        return {
            table.name: [
                tuple(r) for r in conn.execute(select(table).where(table.c.run_id == run_id))
            ]
            for table in (runs, checkpoints, events, approvals, ledger, blobs)
        }


def test_the_corpus_covers_old_current_and_corrupt_payloads() -> None:
    payloads = [json.loads(p.read_text(encoding="utf-8")) for p in PAYLOADS]
    versions = {p["checkpoint"]["runtime_version"] for p in payloads}
    assert RUNTIME_VERSION in versions and len(versions) >= 2, versions
    assert {p["expect"] for p in payloads} == {"loads", "migration_required"}
    assert all(p["format"] == 1 and p["run_state_string"] for p in payloads)


@pytest.mark.parametrize("path", PAYLOADS, ids=[p.stem for p in PAYLOADS])
def test_saved_payload_loads_or_is_refused_clearly(
    path: Path, cli: CliRunner, ws: Workspace
) -> None:
    payload = json.loads(path.read_text(encoding="utf-8"))
    run_id = _install(ws, payload)
    before = _snapshot(ws, run_id)

    result = cli("resume", run_id)

    if payload["expect"] == "migration_required":
        assert result.code != 0, result.stdout
        assert set(result.body) == {"api", "error"}, result.body
        assert result.body["error"]["code"] == "migration_required"
        message = result.body["error"]["message"]
        assert run_id in message and "cannot" in message
        if payload["checkpoint"]["runtime_version"] != RUNTIME_VERSION:
            assert (
                payload["checkpoint"]["runtime_version"] in message and RUNTIME_VERSION in message
            )
        assert "Traceback" not in result.stderr
        assert _snapshot(ws, run_id) == before, "a refused resume changed the run"
        assert ws.get_run(run_id)["status"] == "interrupted"
        assert list(ws.home.artifacts.rglob("*.md")) == []
        return

    # Loads: the run continues from the saved boundary with its saved state, not from scratch.
    assert result.code == 0, result.stdout + result.stderr
    assert result.body["status"] == "waiting_approval", result.body
    events_after = ws.timeline(run_id)
    assert [e["kind"] for e in events_after if e["kind"].startswith("run_")] == ["run_resumed"]
    assert [e["tool"] for e in events_after if e["kind"] == "tool_called"] == ["read_document"] * 3
    turns = [e["data"]["turn"] for e in events_after if e["kind"] == "model_turn"]
    assert turns == [payload["run"]["state"]["turns"] + 1], turns  # the count did not reset
    assert double_execution_problems(events_after) == [] and turn_problems(events_after) == []
    state = ws.run_state(run_id)
    assert list(state.sources_found) == payload["run"]["state"]["sources_found"]
    assert len(state.sources_read) == 3
