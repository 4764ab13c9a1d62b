"""An MCP rule holds for the server it was made for, on its desk (issue 39, item 7): desk-b's
server of the same name, registered the same way, is another desk's program, so desk-b's run
asks a person instead of using desk-a's rule (and never fails `not_authorized`)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.mcp_servers.real import filesystem_server_bin
from tests.team.conftest import Desk


def write_script(tmp_path: Path, name: str, target: Path) -> str:
    script = tmp_path / f"{name}.json"
    call = {"call": "mcp__fs__write_file", "args": {"path": str(target), "content": name}}
    script.write_text(json.dumps([call, {"say": "done"}]), encoding="utf-8")
    return f"scripted:{script}"


def test_a_rule_remembered_for_desk_a_server_never_decides_desk_b_call(
    two_desks: tuple[Desk, Desk], tmp_path: Path
) -> None:
    a, b = two_desks
    shared = tmp_path / "shared"
    shared.mkdir()
    for desk in (a, b):  # the same name, the same command, on two desks
        added = desk("mcp", "add", "fs", "--", filesystem_server_bin(), str(shared))
        assert added.code == 0, added.body
    first = a(
        "run", "--question", "write", "--model", write_script(tmp_path, "one", shared / "one")
    )
    assert first.body["status"] == "waiting_approval", first.body
    [proposal] = b("inbox").body["inbox"]
    # desk-b's reviewer remembers it: the rule is bound to desk-a's server, the one proposed.
    approved = b("approvals", "approve", proposal["id"], "--reviewer", "bea", "--remember", "home")
    assert approved.code == 0, approved.body
    assert a("resume", first.body["run_id"]).body["status"] == "succeeded"
    second = a(
        "run", "--question", "write", "--model", write_script(tmp_path, "two", shared / "two")
    )
    assert second.body["status"] == "succeeded", second.body  # desk-a's server: the rule holds
    assert (shared / "two").read_text(encoding="utf-8") == "two"
    asked = b(
        "run", "--question", "write", "--model", write_script(tmp_path, "three", shared / "three")
    )
    assert asked.code == 0 and asked.body["status"] == "waiting_approval", asked.body
    listed = b("approvals", "list", "--status", "pending", "--run", asked.body["run_id"])
    [question] = listed.body["approvals"]
    assert question["target"] == str(shared / "three") and question["reviewer"] is None
    assert not (shared / "three").exists()
