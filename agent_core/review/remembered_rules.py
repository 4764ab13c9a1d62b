"""Remembered rules: `approve --remember run|home` turns one decision into a rule that approves
later calls of the same tool under the same folder (tools/policy.py applies them); `rules list`
and `rules revoke` show and end them. Stored in `rules` (storage/tables/rules.py).

A rule for an MCP tool (`mcp:SERVER/TOOL`) records the server the call was proposed for, as
the run's desk registered it (its digest, on the proposal's `approval_requested` event: a
reviewer on another desk cannot see that desk's servers), and decides only for that server
(tools/mcp/server_identity.py): another program registered under the same name, or the same
name on another desk, is asked about again.

A rule remembered from an external agent's call (its run's thread names the agent) covers what
that call showed and no more (tools/agent_calls/rule_scope.py): the folder of the file for a
write, the exact command in its folder for a shell command, the server's tool for an MCP call,
bound to that agent and desk; the hook applies it (external_agents/agent_rules.py).
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import cast

from sqlalchemy import Connection

from agent_core.contract.approvals import Approval
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.json_types import JsonObject
from agent_core.contract.views import RuleView
from agent_core.home.clock import now_iso
from agent_core.storage.store import Store
from agent_core.storage.tables import audit, authority
from agent_core.storage.tables import grants as grant_rows
from agent_core.storage.tables import rules as rule_rows
from agent_core.storage.tables.timeline import read_events
from agent_core.tools.agent_calls.registry import agent_of_thread, tools_for
from agent_core.tools.agent_calls.rule_scope import agent_rule_scope
from agent_core.tools.mcp.servers import split_model_name
from agent_core.tools.policy import MCP_RULE_PREFIX, Rule

REMEMBER_SCOPES = ("run", "home")
"""What `--remember` takes: this run only, or every run of this home."""


def remember(conn: Connection, approval: Approval, reviewer: str, scope: str) -> str:
    """Store a rule from an approved proposal, in the decision's write; returns its id."""
    if approval.target is None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, "Only calls with a target can be remembered."
        )
    agent = agent_of_thread(approval.thread_id)
    if agent is not None:
        return _remember_agent_call(conn, approval, reviewer, scope, agent)
    folder = rule_folder(approval.tool, approval.target)
    # A rule decides every later call under its folder: the grant must cover all of it.
    grant_rows.require(conn, reviewer=reviewer, tool=approval.tool, path=folder, doing="remember")
    mcp = folder.startswith(MCP_RULE_PREFIX)
    rule = rule_rows.RuleRow(
        id="rule-" + uuid.uuid4().hex[:10],
        tool=approval.tool,
        folder=folder,
        scope=scope,
        run_id=approval.run_id if scope == "run" else None,
        created_by=reviewer,
        created_at=now_iso(),
        server_digest=_proposed_server(conn, approval) if mcp else None,
    )
    rule_rows.insert_rule(conn, rule)
    return rule.id


def _remember_agent_call(
    conn: Connection, approval: Approval, reviewer: str, scope: str, agent: str
) -> str:
    """A rule from an external agent's call: no wider than the call showed (rule_scope.py)."""
    found = agent_rule_scope(
        tools_for(agent),
        approval.tool,
        cast(JsonObject, dict(approval.args)),
        approval.target,
        approval.desk,
    )
    if found is None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"A rule cannot be as narrow as this {approval.tool} call (its URL or arguments "
            "are not a scope): approve it without --remember.",
        )
    # A shell rule covers one command in its folder: the grant is checked for that folder.
    path = approval.target if found.owner and not found.folder.startswith("mcp:") else found.folder
    grant_rows.require(conn, reviewer=reviewer, tool=approval.tool, path=path, doing="remember")
    rule = rule_rows.RuleRow(
        id="rule-" + uuid.uuid4().hex[:10],
        tool=approval.tool,
        folder=found.folder,
        scope=scope,
        run_id=approval.run_id if scope == "run" else None,
        created_by=reviewer,
        created_at=now_iso(),
        server_digest=found.owner,
    )
    rule_rows.insert_rule(conn, rule)
    return rule.id


def _proposed_server(conn: Connection, approval: Approval) -> str:
    """The digest of the server the call was proposed for, as its run's desk recorded it when
    it first proposed the call (any version of one call goes to the same server)."""
    chain = {a.id for a in authority.call_chain(conn, approval.run_id, approval.call_id)}
    for event in read_events(conn, run_id=approval.run_id):
        digest = event.data.get("server_digest")
        if (
            event.kind == EventKind.APPROVAL_REQUESTED
            and event.data.get("approval_id") in chain
            and isinstance(digest, str)
        ):
            return digest
    raise BriefDeskError(
        ErrorCode.INVALID_ARGUMENTS,
        f"Approval {approval.id} does not say which server {approval.tool} was proposed for "
        "(its server was not registered when the run proposed it, or it was proposed before "
        "rules were bound to servers): approve it without --remember.",
    )


def rule_folder(tool: str, target: str) -> str:
    """What a rule remembered from a call of `tool` on `target` covers: the target's folder,
    or, for an MCP tool, that server's tool whatever its call aims at (`mcp:SERVER/TOOL`)."""
    mcp = split_model_name(tool)
    return f"{MCP_RULE_PREFIX}{mcp[0]}/{mcp[1]}" if mcp else str(Path(target).parent)


def list_rules(store: Store) -> list[RuleView]:
    """Every rule, revoked ones too, oldest first."""
    with store.read() as conn:
        return [rule_view(r) for r in rule_rows.list_rules(conn)]


def revoke_rule(store: Store, rule_id: str, *, by: str) -> RuleView:
    """Revoke a rule (`not_found` for an unknown id), audited in the same write as who revoked
    it and its whole scope; revoking it again changes nothing and audits nothing."""
    at = now_iso()
    with store.write() as conn:
        revoked = rule_rows.revoke(conn, rule_id, at)
        if revoked is None:
            raise BriefDeskError(ErrorCode.NOT_FOUND, f"No rule {rule_id!r}.")
        view = rule_view(revoked)
        if revoked.revoked_at == at:  # this call revoked it (a racing second one sees the first)
            audit.record(
                conn,
                entry="rule_revoked",
                principal=f"person:{by}",
                run_id=revoked.run_id,
                tool=revoked.tool,
                resource=revoked.folder,
                rule_id=revoked.id,
                decision="revoked",
                detail=view["describes"],
            )
        return view


def rule_view(rule: rule_rows.RuleRow) -> RuleView:
    return RuleView(
        id=rule.id,
        tool=rule.tool,
        folder=rule.folder,
        scope=rule.scope,
        run_id=rule.run_id,
        created_by=rule.created_by,
        created_at=rule.created_at,
        revoked_at=rule.revoked_at,
        active=rule.revoked_at is None,
        describes=Rule(rule.id, rule.tool, rule.folder, rule.scope, rule.run_id).describe(),
    )
