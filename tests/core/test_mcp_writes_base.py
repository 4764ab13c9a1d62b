"""An MCP whole-file write overwrites only what a person saw, and an MCP rule holds only for
its server (issue 39, items 4 and 7; contract "MCP whole-file writes", "MCP rules and grants").

On the real @modelcontextprotocol/server-filesystem (npm), driven through the CLI on the
home's SQLite file; effects read from outside: the files, the proposals, the rules' rows.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.core.test_mcp_runs import pending, run, script
from tests.support.cli import CliRunner, db_rows
from tests.support.mcp_servers.real import filesystem_server_bin


@pytest.fixture
def cli(home: Path, capsys: pytest.CaptureFixture[str]) -> CliRunner:
    return CliRunner(home, capsys)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def add_fs(cli: CliRunner, folder: Path) -> None:
    code, body = cli("mcp", "add", "fs", "--", filesystem_server_bin(), str(folder))
    assert code == 0, body


def write_call(path: str, content: str) -> dict[str, object]:
    return {"call": "mcp__fs__write_file", "args": {"path": path, "content": content}}


def test_a_file_changed_after_approval_is_not_overwritten_and_a_person_sees_the_new_diff(
    cli: CliRunner, tmp_path: Path
) -> None:
    root = tmp_path / "shared"
    root.mkdir()
    note = root / "note.txt"
    note.write_text("old line\n", encoding="utf-8")
    add_fs(cli, root)
    waiting = run(cli, script(tmp_path, write_call(str(note), "new line\n")))
    [first] = pending(cli, waiting["run_id"])
    assert cli("approvals", "approve", first["id"], "--reviewer", "ana").code == 0
    note.write_text("written by someone else\n", encoding="utf-8")  # after the person's yes
    code, body = cli("resume", waiting["run_id"])
    assert code == 0 and body["status"] == "waiting_approval", body
    assert note.read_text(encoding="utf-8") == "written by someone else\n"  # not overwritten
    [again] = pending(cli, waiting["run_id"])
    assert again["id"] != first["id"] and again["version"] == 2
    assert again["base_hash"] == sha("written by someone else\n")
    code, shown = cli("approvals", "show", again["id"])
    assert code == 0, shown
    assert "-written by someone else" in shown["diff"] and "+new line" in shown["diff"]
    assert cli("approvals", "approve", again["id"], "--reviewer", "ana").code == 0
    code, body = cli("resume", waiting["run_id"])
    assert code == 0 and body["status"] == "succeeded", body
    assert note.read_text(encoding="utf-8") == "new line\n"


def test_a_relative_path_lands_in_the_first_granted_folder_and_cannot_leave_it(
    cli: CliRunner, tmp_path: Path
) -> None:
    root = tmp_path / "shared"
    root.mkdir()
    (root / "note.txt").write_text("old line\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "link").symlink_to(outside, target_is_directory=True)
    add_fs(cli, root)
    model = script(
        tmp_path,
        write_call("../escaped.txt", "x\n"),
        write_call("link/escaped.txt", "x\n"),
        write_call("note.txt", "new line\n"),
    )
    waiting = run(cli, model)
    code, timeline = cli("timeline", waiting["run_id"])
    assert code == 0, timeline
    blocked = [e["data"]["code"] for e in timeline["events"] if e["kind"] == "blocked"]
    assert blocked == ["path_outside_scope", "path_outside_scope"], blocked
    [proposal] = pending(cli, waiting["run_id"])
    note = root.resolve() / "note.txt"
    assert proposal["target"] == str(note)
    assert proposal["base_hash"] == sha("old line\n")
    code, shown = cli("approvals", "show", proposal["id"])
    assert code == 0 and "-old line" in shown["diff"] and "+new line" in shown["diff"], shown
    note.write_text("changed meanwhile\n", encoding="utf-8")  # the base is checked there too
    cli.refused("target_changed", "approvals", "approve", proposal["id"], "--reviewer", "ana")
    note.write_text("old line\n", encoding="utf-8")
    assert cli("approvals", "approve", proposal["id"], "--reviewer", "ana").code == 0
    code, body = cli("resume", waiting["run_id"])
    assert code == 0 and body["status"] == "succeeded", body
    assert note.read_text(encoding="utf-8") == "new line\n"
    assert not (tmp_path / "escaped.txt").exists() and not (outside / "escaped.txt").exists()


def test_a_rule_remembered_for_one_server_asks_again_for_another_under_its_name(
    cli: CliRunner, tmp_path: Path
) -> None:
    first_root = tmp_path / "first"
    other_root = tmp_path / "other"
    first_root.mkdir()
    other_root.mkdir()
    add_fs(cli, first_root)
    waiting = run(cli, script(tmp_path, write_call(str(first_root / "a.txt"), "one\n")))
    [proposal] = pending(cli, waiting["run_id"])
    code, body = cli(
        "approvals", "approve", proposal["id"], "--reviewer", "ana", "--remember", "home"
    )
    assert code == 0, body
    [(folder, digest)] = db_rows(cli.home, "SELECT folder, server_digest FROM rules")
    assert folder == "mcp:fs/write_file" and digest, digest
    assert cli("resume", waiting["run_id"]).body["status"] == "succeeded"
    # The same server again: the rule decides.
    again = run(cli, script(tmp_path, write_call(str(first_root / "b.txt"), "two\n")))
    assert again["status"] == "succeeded", again
    assert (first_root / "b.txt").read_text(encoding="utf-8") == "two\n"
    # Another program under the same name: the person is asked, nothing is written.
    assert cli("mcp", "remove", "fs").code == 0
    add_fs(cli, other_root)
    target = other_root / "anything"
    asked = run(cli, script(tmp_path, write_call(str(target), "evil\n")))
    assert asked["status"] == "waiting_approval", asked
    [question] = pending(cli, asked["run_id"])
    assert question["target"] == str(target) and question["reviewer"] is None
    assert not target.exists()


def test_a_grant_may_name_an_mcp_tool(cli: CliRunner) -> None:
    code, body = cli(
        "grants", "add", "--reviewer", "ana", "--tool", "mcp__fs__write_file", "--folder", "/srv"
    )
    assert code == 0 and body["grant"]["tool"] == "mcp__fs__write_file", body
    cli.refused("unknown_tool", "grants", "add", "--reviewer", "ana", "--tool", "mcp__fs")
