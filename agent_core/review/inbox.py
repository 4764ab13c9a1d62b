"""The inbox: every decision a person owes, across runs (and desks, in team mode).

Soonest expiry first; what never expires (a question) after every proposal, oldest first. A
proposal already past its time is no longer owed (it can only be swept), so it is left out.
"""

from __future__ import annotations

from agent_core.contract.approval_moves import shown_status
from agent_core.contract.approvals import Approval
from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.terminal_text import terminal_line
from agent_core.contract.views import InboxItemView
from agent_core.home.clock import utcnow
from agent_core.storage.store import Store
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import runs as run_rows
from agent_core.tools.ask_question import SPEC as ASK_QUESTION

SUMMARY_CHARS = 200


def inbox(store: Store) -> list[InboxItemView]:
    """The inbox as the contract's ITEMs, in the order a person should take them."""
    now = utcnow()
    with store.read() as conn:
        pending = approval_rows.pending_by_run(conn)
        questions = run_rows.waiting_question_rows(conn)
        rows = {r.run_id: r for r in run_rows.list_run_rows(conn, list(pending))}
    items: list[InboxItemView] = []
    for run_id, approvals in pending.items():
        row = rows.get(run_id)
        if row is None:  # its run was deleted under it: nothing left to decide for
            continue
        items.extend(
            _approval_item(a, row)
            for a in approvals
            if shown_status(a, now) is ApprovalStatus.PENDING
        )
    items.extend(_question_item(row) for row in questions)
    return sorted(items, key=_order)


def _one_line(text: str) -> str:
    line = terminal_line(" ".join(text.split()))
    return line if len(line) <= SUMMARY_CHARS else line[: SUMMARY_CHARS - 1] + "…"


def _approval_item(approval: Approval, row: run_rows.RunRow) -> InboxItemView:
    question = _one_line(row.question)
    return InboxItemView(
        kind="approval",
        id=approval.id,
        run_id=approval.run_id,
        desk=approval.desk or row.desk,
        tool=approval.tool,
        target=approval.target,
        summary=question,
        question=question,
        created_at=approval.created_at,
        expires_at=approval.expires_at,
        revision=approval.revision,
    )


def _question_item(row: run_rows.RunRow) -> InboxItemView:
    return InboxItemView(
        kind="question",
        id=row.run_id,
        run_id=row.run_id,
        desk=row.desk,
        tool=ASK_QUESTION.name,
        target=None,
        summary=_one_line(row.question_pending or ""),
        question=_one_line(row.question),
        created_at=row.updated_at,
        expires_at=None,
        revision=1,
    )


def _order(item: InboxItemView) -> tuple[int, str, str]:
    expires = item["expires_at"]
    return (0, expires, item["created_at"]) if expires else (1, "", item["created_at"])
