"""The inbox (issue 26): every decision a person owes, in the order to take them; and a
proposal made after a request for changes, which says which revision it is and what changed
since the one sent back. In-process facade calls on a real SQLite home with scripted models;
the CLI in the test's own process (`CliRunner(home, capsys)`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_core.facade.workspace import Workspace
from agent_core.home.clock import ManualClock
from tests.support.cli import CliRunner

NOTE = "name the source of the second point"


def _script(tmp_path: Path, name: str, turns: list[dict[str, Any]]) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(turns), encoding="utf-8")
    return f"scripted:{path}"


def _writer(tmp_path: Path, name: str, *contents: str) -> str:
    """A model that proposes `briefs/NAME.md` once per content (a revision after each
    request for changes), then finishes."""
    path = f"briefs/{name}.md"
    turns: list[dict[str, Any]] = [
        {"call": "save_brief", "args": {"relative_path": path, "content": text}}
        for text in contents
    ]
    return _script(tmp_path, name, [*turns, {"say": "saved"}])


def _asker(tmp_path: Path, name: str, question: str) -> str:
    ask = {"call": "ask_question", "args": {"question": question}}
    return _script(tmp_path, name, [ask, {"say": "thanks"}])


def _waiting(ws: Workspace, question: str, model: str, **options: Any) -> dict[str, Any]:
    run = ws.start_run(question, model=model, **options)
    assert run["status"] in ("waiting_approval", "waiting_input"), run
    return dict(run)


def test_soonest_expiry_first_questions_last_oldest_first_expired_left_out(
    ws: Workspace, tmp_path: Path, manual_clock: ManualClock
) -> None:
    late = _waiting(ws, "late", _writer(tmp_path, "late", "# Late\n"), approval_ttl=600)
    soon = _waiting(ws, "soon", _writer(tmp_path, "soon", "# Soon\n"), approval_ttl=120)
    manual_clock.advance(1)
    first_q = _waiting(ws, "first question", _asker(tmp_path, "q1", "Which audience?"))
    manual_clock.advance(1)
    second_q = _waiting(ws, "second question", _asker(tmp_path, "q2", "How long?\nShort?"))
    gone = _waiting(ws, "gone", _writer(tmp_path, "gone", "# Gone\n"), approval_ttl=5)
    manual_clock.advance(10)  # `gone` is past its time; nothing swept it (reads never write)

    items = ws.inbox()

    assert [i["run_id"] for i in items] == [
        soon["run_id"], late["run_id"], first_q["run_id"], second_q["run_id"],
    ]  # fmt: skip
    assert gone["run_id"] not in {i["run_id"] for i in items}
    proposal = items[0]
    assert proposal == {
        "kind": "approval",
        "id": soon["approvals"][0]["id"],
        "run_id": soon["run_id"],
        "desk": soon["approvals"][0]["desk"],
        "tool": "save_brief",
        "target": soon["approvals"][0]["target"],
        "summary": "soon",
        "question": "soon",
        "created_at": soon["approvals"][0]["created_at"],
        "expires_at": soon["approvals"][0]["expires_at"],
        "revision": 1,
    }
    question = items[3]
    assert question["kind"] == "question" and question["id"] == second_q["run_id"]
    assert question["tool"] == "ask_question" and question["target"] is None
    assert question["expires_at"] is None and question["revision"] == 1
    assert question["summary"] == "How long? Short?"  # one line, whatever the model wrote
    assert question["question"] == "second question"


def test_a_cancelled_runs_proposal_and_an_answered_question_are_no_longer_owed(
    ws: Workspace, tmp_path: Path
) -> None:
    kept = _waiting(ws, "kept", _writer(tmp_path, "kept", "# Kept\n"))
    cancelled = _waiting(ws, "cancelled", _writer(tmp_path, "cancelled", "# Cancelled\n"))
    asked = _waiting(ws, "asked", _asker(tmp_path, "asked", "Which audience?"))
    assert {i["run_id"] for i in ws.inbox()} == {
        kept["run_id"], cancelled["run_id"], asked["run_id"],
    }  # fmt: skip

    ws.cancel(cancelled["run_id"], reviewer="alice")
    ws.answer(asked["run_id"], "engineers")

    assert [i["id"] for i in ws.inbox()] == [kept["approvals"][0]["id"]]


def test_a_proposal_after_a_request_for_changes_is_revision_2_with_its_note_and_diffs(
    ws: Workspace, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first_text = "# Brief\n\n- point one [a.md]\n- point two\n"
    second_text = "# Brief\n\n- point one [a.md]\n- point two [b.md]\n"
    run = _waiting(ws, "revise me", _writer(tmp_path, "revised", first_text, second_text))
    [first] = run["approvals"]
    assert (first["revision"], first["revises"], first["revision_note"]) == (1, None, None)
    assert ws.describe_approval(first["id"])["previous"] is None

    ws.reject(first["id"], reviewer="alice", reason=NOTE, revise=True)
    again = ws.resume(run["run_id"])

    assert again["status"] == "waiting_approval"
    [second] = again["approvals"]
    assert (second["revision"], second["revises"], second["revision_note"]) == (
        2, first["id"], NOTE,
    )  # fmt: skip
    [item] = ws.inbox()
    assert (item["id"], item["revision"]) == (second["id"], 2)
    described = ws.describe_approval(second["id"])
    assert described["previous"] == {
        "id": first["id"], "revision": 1, "content": first_text, "reviewer": "alice",
    }  # fmt: skip
    # the first proposal's dialog points at the revision that answers it
    assert ws.describe_approval(first["id"])["newest_id"] == second["id"]

    cli = CliRunner(home, capsys)
    shown = cli("approvals", "show", second["id"], check=True).body
    assert shown["previous"]["id"] == first["id"]
    revision_diff = shown["revision_diff"]
    assert "-- point two\n" in revision_diff and "+- point two [b.md]\n" in revision_diff
    assert "(revision 1)" in revision_diff and "(revision 2)" in revision_diff
    assert "+- point one [a.md]\n" in shown["diff"]  # against the file: all new (no file yet)
    text = cli.text("approvals", "show", second["id"]).stdout
    assert f"revision 2 (revises {first['id']}), alice asked: {NOTE}" in text
    assert "changes since revision 1:" in text and "changes against the file:" in text

    # the call sent back reads, in the timeline's data, as the decision with its note
    [sent_back] = [
        e for e in ws.timeline(run["run_id"])
        if e["kind"] == "tool_result" and e["data"].get("changes_requested")
    ]  # fmt: skip
    assert sent_back["data"]["note"] == NOTE and sent_back["data"]["executed"] is False


def test_inbox_cli_json_and_text(
    ws: Workspace, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = CliRunner(home, capsys)
    assert cli("inbox", check=True).body["inbox"] == []
    assert "(nothing waits for you)" in cli.text("inbox").stdout
    run = _waiting(ws, "a question for the cli", _writer(tmp_path, "cli", "# CLI\n"))
    asked = _waiting(ws, "asking", _asker(tmp_path, "cli-q", "Which\x1b[31m audience?"))

    body = cli("inbox", check=True).body
    assert [i["kind"] for i in body["inbox"]] == ["approval", "question"]
    assert body["inbox"][0]["id"] == run["approvals"][0]["id"]
    text = cli.text("inbox").stdout
    header = text.splitlines()[0].split()
    assert header == ["kind", "id", "desk", "tool", "expires_at", "revision", "summary", "target"]
    assert run["approvals"][0]["target"] in text  # the target last, whole
    assert asked["run_id"] in text and "\x1b" not in text  # control characters escaped
