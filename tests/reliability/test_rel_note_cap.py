"""Issue 24: notes and reasons are at most 10,000 characters (the contract's third wave).

A longer `--reason` (approve, reject, a request for changes) answers `invalid_arguments`, exit 2,
one JSON error, and changes nothing; exactly 10,000 characters (counted as characters, not
bytes) is accepted. Through real `briefdesk-cli` subprocesses, and through the facade the
window calls (its "Approve edited" edits before it approves: the cap must refuse first).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agent_core.contract.errors import BriefDeskError
from agent_core.facade.workspace import Workspace
from tests.support.cli import CliRunner

pytestmark = pytest.mark.slow

QUESTION = "How do checkpoints make agent runs durable?"
CAP = 10_000


def _state(home: Path) -> dict[str, list[tuple[Any, ...]]]:
    """What a decision could change: proposals, events, the audit log, the runs."""
    with sqlite3.connect(home / "state.db") as db:
        return {
            table: list(db.execute(f"SELECT * FROM {table} ORDER BY 1"))
            for table in ("approvals", "events", "audit", "runs", "rules")
        }


def test_a_reason_past_10000_characters_is_refused_and_exactly_10000_is_kept(
    cli: CliRunner, home: Path
) -> None:
    run = cli("run", "--question", QUESTION, check=True).body
    run_id, [first] = run["run_id"], run["approvals"]
    before = _state(home)
    long = "x" * (CAP + 1)
    for decision in (
        ("approve", first["id"], "--reason", long),
        ("reject", first["id"], "--reason", long),
        ("reject", first["id"], "--reason", long, "--revise"),
    ):
        refused = cli("approvals", *decision, "--reviewer", "ada")
        assert refused.code == 2, refused.stdout[:300]
        assert refused.stdout.count("\n") == 1 and refused.body["api"] == 1
        assert refused.body["error"]["code"] == "invalid_arguments", refused.body
        assert "10,000" in refused.body["error"]["message"]
    assert _state(home) == before  # nothing changed

    exactly = "é" * CAP  # 10,000 characters, 20,000 bytes
    sent = cli(
        "approvals", "reject", first["id"], "--reviewer", "ada", "--reason", exactly, "--revise"
    )
    assert sent.code == 0, sent.stdout[:300]
    assert sent.body["approval"]["decision_reason"] == exactly
    [second] = cli("resume", run_id, check=True).body["approvals"]
    approved = cli("approvals", "approve", second["id"], "--reviewer", "ada", "--reason", "y" * CAP)
    assert approved.code == 0, approved.stdout[:300]
    assert approved.body["approval"]["decision_reason"] == "y" * CAP


def test_the_windows_approve_edited_refuses_a_long_reason_before_it_edits(ws: Workspace) -> None:
    run = ws.start_run(QUESTION)
    [proposal] = run["approvals"]
    with pytest.raises(BriefDeskError) as refused:
        ws.approve_edited(
            proposal["id"], reviewer="ada", args=proposal["args"], reason="z" * (CAP + 1)
        )
    assert refused.value.code == "invalid_arguments"
    # Not superseded by an edit made before the refusal: the same proposal still waits.
    assert [a["id"] for a in ws.list_approvals(status="pending")] == [proposal["id"]]
    with pytest.raises(BriefDeskError) as too_long:
        ws.reject(proposal["id"], reviewer="ada", reason="z" * (CAP + 1), revise=True)
    assert too_long.value.code == "invalid_arguments"
    kept = ws.approve_edited(proposal["id"], reviewer="ada", args=proposal["args"], reason="ok")
    assert kept["status"] == "approved"
