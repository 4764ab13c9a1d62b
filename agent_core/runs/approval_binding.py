"""Does this approval authorise this call? The executor asks before any side effect runs.

The database's guards (migrations 0007 and 0008) keep a desk's role from forging another
desk's proposals; this keeps the same promise again in the process that writes, so it holds on
a home's own SQLite file (no roles at all) and against a database that is wrong. An approval
authorises a call only when:

- it belongs to the call (run, call id, tool) and is the newest of the call's versions 1..n;
- version 1 proposed exactly the model's call: its arg_hash is that of the model's raw
  arguments, both as the gate recorded them (`tool_calls.raw_args`) and as the SDK is about
  to run them (the model's output, kept in the run's saved state), normalised by the gate's
  own validation (`validate_call`), never by hashing raw JSON here, so both sides agree;
- each later version is a person's edit of the one before, which it superseded;
- its arg_hash and target are those of the arguments that will run (the write goes to the
  row's target, so a moved target is a different write);
- a person decided it, or a live rule that covers it (an MCP rule: made for the very server
  this process calls), or the policy of the run's stored mode.
  A rule or a mode decides only when a call is first proposed: never a later version, nor
  a revision (a proposal made after a person asked for changes in the run).
"""

from __future__ import annotations

from itertools import pairwise

from sqlalchemy import Connection

from agent_core.contract.approvals import Approval
from agent_core.contract.canonical import arg_hash
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.statuses import ApprovalStatus
from agent_core.storage.tables import authority
from agent_core.storage.tables import rules as rule_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.tools.mcp.server_identity import rules_that_hold
from agent_core.tools.policy import Mode, Verdict, decide, rules_from_rows
from agent_core.tools.registry import BUILTIN, ToolSet
from agent_core.tools.specs import ArgsJSON, ToolScope, ToolSpec
from agent_core.tools.validation import validate_call

RULE = "approvals.binding"
_AUTOMATIC = ("policy:", "rule:")  # the principals of decisions no person made


class _Unbound(Exception):
    """Why the approval does not authorise the call (said in the refusal)."""


def refusal(
    conn: Connection,
    approval: Approval,
    *,
    run_id: str,
    call_id: str,
    tool: str,
    scope: ToolScope,
    model_raw: str,
    will_run: ArgsJSON,
    tools: ToolSet = BUILTIN,
) -> BriefDeskError | None:
    """None when `approval` authorises the call; else the refusal to record (the approved
    arguments' own validation error, or `not_authorized` saying why). `model_raw`: the
    call's arguments as the SDK runs it; `will_run`: the arguments the tool would get."""
    try:
        _check(conn, approval, run_id, call_id, tool, scope, model_raw, will_run, tools)
    except _Unbound as why:
        return BriefDeskError(
            ErrorCode.NOT_AUTHORIZED,
            f"Approval {approval.id} does not authorise call {call_id} of {tool}: {why}. "
            "Nothing was run.",
            rule=RULE,
        )
    except BriefDeskError as error:
        return error
    return None


def _check(
    conn: Connection,
    approval: Approval,
    run_id: str,
    call_id: str,
    tool: str,
    scope: ToolScope,
    model_raw: str,
    will_run: ArgsJSON,
    tools: ToolSet,
) -> None:
    if (approval.run_id, approval.call_id, approval.tool) != (run_id, call_id, tool):
        raise _Unbound("it was proposed for another call")
    chain = authority.call_chain(conn, run_id, call_id)
    if [a.version for a in chain] != list(range(1, len(chain) + 1)):
        raise _Unbound("the call's proposals are not one line of versions 1, 2, ...")
    if chain[-1].id != approval.id:
        raise _Unbound("it is not the newest version of its call")
    if any(a.tool != tool or a.thread_id != approval.thread_id for a in chain):
        raise _Unbound("a version of it names another tool or thread")
    made = authority.model_call(conn, run_id, call_id)
    if made is None or made.tool != tool:
        raise _Unbound("the model made no such call")
    for raw in (made.raw_args, model_raw):
        proposed, _ = validate_call(tool, raw, scope, tools)
        if arg_hash(tool, proposed) != chain[0].arg_hash:
            raise _Unbound("its first version does not propose the model's call")
    for before, after in pairwise(chain):
        if before.status is not ApprovalStatus.SUPERSEDED:
            raise _Unbound(f"version {after.version} does not follow a superseded version")
        # A person's edit; or the same call asked again of a person (its outcome was unknown):
        # either way a later version is decided by a person only (`_check_decider`).
        asked_again = after.arg_hash == before.arg_hash and after.target == before.target
        if not asked_again and (before.decided_by_rule is not None or not _person(before.reviewer)):
            raise _Unbound(f"version {after.version} is not a person's edit of the one before")
    args, target = validate_call(tool, approval.args, scope, tools)
    if arg_hash(tool, args) != approval.arg_hash or arg_hash(tool, will_run) != approval.arg_hash:
        raise _Unbound("its arg_hash is not that of the arguments it would run")
    if target != approval.target:
        raise _Unbound("its target is not where its arguments lead")
    _check_decider(conn, approval, run_id, tools.spec_for(tool), tools)


def _check_decider(
    conn: Connection, approval: Approval, run_id: str, spec: ToolSpec, tools: ToolSet
) -> None:
    tool = spec.name
    decided_by = approval.decided_by_rule
    if decided_by is None:
        if not _person(approval.reviewer):
            raise _Unbound("no person decided it")
        return
    if approval.version != 1:
        raise _Unbound("a rule or a mode decides only a call's first proposal")
    if authority.changes_requested_before(conn, run_id, approval.created_at):
        raise _Unbound("it answers a request for changes, which only a person decides")
    if decided_by.startswith("policy:"):
        stored = str(run_rows.get_run_row(conn, run_id).mode)
        if stored not in Mode._value2member_map_:
            raise _Unbound(f"its run's mode {stored!r} approves nothing")
        policy = decide(
            spec.tier, tool, mode=Mode(stored), target=approval.target,
            run_id=run_id, rules=[], artifact_write=spec.writes_files,
        )  # fmt: skip
        if policy.verdict is not Verdict.ALLOW or policy.principal != decided_by:
            raise _Unbound(f"{decided_by} does not approve {tool} in its {stored} run")
        return
    row = rule_rows.get_rule(conn, decided_by)
    # A revoked rule is not live; nor is an MCP rule made for another server than this one.
    held = rules_that_hold([row], tools.server_digests) if row is not None else []
    live = rules_from_rows(held)
    if not live or not live[0].covers(tool, approval.target, run_id):
        raise _Unbound(f"no live rule {decided_by!r} covers it")


def _person(reviewer: str | None) -> bool:
    return bool(reviewer and reviewer.strip()) and not str(reviewer).startswith(_AUTOMATIC)
