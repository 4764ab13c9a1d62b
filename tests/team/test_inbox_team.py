"""Issue 26 in team mode: the inbox of one desk holds what another desk's runs wait for, named
by their desk, in the same order as a desk's own (soonest expiry first, questions last). Two
desks on one real PostgreSQL database, in-process Workspaces."""

from __future__ import annotations

import json
from pathlib import Path

from tests.drills.drill_support import DEMO_QUESTION
from tests.team.conftest import Desk


def test_another_desks_pending_proposal_is_in_this_desks_inbox(
    two_desks: tuple[Desk, Desk], tmp_path: Path
) -> None:
    a, b = two_desks
    script = tmp_path / "ask.json"
    ask = {"call": "ask_question", "args": {"question": "Which audience?"}}
    script.write_text(json.dumps([ask, {"say": "thanks"}]), encoding="utf-8")
    ws_a, ws_b = a.workspace(), b.workspace()
    try:
        [proposal] = ws_a.start_run(DEMO_QUESTION, approval_ttl=600)["approvals"]
        asked = ws_b.start_run("for desk b", model=f"scripted:{script}")
        assert asked["status"] == "waiting_input"

        items = ws_b.inbox()

        assert [(i["kind"], i["desk"]) for i in items] == [
            ("approval", "desk-a"), ("question", "desk-b"),
        ]  # fmt: skip
        assert items[0]["id"] == proposal["id"] and items[0]["target"] == proposal["target"]
        assert items[0]["expires_at"] == proposal["expires_at"]
        assert items[1]["id"] == asked["run_id"] and items[1]["summary"] == "Which audience?"
        assert ws_a.inbox() == items  # one database: every desk owes the same decisions

        ws_b.approve(proposal["id"], reviewer="bob")  # decided on desk b: no longer owed
        assert [i["kind"] for i in ws_a.inbox()] == ["question"]
    finally:
        ws_a.close()
        ws_b.close()
