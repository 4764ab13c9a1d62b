"""What a second break-in through the command line found (issue 24, item 7), in real
`briefdesk-cli` subprocesses: a malformed `--db` URL, JSON nested 5,000 deep, and refused calls
that created the home they were refused on.

Every refusal here is exit 2 with one JSON error and no traceback, and changes nothing: no home
is created, no setting stored, no proposal decided.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_core.cli.main import build_parser
from tests.support.cli import CliResult, CliRunner, db_rows

BAD_URL = "postgresql://a@[::1:1/x"
DEEP = "[" * 5000 + "]" * 5000
DEEP_OBJECT = '{"relative_path": "a.md", "content": ' + DEEP + "}"


def _refused(result: CliResult, code: str = "invalid_arguments") -> str:
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stdout.count("\n") == 1, result.stdout
    assert set(result.body) == {"api", "error"}, result.body
    assert result.body["error"]["code"] == code, result.body
    return str(result.body["error"]["message"])


# -- a malformed PostgreSQL URL --------------------------------------------------------------


@pytest.mark.parametrize("where", ["--db", "BRIEFDESK_DB"])
def test_a_malformed_db_url_is_invalid_arguments_and_creates_nothing(
    home: Path, where: str
) -> None:
    cli = CliRunner(home)
    for command in (["runs"], ["db", "status"], ["approvals", "list"]):
        if where == "--db":
            result = cli("--db", BAD_URL, *command)
        else:
            result = cli(*command, env={"BRIEFDESK_DB": BAD_URL})
        message = _refused(result)
        assert "PostgreSQL URL" in message
        assert not home.exists()


def test_the_facade_refuses_a_malformed_db_url_before_it_creates_the_home(home: Path) -> None:
    """What `briefdesk --db URL` (the window) opens: the same refusal, and no home either."""
    from agent_core.contract.errors import BriefDeskError
    from agent_core.facade.workspace import Workspace

    with pytest.raises(BriefDeskError) as refused:
        Workspace(home, db=BAD_URL)
    assert refused.value.code == "invalid_arguments"
    assert not home.exists()


def test_settings_set_db_url_refuses_a_malformed_url_and_keeps_the_old_one(
    cli: CliRunner, home: Path
) -> None:
    assert _refused(cli("settings", "set", "db.url", BAD_URL))
    assert not home.exists()
    cli("settings", "get", check=True)  # the home now exists, with no db.url
    _refused(cli("settings", "set", "db.url", BAD_URL))
    assert cli("settings", "get", "db.url", check=True).body["settings"] == {"db.url": None}
    assert cli("runs", check=True).body["runs"] == []  # the home still opens


# -- JSON nested deeper than the parser goes -------------------------------------------------


def test_deeply_nested_edit_args_are_refused_and_the_proposal_stays_pending(
    cli: CliRunner, home: Path
) -> None:
    run = cli("run", "--question", "How do checkpoints make agent runs durable?", check=True)
    [proposal] = run.body["approvals"]
    for args in (DEEP, DEEP_OBJECT):
        message = _refused(
            cli("approvals", "edit", proposal["id"], "--reviewer", "a", "--args", args)
        )
        assert "JSON" in message
    rows = db_rows(home, "SELECT id, status FROM approvals")
    assert rows == [(proposal["id"], "pending")]
    assert cli("approvals", "approve", proposal["id"], "--reviewer", "a").code == 0


@pytest.mark.parametrize("key", ["network.allowlist", "reviewer", "approval_ttl", "db.url"])
def test_deeply_nested_setting_values_are_refused(cli: CliRunner, key: str) -> None:
    before = cli("settings", "get", check=True).body["settings"]
    result = cli("settings", "set", key, DEEP)
    if result.code == 0:  # a text setting keeps text as typed: then it is only text
        assert result.body["settings"][key] == DEEP
    else:
        _refused(result)
        assert cli("settings", "get", check=True).body["settings"] == before


def test_a_deeply_nested_script_file_is_refused(cli: CliRunner, home: Path, tmp_path: Path) -> None:
    for text in (DEEP, json.dumps([{"call": "save_brief"}])[:-1] + ', {"args": ' + DEEP + "}]"):
        script = tmp_path / "deep.json"
        script.write_text(text, encoding="utf-8")
        _refused(cli("run", "--question", "q", "--model", f"scripted:{script}"))
        assert not home.exists()


# -- refused calls on a home that does not exist yet -----------------------------------------

NO_RUN, NO_AP = "run-000000000000", "ap-000000000000"


def _leaves(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> Iterator[str]:
    """Every subcommand of briefdesk-cli down to its action ("approvals edit", "runs delete";
    "runs" too, whose action is optional)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if subs:
        for name, sub in subs[0].choices.items():
            yield from _leaves(sub, (*prefix, name))
        return
    actions = [a for a in parser._actions if not a.option_strings and a.dest == "action"]
    if not actions:
        yield " ".join(prefix)
        return
    if actions[0].nargs == "?":
        yield " ".join(prefix)
    for choice in actions[0].choices or []:
        yield " ".join((*prefix, choice))


# Per subcommand: arguments argparse accepts (a bad --db is tried with them), then arguments
# it accepts but the command refuses. Where a command refuses nothing but a bad store, the
# bad --db is its refused call.
BAD: dict[str, tuple[list[str], list[list[str]]]] = {
    "run": (
        ["--question", "q"],
        [
            ["--question", "  "],
            ["--question", "q", "--thread", "agent:codex:a-session"],  # an agent session's
            ["--question", "q", "--model", "bogus"],
            ["--question", "q", "--model", "scripted:/nonexistent/script.json"],
            ["--question", "q", "--corpus", "/nonexistent/corpus"],
            ["--question", "q", "--artifacts", "/proc/briefs"],
            ["--question", "q", "--artifacts", "/etc/hostname"],
        ],
    ),
    "resume": ([NO_RUN], [[NO_RUN], [NO_RUN, "--take-over"]]),
    "cancel": ([NO_RUN], [[NO_RUN], [NO_RUN, "--reviewer", "a", "--take-over"]]),
    "answer": ([NO_RUN, "--text", "yes"], [[NO_RUN, "--text", "yes"], [NO_RUN, "--text", " "]]),
    "runs": ([], []),
    "inbox": ([], []),
    "runs delete": ([NO_RUN], [[], [NO_RUN]]),
    "timeline": ([NO_RUN], [[], [NO_RUN], [NO_RUN, "--home-events"]]),
    "approvals list": ([], [["--status", "bogus"]]),
    "approvals show": ([NO_AP], [[NO_AP]]),
    "approvals approve": (
        [NO_AP, "--reviewer", "a"],
        [
            [NO_AP, "--reviewer", "a"],
            [NO_AP, "--reviewer", " "],
            [NO_AP, "--reviewer", "a", "--remember", "home"],
        ],
    ),
    "approvals reject": (
        [NO_AP, "--reviewer", "a"],
        [
            [NO_AP, "--reviewer", "a"],
            [NO_AP, "--reviewer", "a", "--revise"],
            [NO_AP, "--reviewer", "a", "--reason", "x", "--revise"],
        ],
    ),
    "approvals edit": (
        [NO_AP, "--reviewer", "a", "--args", "{}"],
        [
            [NO_AP, "--reviewer", "a", "--args", "{"],
            [NO_AP, "--reviewer", "a", "--args", "[]"],
            [NO_AP, "--reviewer", "a", "--args", DEEP],
            [NO_AP, "--reviewer", "a", "--args", "{}"],
            [NO_AP, "--reviewer", "", "--args", "{}"],
        ],
    ),
    "approvals revert": (
        [NO_AP, "--reviewer", "a"],
        [
            [NO_AP, "--reviewer", "a"],
            [NO_AP, "--reviewer", " "],
            [NO_AP, "--reviewer", "a", "--reason", "x" * 10_001],
        ],
    ),
    "approvals resolve": (
        [NO_AP, "--reviewer", "a", "--done"],
        [
            [NO_AP, "--reviewer", "a", "--done"],
            [NO_AP, "--reviewer", "a"],  # --done is required: the one answer it records
            [NO_AP, "--reviewer", " ", "--done"],
            [NO_AP, "--reviewer", "a", "--done", "--reason", "x" * 10_001],
        ],
    ),
    "rules list": ([], []),
    "rules revoke": (["rule-0000000000"], [[], ["rule-0000000000"]]),
    "rules suggest": ([], [["extra"]]),
    "rules add": (
        ["--from-suggestion", "1"],
        [[], ["--from-suggestion", "0"], ["--from-suggestion", "x"], ["--from-suggestion", "1"]],
    ),
    "grants list": ([], []),
    "grants add": (
        ["--reviewer", "a"],
        [
            ["--reviewer", " "],
            ["--reviewer", "a", "--folder", "relative/folder"],
            ["--reviewer", "a", "--tool", "no_such_tool"],
            ["--reviewer", "a", "--role", "desk_role"],
        ],
    ),
    "grants revoke": (["gr-000000000000"], [["gr-000000000000"]]),
    "grants desk-role": (["desk_role"], [["desk_role"]]),
    "audit": ([], []),
    "keys set": (["name"], [[""]]),
    "keys status": (["name"], [[""]]),
    "keys delete": (["name"], [[""]]),
    "memory list": ([], []),
    "memory delete": (["--user", "u"], [[]]),
    "corpus status": ([], [["--corpus", "/nonexistent/corpus"]]),
    "corpus list": (["--failed"], [["--corpus", "/nonexistent/corpus"], ["--failed", "x"]]),
    "corpus reindex": ([], [["--corpus", "/nonexistent/corpus"]]),
    "providers check": ([], []),
    "db status": ([], []),
    "db password": ([], [[]]),
    "db copy": (
        ["--to", "postgresql://a@127.0.0.1:1/x"],
        [["--to", "not a url"], ["--to", BAD_URL], ["--to", "sqlite:///x.db"]],
    ),
    "mcp add": (
        ["x", "--", "cmd"],
        [
            ["Bad", "--", "cmd"],
            ["x"],
            ["x", "--env", "NOEQUALS", "--", "cmd"],
            ["x", "--env", "A=keyring:bad name", "--", "cmd"],
        ],
    ),
    "mcp list": ([], []),
    "mcp tools": (["nope"], [["nope"]]),
    "mcp tier": (["nope", "t", "read"], [["nope", "t", "read"], ["nope", "bad tool!", "read"]]),
    "mcp remove": (["nope"], [["nope"]]),
    "settings get": ([], [["no.such.key"]]),
    # Answered in the agent's own format (a denial, exit 2), not the CLI's JSON envelope.
    "hook": (["claude-code"], [["no-such-agent"], ["claude-code"]]),
    "agents connect": (
        ["claude-code"],
        [["no-such-agent"], ["codex", "--project", "."], ["claude-code", "--project", "/no/such"]],
    ),
    "agents disconnect": (["gemini"], [["no-such-agent"], ["gemini", "--project", "."]]),
    "agents status": ([], [["--project", "/no/such"]]),
    "mcp serve": ([], [["extra"]]),
    "settings set": (
        ["reviewer", "a"],
        [
            [],
            ["approval_ttl"],
            ["no.such.key", "1"],
            ["approval_ttl", "nan"],
            ["db.url", BAD_URL],
            ["network.allowlist", DEEP],
        ],
    ),
}


def test_every_subcommand_has_bad_arguments_to_try() -> None:
    assert sorted(BAD) == sorted(_leaves(build_parser()))


@pytest.mark.parametrize("leaf", sorted(BAD))
def test_a_refused_call_creates_no_home(leaf: str, tmp_path: Path) -> None:
    home = tmp_path / "not-yet"
    cli = CliRunner(home)
    usable, refused = BAD[leaf]
    command = leaf.split()
    for bad in [*refused, ["--db", BAD_URL, *usable]]:
        result = cli(*command, *bad, stdin="")
        assert result.code == 2, (leaf, bad, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr, (leaf, bad, result.stderr)
        if leaf == "hook":
            assert '"permissionDecision": "deny"' in result.stdout, (bad, result.stdout)
        else:
            assert set(result.body) == {"api", "error"}, (leaf, bad, result.stdout)
        assert not home.exists(), (leaf, bad, result.stdout)
