"""Suggested rules (`rules suggest`, `rules add --from-suggestion N`): fewer questions, never
wider than what a person saw.

A suggestion is the narrowest remembered rule (tools/policy.py's `Rule`, as `approve
--remember` makes one) that would have decided at least `MIN_APPROVALS` proposals a person
approved. Its scope is one a reviewer was shown: the very file approved each time, or the folder
holding the files approved, never a parent of it. A rule that would have approved anything a
person rejected, sent back or edited is never suggested, nor one an active `home` rule already
covers. Whether a rule covers a proposal is asked of `Rule.covers`, the test the gate applies.

Targets that are plain absolute paths (`save_brief`, an external agent's `Write`) are weighed
here; the hook tests every file an agent's write changes with `Rule.covers`. An external
agent's shell command and MCP call get the exact rule `approve --remember` makes from one
(suggested_agent_rules.py: the exact command in its folder, or the server's tool, bound to that
agent; never a command prefix). A URL, or BriefDesk's own MCP call (its rule ignores the
arguments a person was shown), has no rule as narrow as what was shown, and gets none.

Making one is a person's act, audited as `rule_added`, in one write that lists the suggestions
again, so the number is read against what the store holds at that moment.
"""

from __future__ import annotations

import bisect
import os
import uuid
from collections import defaultdict
from collections.abc import Iterable
from itertools import pairwise

from sqlalchemy import Connection

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.views import RuleView, SuggestionView
from agent_core.home.clock import now_iso
from agent_core.review.remembered_rules import rule_view
from agent_core.review.suggested_agent_rules import SuggestedRule, agent_call_suggestions
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import audit
from agent_core.storage.tables import grants as grant_rows
from agent_core.storage.tables import rules as rule_rows
from agent_core.storage.tables.approvals import DecidedCall
from agent_core.tools.policy import Rule, rules_from_rows

MIN_APPROVALS = 3
"""A person approved at least this many proposals a suggested rule would have decided."""

_APPROVED = (ApprovalStatus.APPROVED, ApprovalStatus.CONSUMED)
_REFUSED = (ApprovalStatus.REJECTED, ApprovalStatus.CHANGES_REQUESTED)
_AUTOMATIC = ("policy:", "rule:")  # principals of decisions no person made


def suggestion_number(number: int | None, stray: str | None = None) -> int:
    """`rules add --from-suggestion N` as typed: N counts from 1; `invalid_arguments` for
    none, for one below 1, or for a stray positional (`rules add 2`)."""
    if number is None or number < 1 or stray is not None:
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            "rules add takes --from-suggestion N (N from `rules suggest`, counting from 1).",
        )
    return number


def suggest_rules(store: Store, desk: str | None = None) -> list[SuggestionView]:
    """The suggestions, most approvals first (then tool, then scope): `N` is a 1-based index
    into this list. `desk`: in team mode, only the approvals of this desk's runs count (their
    paths are this machine's); a refusal on any desk still rules a suggestion out."""
    with store.read() as conn:
        return [s.view for s in _suggestions(conn, desk)]


def add_from_suggestion(
    store: Store, number: int, *, reviewer: str, desk: str | None = None
) -> RuleView:
    """Make suggestion `number` (1-based) a `home` rule as `reviewer`, audited as `rule_added`
    in the same write; `invalid_arguments` (nothing written) when there is no such suggestion."""
    with store.write() as conn:
        suggestions = _suggestions(conn, desk)
        if not 1 <= number <= len(suggestions):
            listed = (
                f"`rules suggest` lists {len(suggestions)}"
                if suggestions
                else "there are no suggestions (a person has not approved the same kind of "
                f"call {MIN_APPROVALS} times)"
            )
            raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"No suggestion {number}: {listed}.")
        suggested = suggestions[number - 1]
        chosen = suggested.view
        # A rule decides every later call in its scope: the grant must cover all of it.
        for path in suggested.grant_paths:
            grant_rows.require(
                conn, reviewer=reviewer, tool=chosen["tool"], path=path, doing="remember"
            )
        row = rule_rows.RuleRow(
            id="rule-" + uuid.uuid4().hex[:10],
            tool=chosen["tool"],
            folder=chosen["scope"],
            scope="home",
            run_id=None,
            created_by=reviewer,
            created_at=now_iso(),
            server_digest=suggested.owner,
        )
        rule_rows.insert_rule(conn, row)
        view = rule_view(row)
        audit.record(
            conn,
            entry="rule_added",
            principal=f"person:{reviewer}",
            tool=row.tool,
            resource=row.folder,
            rule_id=row.id,
            decision="added",
            detail=f"{view['describes']}{_for_agent(chosen)}; would have approved "
            f"{chosen['would_approve']}",
        )
        return view


def _suggestions(conn: Connection, desk: str | None) -> list[SuggestedRule]:
    calls = approval_rows.decided_by_people(conn)
    approved = [c for c in calls if _approved_as_proposed(c) and (desk is None or c.desk == desk)]
    refused = _refused(calls)
    rules = rule_rows.list_rules(conn)
    active = [r for r in rules_from_rows(rules) if r.scope == "home"]
    found = agent_call_suggestions(approved, refused, rules, MIN_APPROVALS)
    for tool, targets in _by_tool([c for c in approved if _plain_path(c.target)]).items():
        for view in _narrowest(tool, targets, [c for c in refused if c.tool == tool], active):
            found.append(SuggestedRule(view, None, (view["scope"],)))
    found.sort(key=lambda s: (-s.view["would_approve"], s.view["tool"], s.view["scope"]))
    return found


def _approved_as_proposed(call: DecidedCall) -> bool:
    """A person approved the model's first proposal of a call as it was: what a rule, which
    decides only first proposals (never an answer to a request for changes, never a revert),
    would have decided in that person's place."""
    person = bool(call.reviewer) and not str(call.reviewer).startswith(_AUTOMATIC)
    return (
        call.status in _APPROVED
        and person
        and call.version == 1
        and call.revision == 1
        and call.revises is None
    )


def _for_agent(suggestion: SuggestionView) -> str:
    return f" of {suggestion['agent']}" if suggestion["agent"] else ""


def _plain_path(target: str | None) -> bool:
    """An absolute path with no `.`/`..` parts or doubled slashes: the only targets whose
    folder a rule can hold without reaching past what was shown (a string prefix of a plain
    path is then exactly a folder that holds it)."""
    return target is not None and os.path.isabs(target) and os.path.normpath(target) == target


def _refused(calls: list[DecidedCall]) -> list[DecidedCall]:
    """What a person did not let through as proposed: rejected, sent back, or edited (the
    version an edit replaced; a version replaced by asking the same call again is not one).
    A replaced version whose successor is still pending counts as edited until it is decided."""
    chains: dict[tuple[str, str], list[DecidedCall]] = defaultdict(list)
    for call in calls:
        chains[(call.run_id, call.call_id)].append(call)
    edited: list[DecidedCall] = []
    for chain in chains.values():
        chain.sort(key=lambda c: c.version)
        for before, after in pairwise(chain):
            if before.status is ApprovalStatus.SUPERSEDED and (
                (before.arg_hash, before.target) != (after.arg_hash, after.target)
            ):
                edited.append(before)
        if chain[-1].status is ApprovalStatus.SUPERSEDED:
            edited.append(chain[-1])
    return [c for c in calls if c.status in _REFUSED] + edited


def _by_tool(approved: list[DecidedCall]) -> dict[str, list[DecidedCall]]:
    grouped: dict[str, list[DecidedCall]] = defaultdict(list)
    for call in approved:
        grouped[call.tool].append(call)
    return grouped


def _narrowest(
    tool: str, approved: list[DecidedCall], refused: list[DecidedCall], active: list[Rule]
) -> list[SuggestionView]:
    """For one tool: each file approved `MIN_APPROVALS` times, and each folder holding such
    files; then a wider one only where it would decide more than the narrower ones inside it."""
    ordered = sorted(approved, key=lambda c: str(c.target))
    targets = [str(c.target) for c in ordered]
    refusals = _Refusals(tool, refused)
    kept: list[SuggestionView] = []
    ruled: set[str] = set()  # scopes an active rule covers: kept for the narrowing, then left out
    for scope in sorted(_shown_scopes(targets)):
        covered = [ordered[i] for i in _under(targets, scope)]
        if len(covered) < MIN_APPROVALS:
            continue
        if refusals.any_under(scope):
            continue  # it would have approved something a person refused
        if any(r.covers(tool, scope, "") for r in active if r.tool == tool):
            ruled.add(scope)  # already a rule (made from this suggestion, or remembered)
        covered.sort(key=lambda c: (c.created_at, c.id))
        kept.append(
            SuggestionView(
                tool=tool,
                scope=scope,
                agent=None,
                would_approve=len(covered),
                would_have_asked_about=[c.id for c in covered],
            )
        )
    return [
        s for s in kept if s["scope"] not in ruled and not _a_narrower_one_decides_as_much(s, kept)
    ]


def _under(ordered_targets: list[str], scope: str) -> list[int]:
    """The indexes of the sorted plain paths a rule on `scope` covers: `scope` itself and what
    starts with `scope/`, which for plain paths is exactly `Rule.covers`'s `is_relative_to`.
    A binary search narrows them ("0" is the character after "/"); the range also holds
    siblings such as `scope.bak` or `scope-2`, which the prefix test leaves out."""
    start = bisect.bisect_left(ordered_targets, scope)
    end = bisect.bisect_left(ordered_targets, scope + "0")
    inside = scope + "/"
    return [
        i
        for i in range(start, end)
        if ordered_targets[i] == scope or ordered_targets[i].startswith(inside)
    ]


class _Refusals:
    """One tool's refusals, asked whether a rule on a scope would have approved any: plain
    paths by the same binary search, any other target by the gate's own `Rule.covers`."""

    def __init__(self, tool: str, refused: list[DecidedCall]) -> None:
        self.tool = tool
        self.plain = sorted(str(c.target) for c in refused if _plain_path(c.target))
        self.other = [c for c in refused if not _plain_path(c.target)]

    def any_under(self, scope: str) -> bool:
        rule = Rule("", self.tool, scope, "home", None)
        return bool(_under(self.plain, scope)) or any(
            rule.covers(self.tool, c.target, c.run_id) for c in self.other
        )


def _shown_scopes(targets: Iterable[str]) -> set[str]:
    """Each target itself and the folder holding it (never the root: that is every path)."""
    scopes: set[str] = set()
    for target in targets:
        scopes.add(target)
        folder = os.path.dirname(target)
        if os.path.dirname(folder) != folder:
            scopes.add(folder)
    return scopes


def _a_narrower_one_decides_as_much(wide: SuggestionView, kept: list[SuggestionView]) -> bool:
    prefix = wide["scope"] + "/"
    return any(
        s["scope"].startswith(prefix) and s["would_approve"] == wide["would_approve"] for s in kept
    )
