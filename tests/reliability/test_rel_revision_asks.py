"""A revised proposal is decided by a person, whatever rules or mode say (issue 24, item 5).

After "request changes" the README promises that "a person decides again": the proposal that
answers the request (the contract's `revision` n+1 after n requests in the same run) is
`pending` even when a remembered rule covers its target, and in every permission mode
(dangerouslySkipPermissions included: the person who asked for the change is waiting to see
it). Real `briefdesk-cli` subprocesses on a real SQLite home; the policy's pure function for
the modes no CLI run can reach (acceptEdits and dangerouslySkipPermissions ask for no write,
so no request for changes happens in them today).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_core.tools.policy import Mode, Rule, Verdict, decide
from agent_core.tools.specs import Tier
from tests.support.cli import CliRunner, db_rows


def _script(tmp_path: Path, turns: list[dict[str, object]]) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(turns), encoding="utf-8")
    return f"scripted:{path}"


def _remember_briefs_folder(cli: CliRunner) -> str:
    """A first run's write approved with --remember home: a rule for save_brief in briefs/."""
    run = cli("run", "--question", "How do checkpoints make agent runs durable?", check=True)
    [proposal] = run.body["approvals"]
    assert "/briefs/" in proposal["target"]
    approved = cli(
        "approvals", "approve", proposal["id"], "--reviewer", "alice", "--remember", "home",
        check=True,
    )  # fmt: skip
    assert approved.body["approval"]["status"] == "approved"
    [rule] = cli("rules", "list", check=True).body["rules"]
    return str(rule["id"])


def _assert_waits_for_a_person(cli: CliRunner, home: Path, run: dict[str, object]) -> None:
    assert run["status"] == "waiting_approval", run
    approvals = run["approvals"]
    assert isinstance(approvals, list) and len(approvals) == 1, run
    [revised] = approvals
    assert revised["status"] == "pending" and revised["decided_by_rule"] is None, revised
    assert revised["reviewer"] is None
    rows = db_rows(
        home,
        "SELECT status, decided_by_rule FROM approvals WHERE run_id = ? ORDER BY created_at",
        run["run_id"],
    )
    assert rows == [("changes_requested", None), ("pending", None)]
    by_rule = db_rows(home, "SELECT count(*) FROM audit WHERE principal LIKE 'rule:%'")
    assert by_rule == [(0,)]


def test_a_rule_made_before_does_not_approve_the_revision(
    cli: CliRunner, home: Path, tmp_path: Path
) -> None:
    _remember_briefs_folder(cli)
    model = _script(
        tmp_path,
        [
            {"call": "save_brief", "args": {"relative_path": "drafts/a.md", "content": "# A\n"}},
            {"call": "save_brief", "args": {"relative_path": "briefs/a.md", "content": "# A\n"}},
            {"say": "saved"},
        ],
    )
    run = cli("run", "--question", "Draft A", "--model", model, check=True).body
    [first] = run["approvals"]  # drafts/ is not under the rule: a person is asked
    cli(
        "approvals", "reject", first["id"], "--reviewer", "bob", "--reason",
        "save it as briefs/a.md", "--revise", check=True,
    )  # fmt: skip

    resumed = cli("resume", run["run_id"], check=True).body

    _assert_waits_for_a_person(cli, home, resumed)
    assert not (home / "artifacts" / "briefs" / "a.md").exists()


def test_a_rule_made_after_the_request_does_not_approve_the_revision(
    cli: CliRunner, home: Path
) -> None:
    """The newcomer's order: a request for changes on one run, a rule remembered on another
    run meanwhile, then `resume`: the offline model's revised brief lies under the rule."""
    waiting = cli("run", "--question", "What is an idempotency key?", check=True).body
    [first] = waiting["approvals"]
    cli(
        "approvals", "reject", first["id"], "--reviewer", "bob", "--reason", "shorter",
        "--revise", check=True,
    )  # fmt: skip
    _remember_briefs_folder(cli)

    resumed = cli("resume", waiting["run_id"], check=True).body

    _assert_waits_for_a_person(cli, home, resumed)
    assert resumed["approvals"][0]["target"] == first["target"]  # same name: under the rule
    approved = cli("approvals", "approve", resumed["approvals"][0]["id"], "--reviewer", "bob")
    assert approved.code == 0 and approved.body["approval"]["reviewer"] == "bob"
    done = cli("resume", waiting["run_id"], check=True).body
    assert done["status"] == "succeeded"


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("tier", [Tier.WRITE, Tier.NETWORK])
def test_policy_asks_for_a_revision_in_every_mode_whatever_the_rules(
    mode: Mode, tier: Tier
) -> None:
    rule = Rule("rule-1", "save_brief", "/a", "home", None)
    first = decide(tier, "save_brief", mode=mode, target="/a/b.md", run_id="r", rules=[rule])
    revised = decide(
        tier, "save_brief", mode=mode, target="/a/b.md", run_id="r", rules=[rule], revision=2
    )
    # The rule (or the mode) allows a first proposal; the revision still goes to a person.
    assert (first.verdict, revised.verdict) == (Verdict.ALLOW, Verdict.ASK)
    assert revised.rule_id is None and "request for changes" in revised.reason
