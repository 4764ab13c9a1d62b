"""The façade's review: proposals and decisions, remembered rules, grants and the audit log.

The decisions themselves live in agent_core/review/; what a person typed (a note, edited
arguments) passes through `person_door` first, so it is checked and masked before it is stored.
"""

from __future__ import annotations

from pathlib import Path

from agent_core.contract.json_types import JsonMapping
from agent_core.contract.views import (
    ApprovalDetailView,
    ApprovalView,
    AuditEntryView,
    DeskRoleView,
    EditCheckView,
    GrantView,
    InboxItemView,
    RuleView,
    SuggestionView,
)
from agent_core.facade import grants
from agent_core.facade.base import WorkspaceBase
from agent_core.review import (
    approval_detail,
    decisions,
    editing,
    inbox,
    person_door,
    proposals,
    remembered_rules,
    revert,
    suggested_rules,
)
from agent_core.review.audit_export import write_audit_export
from agent_core.storage.tables import audit
from agent_core.storage.tables import runs as run_rows


class ReviewCommands(WorkspaceBase):
    """Mixed into `Workspace`: what a reviewer and an administrator do."""

    def list_approvals(
        self, *, status: str | None = None, run_id: str | None = None
    ) -> list[ApprovalView]:
        if run_id is not None:
            with self.store.read() as conn:
                run_rows.get_run_row(conn, run_id)  # an unknown run is not_found, as in timeline
        return proposals.list_approvals(self.store, status=status, run_id=run_id)

    def inbox(self) -> list[InboxItemView]:
        """Every decision a person owes, across runs and (team mode) desks: soonest expiry
        first, questions (which never expire) after the proposals."""
        return inbox.inbox(self.store)

    def get_approval(self, approval_id: str) -> ApprovalView:
        return proposals.get_approval(self.store, approval_id)

    def approve(
        self,
        approval_id: str,
        *,
        reviewer: str,
        reason: str | None = None,
        remember: str | None = None,
    ) -> ApprovalView:
        """Approve these exact arguments; with `remember`, also this tool under the folder."""
        return decisions.approve(
            self.store,
            approval_id,
            reviewer=reviewer,
            reason=person_door.decision_note(reason),
            remember=remember,
            desk=self.team_desk,
        )

    def reject(
        self, approval_id: str, *, reviewer: str, reason: str | None = None, revise: bool = False
    ) -> ApprovalView:
        """Reject (the run ends `cancelled`); with `revise`, request changes: the note `reason`
        goes back to the model when the run is resumed, and it may propose again."""
        note = person_door.decision_note(reason)  # capped, masked
        return decisions.reject(
            self.store, approval_id, reviewer=reviewer, reason=note, revise=revise,
            desk=self.team_desk,
        )  # fmt: skip

    def revert(self, approval_id: str, *, reviewer: str, reason: str | None = None) -> ApprovalView:
        """A pending proposal that puts the target of the executed write `approval_id` back as
        it was before it (review/revert.py); the run waits on it until a person decides it,
        and `resume` executes it without a model turn."""
        return revert.propose_revert(
            self.store,
            approval_id,
            reviewer=reviewer,
            reason=person_door.decision_note(reason),
            desk=self.team_desk,
        )

    def resolve_done(
        self, approval_id: str, *, reviewer: str, reason: str | None = None
    ) -> ApprovalView:
        """A person says that a call of unknown outcome did happen: recorded, not called
        again (review/outcome_resolution.py); `resume` goes on from it."""
        from agent_core.review.outcome_resolution import resolve_done

        note = person_door.decision_note(reason)
        return resolve_done(self.store, approval_id, reviewer=reviewer, reason=note)

    def edit(self, approval_id: str, *, reviewer: str, args: JsonMapping | str) -> ApprovalView:
        """A new version with edited arguments, validated again; the old one is superseded."""
        return editing.edit(
            self.store,
            self.settings(),
            approval_id,
            reviewer=reviewer,
            args=person_door.edited_args(_typed(args)),
            desk=self.team_desk,
        )

    def describe_approval(self, approval_id: str) -> ApprovalDetailView:
        """What a reviewer's dialog shows: the proposal, the target's text, whether it changed."""
        return approval_detail.describe_approval(
            self.store, approval_id, desk=self.team_desk, prices=self.prices()
        )

    def validate_edit(self, approval_id: str, args: JsonMapping) -> EditCheckView:
        """Check edited arguments exactly as `edit` would, changing nothing (the dialog)."""
        masked = person_door.edited_args(_typed(args))  # what edit would store
        return editing.validate_edit(self.store, self.settings(), approval_id, masked)

    def approve_edited(
        self,
        approval_id: str,
        *,
        reviewer: str,
        args: JsonMapping,
        reason: str | None = None,
    ) -> ApprovalView:
        """The dialog's "Approve edited": a new version with these arguments, approved."""
        return editing.approve_edited(
            self.store,
            self.settings(),
            approval_id,
            reviewer=reviewer,
            args=person_door.edited_args(_typed(args)),
            reason=person_door.decision_note(reason),
            desk=self.team_desk,
        )

    # -- remembered rules -----------------------------------------------------------------

    def list_rules(self) -> list[RuleView]:
        return remembered_rules.list_rules(self.store)

    def revoke_rule(self, rule_id: str, *, reviewer: str | None = None) -> RuleView:
        """Revoke a remembered rule, audited as `reviewer`'s (default: the reviewer setting)."""
        return remembered_rules.revoke_rule(self.store, rule_id, by=self._acting_person(reviewer))

    def suggest_rules(self) -> list[SuggestionView]:
        """The narrowest rules that would have decided what a person approved at least three
        times, never wider than the targets shown (review/suggested_rules.py); in team mode
        from this desk's runs. `add_rule_from_suggestion(N)` makes the N-th (1-based)."""
        return suggested_rules.suggest_rules(self.store, self.team_desk)

    def add_rule_from_suggestion(self, number: int, *, reviewer: str | None = None) -> RuleView:
        """Make suggestion `number` a `home` rule, a person's act audited as `rule_added`, by
        `reviewer` (default: the reviewer setting); `invalid_arguments` for no such number."""
        return suggested_rules.add_from_suggestion(
            self.store, number, reviewer=self._acting_person(reviewer), desk=self.team_desk
        )

    @staticmethod
    def describe_rule(tool: str, folder: str, scope: str, run_id: str | None = None) -> str:
        """How a remembered "always allow" rule reads, in the words used everywhere else."""
        from agent_core.tools.policy import Rule

        return Rule("", tool, folder, scope, run_id).describe()

    @staticmethod
    def describe_rule_for(tool: str, target: str, scope: str, run_id: str | None = None) -> str:
        """The rule "always allow" would remember from a call of `tool` on `target`."""
        from agent_core.review.remembered_rules import rule_folder

        return ReviewCommands.describe_rule(tool, rule_folder(tool, target), scope, run_id)

    # -- grants: who may decide what ------------------------------------------------------

    def list_grants(self) -> list[GrantView]:
        return grants.list_grants(self.store)

    def add_grant(
        self,
        *,
        reviewer: str,
        tool: str | None = None,
        folder: str | None = None,
        role: str | None = None,
    ) -> GrantView:
        """Let `reviewer` decide `tool` (None: every tool) for targets under `folder` (None:
        anywhere), through the database role `role` (None: any). The first grant turns on
        the check for every decision; on PostgreSQL only the database's owner may add one."""
        return grants.add_grant(
            self.store,
            reviewer=reviewer,
            tool=tool,
            folder=folder,
            role=role,
            created_by=self.settings().reviewer or "",
        )

    def revoke_grant(self, grant_id: str) -> GrantView:
        return grants.revoke_grant(self.store, grant_id)

    def grant_desk_role(self, role: str) -> DeskRoleView:
        """Give a desk's own PostgreSQL role its privileges (run as the database's owner)."""
        return grants.grant_desk_role(self.store, role)

    # -- the audit log --------------------------------------------------------------------

    def audit_entries(
        self, run_id: str | None = None, principal: str | None = None
    ) -> list[AuditEntryView]:
        """Decisions and blocks, oldest first; only one run's or one principal's when given."""
        with self.store.read() as conn:
            entries = audit.list_entries(conn, run_id, principal)
            if run_id is not None and not entries:
                # An unknown run is not_found (as in timeline); a deleted run's record stays.
                run_rows.get_run_row(conn, run_id)
            return entries

    def export_audit(
        self, path: str | Path, fmt: str, *, run_id: str | None = None, principal: str | None = None
    ) -> int:
        """Write the (filtered) audit log to `path` as `json` or `csv`, atomically; returns how
        many entries it holds."""
        entries = self.audit_entries(run_id, principal)
        write_audit_export(Path(path), entries, fmt)
        return len(entries)


def _typed(args: JsonMapping | str) -> dict[str, object] | str:
    """Edited arguments as the review layer takes them: a JSON text, or a dict of its own."""
    return args if isinstance(args, str) else dict(args)
