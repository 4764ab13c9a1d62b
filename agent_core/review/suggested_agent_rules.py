"""Suggested rules for an external agent's shell commands and MCP calls (`rules suggest`).

The rule suggested is the very rule `approve --remember` makes from one of those calls
(tools/agent_calls/rule_scope.py), so the hook applies it the same way (external_agents/
agent_rules.py): a shell command's exact text in its exact folder (`shell:DIR $ COMMAND`), or
one server's tool (`mcp:SERVER/TOOL`), bound to the agent (and desk) whose calls a person
approved. It is offered once a person approved enough calls with that scope as
proposed, and never when a person rejected, sent back or edited a call of the same tool with the
same scope, whichever agent or desk made it.

No command prefix is ever suggested: after any prefix the shell runs whatever follows `;`,
`&&`, `|`, `$(...)`, a backtick, a redirection or a newline, and most programs (`make`, `git -c`,
`npm run`, `python`) run code named by their arguments or their folder; the hook matches only
exact scopes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import cast

from agent_core.contract.json_types import JsonObject
from agent_core.contract.views import SuggestionView
from agent_core.storage.tables.approvals import DecidedCall
from agent_core.storage.tables.rules import RuleRow
from agent_core.tools.agent_calls.registry import agent_names, agent_of_thread, tools_for
from agent_core.tools.agent_calls.rule_scope import (
    MCP_SCOPE_PREFIX,
    SHELL_SCOPE_PREFIX,
    AgentRuleScope,
    agent_rule_scope,
)


@dataclass(frozen=True)
class SuggestedRule:
    """A suggestion and what making it writes beyond its view."""

    view: SuggestionView
    owner: str | None
    """The rule's `server_digest`: `agent:NAME[@DESK]` for an agent's shell or MCP rule (it
    decides only that agent's calls on that desk); None for a file or folder rule."""
    grant_paths: tuple[str, ...]
    """What the person making it must hold a grant for (each target it would have approved,
    as `approve --remember` asks)."""


def agent_call_suggestions(
    approved: list[DecidedCall],
    refused: list[DecidedCall],
    rules: list[RuleRow],
    at_least: int,
) -> list[SuggestedRule]:
    """`approved`: first proposals a person approved as proposed; `refused`: what a person did
    not let through as proposed; `rules`: every rule (one already live is not suggested);
    `at_least`: how many approvals a scope needs."""
    grouped: dict[tuple[str, str, str], list[DecidedCall]] = defaultdict(list)
    for call in approved:
        scope = _scope_of(call)
        if scope is not None and scope.owner is not None:
            grouped[(call.tool, scope.folder, scope.owner)].append(call)
    refused_scopes = {(c.tool, s.folder) for c in refused if (s := _scope_of(c)) is not None}
    live = {
        (r.tool, r.folder, r.server_digest)
        for r in rules
        if r.revoked_at is None and r.scope == "home"
    }
    found: list[SuggestedRule] = []
    for (tool, folder, owner), calls in grouped.items():
        if len(calls) < at_least or (tool, folder) in refused_scopes:
            continue
        if (tool, folder, owner) in live:
            continue  # made already (from this suggestion, or remembered)
        calls.sort(key=lambda c: (c.created_at, c.id))
        view = SuggestionView(
            tool=tool,
            scope=folder,
            agent=agent_of_thread(calls[0].thread_id),
            would_approve=len(calls),
            would_have_asked_about=[c.id for c in calls],
        )
        found.append(SuggestedRule(view, owner, _grant_paths(folder, calls)))
    return found


def _scope_of(call: DecidedCall) -> AgentRuleScope | None:
    """The rule `approve --remember` would make from this call, if it is an agent's shell
    command or MCP call (None for anything else, or an agent BriefDesk no longer knows)."""
    agent = agent_of_thread(call.thread_id)
    if agent not in agent_names() or call.target is None:
        return None
    if not call.target.startswith((SHELL_SCOPE_PREFIX, MCP_SCOPE_PREFIX)):
        return None
    args = cast(JsonObject, dict(call.args))
    scope = agent_rule_scope(tools_for(str(agent)), call.tool, args, call.target, call.desk)
    return scope if scope is not None and scope.owner is not None else None


def _grant_paths(folder: str, calls: list[DecidedCall]) -> tuple[str, ...]:
    """As `approve --remember` checks: an MCP rule's scope; a shell rule's calls' folders."""
    if folder.startswith(MCP_SCOPE_PREFIX):
        return (folder,)
    return tuple(sorted({str(c.target) for c in calls}))
