"""briefdesk-cli as reviewers and scripts use it: real subprocesses on a real home."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import CliRunner

QUESTION = "How do checkpoints make agent runs durable?"
RUN_KEYS = {
    "run_id",
    "thread_id",
    "status",
    "question",
    "model",
    "mode",
    "created_at",
    "updated_at",
    "approvals",
    "question_pending",
    "output",
    "error",
    "usage",
}
APPROVAL_KEYS = {
    "id",
    "run_id",
    "tool",
    "args",
    "target",
    "base_hash",
    "risk",
    "reason",
    "arg_hash",
    "state_version",
    "version",
    "status",
    "created_at",
    "expires_at",
    "reviewer",
    "decision_reason",
    "decided_at",
    "decided_by_rule",
    "consumed_at",
}


def test_full_review_cycle_through_the_cli(cli: CliRunner, home: Path) -> None:
    # Global options are accepted after the subcommand too.
    started = cli("run", "--question", QUESTION)
    assert started.code == 0, started.stderr
    run = started.body
    assert run["api"] == 1 and set(run) >= RUN_KEYS and run["status"] == "waiting_approval"
    assert isinstance(run["run_id"], str) and len(run["approvals"]) == 1
    approval = run["approvals"][0]
    assert set(approval) >= APPROVAL_KEYS
    assert Path(approval["target"]).is_relative_to(home / "artifacts")
    assert not list((home / "artifacts").rglob("*.md"))

    listed = cli("approvals", "list", "--status", "pending")
    assert [a["id"] for a in listed.body["approvals"]] == [approval["id"]]
    decided = cli(
        "approvals", "approve", approval["id"], "--reviewer", "alice", "--reason", "looks right"
    )
    assert decided.body["approval"]["status"] == "approved"
    assert decided.body["approval"]["reviewer"] == "alice"
    twice = cli("approvals", "approve", approval["id"], "--reviewer", "bob")
    assert twice.code != 0 and twice.body["error"]["code"] == "approval_already_resolved"

    resumed = cli("resume", run["run_id"])
    assert resumed.code == 0 and resumed.body["status"] == "succeeded"
    usage = resumed.body["usage"]
    assert set(usage) == {"requests", "input_tokens", "output_tokens", "cost", "currency"}
    assert usage["requests"] > run["usage"]["requests"] > 0  # summed over the resume too
    assert (usage["input_tokens"], usage["cost"], usage["currency"]) == (0, 0, "USD")
    assert Path(approval["target"]).read_text() == approval["args"]["content"]

    events = cli("timeline", run["run_id"]).body["events"]
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert all({"seq", "run_id", "kind", "at", "tool", "data"} <= set(e) for e in events)
    later = cli("timeline", run["run_id"], "--since", str(seqs[-3])).body["events"]
    assert [e["seq"] for e in later] == seqs[-2:]

    audit = cli("audit", "--run", run["run_id"]).body["entries"]
    assert [(a["principal"], a["arg_hash"]) for a in audit if a["entry"] == "decision"] == [
        ("person:alice", approval["arg_hash"])
    ]
    text = cli.text("runs")
    assert text.code == 0 and run["run_id"] in text.stdout and "succeeded" in text.stdout
    assert f"1 run in all: {usage['requests']} requests, 0 in + 0 out tokens, 0.0000 USD" in (
        text.stdout
    )
    assert not text.stdout.lstrip().startswith("{")


def test_errors_are_json_with_stable_codes_and_no_traceback(cli: CliRunner) -> None:
    missing = cli("approvals", "approve", "ap-nope", "--reviewer", "x")
    assert missing.code == 2 and missing.body == {
        "api": 1,
        "error": {"code": "not_found", "message": missing.body["error"]["message"]},
    }
    usage = cli("approvals", "frobnicate")
    assert usage.code == 2 and usage.body["error"]["code"] == "invalid_arguments"
    bad_setting = cli("settings", "set", "approval_ttl", "-5")
    assert bad_setting.body["error"]["code"] == "invalid_arguments"
    for result in (missing, usage, bad_setting):
        assert "Traceback" not in result.stderr


def test_failed_run_prints_the_run_and_exits_1(cli: CliRunner) -> None:
    failed = cli("run", "--question", QUESTION, "--max-turns", "1")
    assert failed.code == 1
    assert failed.body["status"] == "failed" and failed.body["error"]["code"] == "budget_exceeded"


def test_settings_and_memory_commands(cli: CliRunner) -> None:
    set_ = cli("settings", "set", "network.allowlist", "example.org,docs.python.org")
    assert set_.body["settings"]["network.allowlist"] == ["example.org", "docs.python.org"]
    assert cli("settings", "get", "network.allowlist").body == {
        "api": 1,
        "settings": {"network.allowlist": ["example.org", "docs.python.org"]},
    }
    price = cli("settings", "set", "openai.price_input_per_mtok", "0.15")
    assert price.body["settings"]["openai.price_input_per_mtok"] == 0.15
    refused = cli("settings", "set", "openai.price_output_per_mtok", "-1")
    assert refused.code == 2 and refused.body["error"]["code"] == "invalid_arguments"
    assert "non-negative number" in refused.body["error"]["message"]
    assert cli("memory", "list").body == {"api": 1, "memories": []}
    assert cli("memory", "delete", "--user", "nobody").body == {"api": 1, "deleted": 0}
    assert cli("rules", "list").body == {"api": 1, "rules": []}


def test_approvals_show_gives_a_reviewer_the_diff_in_another_process(cli: CliRunner) -> None:
    run = cli("run", "--question", QUESTION).body
    approval = run["approvals"][0]
    shown = cli("approvals", "show", approval["id"]).body
    assert shown["approval"]["id"] == approval["id"] and shown["target_changed"] is False
    added = [line[1:] for line in shown["diff"].splitlines() if line.startswith("+")][1:]
    assert shown["diff"].startswith("--- /dev/null")
    assert "\n".join(added) == approval["args"]["content"].rstrip("\n")
    # Someone writes the target meanwhile: the diff is against what is there now, and says so.
    target = Path(approval["target"])
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("An older brief.\n")
    changed = cli("approvals", "show", approval["id"])
    assert changed.body["target_changed"] is True
    assert "-An older brief." in changed.body["diff"].splitlines()
    text = cli.text("approvals", "show", approval["id"]).stdout
    assert "target changed on disk" in text and "+# Brief:" in text
