"""A way back (`approvals revert`): an executed write's target put back byte for byte, by a
proposal a person decides, executed once by `resume` with no model turn.

Through the façade on a real SQLite home (and one CLI smoke test, one SIGKILL drill in a real
subprocess); every outcome is read off the artifacts folder and the ledger, not return values.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from agent_core.contract.errors import BriefDeskError
from agent_core.contract.views import ApprovalView, EventView
from agent_core.facade.workspace import Workspace
from agent_core.home.clock import ManualClock
from agent_core.storage.schema import audit, ledger
from tests.support.cli import CliRunner

QUESTION = "How do checkpoints make agent runs durable?"
BRIEF = "briefs/brief.md"


def _script(tmp_path: Path, turns: list[dict[str, Any]], name: str = "script.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(turns))
    return f"scripted:{path}"


def _saving(tmp_path: Path, content: str, name: str = "script.json") -> str:
    return _script(
        tmp_path,
        [
            {"call": "save_brief", "args": {"relative_path": BRIEF, "content": content}},
            {"say": "ok"},
        ],
        name,
    )


def _written_run(ws: Workspace, tmp_path: Path, content: str = "# New brief\n") -> tuple[str, str]:
    """A run that wrote BRIEF (approved by a person) and ended `succeeded`: (run id, approval)."""
    run = ws.start_run(QUESTION, model=_saving(tmp_path, content))
    assert run["status"] == "waiting_approval", run
    approval_id = run["approvals"][0]["id"]
    ws.approve(approval_id, reviewer="ana")
    assert ws.resume(run["run_id"])["status"] == "succeeded"
    return run["run_id"], approval_id


def _target(ws: Workspace) -> Path:
    return Path(ws.home.artifacts) / BRIEF


def _ledger_rows(ws: Workspace, run_id: str) -> list[Any]:
    with ws.store.read() as conn:
        return list(conn.execute(select(ledger).where(ledger.c.run_id == run_id)))


def _executed(ws: Workspace, run_id: str) -> list[EventView]:
    return [
        e for e in ws.timeline(run_id) if e["kind"] == "tool_result" and e["data"].get("executed")
    ]


def test_reverting_an_overwrite_puts_the_old_bytes_back_once(ws: Workspace, tmp_path: Path) -> None:
    target = _target(ws)
    target.parent.mkdir(parents=True, exist_ok=True)
    old = "Old brief\r\nwith CRLF, a BOM-less é and no final newline".encode()
    target.write_bytes(old)
    run_id, written = _written_run(ws, tmp_path)
    assert target.read_text() == "# New brief\n"

    revert = ws.revert(written, reviewer="bo", reason="the old one was better")
    assert revert["status"] == "pending"
    assert (revert["revises"], revert["revision"], revert["revision_note"]) == (
        written,
        1,
        "the old one was better",
    )
    assert revert["tool"] == "save_brief" and revert["run_id"] == run_id
    assert revert["args"] == {"relative_path": BRIEF, "content": old.decode()}
    assert ws.get_run(run_id)["status"] == "waiting_approval"
    assert target.read_text() == "# New brief\n"  # nothing written before a person decides

    ws.approve(revert["id"], reviewer="bo")
    turns = [e for e in ws.timeline(run_id) if e["kind"] == "model_turn"]
    assert ws.resume(run_id)["status"] == "succeeded"
    assert target.read_bytes() == old
    assert [e for e in ws.timeline(run_id) if e["kind"] == "model_turn"] == turns  # no model
    assert ws.get_approval(revert["id"])["status"] == "consumed"
    ran = [e for e in _executed(ws, run_id) if e["data"]["call_id"] == _call_of(ws, revert)]
    assert len(ran) == 1 and ran[0]["data"]["revert_of"] == written

    assert ws.resume(run_id)["status"] == "succeeded"  # a second resume writes nothing
    rows = [r for r in _ledger_rows(ws, run_id) if r.call_id == _call_of(ws, revert)]
    assert [r.status for r in rows] == ["confirmed"]
    assert len(_executed(ws, run_id)) == 2  # the write and its revert, once each


def _call_of(ws: Workspace, approval: ApprovalView) -> str:
    from agent_core.storage.tables import approvals as approval_rows

    with ws.store.read() as conn:
        return approval_rows.get_approval(conn, approval["id"]).call_id


def test_reverting_a_write_that_created_its_file_removes_it(ws: Workspace, tmp_path: Path) -> None:
    run_id, written = _written_run(ws, tmp_path)
    assert _target(ws).exists()
    revert = ws.revert(written, reviewer="bo")
    assert revert["args"] == {"relative_path": BRIEF, "content": None}
    detail = ws.describe_approval(revert["id"])
    assert detail["current_text"] == "# New brief\n" and not detail["target_changed"]
    ws.approve(revert["id"], reviewer="bo")
    assert ws.resume(run_id)["status"] == "succeeded"
    assert not _target(ws).exists()
    assert _target(ws).parent.is_dir()  # only the file goes


def test_a_changed_target_is_refused_and_nothing_waits(ws: Workspace, tmp_path: Path) -> None:
    run_id, written = _written_run(ws, tmp_path)
    _target(ws).write_text("edited by hand afterwards\n")
    with pytest.raises(BriefDeskError) as refused:
        ws.revert(written, reviewer="bo")
    assert refused.value.code == "target_changed"
    assert ws.get_run(run_id)["status"] == "succeeded"
    assert ws.list_approvals(status="pending") == []


def test_a_target_changed_after_approval_is_refused_at_resume(
    ws: Workspace, tmp_path: Path
) -> None:
    run_id, written = _written_run(ws, tmp_path)
    revert = ws.revert(written, reviewer="bo")
    ws.approve(revert["id"], reviewer="bo")
    _target(ws).write_text("edited by hand meanwhile\n")
    with pytest.raises(BriefDeskError) as refused:
        ws.resume(run_id)
    assert refused.value.code == "target_changed"
    assert _target(ws).read_text() == "edited by hand meanwhile\n"
    assert ws.get_run(run_id)["status"] == "succeeded"
    blocked = [e for e in ws.timeline(run_id) if e["kind"] == "blocked"]
    assert blocked and blocked[-1]["data"]["code"] == "target_changed"


def test_what_cannot_be_reverted(ws: Workspace, tmp_path: Path) -> None:
    run = ws.start_run(QUESTION, model=_saving(tmp_path, "# Rejected\n"))
    pending = run["approvals"][0]["id"]
    with pytest.raises(BriefDeskError) as not_yet:
        ws.revert(pending, reviewer="bo")  # pending: nothing executed
    assert not_yet.value.code == "not_revertible"
    ws.reject(pending, reviewer="ana", reason="no")
    with pytest.raises(BriefDeskError) as rejected:
        ws.revert(pending, reviewer="bo")
    assert rejected.value.code == "not_revertible"
    with pytest.raises(BriefDeskError) as unknown:
        ws.revert("ap-nope", reviewer="bo")
    assert unknown.value.code == "not_found"


def test_a_run_waiting_on_another_proposal_is_refused(ws: Workspace, tmp_path: Path) -> None:
    _run_id, written = _written_run(ws, tmp_path)
    first = ws.revert(written, reviewer="bo")
    with pytest.raises(BriefDeskError) as busy:
        ws.revert(written, reviewer="bo")  # one decision at a time
    assert busy.value.code == "not_revertible"
    assert [a["id"] for a in ws.list_approvals(status="pending")] == [first["id"]]


def test_rejecting_the_revert_gives_the_run_its_status_back(ws: Workspace, tmp_path: Path) -> None:
    run_id, written = _written_run(ws, tmp_path)
    revert = ws.revert(written, reviewer="bo")
    assert ws.get_run(run_id)["status"] == "waiting_approval"
    ws.reject(revert["id"], reviewer="bo", reason="keep it after all")
    assert ws.get_run(run_id)["status"] == "succeeded"  # at once, no resume needed
    assert _target(ws).read_text() == "# New brief\n"
    assert ws.resume(run_id)["status"] == "succeeded"
    assert _target(ws).read_text() == "# New brief\n"
    again = ws.revert(written, reviewer="bo")  # a rejected revert may be asked for again
    assert again["status"] == "pending"


def test_no_rule_and_no_mode_decides_a_revert(ws: Workspace, tmp_path: Path) -> None:
    first = ws.start_run(QUESTION, model=_saving(tmp_path, "# Ruled\n", "first.json"))
    ws.approve(first["approvals"][0]["id"], reviewer="ana", remember="home")  # a rule now
    assert ws.list_rules()
    run = ws.start_run(
        QUESTION, model=_saving(tmp_path, "# Auto\n"), mode="dangerouslySkipPermissions"
    )
    assert run["status"] == "succeeded"
    written = ws.list_approvals(run_id=run["run_id"])[0]["id"]
    revert = ws.revert(written, reviewer="bo")
    assert revert["status"] == "pending" and revert["decided_by_rule"] is None
    assert ws.resume(run["run_id"])["status"] == "waiting_approval"  # resume does not decide
    assert _target(ws).read_text() == "# Auto\n"
    with pytest.raises(BriefDeskError) as remembered:
        ws.approve(revert["id"], reviewer="bo", remember="home")
    assert remembered.value.code == "invalid_arguments"
    with pytest.raises(BriefDeskError) as edited:
        ws.edit(revert["id"], reviewer="bo", args={"relative_path": BRIEF, "content": "x"})
    assert edited.value.code == "invalid_arguments"


def test_cancelling_a_revert_keeps_the_ended_run_as_it_ended(ws: Workspace, tmp_path: Path) -> None:
    run_id, written = _written_run(ws, tmp_path)
    revert = ws.revert(written, reviewer="bo")
    assert ws.cancel(run_id, reviewer="bo")["status"] == "succeeded"
    assert ws.get_approval(revert["id"])["status"] == "cancelled"


def test_a_revert_can_itself_be_reverted(ws: Workspace, tmp_path: Path) -> None:
    run_id, written = _written_run(ws, tmp_path)
    revert = ws.revert(written, reviewer="bo")
    ws.approve(revert["id"], reviewer="bo")
    ws.resume(run_id)
    assert not _target(ws).exists()
    with pytest.raises(BriefDeskError) as twice:
        ws.revert(written, reviewer="bo")  # the file is no longer what that write left
    assert twice.value.code == "target_changed"
    redo = ws.revert(revert["id"], reviewer="bo")
    assert redo["args"]["content"] == "# New brief\n"
    ws.approve(redo["id"], reviewer="bo")
    assert ws.resume(run_id)["status"] == "succeeded"
    assert _target(ws).read_text() == "# New brief\n"


def test_decisions_and_the_request_are_audited(ws: Workspace, tmp_path: Path) -> None:
    run_id, written = _written_run(ws, tmp_path)
    revert = ws.revert(written, reviewer="bo", reason="why not")
    ws.approve(revert["id"], reviewer="cy")
    ws.resume(run_id)
    with ws.store.read() as conn:
        entries = [(r.entry, r.principal) for r in conn.execute(select(audit))]
    assert ("revert_requested", "person:bo") in entries
    assert entries.count(("decision", "person:cy")) == 1
    kinds = [(e["kind"], e["data"].get("approval_id")) for e in ws.timeline(run_id)]
    assert ("approval_requested", revert["id"]) in kinds
    assert ("approval_decided", revert["id"]) in kinds


def test_a_run_waiting_for_an_answer_gets_back_to_waiting(ws: Workspace, tmp_path: Path) -> None:
    model = _script(
        tmp_path,
        [
            {"call": "save_brief", "args": {"relative_path": BRIEF, "content": "# Q\n"}},
            {"call": "ask_question", "args": {"question": "Who reads it?"}},
            {"say": "ok"},
        ],
    )
    run = ws.start_run(QUESTION, model=model)
    ws.approve(run["approvals"][0]["id"], reviewer="ana")
    assert ws.resume(run["run_id"])["status"] == "waiting_input"
    revert = ws.revert(run["approvals"][0]["id"], reviewer="bo")
    ws.approve(revert["id"], reviewer="bo")
    assert ws.resume(run["run_id"])["status"] == "waiting_input"
    assert not _target(ws).exists()
    ws.answer(run["run_id"], "engineers")
    assert ws.resume(run["run_id"])["status"] == "succeeded"


@pytest.fixture
def in_process(home: Path, capsys: pytest.CaptureFixture[str]) -> CliRunner:
    return CliRunner(home, capsys)


def test_the_cli_reverts_and_resumes(in_process: CliRunner, tmp_path: Path) -> None:
    cli = in_process
    run = cli(
        "run", "--question", QUESTION, "--model", _saving(tmp_path, "# CLI\n"), check=True
    ).body
    approval = run["approvals"][0]["id"]
    cli("approvals", "approve", approval, "--reviewer", "ana", check=True)
    assert cli("resume", run["run_id"], check=True).body["status"] == "succeeded"
    body = cli("approvals", "revert", approval, "--reviewer", "bo", "--reason", "undo").body
    revert = body["approval"]
    assert (revert["revises"], revert["args"]["content"]) == (approval, None)
    assert revert["revision_note"] == "undo"
    assert cli.refused("not_revertible", "approvals", "revert", approval, "--reviewer", "bo")
    shown = cli.text("approvals", "show", revert["id"]).stdout
    assert "+++ /dev/null" in shown
    cli("approvals", "approve", revert["id"], "--reviewer", "bo", check=True)
    assert cli("resume", run["run_id"], check=True).body["status"] == "succeeded"
    assert not (cli.home / "artifacts" / BRIEF).exists()
    text = cli.text("approvals", "revert", revert["id"], "--reviewer", "bo").stdout
    assert f"reverts {revert['id']}" in text


@pytest.mark.parametrize("before", ["before\n", None], ids=["overwrite", "created"])
def test_a_kill_between_the_write_and_its_confirmation_writes_once(
    cli: CliRunner, tmp_path: Path, before: str | None
) -> None:
    """The real subprocess drill: SIGKILL with the revert written (or the created file
    removed) and synced, not yet confirmed; the next resume settles it by the hash."""
    from agent_core.facade.workspace import Workspace

    ws = Workspace(cli.home)
    try:
        target = _target(ws)
        if before is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(before)
        run_id, approval = _written_run(ws, tmp_path, "# After\n")
        revert = ws.revert(approval, reviewer="bo")
        ws.approve(revert["id"], reviewer="bo")
    finally:
        ws.close()
    killed = cli("resume", run_id, env={"BRIEFDESK_CRASH_AT": "after_write_before_confirm"})
    assert killed.code == -9, killed.stderr
    if before is None:
        assert not target.exists()  # removed, not confirmed
    else:
        assert target.read_text() == before  # written, not confirmed
        os.utime(target, (1, 1))  # a second write would show as a new mtime
    assert cli("resume", run_id, check=True).body["status"] == "succeeded"
    if before is None:
        assert not target.exists()
    else:
        assert target.read_text() == before and target.stat().st_mtime == 1
    events = cli("timeline", run_id, check=True).body["events"]
    kinds = [e["kind"] for e in events]
    assert "outcome_unknown" in kinds and "reconciled" in kinds  # settled, not run again
    ran = [e for e in events if e["kind"] == "tool_result" and e["data"].get("revert_of")]
    assert [(e["data"]["executed"], e["data"]["reconciled"]) for e in ran] == [(True, True)]


def test_an_undecided_revert_expires_and_the_run_gets_its_status_back(
    ws: Workspace, tmp_path: Path, manual_clock: ManualClock
) -> None:
    run_id, written = _written_run(ws, tmp_path)
    revert = ws.revert(written, reviewer="bo")
    manual_clock.advance(3600 + 1)
    assert ws.sweep_expired() == 1
    assert ws.get_approval(revert["id"])["status"] == "expired"
    assert ws.get_run(run_id)["status"] == "succeeded"
    assert _target(ws).read_text() == "# New brief\n"


def test_the_watcher_sees_the_revert_written_once(ws: Workspace, tmp_path: Path) -> None:
    from agent_core.artifacts.watcher import watching
    from tests.support.waiting import wait_until

    target = _target(ws)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("the first version\n")
    run_id, written = _written_run(ws, tmp_path)
    revert = ws.revert(written, reviewer="bo")
    ws.approve(revert["id"], reviewer="bo")
    call_id = _call_of(ws, revert)
    with watching(ws.store, Path(ws.home.artifacts), run_id=run_id):
        ws.resume(run_id)
        wait_until(
            lambda: any(
                e["kind"] == "artifact_confirmed" and e["data"].get("call_id") == call_id
                for e in ws.timeline(run_id)
            )
        )
    sightings = [
        e["data"]
        for e in ws.timeline(run_id)
        if e["kind"] == "artifact_confirmed" and e["data"].get("call_id") == call_id
    ]
    assert [(s["count"], s["duplicate"]) for s in sightings] == [(1, False)]
    assert not [e for e in ws.timeline(run_id) if e["kind"] == "artifact_unexpected"]


@pytest.mark.parametrize("before", [b"", b"  \n", "x" * 200_001], ids=["empty", "blank", "long"])
def test_what_no_model_could_propose_goes_back_as_it_was(
    ws: Workspace, tmp_path: Path, before: bytes | str
) -> None:
    """An empty file, a blank one, one past save_brief's 200,000 characters: put back as is."""
    old = before if isinstance(before, bytes) else before.encode()
    target = _target(ws)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(old)
    run_id, written = _written_run(ws, tmp_path)
    revert = ws.revert(written, reviewer="bo")
    ws.approve(revert["id"], reviewer="bo")
    assert ws.resume(run_id)["status"] == "succeeded"
    assert target.read_bytes() == old


def test_a_run_state_names_a_revert_only_while_one_is_in_play() -> None:
    """A state written before the fields existed stays equal key for key when another desk
    answers its question (the database compares the JSON: migration 0008)."""
    from agent_core.runs.progress import RunProgress

    plain = RunProgress().to_json()
    assert "reverting" not in plain and "return_to" not in plain
    waiting = RunProgress().advance(reverting="ap-1", return_to="succeeded")
    assert RunProgress.loads(waiting.dumps()) == waiting
    assert RunProgress.loads(RunProgress().dumps()).reverting is None
