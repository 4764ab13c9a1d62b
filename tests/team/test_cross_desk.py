"""The cross-desk test (issue 14, item 6): two desks (two homes, two desk ids) on one real
PostgreSQL database, each driven through `briefdesk-cli` as that desk.

A proposal made on desk-a is listed and decided on desk-b, and desk-a writes the brief once.
Reviewers on both desks race on one proposal: the first decision wins, the others get
`approval_already_resolved`. desk-a is killed mid-run (SIGKILL): desk-b sees the run `running`
and is refused (`run_owned_elsewhere`) while desk-a's lease is live, sees it `interrupted` once
the lease lapses, and desk-a resumes it with nothing repeated.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent_core.contract.views import EventView
from tests.drills.drill_support import (
    DEMO_QUESTION,
    KILLED_BY_SIGKILL,
    double_execution_problems,
    executions_per_call,
    files_under,
)
from tests.support.cli import REPO_ROOT, cli_env
from tests.team.conftest import Desk
from tests.team.desk_support import call_as, lease_of, wait_until

pytestmark = pytest.mark.slow  # real desks: each `run` and `resume` imports the Agents SDK


def _written_once(events: list[EventView], artifacts: Path) -> Path:
    """The run's one brief: one file, confirmed once, every call executed at most once."""
    assert double_execution_problems(events) == []
    confirmed = [e for e in events if e["kind"] == "artifact_confirmed"]
    assert len(confirmed) == 1 and confirmed[0]["data"]["count"] == 1, confirmed
    brief = Path(str(confirmed[0]["data"]["path"]))
    assert files_under(artifacts) == [brief]
    return brief


def test_a_proposal_made_on_one_desk_is_decided_on_the_other_and_written_once(
    two_desks: tuple[Desk, Desk],
) -> None:
    a, b = two_desks
    proposed = a("run", "--question", DEMO_QUESTION, check=True).body
    assert (proposed["status"], proposed["desk"]) == ("waiting_approval", "desk-a")
    [approval] = proposed["approvals"]

    [listed] = b("runs", check=True).body["runs"]  # desk-b sees desk-a's run and proposal
    assert (listed["run_id"], listed["desk"]) == (proposed["run_id"], "desk-a")
    assert [(p["id"], p["desk"]) for p in listed["approvals"]] == [(approval["id"], "desk-a")]
    decided = b("approvals", "approve", approval["id"], "--reviewer", "bea", check=True).body
    assert decided["approval"]["status"] == "approved"

    done = a("resume", proposed["run_id"], check=True).body
    assert (done["status"], done["desk"]) == ("succeeded", "desk-a")
    ws = a.workspace()
    try:
        brief = _written_once(ws.timeline(proposed["run_id"]), a.home / "artifacts")
    finally:
        ws.close()
    assert str(brief) == approval["target"]


# Imports the CLI first, then waits for the start line, so the racers decide within
# milliseconds of each other instead of an import apart.
RACER = """
import sys
from agent_core.cli import main as cli
print("ready", flush=True)
sys.stdin.readline()
sys.exit(cli.main(sys.argv[1:]))
"""


def test_reviewers_racing_on_both_desks_over_one_proposal_one_decision_wins(
    two_desks: tuple[Desk, Desk],
) -> None:
    a, b = two_desks
    ws = a.workspace()
    try:
        [approval] = ws.start_run(DEMO_QUESTION)["approvals"]
        racers = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    RACER,
                    "--home",
                    str(desk.home),
                    "--json",
                    "approvals",
                    verb,
                    approval["id"],
                    "--reviewer",
                    reviewer,
                ],
                env=cli_env(BRIEFDESK_DESK=desk.name),
                cwd=REPO_ROOT,
                text=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for desk, verb, reviewer in (
                (a, "approve", "ann"),
                (b, "approve", "bea"),
                (a, "reject", "al"),
                (b, "reject", "bo"),
            )
        ]
        for racer in racers:
            assert racer.stdout is not None and racer.stdout.readline().strip() == "ready"
        for racer in racers:  # the start line, to all of them at once
            assert racer.stdin is not None
            racer.stdin.write("\n")
            racer.stdin.flush()
        outcomes = [(r.wait(timeout=120), r.communicate(timeout=120)) for r in racers]

        bodies = [(code, json.loads(out)) for code, (out, _err) in outcomes]
        winners = [body["approval"] for code, body in bodies if code == 0]
        assert len(winners) == 1, bodies
        assert winners[0]["desk"] == "desk-a"  # a proposal is its run's desk's, wherever decided
        losers = [body["error"]["code"] for code, body in bodies if code != 0]
        assert losers == ["approval_already_resolved"] * 3, bodies
        stored = ws.get_approval(approval["id"])
        assert (stored["status"], stored["reviewer"]) == (
            winners[0]["status"],
            winners[0]["reviewer"],
        )
        decided = [
            e
            for e in ws.timeline(approval["run_id"])
            if e["kind"] == "approval_decided" and e["data"]["approval_id"] == approval["id"]
        ]
        assert len(decided) == 1 and decided[0]["data"]["reviewer"] == stored["reviewer"]
    finally:
        ws.close()


def test_a_desk_killed_mid_run_holds_its_run_until_its_lease_lapses_then_resumes_it(
    two_desks: tuple[Desk, Desk],
) -> None:
    a, b = two_desks
    lease_s = "6"  # long enough for desk-b's quick answers below to fall within it
    killed = a(
        "run", "--question", DEMO_QUESTION, "--mode", "acceptEdits",
        env={"BRIEFDESK_CRASH_AT": "before_tool:2", "BRIEFDESK_LEASE_S": lease_s},
    )  # fmt: skip
    assert killed.code == KILLED_BY_SIGKILL, (killed.stdout, killed.stderr)
    ws_a, ws_b = a.workspace(), b.workspace()
    try:
        [run] = ws_b.list_runs()
        run_id = run["run_id"]
        assert (run["status"], run["desk"]) == ("running", "desk-a")
        lease, live = lease_of(ws_b, "desk-a")
        assert live and lease is not None
        for args in (["resume", run_id], ["resume", run_id, "--take-over"], ["cancel", run_id]):
            code, body, _ = call_as(b, *args)
            assert (code, body["error"]["code"]) == (2, "run_owned_elsewhere"), (args, body)
            message = body["error"]["message"]
            assert "'desk-a'" in message and f"live until {lease.until}" in message
        assert lease_of(ws_b, "desk-a")[1]  # those answers came while the lease was live
        # Its own desk, on its own host, sees the dead process at once.
        assert ws_a.get_run(run_id)["status"] == "interrupted"

        wait_until(lambda: ws_b.get_run(run_id)["status"] == "interrupted", "the lease to lapse")
        # Only its own desk continues it (a window on desk-b offers no automatic continue).
        assert ws_b.get_run(run_id)["ready_to_continue"] is False
        assert ws_a.get_run(run_id)["ready_to_continue"] is True

        resumed = a("resume", run_id, check=True).body
        assert (resumed["status"], resumed["desk"]) == ("succeeded", "desk-a")
        events = ws_a.timeline(run_id)
        _written_once(events, a.home / "artifacts")
        executed = executions_per_call(events)
        called = {e["data"]["call_id"] for e in events if e["kind"] == "tool_called"}
        assert called and all(executed[call] == 1 for call in called), executed
    finally:
        ws_a.close()
        ws_b.close()
