"""The tables review stores, on their own: remembered rules and the proposals' expiry seam.

The flows over them (approve, remember, expire a run) are proven in test_approvals.py; here the
storage functions keep their promises without a run: a revocation keeps its first time, a
proposal falls due when the core's clock says so (no sleep), a row of the wrong type is
`storage_corrupt` rather than a half-read proposal.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from agent_core.contract.approvals import Approval
from agent_core.contract.canonical import iso
from agent_core.contract.errors import BriefDeskError
from agent_core.contract.statuses import ApprovalStatus
from agent_core.facade.workspace import Workspace
from agent_core.home.clock import ManualClock, now_iso, utcnow
from agent_core.storage.schema import approvals
from agent_core.storage.tables import approvals as approval_rows
from agent_core.storage.tables import rules as rule_rows


def _rule(rule_id: str, created_at: str) -> rule_rows.RuleRow:
    return rule_rows.RuleRow(
        id=rule_id,
        tool="save_brief",
        folder="/tmp/briefs",
        scope="home",
        run_id=None,
        created_by="ana",
        created_at=created_at,
    )


def _proposal(ttl_seconds: float) -> Approval:
    now = utcnow()
    return Approval(
        id=approval_rows.new_approval_id(),
        run_id="run-none",  # the table alone: no run (test_approvals.py expires runs)
        thread_id="th",
        call_id="c1",
        tool="fetch_url",
        args={"url": "https://example.org/"},
        target=None,
        base_hash=None,
        risk="network",
        reason="test",
        arg_hash="0" * 64,
        state_version=1,
        version=1,
        status=ApprovalStatus.PENDING,
        created_at=iso(now) or "",
        expires_at=iso(now + timedelta(seconds=ttl_seconds)) or "",
    )


def test_rules_list_oldest_first_and_a_revocation_keeps_its_first_time(
    ws: Workspace, manual_clock: ManualClock
) -> None:
    with ws.store.write() as conn:
        rule_rows.insert_rule(conn, _rule("rule-b", "2026-01-02T00:00:00+00:00"))
        rule_rows.insert_rule(conn, _rule("rule-a", "2026-01-01T00:00:00+00:00"))
    with ws.store.write() as conn:
        first = rule_rows.revoke(conn, "rule-a", now_iso())
    manual_clock.advance(60)
    with ws.store.write() as conn:
        again = rule_rows.revoke(conn, "rule-a", now_iso())
        assert rule_rows.revoke(conn, "rule-none", now_iso()) is None
    assert first is not None and again == first and first.revoked_at is not None
    with ws.store.read() as conn:
        assert [r.id for r in rule_rows.list_rules(conn)] == ["rule-a", "rule-b"]
        assert rule_rows.get_rule(conn, "rule-b") == _rule("rule-b", "2026-01-02T00:00:00+00:00")


def test_a_proposal_falls_due_when_the_clock_moves(
    ws: Workspace, manual_clock: ManualClock
) -> None:
    proposal = _proposal(ttl_seconds=30)
    with ws.store.write() as conn:
        approval_rows.insert_approval(conn, proposal)
    with ws.store.write() as conn:
        assert not approval_rows.any_due(conn)
        assert approval_rows.expire_due(conn) == []
    manual_clock.advance(31)
    with ws.store.write() as conn:
        assert approval_rows.any_due(conn)
        [expired] = approval_rows.expire_due(conn)
        assert not approval_rows.any_due(conn)
    assert expired.id == proposal.id
    assert expired.status is ApprovalStatus.EXPIRED and expired.decided_at == now_iso()


@pytest.mark.parametrize(
    ("column", "value"),
    [("args_json", "[1, 2]"), ("args_json", "{oops"), ("status", "maybe"), ("version", "two")],
)
def test_a_proposal_row_of_the_wrong_shape_is_storage_corrupt(
    ws: Workspace, column: str, value: str
) -> None:
    proposal = _proposal(ttl_seconds=30)
    with ws.store.write() as conn:
        approval_rows.insert_approval(conn, proposal)
        conn.execute(update(approvals).where(approvals.c.id == proposal.id).values({column: value}))
    with ws.store.read() as conn, pytest.raises(BriefDeskError) as info:
        approval_rows.get_approval(conn, proposal.id)
    assert info.value.code == "storage_corrupt"
