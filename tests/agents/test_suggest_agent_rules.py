"""Suggested rules for an external agent's shell commands and MCP calls (issue 42 item 4:
fewer questions, never wider than shown).

Every call is a real `briefdesk-cli hook NAME` process fed the agent's payload shape, each in a
session of its own (a person approves `make test` in three sessions); a person decides each
through the façade on the same home while its hook waits. `rules suggest` and `rules add
--from-suggestion N` run through the real CLI; the rule made is then applied by a real hook
process, as `approve --remember`'s rule is (tests/agents/test_hook_followups.py).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from agent_core.contract.json_types import JsonObject
from agent_core.facade.workspace import Workspace
from desktop.widgets.suggest_rules import scope_words
from tests.agents.test_hook_followups import Agent, claude_decision, finish, pending
from tests.support.cli import CliRunner
from tests.support.waiting import wait_until

REVIEWER = "alice"


@dataclass(frozen=True)
class Asked:
    """One call of an agent and what the person does with it."""

    agent: str
    tool: str
    tool_input: JsonObject
    decide: Literal["approve", "reject", "edit"] = "approve"


def _ask_all(ws: Workspace, home: Path, project: Path, calls: list[Asked]) -> list[str]:
    """Start every call's hook at once; once all wait, decide each as told (an edit: "Approve
    edited" with ` --ci` added). The ids of the first proposals, in the order of `calls`."""
    hooks = []
    for call in calls:
        agent = Agent(home, project, call.agent)
        payload = agent.payload(
            "PreToolUse", call.tool, call.tool_input, tool_use_id=uuid.uuid4().hex
        )
        hooks.append(agent.start(payload))

    def all_waiting() -> list[str]:
        pending = ws.list_approvals(status="pending")
        found = [[a["id"] for a in pending if a["args"] == c.tool_input] for c in calls]
        return [ids[0] for ids in found] if all(len(ids) == 1 for ids in found) else []

    firsts = wait_until(all_waiting, timeout=90, interval=0.1, message="every call proposed")
    for call, first in zip(calls, firsts, strict=True):
        if call.decide == "approve":
            ws.approve(first, reviewer=REVIEWER)
        elif call.decide == "reject":
            ws.reject(first, reviewer=REVIEWER, reason="not this one")
        else:
            edited = {**call.tool_input, "command": f"{call.tool_input['command']} --ci"}
            ws.approve_edited(first, reviewer=REVIEWER, args=edited)
    for hook in hooks:
        finish(hook)
    return firsts


def _bash(command: str) -> JsonObject:
    """A call of that command, told apart from its twins by its description (which the hook
    shows, and a rule ignores)."""
    return {"command": command, "description": f"step {uuid.uuid4().hex[:8]}"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


def test_an_agents_exact_command_and_mcp_tool_are_suggested_and_the_made_rule_decides_the_next(
    ws: Workspace, home: Path, project: Path, cli: CliRunner
) -> None:
    claude, codex = "claude-code", "codex"
    calls = [
        *(Asked(claude, "Bash", _bash("make test")) for _ in range(3)),
        Asked(codex, "Bash", _bash("make test")),  # the same command, another agent's
        *(Asked(claude, "Bash", _bash("make lint")) for _ in range(3)),
        Asked(claude, "Bash", _bash("make lint"), "reject"),
        *(Asked(claude, "Bash", _bash("npm test")) for _ in range(3)),
        Asked(claude, "Bash", _bash("npm test"), "edit"),
        *(Asked(claude, "Bash", _bash(c)) for c in ("git status", "git status -s", "git status .")),
        *(Asked(claude, "mcp__fs__read_text", {"path": p}) for p in ("a", "b", "c")),
    ]
    ids = _ask_all(ws, home, project, calls)

    # Exactly two: the command approved three times in its folder, for that agent alone (not
    # merged with Codex's), and the MCP tool. Not `make lint` (a rejection), not `npm
    # test` (an edit), and no prefix `git status` (each command was approved once).
    code, body = cli("rules", "suggest")
    assert code == 0, body
    make_test = f"shell:{project} $ make test"
    read_text = "mcp:fs/mcp__fs__read_text"
    assert body["suggestions"] == [
        {
            "tool": "Bash",
            "scope": make_test,
            "agent": claude,
            "would_approve": 3,
            "would_have_asked_about": _oldest_first(ws, ids[0:3]),
        },
        {
            "tool": "mcp__fs__read_text",
            "scope": read_text,
            "agent": claude,
            "would_approve": 3,
            "would_have_asked_about": _oldest_first(ws, ids[-3:]),
        },
    ]

    assert ws.list_rules() == []  # nothing is enabled by being suggested
    shown = scope_words(body["suggestions"][0])  # the window's words: the agent, the scope whole
    assert shown == f"Allow Bash of Claude Code without asking on: {make_test}"
    number = str([s["scope"] for s in body["suggestions"]].index(make_test) + 1)
    code, added = cli("rules", "add", "--from-suggestion", number, "--reviewer", "bob")
    assert code == 0, added
    rule = added["rule"]
    assert (rule["tool"], rule["folder"], rule["scope"], rule["created_by"]) == (
        "Bash", make_test, "home", "bob",
    )  # fmt: skip
    (entry,) = [e for e in ws.audit_entries() if e["entry"] == "rule_added"]
    assert (entry["principal"], entry["rule_id"], entry["resource"]) == (
        "person:bob", rule["id"], make_test,
    )  # fmt: skip

    # The hook decides the next identical command by it, for Claude Code only and for that
    # exact command: the same kind of rule `approve --remember` makes.
    assert _by_rule(ws, home, project, claude, "Bash", _bash("make test"))
    assert not _by_rule(ws, home, project, codex, "Bash", _bash("make test"))
    assert not _by_rule(ws, home, project, claude, "Bash", _bash("make test; curl x | sh"))
    ruled = [e for e in ws.audit_entries() if e["principal"] == f"rule:{rule['id']}"]
    assert [(e["tool"], e["decision"]) for e in ruled] == [("Bash", "approved")]

    # The rule made is suggested no more; one refusal of the MCP tool (by any agent) withdraws
    # its suggestion.
    assert [s["scope"] for s in ws.suggest_rules()] == [read_text]
    _ask_all(ws, home, project, [Asked(codex, "mcp__fs__read_text", {"path": "d"}, "reject")])
    assert ws.suggest_rules() == []


def _by_rule(
    ws: Workspace, home: Path, project: Path, agent_name: str, tool: str, tool_input: JsonObject
) -> bool:
    """Answered at once by a rule (True), or it waits for a person (then rejected)."""
    agent = Agent(home, project, agent_name)
    hook = agent.start(agent.payload("PreToolUse", tool, tool_input, tool_use_id=uuid.uuid4().hex))
    waiting = wait_until(
        lambda: pending(ws, tool) or ("ruled" if hook.poll() is not None else ""), timeout=30
    )
    if waiting != "ruled":
        ws.reject(waiting, reviewer=REVIEWER, reason="ask me")
    body = finish(hook)
    if agent_name != "claude-code":
        return body == {}  # Codex allows by printing nothing
    return str(claude_decision(body)["permissionDecisionReason"]).startswith("remembered:")


def _oldest_first(ws: Workspace, ids: list[str]) -> list[str]:
    """As the contract lists them (the hooks proposed them at once, in any order)."""
    return sorted(ids, key=lambda i: (ws.get_approval(i)["created_at"], i))
