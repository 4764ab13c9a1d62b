"""Every status the core stores, one docstring per member (they are shown to users)."""

from __future__ import annotations

from enum import StrEnum


class RunStatus(StrEnum):
    CREATED = "created"
    """It exists but no process has driven it yet (`run` creates and drives at once)."""
    RUNNING = "running"
    """A process is driving the run now; its owner (host, pid, start time) is recorded."""
    WAITING_APPROVAL = "waiting_approval"
    """Stopped at a risky call until a person approves, rejects or edits it, then `resume`."""
    WAITING_INPUT = "waiting_input"
    """Stopped at `ask_question` until someone answers, then `resume`."""
    SUCCEEDED = "succeeded"
    """The model gave its final answer; every approved side effect happened once."""
    CANCELLED = "cancelled"
    """A person rejected its write, or cancelled it."""
    EXPIRED = "expired"
    """Its pending approval passed `expires_at` before anyone decided."""
    FAILED = "failed"
    """An error or a budget ended it; `error` says which."""
    INTERRUPTED = "interrupted"
    """Its process died mid-way (the owner is gone); `resume` continues from the last checkpoint."""

    @property
    def is_terminal(self) -> bool:
        return self in TERMINAL_RUN_STATUSES


TERMINAL_RUN_STATUSES = frozenset(
    {RunStatus.SUCCEEDED, RunStatus.CANCELLED, RunStatus.EXPIRED, RunStatus.FAILED}
)


class ApprovalStatus(StrEnum):
    PENDING = "pending"
    """Waiting for a person (or a rule) to decide."""
    APPROVED = "approved"
    """A person or a remembered rule approved these exact arguments; not yet executed."""
    REJECTED = "rejected"
    """A person refused it; the tool never runs."""
    EXPIRED = "expired"
    """Nobody decided before `expires_at`; it can no longer be approved."""
    SUPERSEDED = "superseded"
    """An edit replaced it with a new version (new id, new arguments)."""
    CONSUMED = "consumed"
    """Approved and executed exactly once; `consumed_at` says when."""
    CANCELLED = "cancelled"
    """Its run was cancelled while it waited; `reviewer` says who cancelled. Not a rejection."""
    CHANGES_REQUESTED = "changes_requested"
    """A person sent it back with a note (`decision_reason`) instead of deciding it: it never
    runs and is not a rejection. `resume` hands the note to the model as the call's result, and
    the model may propose again (a new proposal, which a person decides again)."""


class SideEffectStatus(StrEnum):
    STARTED = "started"
    """The intent is durable; the effect may or may not have happened (outcome unknown on crash)."""
    CONFIRMED = "confirmed"
    """The effect happened and its result is recorded; replays return the recorded result."""
    FAILED = "failed"
    """The effect was attempted and did not happen (the error is recorded)."""


class ToolOutcomeStatus(StrEnum):
    SUCCESS = "success"
    """The tool did its job."""
    EMPTY = "empty"
    """The tool ran and found nothing (for example a search with no hits)."""
    DEGRADED = "degraded"
    """The tool answered with less than asked (truncated or partial)."""
    FALLBACK = "fallback"
    """The main path failed and a simpler one answered."""
    PROVIDER_ERROR = "provider_error"
    """An outside provider (network, model endpoint) failed."""
    ERROR = "error"
    """The call was refused or failed; nothing happened."""
