"""Request changes (`approvals reject ID --reason NOTE --revise`): the proposal closes as
`changes_requested`, the run waits until `resume` hands the note to the model, and the model
proposes again: a new proposal, which a person decides again. A plain reject still ends the run.

Driven through `briefdesk-cli`'s own `main` in this process (the SDK import is paid once), and
proven from the outside: stdout JSON, the database rows (sqlite3), the artifacts folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_core.contract.approvals import Approval, change_request_result
from agent_core.contract.statuses import ApprovalStatus
from agent_core.models.review_notes import Revision, read_note, read_notes
from tests.support.cli import CliRunner as Cli
from tests.support.cli import db_rows as _rows

QUESTION = "How do checkpoints make agent runs durable?"


@pytest.fixture
def cli(home: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(home, capsys)


def _events(cli: Cli, run_id: str, kind: str) -> list[dict[str, Any]]:
    return [e for e in cli("timeline", run_id).body["events"] if e["kind"] == kind]


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def _framing(note: str) -> str:
    """The words BriefDesk wraps a note in for the model (never the note itself)."""
    sample = Approval(
        "ap-x", "r", "t", "c", "save_brief", {}, None, None, "write", "", "0" * 64, 1, 1,
        ApprovalStatus.CHANGES_REQUESTED, "", "", "carol", note,
    )  # fmt: skip
    return str(json.loads(change_request_result(sample))["message"])


def _assert_no_framing(text: str, note: str) -> None:
    framing = _framing(note)
    for piece in (framing, framing[:40], "reviewer_note", "changes_requested", note):
        assert piece not in text


def test_request_changes_then_the_model_proposes_the_revised_brief(cli: Cli, home: Path) -> None:
    code, run = cli("run", "--question", QUESTION)
    assert code == 0 and run["status"] == "waiting_approval"
    run_id, first = run["run_id"], run["approvals"][0]
    assert first["args"]["relative_path"] != "short.md"
    note = "call it short.md, shorter"

    code, body = cli(
        "approvals", "reject", first["id"], "--reviewer", "carol", "--reason", note, "--revise"
    )
    assert code == 0
    assert body["approval"]["status"] == "changes_requested"
    assert body["approval"]["decision_reason"] == note
    # Closed, not executed, not a rejection; the run keeps waiting until `resume`.
    assert _rows(home, "SELECT status, reviewer FROM approvals WHERE id = ?", first["id"]) == [
        ("changes_requested", "carol")
    ]
    waiting = cli("runs").body["runs"][0]
    assert (waiting["status"], waiting["approvals"]) == ("waiting_approval", [])
    assert _files(home / "artifacts") == []
    decided = _events(cli, run_id, "approval_decided")
    said = [(e["data"]["approval_id"], e["data"]["status"], e["data"]["reviewer"]) for e in decided]
    assert said == [(first["id"], "changes_requested", "carol")]
    audit = _rows(home, "SELECT principal, decision, detail FROM audit WHERE entry = 'decision'")
    assert audit == [("person:carol", "changes_requested", note)]

    code, resumed = cli("resume", run_id)
    assert code == 0 and resumed["status"] == "waiting_approval"
    [second] = resumed["approvals"]
    assert second["id"] != first["id"] and second["status"] == "pending"
    assert (second["reviewer"], second["decided_by_rule"]) == (None, None)  # a person decides
    assert second["args"]["relative_path"] == "short.md"
    assert Path(second["target"]) == home / "artifacts" / "short.md"
    assert len(second["args"]["content"]) < len(first["args"]["content"])
    _assert_no_framing(second["args"]["content"], note)
    # The model was told: one non-executed result for the call sent back, in the contract's words.
    sent_back = [
        e["data"]
        for e in _events(cli, run_id, "tool_result")
        if e["data"].get("approval_id") == first["id"]
    ]
    assert [(d["outcome"], d["executed"]) for d in sent_back] == [("error", False)]
    assert not _events(cli, run_id, "blocked")  # no previously_rejected: it was no rejection

    code, _ = cli("approvals", "approve", second["id"], "--reviewer", "carol")
    assert code == 0
    code, done = cli("resume", run_id)
    assert code == 0 and done["status"] == "succeeded"
    assert _files(home / "artifacts") == [home / "artifacts" / "short.md"]
    assert (home / "artifacts" / "short.md").read_text() == second["args"]["content"]
    executed = [e for e in _events(cli, run_id, "tool_result") if e["data"]["executed"]]
    assert [e["tool"] for e in executed if e["tool"] == "save_brief"] == ["save_brief"]
    confirmed = _events(cli, run_id, "artifact_confirmed")
    assert [e["data"]["count"] for e in confirmed] == [1]
    _assert_no_framing(done["output"] or "", note)
    statuses = _rows(home, "SELECT id, status FROM approvals WHERE run_id = ?", run_id)
    assert sorted(statuses) == sorted(
        [(first["id"], "changes_requested"), (second["id"], "consumed")]
    )


def test_a_plain_reject_after_a_revision_still_ends_the_run(cli: Cli, home: Path) -> None:
    _, run = cli("run", "--question", QUESTION)
    run_id, first = run["run_id"], run["approvals"][0]
    note = "make it brief"
    cli("approvals", "reject", first["id"], "--reviewer", "dan", "--reason", note, "--revise")
    _, resumed = cli("resume", run_id)
    [second] = resumed["approvals"]
    code, _ = cli("approvals", "reject", second["id"], "--reviewer", "dan", "--reason", "no")
    assert code == 0
    code, ended = cli("resume", run_id)
    assert code == 0 and ended["status"] == "cancelled"
    assert _files(home / "artifacts") == []
    assert "not saved" in ended["output"]
    _assert_no_framing(ended["output"], note)
    # After the plain rejection the model proposed no other write.
    turns = _events(cli, run_id, "model_turn")
    assert [t["data"]["calls"] for t in turns][-1] == []
    assert len(_rows(home, "SELECT id FROM approvals WHERE run_id = ?", run_id)) == 2
    # The sent-back one is still no decision against the write; the rejected one is.
    decisions = _rows(home, "SELECT decision FROM audit WHERE entry = 'decision' ORDER BY id")
    assert decisions == [("changes_requested",), ("rejected",)]
    # And the exact call rejected plainly cannot be asked again in the thread.
    script = home.parent / "again.json"
    script.write_text(json.dumps([{"call": "save_brief", "args": second["args"]}, {"say": "x"}]))
    _, again = cli(
        "run", "--question", "again", "--thread", run["thread_id"], "--model", f"scripted:{script}"
    )
    assert again["approvals"] == []
    assert [b["data"]["code"] for b in _events(cli, again["run_id"], "blocked")] == [
        "previously_rejected"
    ]


def test_an_identical_proposal_after_a_revision_is_new_and_waits_for_a_person(
    cli: Cli, home: Path
) -> None:
    args = {"relative_path": "briefs/same.md", "content": "# Same\n\nUnchanged.\n"}
    script = home.parent / "same.json"
    turns = [{"call": "save_brief", "args": args}] * 2 + [{"say": "done"}]
    script.write_text(json.dumps(turns))
    _, run = cli("run", "--question", QUESTION, "--model", f"scripted:{script}")
    first = run["approvals"][0]
    cli("approvals", "reject", first["id"], "--reviewer", "eve", "--reason", "why?", "--revise")
    _, resumed = cli("resume", run["run_id"])
    assert resumed["status"] == "waiting_approval"
    [second] = resumed["approvals"]
    assert second["id"] != first["id"] and second["arg_hash"] == first["arg_hash"]
    assert second["status"] == "pending" and second["decided_by_rule"] is None
    # The old one is closed for good: deciding it again is refused.
    code, body = cli("approvals", "approve", first["id"], "--reviewer", "eve")
    assert code == 2 and body["error"]["code"] == "approval_already_resolved"
    assert _files(home / "artifacts") == []


@pytest.mark.parametrize("reason", [None, "   "])
def test_revise_without_a_note_is_refused_and_changes_nothing(
    cli: Cli, home: Path, reason: str | None
) -> None:
    _, run = cli("run", "--question", QUESTION)
    ap = run["approvals"][0]
    events_before = _rows(home, "SELECT count(*) FROM events")
    extra = [] if reason is None else ["--reason", reason]
    code, body = cli("approvals", "reject", ap["id"], "--reviewer", "fay", *extra, "--revise")
    assert code == 2 and body["error"]["code"] == "invalid_arguments"
    assert _rows(home, "SELECT status FROM approvals WHERE id = ?", ap["id"]) == [("pending",)]
    assert _rows(home, "SELECT count(*) FROM events") == events_before
    assert _rows(home, "SELECT count(*) FROM audit") == [(0,)]
    # The same request with a note is taken (so the refusal above is about the note).
    code, body = cli("approvals", "reject", ap["id"], "--reviewer", "fay", "--revise",
                     "--reason", "shorter")  # fmt: skip
    assert code == 0 and body["approval"]["status"] == "changes_requested"


def test_the_offline_model_follows_a_focus_note_and_a_file_name(cli: Cli, home: Path) -> None:
    _, run = cli("run", "--question", QUESTION)
    first = run["approvals"][0]
    answer = first["args"]["content"].split("## Answer")[1].split("##")[0]
    assert "idempotency" not in answer.lower()
    note = "Focus on idempotency keys and retention, and save it as notes/ckpt.md."
    cli("approvals", "reject", first["id"], "--reviewer", "gil", "--reason", note, "--revise")
    _, resumed = cli("resume", run["run_id"])
    [second] = resumed["approvals"]
    assert second["args"]["relative_path"] == "notes/ckpt.md"
    content = second["args"]["content"]
    lead = content.split("## Answer")[1].strip().splitlines()[0]
    assert "idempotency" in lead.lower().split("[")[0]  # the answer now opens on the point
    assert "about “retention”?" in content  # a point the documents lack is asked about
    _assert_no_framing(content, note)


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        ("call it short.md, shorter", Revision("short.md", 1)),
        ("Please save it as notes/ckpt.md.", Revision("notes/ckpt.md")),
        ("rename to `final.md`", Revision("final.md")),
        ("call it summary", Revision("summary.md")),
        ("make it brief", Revision(shorter=1)),
        ("the file is too long", Revision(shorter=1)),
        ("focus on retention", Revision(focus=("retention",))),
        ("Focus on idempotency keys and make it shorter", Revision(None, 1, ("idempotency keys",))),
        ("save it in the notes folder", Revision()),
        ("looks odd", Revision()),
    ],
)
def test_notes_the_offline_model_understands(note: str, expected: Revision) -> None:
    assert read_note(note) == expected


def test_notes_add_up_over_rounds() -> None:
    revision = read_notes(["call it a.md", "shorter", "focus on ledgers", "call it b.md, shorter"])
    assert revision == Revision("b.md", 2, ("ledgers",))
