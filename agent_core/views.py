"""Typed views the façade returns: exactly the JSON objects of the CLI contract.

`Workspace` returns these, `briefdesk-cli --json` prints them as they are, and the desktop
reads them; so a key renamed here is a contract change, caught by the CLI contract tests.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from agent_core.errors import ErrorJSON


class ApprovalView(TypedDict):
    """A proposal (the contract's APPROVAL)."""

    id: str
    run_id: str
    tool: str
    args: dict[str, object]
    """Normalized arguments (defaults filled in)."""
    target: str | None
    """The resolved resource; for a write the absolute path."""
    base_hash: str | None
    """sha256 of the target's content when proposed; null for a new file."""
    risk: str
    reason: str
    """Why policy asks (or, when auto-approved, why it did not)."""
    arg_hash: str
    """sha256 of the tool name and canonical JSON arguments (64 lowercase hex)."""
    state_version: int
    version: int
    status: str
    """An ApprovalStatus value."""
    created_at: str
    expires_at: str
    reviewer: str | None
    decision_reason: str | None
    decided_at: str | None
    decided_by_rule: str | None
    consumed_at: str | None
    desk: str | None
    """The desk (installation) whose run proposed it; null for rows older than team mode."""
    content_field: NotRequired[str | None]
    """The argument a reviewer reads as the target's new content (a diff); null: none."""
    path_field: NotRequired[str | None]
    """The argument that names the target (editable as a path); null: none."""


class RunView(TypedDict):
    """A run (the contract's RUN), with its pending proposals whole."""

    run_id: str
    thread_id: str
    status: str
    """A RunStatus value; a `running` run whose owner died shows as `interrupted`."""
    question: str
    model: str
    mode: str
    created_at: str
    updated_at: str
    approvals: list[ApprovalView]
    question_pending: str | None
    output: str | None
    error: ErrorJSON | None
    corpus: str
    artifacts: str
    ready_to_continue: NotRequired[bool]
    """True when `resume` would continue it now: its decision or answer has landed (from any
    process), its process died, it was never driven, or it failed in a way `resume` retries."""
    owner: NotRequired[OwnerView | None]
    """Who drives a `running` run, as recorded; null for any other run."""


class OwnerView(TypedDict):
    """The recorded owner of a `running` run: what a person needs before taking it over."""

    host: str
    pid: int
    since: str
    """ISO time at which it took the run (its latest run_started or run_resumed event)."""
    this_host: bool
    """False: recorded under another host name; this machine cannot tell whether that process
    still runs, so `resume --take-over` (the window asks first) may continue the run here."""


class DamagedRunView(TypedDict):
    """A run row this app cannot read (`runs` lists it apart; the other runs stay usable)."""

    run_id: str
    error: ErrorJSON
    """Always `storage_corrupt`, saying what in the row is unreadable."""


class EventView(TypedDict):
    """One timeline event (the contract's EVENT); `data` has secrets redacted."""

    seq: int
    run_id: str | None
    kind: str
    """An EventKind value."""
    at: str
    tool: str | None
    data: dict[str, object]


class RuleView(TypedDict):
    """A remembered decision (`rules list`), its scope in full."""

    id: str
    tool: str
    folder: str
    """Targets under this folder (absolute) are covered; never shortened."""
    scope: str
    """`run` (only `run_id`) or `home` (every run in this home)."""
    run_id: str | None
    created_by: str
    created_at: str
    revoked_at: str | None
    active: bool
    describes: str
    """The whole scope in one sentence, for people."""


class AuditEntryView(TypedDict):
    """One audit row: a decision (by a person, a rule or policy) or a blocked action."""

    id: int
    at: str
    run_id: str | None
    entry: str
    """`decision` or `block`."""
    principal: str
    """Who: `person:NAME`, `rule:ID`, `policy:MODE` or `model`."""
    tool: str | None
    arg_hash: str | None
    resource: str | None
    rule_id: str | None
    code: str | None
    decision: str | None
    detail: str | None
