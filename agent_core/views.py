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


class EventView(TypedDict):
    """One timeline event (the contract's EVENT); `data` has secrets redacted."""

    seq: int
    run_id: str | None
    kind: str
    """An EventKind value."""
    at: str
    tool: str | None
    data: dict[str, object]
