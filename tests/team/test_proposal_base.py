"""A proposal keeps its target's content as it was when proposed (a blob, by hash).

Two desks on one real PostgreSQL database: desk A proposes to overwrite a brief that exists
only on A's machine; desk B (another artifacts folder, no such file) shows the same diff,
decides, and A writes, or refuses with `target_changed` if its own file changed meanwhile.
The last tests are the SQLite side: the blob itself, and its life with its run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from agent_core.cli.text import review_view
from agent_core.contract.canonical import sha256_hex
from agent_core.contract.views import ApprovalShowView
from agent_core.facade.workspace import Workspace
from agent_core.models.offline import slug
from agent_core.storage.schema import approvals, blobs
from tests.team.conftest import Desk

QUESTION = "What is an idempotency key?"
OLD = "An older brief, on desk A only.\n"


def _target(home: Path) -> Path:
    return home / "artifacts" / "briefs" / f"{slug(QUESTION)}.md"


def _propose_overwrite(desk: Desk) -> tuple[Any, dict[str, Any]]:
    """Desk A's run, driven in this process, waiting on its overwrite of an existing brief."""
    target = _target(desk.home)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(OLD)
    ws = desk.workspace()
    run = ws.start_run(QUESTION)
    assert run["status"] == "waiting_approval", run
    return ws, run["approvals"][0]


@pytest.fixture
def proposed(two_desks: tuple[Desk, Desk]) -> Any:
    desk_a, desk_b = two_desks
    ws, approval = _propose_overwrite(desk_a)
    assert not _target(desk_b.home).exists()  # B's machine has no such file
    yield desk_a, desk_b, ws, approval
    ws.close()


def _shown_on(ws: Workspace, approval_id: str) -> ApprovalShowView:
    """`approvals show` as the owner desk's Workspace answers it (the CLI's own code path)."""
    return review_view(ws.describe_approval(approval_id))


def test_a_reviewer_on_another_desk_sees_the_diff_the_proposing_desk_sees(proposed: Any) -> None:
    desk_a, desk_b, ws, approval = proposed
    on_a = _shown_on(ws, approval["id"])
    on_b = desk_b("approvals", "show", approval["id"], check=True).body
    assert on_b["diff"] == on_a["diff"]
    assert "-" + OLD.rstrip("\n") in on_b["diff"].splitlines()  # an overwrite, not a new file
    assert (on_a["compared_with"], on_b["compared_with"]) == ("file", "proposal_base")
    assert on_a["target_changed"] is False and on_b["target_changed"] is False
    # B decides; A writes the approved content, once.
    desk_b("approvals", "approve", approval["id"], "--reviewer", "bea", check=True)
    assert ws.resume(approval["run_id"])["status"] == "succeeded"
    assert _target(desk_a.home).read_text() == approval["args"]["content"]
    assert not _target(desk_b.home).exists()


def test_the_owner_desk_still_reports_and_refuses_a_target_changed_since(proposed: Any) -> None:
    desk_a, desk_b, ws, approval = proposed
    before = _shown_on(ws, approval["id"])
    _target(desk_a.home).write_text("Notes a person wrote meanwhile.\n")
    on_a = _shown_on(ws, approval["id"])
    on_b = desk_b("approvals", "show", approval["id"], check=True).body
    assert on_a["target_changed"] is True
    assert "-Notes a person wrote meanwhile." in on_a["diff"].splitlines()
    assert on_b["diff"] == before["diff"] and on_b["target_changed"] is False
    # B may approve what it saw; at write time A's own check keeps the person's notes.
    desk_b("approvals", "approve", approval["id"], "--reviewer", "bea", check=True)
    ws.resume(approval["run_id"])
    refused = [
        e for e in ws.timeline(approval["run_id"])
        if e["kind"] == "blocked" and e["data"].get("code") == "target_changed"
    ]  # fmt: skip
    assert refused, [e["kind"] for e in ws.timeline(approval["run_id"])]
    assert _target(desk_a.home).read_text() == "Notes a person wrote meanwhile.\n"


def test_an_edit_on_another_desk_keeps_the_base_the_owner_checks(proposed: Any) -> None:
    """B cannot see A's file: its edit is a new version on the same base, so A still refuses
    to write over a file that changed since (here, a person's notes on A)."""
    desk_a, desk_b, ws, approval = proposed
    _target(desk_a.home).write_text("Notes a person wrote meanwhile.\n")
    edited = {**approval["args"], "content": "# Edited on desk B\n"}
    new = desk_b(
        "approvals", "edit", approval["id"], "--reviewer", "bea", "--args", json.dumps(edited),
        check=True,
    ).body["approval"]  # fmt: skip
    assert new["base_hash"] == approval["base_hash"] == sha256_hex(OLD)
    shown = desk_b("approvals", "show", new["id"], check=True).body
    assert "-" + OLD.rstrip("\n") in shown["diff"].splitlines()
    assert "+# Edited on desk B" in shown["diff"].splitlines()
    desk_b("approvals", "approve", new["id"], "--reviewer", "bea", check=True)
    ws.resume(approval["run_id"])
    assert _target(desk_a.home).read_text() == "Notes a person wrote meanwhile.\n"


# -- the blob itself (the home's SQLite file) --------------------------------------------------


def _base_row(ws: Workspace, approval_id: str) -> tuple[Any, bytes | None]:
    with ws.store.read() as conn:
        row = conn.execute(select(approvals).where(approvals.c.id == approval_id)).one()
        data = conn.execute(select(blobs.c.data).where(blobs.c.digest == row.base_digest)).scalar()
    return row, None if data is None else bytes(data)


def test_a_proposal_keeps_the_targets_content_as_a_blob_by_its_hash(ws: Workspace) -> None:
    target = _target(ws.home.root)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(OLD)
    approval = ws.start_run(QUESTION)["approvals"][0]
    row, data = _base_row(ws, approval["id"])
    assert row.base_digest == row.base_hash == sha256_hex(OLD) and data == OLD.encode()
    assert "base_digest" not in approval  # a storage detail, not part of the APPROVAL view
    fresh = ws.start_run("A question whose brief is new")["approvals"][0]
    assert _base_row(ws, fresh["id"])[0].base_digest is None  # nothing to replace, nothing kept


def test_a_base_blob_lives_as_long_as_a_run_that_proposed_on_it(ws: Workspace) -> None:
    target = _target(ws.home.root)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(OLD)
    first = ws.start_run(QUESTION)["approvals"][0]
    second = ws.start_run(QUESTION)["approvals"][0]  # the same file, the same base: one blob
    for approval in (first, second):
        ws.reject(approval["id"], reviewer="ann")
        ws.resume(approval["run_id"])
    ws.delete_run(first["run_id"])
    assert _base_row(ws, second["id"])[1] == OLD.encode()  # passed on to the other run
    assert ws.describe_approval(second["id"])["approval"]["base_hash"] == sha256_hex(OLD)
    ws.delete_run(second["run_id"])
    with ws.store.read() as conn:
        assert (
            conn.execute(select(blobs.c.digest).where(blobs.c.digest == sha256_hex(OLD))).first()
            is None
        )
