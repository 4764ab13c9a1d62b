"""Issue 26 item 7, the command line as a new user met it: a `--help` that names every command
and the global options, `approvals list` with whole targets and a desk column, `db status` and
`db password` in words (no Python reprs, no "None"), and a revoked rule in the audit log.

In-process through `main` where the process boundary is not the point; a real subprocess with a
real Secret Service (private D-Bus, gnome-keyring) for `db password`.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agent_core.cli.parser import GLOBAL_VALUE_OPTIONS, build_parser
from tests.support.cli import REPO_ROOT, cli_command
from tests.support.cli import CliRunner as Cli
from tests.support.secret_service import (
    SecretServiceEnv,
    child_env,
    fixture_secret_service_env,  # noqa: F401  (registers the `secret_service_env` fixture)
)


@pytest.fixture
def cli(home: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(home, capsys)


def _scripted_write(tmp_path: Path, relative_path: str) -> str:
    path = tmp_path / "script.json"
    turns = [
        {"call": "save_brief", "args": {"relative_path": relative_path, "content": "brief\n"}},
        {"say": "done"},
    ]
    path.write_text(json.dumps(turns), encoding="utf-8")
    return f"scripted:{path}"


def _pending_write(cli: Cli, tmp_path: Path, *extra: str) -> dict[str, Any]:
    model = _scripted_write(tmp_path, "briefs/walkthrough.md")
    run = cli("run", "--question", "Walk through it", "--model", model, *extra).body
    assert run["status"] == "waiting_approval", run
    approval: dict[str, Any] = run["approvals"][0]
    return approval


# -- --help ---------------------------------------------------------------------------------


def _sub_actions(parser: argparse.ArgumentParser) -> list[argparse._SubParsersAction[Any]]:
    return [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]


def _actions_of(parser: argparse.ArgumentParser) -> list[str]:
    """A command's own actions: its sub-commands, or the choices of its `action` argument."""
    for sub in _sub_actions(parser):
        return list(sub.choices)
    for action in parser._actions:
        if action.dest == "action" and action.choices is not None:
            return [str(c) for c in action.choices]
    return []


def _help_entries(text: str) -> dict[str, str]:
    """The `commands:` section of the help: each command's name and its help, lines joined."""
    assert "\ncommands:\n" in text, f"no commands section in --help: {text!r}"
    section = text.split("\ncommands:\n", 1)[1]
    entries: dict[str, str] = {}
    name = ""
    for line in section.splitlines():
        if not line.strip() or not line.startswith("    "):
            continue
        first = re.match(r"^ {4}(\S+)\s+(.*)$", line)
        if first and not line.startswith("     "):
            name = first.group(1)
            entries[name] = first.group(2)
        elif name:
            entries[name] += " " + line.strip()
    return entries


def test_help_lists_every_command_with_its_actions_and_the_global_options(cli: Cli) -> None:
    said = cli.text("--help")
    assert said.code == 0
    entries = _help_entries(said.stdout)
    (commands,) = _sub_actions(build_parser())
    assert commands.choices, "the parser has commands"
    for name, parser in commands.choices.items():
        assert entries.get(name, "").strip(), f"`{name}` has no line in --help"
        for action in _actions_of(parser):
            assert re.search(rf"\b{re.escape(action)}\b", entries[name]), (
                f"`{name} {action}` is not named in --help: {entries[name]!r}"
            )
    for flag in (*GLOBAL_VALUE_OPTIONS, "--json", "--version"):
        assert re.search(rf"^\s+{re.escape(flag)}\b.*\S", said.stdout, re.M), flag
    assert "accepted anywhere" in said.stdout


# -- approvals list -------------------------------------------------------------------------


def test_approvals_list_shows_a_long_target_whole_and_its_desk(cli: Cli, tmp_path: Path) -> None:
    artifacts = tmp_path / ("a-folder-whose-name-is-long-enough-to-be-cut-" * 3) / "artifacts"
    approval = _pending_write(cli, tmp_path, "--artifacts", str(artifacts))
    target = approval["target"]
    assert len(target) > 120 and target.startswith(str(artifacts))
    said = cli.text("approvals", "list")
    assert said.code == 0
    header, _rule, *rows = said.stdout.splitlines()
    assert "desk" in header.split() and "target" in header.split()
    (row,) = rows
    assert target in row, f"the target is cut: {row!r}"
    assert approval["desk"] and approval["desk"] in row.split()


# -- db status / db password ----------------------------------------------------------------


def test_db_status_reads_as_words_without_none(cli: Cli) -> None:
    assert cli("runs").code == 0  # the home exists, at the schema this BriefDesk writes
    body = cli("db", "status").body
    assert set(body["store"]) >= {"kind", "revision", "reachable", "url", "desk", "message"}
    assert body["store"]["message"] is None
    said = cli.text("db", "status")
    assert said.code == 0
    assert "None" not in said.stdout and "True" not in said.stdout, said.stdout
    assert "SQLite" in said.stdout and "reachable: yes" in said.stdout
    assert body["store"]["url"] in said.stdout and body["store"]["revision"] in said.stdout


def test_db_password_says_where_the_password_went(
    tmp_path: Path, secret_service_env: SecretServiceEnv
) -> None:
    env = child_env(secret_service_env, PYTHONPATH=str(REPO_ROOT))
    for variable in ("PGPASSWORD", "PGPASSFILE"):
        env.pop(variable, None)
    url = "postgresql://alice@db.example.test:5432/team"

    def db_password(*flags: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            cli_command("--home", str(tmp_path / "home"), "--db", url, *flags, "db", "password"),
            capture_output=True,
            text=True,
            env=env,
            input="not-the-real-one\n",
            timeout=120,
            cwd=REPO_ROOT,
        )

    as_json = db_password("--json")
    assert as_json.returncode == 0, as_json.stdout + as_json.stderr
    stored = json.loads(as_json.stdout)["password"]
    assert set(stored) == {"name", "stored", "backend", "overridden_by"}  # JSON as it was
    said = db_password()
    assert said.returncode == 0, said.stdout + said.stderr
    text = said.stdout
    assert "{" not in text and "None" not in text and "True" not in text, text
    assert text.startswith("stored the team database's password in the keyring")
    assert stored["name"] in text and "not-the-real-one" not in text


# -- rules revoke ---------------------------------------------------------------------------


def test_revoking_a_rule_is_audited_with_who_and_its_scope(cli: Cli, tmp_path: Path) -> None:
    approval = _pending_write(cli, tmp_path)
    decided = cli(
        "approvals", "approve", approval["id"], "--reviewer", "alice", "--remember", "home"
    )
    assert decided.code == 0, decided.body
    (rule,) = cli("rules", "list").body["rules"]
    revoked = cli("rules", "revoke", rule["id"], "--reviewer", "bob")
    assert revoked.code == 0 and revoked.body["rule"]["active"] is False
    assert cli("rules", "revoke", rule["id"], "--reviewer", "carol").code == 0  # no change

    entries = cli("audit").body["entries"]
    revocations = [e for e in entries if e["rule_id"] == rule["id"] and e["entry"] != "decision"]
    assert len(revocations) == 1, revocations  # revoking again records nothing more
    (entry,) = revocations
    assert entry["entry"] == "rule_revoked" and entry["principal"] == "person:bob"
    assert entry["tool"] == rule["tool"] and entry["resource"] == rule["folder"]
    assert entry["detail"] == rule["describes"]  # the scope, whole
    by_bob = cli("audit", "--principal", "person:bob").body["entries"]
    assert [e["entry"] for e in by_bob] == ["rule_revoked"]
    assert "rule_revoked" in cli.text("audit").stdout


def test_a_rule_revoked_without_a_name_is_audited_as_the_reviewer_setting(
    cli: Cli, tmp_path: Path
) -> None:
    approval = _pending_write(cli, tmp_path)
    remember = ("--reviewer", "alice", "--remember", "run")
    assert cli("approvals", "approve", approval["id"], *remember).code == 0
    (rule,) = cli("rules", "list").body["rules"]
    assert cli("settings", "set", "reviewer", "dana").code == 0
    assert cli("rules", "revoke", rule["id"]).code == 0  # as the window revokes
    (entry,) = [e for e in cli("audit").body["entries"] if e["entry"] == "rule_revoked"]
    assert entry["principal"] == "person:dana" and entry["run_id"] == approval["run_id"]
