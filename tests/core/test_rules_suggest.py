"""Suggested rules (issue 42, item 4): fewer questions, never wider than shown.

Real runs with the scripted model on a real SQLite home (and one on the team's PostgreSQL
database): a person approves, rejects and sends back `save_brief` proposals through the
façade; `rules suggest` must offer exactly the narrowest rule that would have decided three of
those approvals, and nothing that would have approved a refusal. `rules add --from-suggestion
N` runs once through the real CLI (a subprocess that must not import the Agents SDK); a later
proposal in the rule's scope is then approved by the rule, one outside it is asked.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.monkeypatch import MonkeyPatch

from agent_core.contract.views import ApprovalView, RunView
from agent_core.facade.workspace import Workspace
from tests.support.cli import REPO_ROOT, CliRunner, cli_env
from tests.support.typed import present


def _proposal(
    ws: Workspace, tmp_path: Path, relative_path: str, artifacts: str | None = None
) -> ApprovalView:
    """A run whose scripted model saves one brief at `relative_path`: its pending proposal."""
    script = tmp_path / f"script-{len(list(tmp_path.glob('script-*')))}.json"
    turns = [
        {"call": "save_brief", "args": {"relative_path": relative_path, "content": "brief\n"}},
        {"say": "saved"},
    ]
    script.write_text(json.dumps(turns))
    started = ws.start_run(
        f"write {relative_path}", model=f"scripted:{script}", artifacts=artifacts
    )
    assert started["status"] == "waiting_approval", started
    (approval,) = started["approvals"]
    return approval


def _approved(
    ws: Workspace, tmp_path: Path, relative_path: str, artifacts: str | None = None
) -> str:
    """Propose, approve as a person, and run the write: the proposal's id."""
    approval = _proposal(ws, tmp_path, relative_path, artifacts)
    ws.approve(approval["id"], reviewer="ann")
    assert ws.resume(approval["run_id"])["status"] == "succeeded"
    return approval["id"]


def _scopes(ws: Workspace) -> list[tuple[str, str, int, list[str]]]:
    return [
        (s["tool"], s["scope"], s["would_approve"], s["would_have_asked_about"])
        for s in ws.suggest_rules()
    ]


def _artifacts(ws: Workspace) -> Path:
    return ws.home.artifacts.resolve()


def _auto(run: RunView) -> bool:
    return run["status"] == "succeeded" and not run["approvals"]


# -- what is suggested ----------------------------------------------------------------------


def test_three_approvals_in_a_folder_suggest_that_folder_and_a_refusal_rules_out_its_own(
    ws: Workspace, tmp_path: Path
) -> None:
    briefs = [_approved(ws, tmp_path, f"briefs/{name}.md") for name in ("a", "b")]
    assert _scopes(ws) == []  # two are not enough
    briefs.append(_approved(ws, tmp_path, "briefs/c.md"))
    art = _artifacts(ws)
    assert _scopes(ws) == [("save_brief", str(art / "briefs"), 3, briefs)]
    notes = [_approved(ws, tmp_path, f"notes/{name}.md") for name in ("a", "b", "c")]
    last = _approved(ws, tmp_path, "briefs/d.md")
    refused = _proposal(ws, tmp_path, "notes/d.md")
    both = [
        ("save_brief", str(art / "briefs"), 4, [*briefs, last]),
        ("save_brief", str(art / "notes"), 3, notes),
    ]
    assert _scopes(ws) == both  # most approvals first
    # A rule on notes/ would have approved what the person now rejects: no longer suggested.
    ws.reject(refused["id"], reviewer="ann", reason="not there")
    assert _scopes(ws) == both[:1]
    # Sent back with a note counts as a refusal too.
    sent_back = _proposal(ws, tmp_path, "briefs/e.md")
    ws.reject(sent_back["id"], reviewer="ann", reason="shorter, please", revise=True)
    assert _scopes(ws) == []
    assert ws.list_rules() == []  # suggesting changes nothing


def test_the_same_file_approved_three_times_suggests_only_that_file(
    ws: Workspace, tmp_path: Path
) -> None:
    """Narrowest: the folder would decide no more than the file, so the file alone is
    offered (and a refusal beside it does not touch it); made into a rule, it approves that
    file again and asks about its neighbour."""
    same = [_approved(ws, tmp_path, "briefs/plan.md") for _ in range(3)]
    plan = str(_artifacts(ws) / "briefs" / "plan.md")
    assert _scopes(ws) == [("save_brief", plan, 3, same)]
    ws.reject(_proposal(ws, tmp_path, "briefs/other.md")["id"], reviewer="ann")
    _approved(ws, tmp_path, "briefs/plan.md.bak")  # beside it, not in it
    assert _scopes(ws) == [("save_brief", plan, 3, same)]

    rule = ws.add_rule_from_suggestion(1, reviewer="bob")
    assert (rule["tool"], rule["folder"], rule["scope"], rule["created_by"]) == (
        "save_brief", plan, "home", "bob",
    )  # fmt: skip
    assert _scopes(ws) == []  # made into a rule: not suggested again
    script = tmp_path / "again.json"
    script.write_text(
        json.dumps(
            [
                {
                    "call": "save_brief",
                    "args": {"relative_path": "briefs/plan.md", "content": "4\n"},
                },
                {"say": "saved"},
            ]
        )
    )
    assert _auto(ws.start_run("again", model=f"scripted:{script}"))
    assert (_artifacts(ws) / "briefs" / "plan.md").read_text() == "4\n"
    _proposal(ws, tmp_path, "briefs/new.md")  # beside it: still asked


def test_an_edited_proposal_counts_as_a_refusal_of_what_was_proposed(
    ws: Workspace, tmp_path: Path
) -> None:
    """A person who changed the model's write before approving it did not approve it as
    proposed: a rule would have let the unedited one through."""
    approved = [_approved(ws, tmp_path, f"briefs/{name}.md") for name in ("a", "b", "c")]
    edited = _proposal(ws, tmp_path, "briefs/d.md")
    changed = ws.approve_edited(
        edited["id"], reviewer="ann", args={"relative_path": "briefs/d.md", "content": "mine\n"}
    )
    assert ws.resume(changed["run_id"])["status"] == "succeeded"
    assert approved and _scopes(ws) == []


# -- making one: the CLI, a person's act, audited -----------------------------------------

_CLI_WITHOUT_SDK = """
import json, sys
from agent_core.cli.main import main
for line in json.loads(sys.argv[1]):
    code = main(line)
    sys.stdout.flush()
print(json.dumps({"exit": code, "sdk": "agents" in sys.modules}), file=sys.stderr)
"""


def test_rules_add_from_suggestion_through_the_cli_approves_the_fourth_and_is_audited(
    ws: Workspace, tmp_path: Path, home: Path
) -> None:
    ids = [_approved(ws, tmp_path, f"briefs/{name}.md") for name in ("a", "b", "c")]
    base = ["--home", str(home), "--json", "rules"]
    lines = [[*base, "suggest"], [*base, "add", "--from-suggestion", "1", "--reviewer", "bob"]]
    done = subprocess.run(
        [sys.executable, "-c", _CLI_WITHOUT_SDK, json.dumps(lines)],
        capture_output=True, text=True, env=cli_env(), cwd=REPO_ROOT, timeout=120, check=False,
    )  # fmt: skip
    suggested, added = (json.loads(out) for out in done.stdout.splitlines())
    assert json.loads(done.stderr.splitlines()[-1]) == {"exit": 0, "sdk": False}, done.stderr
    folder = str(_artifacts(ws) / "briefs")
    assert suggested["suggestions"] == [
        {
            "tool": "save_brief",
            "scope": folder,
            "agent": None,
            "would_approve": 3,
            "would_have_asked_about": ids,
        }
    ]
    rule = added["rule"]
    assert rule == ws.list_rules()[0]  # the RULE shape `rules list` prints
    assert (rule["folder"], rule["scope"], rule["created_by"], rule["active"]) == (
        folder, "home", "bob", True,
    )  # fmt: skip
    (entry,) = [e for e in ws.audit_entries() if e["entry"] == "rule_added"]
    assert (entry["principal"], entry["rule_id"], entry["resource"], entry["tool"]) == (
        "person:bob", rule["id"], folder, "save_brief",
    )  # fmt: skip

    fourth = tmp_path / "fourth.json"
    fourth.write_text(
        json.dumps(
            [
                {"call": "save_brief", "args": {"relative_path": "briefs/d.md", "content": "d\n"}},
                {"say": "saved"},
            ]
        )
    )
    run = ws.start_run("a fourth", model=f"scripted:{fourth}")
    assert _auto(run), run
    assert (_artifacts(ws) / "briefs" / "d.md").read_text() == "d\n"
    decided = [e for e in ws.audit_entries(run["run_id"]) if e["entry"] == "decision"]
    assert [e["principal"] for e in decided] == [f"rule:{rule['id']}"]
    assert _scopes(ws) == []

    text = CliRunner(home).text("rules", "suggest").stdout
    assert "no suggestions" in text


# -- refusals: nothing written, no home made -----------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        ["rules", "add", "--from-suggestion", "1"],
        ["rules", "add", "--from-suggestion", "0"],
        ["rules", "add"],
        ["rules", "add", "1"],
    ],
    ids=" ".join,
)
def test_a_bad_suggestion_number_in_a_new_home_creates_nothing(
    line: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "not-yet"
    code, body = CliRunner(home, capsys)(*line)
    assert (code, body["error"]["code"]) == (2, "invalid_arguments"), body
    assert not home.exists()


def test_a_number_past_the_list_or_a_reviewer_without_a_grant_writes_no_rule(
    ws: Workspace, tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b", "c"):
        _approved(ws, tmp_path, f"briefs/{name}.md")
    ws.add_grant(reviewer="ann", folder=str(_artifacts(ws) / "briefs" / "a.md"))
    audit_before = ws.audit_entries()
    cli = CliRunner(home, capsys)
    for number in ("2", "-1"):
        code, body = cli("rules", "add", "--from-suggestion", number, "--reviewer", "ann")
        assert (code, body["error"]["code"]) == (2, "invalid_arguments"), body
    # A rule decides its whole folder: a grant on one file in it does not let ann make it.
    code, body = cli("rules", "add", "--from-suggestion", "1", "--reviewer", "ann")
    assert body["error"]["code"] == "not_authorized", body
    assert ws.list_rules() == [] and ws.audit_entries() == audit_before
    text = cli.text("rules", "suggest").stdout
    assert "save_brief" in text and str(_artifacts(ws) / "briefs") in text


# -- team mode -----------------------------------------------------------------------------


@pytest.fixture
def two_desks(
    tmp_path: Path, pg_url: str, monkeypatch: MonkeyPatch
) -> Iterator[tuple[Workspace, Workspace]]:
    """desk-a and desk-b on one fresh team database, in this process."""
    opened: list[Workspace] = []
    for name in ("desk-a", "desk-b"):
        home = tmp_path / name
        setup = Workspace(home)
        setup.set_setting("db.url", pg_url)
        setup.close()
        monkeypatch.setenv("BRIEFDESK_DESK", name)
        opened.append(Workspace(home))
    monkeypatch.delenv("BRIEFDESK_DESK")
    yield opened[0], opened[1]
    for ws in opened:
        ws.close()


def test_on_a_team_database_a_desk_is_offered_what_its_own_runs_approved(
    two_desks: tuple[Workspace, Workspace], tmp_path: Path
) -> None:
    """Both desks write into one shared folder: two approvals each are four, yet neither
    desk is offered a rule until its own runs reach three; a refusal on the other desk
    still rules it out."""
    desk_a, desk_b = two_desks
    shared = tmp_path / "shared"
    shared.mkdir()
    on = str(shared)
    a_ids = [_approved(desk_a, tmp_path, f"briefs/a{i}.md", on) for i in range(2)]
    for i in range(2):
        _approved(desk_b, tmp_path, f"briefs/b{i}.md", on)
    assert desk_a.suggest_rules() == [] and desk_b.suggest_rules() == []
    a_ids.append(_approved(desk_a, tmp_path, "briefs/a2.md", on))
    folder = str(shared.resolve() / "briefs")
    assert _scopes(desk_a) == [("save_brief", folder, 3, a_ids)]
    assert desk_b.suggest_rules() == []

    rule = desk_a.add_rule_from_suggestion(1, reviewer="ann")
    assert present(rule["folder"]) == folder and rule["created_by"] == "ann"
    assert [e["principal"] for e in desk_b.audit_entries() if e["entry"] == "rule_added"] == [
        "person:ann"
    ]
    desk_a.revoke_rule(rule["id"], reviewer="ann")
    assert _scopes(desk_a) == [("save_brief", folder, 3, a_ids)]  # revoked: offered again
    desk_b.reject(_proposal(desk_b, tmp_path, "briefs/b9.md", on)["id"], reviewer="bo")
    assert desk_a.suggest_rules() == []
