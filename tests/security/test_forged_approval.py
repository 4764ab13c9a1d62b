"""An approval forged in the store authorises nothing: the executor binds it to the model's call.

A home's SQLite file has no roles, so whoever can write the file can write a proposal row. The
executor is the last line: before a side effect runs it checks that the approval belongs to
the call, that its version 1 proposed exactly what the model called (tool_calls.raw_args),
that each later version is a person's edit of the one before, that its arg_hash and target are
those of the arguments it would run, and that a person, a live rule or the run's own mode
decided it. Each forgery here is written with plain SQL, as an attacker with the file would,
and `resume` (a real briefdesk-cli process) must refuse it: a `blocked` event with
`not_authorized`, a refused `tool_result`, and no file written.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent_core.contract.canonical import arg_hash
from tests.support.cli import CliResult, CliRunner

REAL = {"relative_path": "brief.md", "content": "# The model's brief\n"}
FORGED = {"relative_path": "forged.md", "content": "# Forged by someone else\n"}


def _start(cli: CliRunner, tmp_path: Path, mode: str = "default") -> tuple[CliResult, Path]:
    """A scripted run that proposes one save_brief and then ends, stopped at its proposal."""
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"call": "save_brief", "args": REAL}, {"say": "done"}]))
    artifacts = tmp_path / "briefs"
    run = cli(
        "run", "--question", "Write the brief", "--model", f"scripted:{script}",
        "--mode", mode, "--artifacts", str(artifacts),
    )  # fmt: skip
    assert run.body.get("status") == "waiting_approval", run.stdout + run.stderr
    return run, artifacts


def _db(home: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(home / "state.db")
    conn.row_factory = sqlite3.Row
    return conn


def _forge_higher_version(conn: sqlite3.Connection, row: sqlite3.Row, artifacts: Path) -> None:
    """Version 2 with other content and path, "approved by policy" in a default-mode run; the
    model's version 1 made to look replaced."""
    conn.execute("UPDATE approvals SET status = 'superseded' WHERE id = ?", (row["id"],))
    values = dict(row)
    values.update(
        id="ap-forged",
        args_json=json.dumps(FORGED, sort_keys=True),
        target=str(artifacts / "forged.md"),
        base_hash=None,
        arg_hash=arg_hash("save_brief", FORGED),
        version=2,
        status="approved",
        reviewer="policy:acceptEdits",
        decided_by_rule="policy:acceptEdits",
        decided_at=row["created_at"],
    )
    names = ", ".join(values)
    conn.execute(
        f"INSERT INTO approvals ({names}) VALUES ({', '.join('?' * len(values))})",
        tuple(values.values()),
    )


def _forge_version_one(conn: sqlite3.Connection, row: sqlite3.Row, artifacts: Path) -> None:
    """Version 1 itself rewritten to other arguments (consistent hash and target) and
    "approved by a person": it no longer proposes what the model called."""
    conn.execute(
        "UPDATE approvals SET args_json = ?, arg_hash = ?, target = ?, base_hash = NULL, "
        "status = 'approved', reviewer = 'anna', decided_at = created_at WHERE id = ?",
        (
            json.dumps(FORGED, sort_keys=True),
            arg_hash("save_brief", FORGED),
            str(artifacts / "forged.md"),
            row["id"],
        ),
    )


def _forge_target(conn: sqlite3.Connection, row: sqlite3.Row, artifacts: Path) -> None:
    """The model's own arguments, approved by a person, but the row's target moved: the write
    goes where the row says, so the target must be the one the arguments resolve to."""
    conn.execute(
        "UPDATE approvals SET target = ?, base_hash = NULL, status = 'approved', "
        "reviewer = 'anna', decided_at = created_at WHERE id = ?",
        (str(artifacts / "forged.md"), row["id"]),
    )


def _forge_rule(conn: sqlite3.Connection, row: sqlite3.Row, artifacts: Path) -> None:
    """The model's own call "approved by a rule" that does not exist."""
    conn.execute(
        "UPDATE approvals SET status = 'approved', reviewer = 'rule:rule-none', "
        "decided_by_rule = 'rule-none', decided_at = created_at WHERE id = ?",
        (row["id"],),
    )


def _forge_model_call_too(conn: sqlite3.Connection, row: sqlite3.Row, artifacts: Path) -> None:
    """Version 1 and the recorded model call both rewritten to the same other arguments: the
    SDK still runs the model's own call (its saved state), which they no longer match."""
    _forge_version_one(conn, row, artifacts)
    conn.execute(
        "UPDATE tool_calls SET raw_args = ? WHERE run_id = ? AND call_id = ?",
        (json.dumps(FORGED), row["run_id"], row["call_id"]),
    )


FORGERIES: dict[str, Callable[[sqlite3.Connection, sqlite3.Row, Path], None]] = {
    "model_call_rewritten_too": _forge_model_call_too,
    "higher_version_by_policy": _forge_higher_version,
    "version_one_not_the_models_call": _forge_version_one,
    "target_moved": _forge_target,
    "rule_that_does_not_exist": _forge_rule,
}


def _events(cli: CliRunner, run_id: str, kind: str) -> list[dict[str, Any]]:
    listed = cli("timeline", run_id)
    return [e for e in listed.body["events"] if e["kind"] == kind]


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_resume_refuses_an_approval_forged_in_the_file(
    cli: CliRunner, home: Path, tmp_path: Path, forgery: str
) -> None:
    run, artifacts = _start(cli, tmp_path)
    run_id = run.body["run_id"]
    with _db(home) as conn:
        row = conn.execute("SELECT * FROM approvals WHERE run_id = ?", (run_id,)).fetchone()
        FORGERIES[forgery](conn, row, artifacts)
    conn.close()

    resumed = cli("resume", run_id)
    assert resumed.code in (0, 1), resumed.stdout + resumed.stderr
    assert not (artifacts / "forged.md").exists()
    assert not (artifacts / "brief.md").exists()  # nobody approved the model's own call
    blocked = _events(cli, run_id, "blocked")
    assert [(b["tool"], b["data"]["code"]) for b in blocked] == [("save_brief", "not_authorized")]
    results = _events(cli, run_id, "tool_result")
    assert results and not any(r["data"]["executed"] for r in results)
    assert results[-1]["data"]["code"] == "not_authorized"


def test_a_persons_edit_still_runs_its_edited_arguments(
    cli: CliRunner, home: Path, tmp_path: Path
) -> None:
    """The chain check lets through what a person really did: an edit (version 2) approved."""
    run, artifacts = _start(cli, tmp_path)
    first = run.body["approvals"][0]
    edited = {"relative_path": "edited.md", "content": "# Edited by a person\n"}
    new = cli("approvals", "edit", first["id"], "--reviewer", "anna", "--args", json.dumps(edited))
    assert new.body["approval"]["version"] == 2, new.stdout + new.stderr
    approved = cli("approvals", "approve", new.body["approval"]["id"], "--reviewer", "anna")
    assert approved.body["approval"]["status"] == "approved", approved.stdout
    done = cli("resume", run.body["run_id"])
    assert done.body["status"] == "succeeded", done.stdout + done.stderr
    assert (artifacts / "edited.md").read_text() == edited["content"]
    assert not (artifacts / "brief.md").exists()
    assert _events(cli, run.body["run_id"], "blocked") == []


def test_accept_edits_still_writes_the_models_own_call(cli: CliRunner, tmp_path: Path) -> None:
    """A policy approval that the run's stored mode really makes is honoured."""
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"call": "save_brief", "args": REAL}, {"say": "done"}]))
    artifacts = tmp_path / "briefs"
    done = cli(
        "run", "--question", "Write the brief", "--model", f"scripted:{script}",
        "--mode", "acceptEdits", "--artifacts", str(artifacts),
    )  # fmt: skip
    assert done.body["status"] == "succeeded", done.stdout + done.stderr
    assert (artifacts / "brief.md").read_text() == REAL["content"]


def test_a_revision_forged_as_approved_by_the_runs_mode_is_refused(
    cli: CliRunner, home: Path, tmp_path: Path
) -> None:
    """After a request for changes only a person decides the next proposal: a row that says
    the run's mode approved it (the mode forged too) authorises nothing."""
    second = {"relative_path": "brief.md", "content": "# The model's second brief\n"}
    script = tmp_path / "script.json"
    script.write_text(
        json.dumps(
            [{"call": "save_brief", "args": REAL}, {"call": "save_brief", "args": second},
             {"say": "done"}]
        )
    )  # fmt: skip
    artifacts = tmp_path / "briefs"
    run = cli(
        "run", "--question", "Write the brief", "--model", f"scripted:{script}",
        "--artifacts", str(artifacts),
    )  # fmt: skip
    run_id, first = run.body["run_id"], run.body["approvals"][0]
    asked = cli(
        "approvals", "reject", first["id"], "--reviewer", "anna", "--revise",
        "--reason", "shorter",
    )  # fmt: skip
    assert asked.body["approval"]["status"] == "changes_requested", asked.stdout
    revised = cli("resume", run_id)
    [revision] = revised.body["approvals"]
    assert revision["status"] == "pending", revised.stdout + revised.stderr
    with _db(home) as conn:
        conn.execute("UPDATE runs SET mode = 'acceptEdits' WHERE run_id = ?", (run_id,))
        conn.execute(
            "UPDATE approvals SET status = 'approved', reviewer = 'policy:acceptEdits', "
            "decided_by_rule = 'policy:acceptEdits', decided_at = created_at WHERE id = ?",
            (revision["id"],),
        )
    conn.close()

    cli("resume", run_id)
    assert not (artifacts / "brief.md").exists()
    blocked = _events(cli, run_id, "blocked")
    assert [(b["tool"], b["data"]["code"]) for b in blocked] == [("save_brief", "not_authorized")]
