"""Grants on a home's SQLite file: the app's own check (tests/team/test_grants.py adds the
database's, on PostgreSQL).

Driven through briefdesk-cli's `main` in this process (the SDK import is paid once); proven
from the outside: the JSON printed, the exit code, the rows in state.db, the artifacts folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent_core.storage.tables.grants import under
from tests.support.cli import CliRunner as Cli
from tests.support.cli import db_rows

QUESTION = "How do checkpoints make agent runs durable?"


@pytest.fixture
def cli(home: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(home, capsys)


def _proposal(cli: Cli) -> dict[str, Any]:
    """A run of the offline model, waiting for its brief's approval; returns the proposal."""
    code, run = cli("run", "--question", QUESTION)
    assert code == 0 and run["status"] == "waiting_approval", run
    return dict(run["approvals"][0])


def _record(home: Path) -> list[list[tuple[Any, ...]]]:
    """Everything a decision writes: proposals, decision events, audit rows, rules."""
    return [
        db_rows(home, "SELECT id, status, reviewer, version FROM approvals ORDER BY id"),
        db_rows(home, "SELECT seq FROM events WHERE kind = 'approval_decided'"),
        db_rows(home, "SELECT id FROM audit WHERE entry = 'decision'"),
        db_rows(home, "SELECT id FROM rules"),
    ]


def test_without_grants_every_reviewer_decides(cli: Cli) -> None:
    listed = cli("grants", "list")
    assert (listed.code, listed.body) == (0, {"api": 1, "grants": []})
    proposal = _proposal(cli)
    code, body = cli("approvals", "approve", proposal["id"], "--reviewer", "anyone")
    assert code == 0 and body["approval"]["status"] == "approved"


def test_a_reviewer_outside_every_grant_is_refused_and_nothing_changes(
    cli: Cli, home: Path
) -> None:
    proposal = _proposal(cli)
    target = proposal["target"]
    code, added = cli(
        "grants", "add", "--reviewer", "alice", "--tool", "save_brief",
        "--folder", str(Path(target).parent),
    )  # fmt: skip
    assert code == 0 and added["grant"]["active"] and added["grant"]["role"] is None
    before = _record(home)
    edited = '{"relative_path": "other.md", "content": "x"}'
    attempts = [
        ("approve", proposal["id"], "--reviewer", "bob"),
        ("approve", proposal["id"], "--reviewer", "bob", "--remember", "home"),
        ("reject", proposal["id"], "--reviewer", "bob", "--reason", "no"),
        ("reject", proposal["id"], "--reviewer", "bob", "--reason", "shorter", "--revise"),
        ("edit", proposal["id"], "--reviewer", "bob", "--args", edited),
    ]
    for attempt in attempts:
        message = cli.refused("not_authorized", "approvals", *attempt)
        assert "'bob'" in message and target in message
    assert _record(home) == before

    code, body = cli("approvals", "approve", proposal["id"], "--reviewer", "alice")
    assert code == 0 and body["approval"]["reviewer"] == "alice"
    assert db_rows(home, "SELECT principal FROM audit WHERE entry = 'decision'") == [
        ("person:alice",)
    ]


@pytest.mark.parametrize(
    ("tool", "folder_of", "covered"),
    [
        ("save_brief", lambda target: str(Path(target).parent), True),
        (None, lambda target: "/", True),
        ("fetch_url", lambda target: str(Path(target).parent), False),  # another tool
        ("save_brief", lambda target: str(Path(target).parent) + "-old", False),  # a sibling
        ("save_brief", lambda target: str(Path(target).parent / "deeper"), False),
    ],
    ids=["its-folder", "any-tool-root", "other-tool", "sibling-prefix", "subfolder"],
)
def test_a_grant_covers_its_tool_and_folder_only(
    cli: Cli, tool: str | None, folder_of: Any, covered: bool
) -> None:
    proposal = _proposal(cli)
    grant = ["--reviewer", "alice", "--folder", folder_of(proposal["target"])]
    assert cli("grants", "add", *grant, *(["--tool", tool] if tool else [])).code == 0
    decide = ("approvals", "approve", proposal["id"], "--reviewer", "alice")
    if covered:
        assert cli(*decide).body["approval"]["status"] == "approved"
    else:
        cli.refused("not_authorized", *decide)


def test_remembering_needs_a_grant_over_the_whole_folder(cli: Cli, home: Path) -> None:
    """A rule decides every later write under the target's folder, so a grant for the one
    file lets alice approve it but not remember it."""
    proposal = _proposal(cli)
    cli("grants", "add", "--reviewer", "alice", "--folder", proposal["target"])
    cli.refused(
        "not_authorized",
        "approvals", "approve", proposal["id"], "--reviewer", "alice", "--remember", "home",
    )  # fmt: skip
    assert db_rows(home, "SELECT status FROM approvals") == [("pending",)]
    assert cli("approvals", "approve", proposal["id"], "--reviewer", "alice").code == 0
    assert db_rows(home, "SELECT id FROM rules") == []


def test_an_edit_may_not_move_the_write_outside_the_grant(cli: Cli, home: Path) -> None:
    proposal = _proposal(cli)
    cli("grants", "add", "--reviewer", "alice", "--folder", proposal["target"])
    moved = '{"relative_path": "elsewhere.md", "content": "# x\\n"}'
    message = cli.refused(
        "not_authorized", "approvals", "edit", proposal["id"], "--reviewer", "alice",
        "--args", moved,
    )  # fmt: skip
    assert "elsewhere.md" in message
    assert db_rows(home, "SELECT status FROM approvals") == [("pending",)]


def test_revoking_never_reopens_decisions_to_everyone(cli: Cli, home: Path) -> None:
    proposal = _proposal(cli)
    _, added = cli("grants", "add", "--reviewer", "alice")
    code, revoked = cli("grants", "revoke", added["grant"]["id"])
    assert code == 0 and revoked["grant"]["active"] is False and revoked["grant"]["revoked_at"]
    assert cli("grants", "revoke", added["grant"]["id"]).body == revoked  # again: unchanged
    for reviewer in ("alice", "bob"):
        cli.refused(
            "not_authorized", "approvals", "approve", proposal["id"], "--reviewer", reviewer
        )
    cli.refused("not_found", "grants", "revoke", "grant-nope")
    assert [g["active"] for g in cli("grants", "list").body["grants"]] == [False]


def test_a_bad_grant_is_refused_before_anything_is_written(cli: Cli, home: Path) -> None:
    assert cli("grants", "list").code == 0  # a home that exists (a refusal creates none)
    cli.refused("unknown_tool", "grants", "add", "--reviewer", "alice", "--tool", "rm_rf")
    cli.refused("invalid_arguments", "grants", "add", "--reviewer", "alice", "--folder", "rel")
    cli.refused("invalid_arguments", "grants", "add", "--reviewer", " ")
    # A database role means nothing in a home's SQLite file.
    cli.refused("invalid_arguments", "grants", "add", "--reviewer", "alice", "--role", "desk")
    assert db_rows(home, "SELECT id FROM grants") == []


def test_grants_read_as_text(cli: Cli, home: Path) -> None:
    assert "every reviewer decides" in cli.text("grants", "list").stdout
    cli("grants", "add", "--reviewer", "alice", "--tool", "save_brief", "--folder", "/srv/b/")
    said = cli.text("grants", "list")
    code, shown = said.code, said.stdout
    assert code == 0 and "alice may decide save_brief under /srv/b" in shown


@pytest.mark.parametrize(
    ("path", "folder", "inside"),
    [
        ("/a/b/c.md", "/a/b", True),
        ("/a/b", "/a/b", True),
        ("/a/bc/x.md", "/a/b", False),
        ("/a/b/c.md", "/", True),
        ("/a", "/a/b", False),
    ],
)
def test_under_is_by_whole_path_segments(path: str, folder: str, inside: bool) -> None:
    assert under(path, folder) is inside
