"""A revert on a team database, with desk roles (the triggers of migration 0008 in force): the
run's desk proposes it, another desk decides it, the run's desk executes it; another desk may
not propose it (its file is on the run's desk's machine)."""

from __future__ import annotations

from pathlib import Path

from tests.team.test_desk_forgery import LONG, REAL, _waiting_write, desks
from tests.team.test_grants import Team

__all__ = ["desks"]  # the fixture, shared with the forgery tests


def test_a_revert_is_proposed_by_its_desk_and_decided_by_another(
    desks: Team, tmp_path: Path
) -> None:
    run, artifacts = _waiting_write(desks, tmp_path)
    run_id, written = run.body["run_id"], run.body["approvals"][0]["id"]
    target = artifacts / REAL["relative_path"]
    assert desks.desk_b.cli("approvals", "approve", written, "--reviewer", "ben").code == 0
    assert desks.desk_a.cli("resume", run_id, **LONG).body["status"] == "succeeded"
    assert target.read_text() == REAL["content"]

    elsewhere = desks.desk_b.cli("approvals", "revert", written, "--reviewer", "ben")
    assert elsewhere.body["error"]["code"] == "run_owned_elsewhere", elsewhere.stdout
    proposed = desks.desk_a.cli("approvals", "revert", written, "--reviewer", "ana")
    revert = proposed.body["approval"]
    assert (revert["status"], revert["revises"]) == ("pending", written), proposed.stdout
    decided = desks.desk_b.cli("approvals", "approve", revert["id"], "--reviewer", "ben")
    assert decided.body["approval"]["status"] == "approved", decided.stdout
    resumed = desks.desk_a.cli("resume", run_id, **LONG)
    assert resumed.body["status"] == "succeeded", resumed.stdout + resumed.stderr
    assert not target.exists()

    # Rejected by another desk, which may not change desk A's run: A gives the status back.
    again = desks.desk_a.cli("approvals", "revert", revert["id"], "--reviewer", "ana")
    redo = again.body["approval"]
    assert redo["args"]["content"] == REAL["content"], again.stdout
    rejected = desks.desk_b.cli("approvals", "reject", redo["id"], "--reviewer", "ben")
    assert rejected.body["approval"]["status"] == "rejected", rejected.stdout + rejected.stderr
    back = desks.desk_a.cli("resume", run_id, **LONG)
    assert back.body["status"] == "succeeded", back.stdout + back.stderr
    assert not target.exists()
