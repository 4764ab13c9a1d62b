"""The transition table of a run's status, and its one writer (`move`).

runs/lifecycle.py says what each transition implies (events, approvals, owners); this module
says which moves are legal and makes them, conditional on the status as read, so a run that
another process moved meanwhile is never moved twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import Connection

from agent_core.contract.errors import BriefDeskError, ErrorCode, ErrorJSON
from agent_core.contract.statuses import RunStatus
from agent_core.storage.tables import runs as run_rows


class Transition(StrEnum):
    START = "start"
    """First drive of a created run."""
    RESUME = "resume"
    """A process takes over a run that waits, was interrupted or failed retryably."""
    WAIT_APPROVAL = "wait_approval"
    """The driver stops at a proposal a person must decide."""
    WAIT_INPUT = "wait_input"
    """The driver stops at a question a person must answer."""
    SUCCEED = "succeed"
    """The model gave its final answer."""
    FAIL = "fail"
    """An error or a budget ended the run."""
    CANCEL = "cancel"
    """A person cancelled the run, or rejected its write (it ends `cancelled`)."""
    EXPIRE = "expire"
    """Its pending proposal expired before anyone decided."""
    RELEASE = "release"
    """The driving process gives the run back without ending it (it could not continue)."""
    TAKE_OVER = "take_over"
    """A person takes the run from an owner this machine cannot prove alive (recorded under
    another host name, or dead; in team mode, another desk whose lease lapsed): it becomes
    `interrupted` (and this desk's), and the next resume continues it."""
    WAIT_REVERT = "wait_revert"
    """A person asked to revert one of its executed writes (`approvals revert`): the run,
    ended or not, waits for that proposal (and remembers the status to return to)."""
    RUN_REVERT = "run_revert"
    """`resume` takes a run whose revert was approved, to execute it (no model turn)."""
    END_REVERT = "end_revert"
    """The revert was executed, refused or rejected: the run gets back the status it had."""
    REOPEN = "reopen"
    """An external agent's session whose run ended (its `SessionEnd`, or `agents.idle_end`
    without a call) calls again (`claude --resume`): its one run goes on (one run per session:
    runs/agent_sessions.py). Never a BriefDesk run's: those end for good."""


WAITING = frozenset({RunStatus.WAITING_APPROVAL, RunStatus.WAITING_INPUT})
NOT_ENDED = frozenset({RunStatus.CREATED, RunStatus.RUNNING, RunStatus.INTERRUPTED, *WAITING})


@dataclass(frozen=True)
class Rule:
    sources: frozenset[RunStatus]
    target: RunStatus
    also: frozenset[RunStatus] = frozenset()
    """Other targets the caller may name (END_REVERT: the status the run had before)."""


# What a revert may interrupt: a run no process drives, waiting on nothing but its question
# (a run waiting on another proposal is refused before: one proposal at a time).
REVERTIBLE_FROM = frozenset(
    {
        RunStatus.INTERRUPTED,
        RunStatus.WAITING_INPUT,
        RunStatus.SUCCEEDED,
        RunStatus.FAILED,
        RunStatus.CANCELLED,
        RunStatus.EXPIRED,
    }
)


TRANSITIONS: dict[Transition, Rule] = {
    Transition.START: Rule(frozenset({RunStatus.CREATED}), RunStatus.RUNNING),
    # RUNNING: only when its owner is dead or is this process (checked by `claim`);
    # FAILED: only when its error is retryable (checked by `claim`).
    Transition.RESUME: Rule(
        frozenset({RunStatus.RUNNING, RunStatus.INTERRUPTED, RunStatus.FAILED, *WAITING}),
        RunStatus.RUNNING,
    ),
    Transition.WAIT_APPROVAL: Rule(frozenset({RunStatus.RUNNING}), RunStatus.WAITING_APPROVAL),
    Transition.WAIT_INPUT: Rule(frozenset({RunStatus.RUNNING}), RunStatus.WAITING_INPUT),
    Transition.SUCCEED: Rule(frozenset({RunStatus.RUNNING}), RunStatus.SUCCEEDED),
    Transition.FAIL: Rule(frozenset({RunStatus.RUNNING}), RunStatus.FAILED),
    Transition.CANCEL: Rule(NOT_ENDED, RunStatus.CANCELLED),
    Transition.EXPIRE: Rule(
        frozenset({RunStatus.RUNNING, RunStatus.WAITING_APPROVAL}), RunStatus.EXPIRED
    ),
    Transition.RELEASE: Rule(frozenset({RunStatus.RUNNING}), RunStatus.INTERRUPTED),
    Transition.TAKE_OVER: Rule(frozenset({RunStatus.RUNNING}), RunStatus.INTERRUPTED),
    Transition.WAIT_REVERT: Rule(REVERTIBLE_FROM, RunStatus.WAITING_APPROVAL),
    # RUNNING: only when its owner is dead or is this process (a kill mid-revert).
    Transition.RUN_REVERT: Rule(
        frozenset({RunStatus.WAITING_APPROVAL, RunStatus.RUNNING}), RunStatus.RUNNING
    ),
    Transition.END_REVERT: Rule(
        frozenset({RunStatus.WAITING_APPROVAL, RunStatus.RUNNING}),
        RunStatus.INTERRUPTED,
        also=REVERTIBLE_FROM,
    ),
    Transition.REOPEN: Rule(frozenset({RunStatus.SUCCEEDED}), RunStatus.RUNNING),
}


class IllegalTransition(BriefDeskError):
    """A status change the table does not allow (a bug, or a race lost to another process)."""

    def __init__(self, run_id: str, current: RunStatus, transition: Transition) -> None:
        code = ErrorCode.RUN_NOT_WAITING if current in NOT_ENDED else ErrorCode.RUN_NOT_FINISHED
        super().__init__(
            code, f"Run {run_id} is {current}: it cannot {transition.value.replace('_', ' ')}."
        )
        self.current = current
        self.transition = transition


def target_of(
    current: RunStatus,
    transition: Transition,
    *,
    to: RunStatus | None = None,
    run_id: str = "?",
) -> RunStatus:
    """The status `transition` leads to from `current` (`to`: one of the rule's `also`
    targets instead); raises when the table forbids it. `move` asks it, and nothing else."""
    rule = TRANSITIONS[transition]
    target = rule.target if to is None else to
    if current not in rule.sources or (target != rule.target and target not in rule.also):
        raise IllegalTransition(run_id, current, transition)
    return target


def is_retryable(error: ErrorJSON | None) -> bool:
    return bool(error and error.get("retryable") is True)


def move(
    conn: Connection,
    row: run_rows.RunRow,
    transition: Transition,
    after: run_rows.RunRow | None = None,
    *,
    to: RunStatus | None = None,
) -> None:
    """Make `transition` from the status `row` was read with, with the other changes the
    transition implies (`after`: a `replace` of `row`, stored as the fields it changed), in the
    caller's transaction; raises `IllegalTransition` when the table forbids it or the run moved
    since. `to`: one of the rule's `also` targets."""
    current = row.status
    target = target_of(current, transition, to=to, run_id=row.run_id)
    moved = run_rows.move_status(conn, row, row if after is None else after, target=target)
    if not moved:  # unreachable inside one write transaction; kept as a guard
        raise IllegalTransition(row.run_id, current, transition)
