"""Risk tiers x permission modes x remembered rules -> allow / ask / deny.

Pure functions: the runner supplies what they need. The sandbox is not a policy: paths are
checked before policy runs, in every mode, and no mode enables the network (only settings do).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.tools.specs import Tier

if TYPE_CHECKING:
    from agent_core.storage.tables.rules import RuleRow


MCP_RULE_PREFIX = "mcp:"
"""A rule whose folder is `mcp:SERVER/TOOL` covers that MCP tool's calls (contract)."""


class Mode(StrEnum):
    DEFAULT = "default"
    ACCEPT_EDITS = "acceptEdits"
    DANGEROUSLY_SKIP_PERMISSIONS = "dangerouslySkipPermissions"


class Verdict(StrEnum):
    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"


@dataclass(frozen=True)
class Rule:
    """A remembered decision: this tool, for targets under this folder, in this scope."""

    id: str
    tool: str
    folder: str
    scope: str  # "run" | "home"
    run_id: str | None

    def covers(self, tool: str, target: str | None, run_id: str) -> bool:
        if tool != self.tool or target is None:
            return False
        if self.scope == "run" and self.run_id != run_id:
            return False
        if self.folder.startswith(MCP_RULE_PREFIX):  # one server's tool, whatever it aims at
            return True
        return not target.startswith(MCP_RULE_PREFIX) and Path(target).is_relative_to(
            Path(self.folder)
        )

    def describe(self) -> str:
        where = "this run" if self.scope == "run" else "every run in this home"
        if self.folder.startswith(MCP_RULE_PREFIX):
            return f"{self.tool} ({self.folder}) for {where}"
        if self.folder.startswith("shell:"):  # an agent's exact command in its folder
            return f"{self.tool} of exactly {self.folder} for {where}"
        return f"{self.tool} of files under {self.folder}/ for {where}"


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    reason: str
    principal: str  # who decided: policy:MODE | rule:ID
    rule_id: str | None = None


def decide(
    tier: Tier,
    tool: str,
    *,
    mode: Mode,
    target: str | None,
    run_id: str,
    rules: list[Rule],
    revision: int = 1,
    artifact_write: bool = True,
) -> Decision:
    """`revision`: 1 for a first proposal, n+1 after n requests for changes in the run.
    `artifact_write`: a write into the artifacts folder (what acceptEdits approves); an MCP
    server's write is not one: it asks in acceptEdits too."""
    if tier in (Tier.READ, Tier.PLAN, Tier.INTERACTION, Tier.MEMORY):
        return Decision(Verdict.ALLOW, f"{tier} tools never ask", f"policy:{mode}")
    if revision > 1:
        # A person asked for this change and decides it again (README, "Request changes"):
        # before any mode or rule, which were chosen before that person asked to see it.
        return Decision(
            Verdict.ASK,
            "answers a request for changes: the person decides again",
            f"policy:{mode}",
        )
    if mode is Mode.DANGEROUSLY_SKIP_PERMISSIONS:
        return Decision(
            Verdict.ALLOW, "dangerouslySkipPermissions asks for nothing", f"policy:{mode}"
        )
    for rule in rules:
        if rule.covers(tool, target, run_id):
            return Decision(
                Verdict.ALLOW, f"remembered: {rule.describe()}", f"rule:{rule.id}", rule.id
            )
    if tier is Tier.WRITE and mode is Mode.ACCEPT_EDITS and artifact_write:
        return Decision(
            Verdict.ALLOW,
            "acceptEdits approves writes inside the artifacts folder",
            f"policy:{mode}",
        )
    if tier is Tier.WRITE and not artifact_write:
        return Decision(
            Verdict.ASK,
            "a tool of an MCP server that may change something: a person approves it",
            f"policy:{mode}",
        )
    if tier is Tier.WRITE:
        return Decision(
            Verdict.ASK, "writes a file: a person approves every write", f"policy:{mode}"
        )
    return Decision(Verdict.ASK, "reaches the network: a person approves it", f"policy:{mode}")


def risk_label(tier: Tier) -> str:
    return {Tier.WRITE: "write", Tier.NETWORK: "network"}.get(tier, str(tier))


def rules_from_rows(rows: list[RuleRow]) -> list[Rule]:
    return [Rule(r.id, r.tool, r.folder, r.scope, r.run_id) for r in rows if r.revoked_at is None]
