"""An approval's status, move by move: the table walked pair by pair, pure and on SQLite.

Every (status, move) pair is tried twice: on the record alone (`moved`, no database) and
through the one writer (`storage/tables/approvals.py:move`) on a real SQLite file, where a
refused move leaves the row exactly as it was. The expected table is written out by hand, and
checked against the PostgreSQL triggers' own SQL: a desk's role may make every move, and no
pair they refuse.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from agent_core.contract.approval_moves import (
    DESK_ROLE_MOVES,
    MOVES,
    ApprovalMove,
    IllegalApprovalMove,
    moved,
    shown_status,
)
from agent_core.contract.approvals import Approval
from agent_core.contract.canonical import iso
from agent_core.contract.errors import BriefDeskError
from agent_core.contract.statuses import ApprovalStatus
from agent_core.facade.workspace import Workspace
from agent_core.home.clock import utcnow
from agent_core.storage.schema import approvals
from agent_core.storage.tables import approvals as approval_rows

REPO = Path(__file__).resolve().parents[2]
S = ApprovalStatus
M = ApprovalMove
# Written out by hand (not derived from the code): where each move starts, where it leads.
EXPECTED: dict[ApprovalMove, tuple[ApprovalStatus, ApprovalStatus]] = {
    M.APPROVE: (S.PENDING, S.APPROVED),
    M.REJECT: (S.PENDING, S.REJECTED),
    M.REQUEST_CHANGES: (S.PENDING, S.CHANGES_REQUESTED),
    M.SUPERSEDE_BY_EDIT: (S.PENDING, S.SUPERSEDED),
    M.EXPIRE: (S.PENDING, S.EXPIRED),
    M.CANCEL_WITH_RUN: (S.PENDING, S.CANCELLED),
    M.CONSUME: (S.APPROVED, S.CONSUMED),
    M.SUPERSEDE_BY_REPROPOSAL: (S.APPROVED, S.SUPERSEDED),
}
# The contract's error for a move refused from each status (check_decidable's precedence).
REFUSED_AS = {S.EXPIRED: "approval_expired", S.SUPERSEDED: "approval_superseded"}
PAIRS = [(move, status) for move in ApprovalMove for status in ApprovalStatus]


def _proposal(status: ApprovalStatus, approval_id: str = "ap-1") -> Approval:
    now = utcnow()
    return Approval(
        id=approval_id,
        run_id="run-none",  # the table alone: no run
        thread_id="th",
        call_id=f"call-{approval_id}",
        tool="save_brief",
        args={"filename": "brief.md", "content": "x"},
        target="/briefs/brief.md",
        base_hash=None,
        risk="write",
        reason="test",
        arg_hash="0" * 64,
        state_version=1,
        version=1,
        status=status,
        created_at=iso(now) or "",
        expires_at=iso(now + timedelta(hours=1)) or "",
        reviewer="ann" if status is S.APPROVED else None,
        decided_at=iso(now) if status is S.APPROVED else None,
    )


def _who(move: ApprovalMove) -> dict[str, str | None]:
    """What a caller passes: a reviewer for a decision but an expiry, a note for changes."""
    if not MOVES[move].decides:
        return {}
    if move is M.EXPIRE:
        return {"reviewer": None}
    return {"reviewer": "ana", "reason": "please shorten it"}


@pytest.mark.parametrize(("move", "status"), PAIRS, ids=str)
def test_the_table_pair_by_pair_without_a_database(
    move: ApprovalMove, status: ApprovalStatus
) -> None:
    source, target = EXPECTED[move]
    before = _proposal(status)
    if status is not source:
        with pytest.raises(IllegalApprovalMove) as info:
            moved(before, move, at="t1", **_who(move))
        assert info.value.code == REFUSED_AS.get(status, "approval_already_resolved")
        return
    after = moved(before, move, at="t1", **_who(move))
    assert after.status is target
    asked = {"status", "reviewer", "decision_reason", "decided_at", "consumed_at"}
    assert {k: v for k, v in vars(after).items() if k not in asked} == {
        k: v for k, v in vars(before).items() if k not in asked
    }, "a move changes only what it records of the decision"
    if MOVES[move].decides:  # who, why and when; consumed only by CONSUME
        expected = (_who(move).get("reviewer"), _who(move).get("reason"), "t1", None)
    else:  # the earlier decision stays
        consumed = "t1" if target is S.CONSUMED else None
        expected = (before.reviewer, before.decision_reason, before.decided_at, consumed)
    assert (after.reviewer, after.decision_reason, after.decided_at, after.consumed_at) == expected


def test_a_move_records_only_what_it_may() -> None:
    pending = _proposal(S.PENDING)
    with pytest.raises(BriefDeskError) as info:  # a request for changes needs its note
        moved(pending, M.REQUEST_CHANGES, at="t", reviewer="ana", reason="  ")
    assert info.value.code == "invalid_arguments"
    with pytest.raises(ValueError):  # an expiry is nobody's decision
        moved(pending, M.EXPIRE, at="t", reviewer="ana")
    with pytest.raises(ValueError):  # a person's decision names the person
        moved(pending, M.REJECT, at="t")
    with pytest.raises(ValueError):  # consuming keeps the decision it executes
        moved(_proposal(S.APPROVED), M.CONSUME, at="t", reviewer="eve")


def test_a_reader_sees_an_overdue_proposal_expired_and_nothing_else_changed() -> None:
    overdue = replace(_proposal(S.PENDING), expires_at=iso(utcnow() - timedelta(seconds=1)) or "")
    assert shown_status(overdue, utcnow()) is S.EXPIRED
    assert shown_status(_proposal(S.PENDING), utcnow()) is S.PENDING
    late_but_decided = replace(overdue, status=S.APPROVED)
    assert shown_status(late_but_decided, utcnow()) is S.APPROVED


def _trigger_pairs() -> set[tuple[ApprovalStatus, ApprovalStatus]]:
    """The (OLD, NEW) status pairs the newest `briefdesk_guard_approvals` lets a desk make."""
    versions = REPO / "agent_core/storage/migrate/migrations/versions"
    text = (versions / "0015_desk_guards_events_blobs_expiry.py").read_text(encoding="utf-8")
    body = text[text.index("FUNCTION briefdesk_guard_approvals()") :]
    body = body[: body.index("RAISE EXCEPTION 'BriefDesk: the role % may not make proposal")]
    pairs = set()
    for old, new in re.findall(
        r"OLD\.status = '(\w+)'\s+AND NEW\.status (= '\w+'|IN \([^)]*\))", body
    ):
        for name in re.findall(r"'(\w+)'", new):
            pairs.add((S(old), S(name)))
    return pairs


def test_a_desk_role_may_make_every_move_and_the_table_asks_no_more() -> None:
    table = {(rule.source, rule.target) for rule in MOVES.values()}
    assert _trigger_pairs() == DESK_ROLE_MOVES
    assert table <= DESK_ROLE_MOVES, table - DESK_ROLE_MOVES


# -- through the one writer, on a real SQLite file -------------------------------------------


def test_the_writer_pair_by_pair_on_sqlite(ws: Workspace) -> None:
    """Each pair on its own row: a legal move is written as `moved` says; an illegal one
    raises the contract's error and leaves the row as it was."""
    for index, (move, status) in enumerate(PAIRS):
        row_id = f"ap-{index}"
        with ws.store.write() as conn:
            approval_rows.insert_approval(conn, _proposal(S.PENDING, row_id))
            conn.execute(  # the state to start from, set by hand: the database is under test
                update(approvals)
                .where(approvals.c.id == row_id)
                .values(status=str(status), reviewer=_proposal(status).reviewer)
            )
        with ws.store.read() as conn:
            before = approval_rows.get_approval(conn, row_id)
        source, target = EXPECTED[move]
        if status is source:
            with ws.store.write() as conn:
                written = approval_rows.move(conn, before, move, at="t1", **_who(move))
            with ws.store.read() as conn:
                stored = approval_rows.get_approval(conn, row_id)
            assert stored == written == moved(before, move, at="t1", **_who(move))
            assert stored.status is target
        else:
            with pytest.raises(IllegalApprovalMove), ws.store.write() as conn:
                approval_rows.move(conn, before, move, at="t1", **_who(move))
            with ws.store.read() as conn:
                assert approval_rows.get_approval(conn, row_id) == before, (move, status)


def test_the_first_reviewer_wins_and_the_second_is_told_what_happened(ws: Workspace) -> None:
    with ws.store.write() as conn:
        approval_rows.insert_approval(conn, _proposal(S.PENDING))
    with ws.store.read() as conn:
        read_by_both = approval_rows.get_approval(conn, "ap-1")
    with ws.store.write() as conn:
        approval_rows.move(conn, read_by_both, M.REJECT, reviewer="ann")
    with pytest.raises(BriefDeskError) as info, ws.store.write() as conn:
        approval_rows.move(conn, read_by_both, M.APPROVE, reviewer="bob")
    assert info.value.code == "approval_already_resolved"
    with ws.store.read() as conn:
        final = approval_rows.get_approval(conn, "ap-1")
    assert (final.status, final.reviewer) == (S.REJECTED, "ann")


def test_a_proposal_is_made_pending_or_approved_and_moved_anywhere_else(ws: Workspace) -> None:
    for status in set(ApprovalStatus) - {S.PENDING, S.APPROVED}:
        with pytest.raises(ValueError, match="moved there"), ws.store.write() as conn:
            approval_rows.insert_approval(conn, _proposal(status, f"ap-{status}"))
    with ws.store.read() as conn:
        assert approval_rows.list_approvals(conn) == []
