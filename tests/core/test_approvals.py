"""Durable approvals: approve, reject, edit, expire; exactly once; modes; remembered decisions.

Every path is proven from the artifacts folder and the database rows, not from return values.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy import select

from agent_core.contract.approval_moves import ApprovalMove, moved
from agent_core.contract.approvals import Approval, check_decidable
from agent_core.contract.errors import BriefDeskError
from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.views import ApprovalView, EventView, RunView
from agent_core.facade.workspace import Workspace
from agent_core.home.clock import ManualClock, utcnow
from agent_core.storage.schema import approvals, audit, ledger
from tests.support.store_backends import StoreBackend
from tests.support.typed import present

Waiting = tuple[Workspace, RunView, ApprovalView]  # the `waiting` fixture
QUESTION = "How do checkpoints make agent runs durable?"


def _events(ws: Workspace, run_id: str, kind: str, tool: str | None = None) -> list[EventView]:
    return [
        e for e in ws.timeline(run_id) if e["kind"] == kind and (tool is None or e["tool"] == tool)
    ]


def _executions(ws: Workspace, run_id: str, tool: str) -> int:
    return sum(1 for e in _events(ws, run_id, "tool_result", tool) if e["data"]["executed"])


def _script(tmp_path: Path, turns: list[dict[str, Any]], name: str = "script.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(turns))
    return f"scripted:{path}"


def _rows(ws: Workspace, table: Any, **where: Any) -> list[Any]:
    with ws.store.read() as conn:
        query = select(table)
        for key, value in where.items():
            query = query.where(table.c[key] == value)
        return list(conn.execute(query))


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


@pytest.fixture
def waiting(ws: Workspace) -> tuple[Workspace, RunView, ApprovalView]:
    run = ws.start_run(QUESTION)
    assert run["status"] == "waiting_approval"
    assert len(run["approvals"]) == 1
    return ws, run, run["approvals"][0]


# -- pure transitions (no database) ------------------------------------------------------


def _approval(status: ApprovalStatus, expires_in: float = 60) -> Approval:
    from datetime import timedelta

    now = utcnow()
    return Approval(
        id="ap-1",
        run_id="r",
        thread_id="t",
        call_id="c",
        tool="save_brief",
        args={},
        target="/x",
        base_hash=None,
        risk="write",
        reason="",
        arg_hash="0" * 64,
        state_version=1,
        version=1,
        status=status,
        created_at=now.isoformat(),
        expires_at=(now + timedelta(seconds=expires_in)).isoformat(),
    )


@pytest.mark.parametrize(
    ("status", "expires_in", "code"),
    [
        (ApprovalStatus.EXPIRED, 60, "approval_expired"),
        (ApprovalStatus.PENDING, -1, "approval_expired"),
        (ApprovalStatus.SUPERSEDED, 60, "approval_superseded"),
        (ApprovalStatus.APPROVED, 60, "approval_already_resolved"),
        (ApprovalStatus.REJECTED, 60, "approval_already_resolved"),
        (ApprovalStatus.CONSUMED, 60, "approval_already_resolved"),
    ],
)
def test_transition_errors_follow_contract_precedence(
    status: ApprovalStatus, expires_in: float, code: str
) -> None:
    with pytest.raises(BriefDeskError) as info:
        check_decidable(_approval(status, expires_in), utcnow())
    assert info.value.code == code


def test_decide_then_consume_is_the_only_way_to_consumed() -> None:
    pending = _approval(ApprovalStatus.PENDING)
    check_decidable(pending, utcnow())
    approved = moved(pending, ApprovalMove.APPROVE, at="t", reviewer="ann")
    assert (approved.status, approved.reviewer) == (ApprovalStatus.APPROVED, "ann")
    consumed = moved(approved, ApprovalMove.CONSUME, at="t2")
    assert (consumed.status, consumed.consumed_at) == (ApprovalStatus.CONSUMED, "t2")
    with pytest.raises(BriefDeskError):
        moved(pending, ApprovalMove.CONSUME, at="t2")


# -- the four paths -------------------------------------------------------------------------


def test_proposal_binds_everything_and_nothing_is_written(waiting: Waiting) -> None:
    ws, run, ap = waiting
    artifacts = Path(run["artifacts"])
    assert _files(artifacts) == []
    assert ap["tool"] == "save_brief" and ap["status"] == "pending"
    assert Path(present(ap["target"])).is_absolute() and Path(present(ap["target"])).is_relative_to(
        artifacts
    )
    assert len(ap["arg_hash"]) == 64 and ap["base_hash"] is None and ap["version"] == 1
    assert set(ap["args"]) == {"relative_path", "content"}
    assert "approved" not in json.dumps(ap["args"])  # the model never supplies a confirmation
    row = _rows(ws, approvals, id=ap["id"])[0]
    assert row.status == "pending" and row.expires_at > row.created_at


def test_approve_writes_exactly_once_and_is_audited(waiting: Waiting) -> None:
    ws, run, ap = waiting
    ws.approve(ap["id"], reviewer="alice")
    with pytest.raises(BriefDeskError) as again:
        ws.approve(ap["id"], reviewer="bob")
    assert again.value.code == "approval_already_resolved"
    done = ws.resume(run["run_id"])
    assert done["status"] == "succeeded"
    target = Path(present(ap["target"]))
    assert target.read_text() == ap["args"]["content"]
    first = target.stat()
    for _ in range(2):  # resuming a finished run changes nothing and never writes again
        assert ws.resume(run["run_id"])["status"] == "succeeded"
    assert (target.stat().st_ino, target.stat().st_mtime_ns) == (first.st_ino, first.st_mtime_ns)
    assert _executions(ws, run["run_id"], "save_brief") == 1
    row = _rows(ws, approvals, id=ap["id"])[0]
    assert row.status == "consumed" and row.consumed_at and row.reviewer == "alice"
    decisions = [r for r in _rows(ws, audit, run_id=run["run_id"]) if r.entry == "decision"]
    assert [(r.principal, r.arg_hash, r.decision) for r in decisions] == [
        ("person:alice", ap["arg_hash"], "approved")
    ]
    assert [
        r.status for r in _rows(ws, ledger, run_id=run["run_id"]) if r.tool == "save_brief"
    ] == ["confirmed"]


def test_write_refused_when_target_changed_after_approval(waiting: Waiting) -> None:
    ws, run, ap = waiting
    ws.approve(ap["id"], reviewer="alice")
    target = Path(present(ap["target"]))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("someone else's words\n")
    ws.resume(run["run_id"])
    assert target.read_text() == "someone else's words\n"
    blocked = _events(ws, run["run_id"], "blocked", "save_brief")
    assert [b["data"]["code"] for b in blocked] == ["target_changed"]
    assert _executions(ws, run["run_id"], "save_brief") == 0


def test_approving_a_stale_proposal_answers_target_changed(waiting: Waiting) -> None:
    ws, _run, ap = waiting
    target = Path(present(ap["target"]))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("changed on disk\n")
    with pytest.raises(BriefDeskError) as info:
        ws.approve(ap["id"], reviewer="alice")
    assert info.value.code == "target_changed"
    assert _rows(ws, approvals, id=ap["id"])[0].status == "pending"


def test_reject_cancels_and_a_repeat_request_in_the_thread_is_refused(
    waiting: Waiting, tmp_path: Path
) -> None:
    ws, run, ap = waiting
    ws.reject(ap["id"], reviewer="carol", reason="not now")
    ended = ws.resume(run["run_id"])
    assert ended["status"] == "cancelled"
    assert _files(Path(run["artifacts"])) == []
    assert "not saved" in (ended["output"] or "")
    assert not [
        e
        for e in _events(ws, run["run_id"], "model_turn")
        if "save_brief" in cast(list[str], e["data"]["calls"])[1:]
    ]
    # A later model in the same thread asks again for the same write: refused automatically.
    model = _script(tmp_path, [{"call": "save_brief", "args": ap["args"]}, {"say": "tried again"}])
    again = ws.start_run("again", thread=run["thread_id"], model=model)
    assert again["status"] == "succeeded" and again["approvals"] == []
    blocked = _events(ws, again["run_id"], "blocked", "save_brief")
    assert [b["data"]["code"] for b in blocked] == ["previously_rejected"]
    assert _files(Path(run["artifacts"])) == []
    assert [r.decision for r in _rows(ws, audit) if r.entry == "decision"] == ["rejected"]


def test_edit_supersedes_and_writes_only_the_edited_version(waiting: Waiting) -> None:
    ws, run, ap = waiting
    edited_args = {"relative_path": "briefs/edited.md", "content": "# Edited\n\nShorter brief.\n"}
    new = ws.edit(ap["id"], reviewer="dave", args=edited_args)
    assert new["id"] != ap["id"] and new["version"] == 2 and new["arg_hash"] != ap["arg_hash"]
    assert _rows(ws, approvals, id=ap["id"])[0].status == "superseded"
    with pytest.raises(BriefDeskError) as old:
        ws.approve(ap["id"], reviewer="dave")
    assert old.value.code == "approval_superseded"
    ws.approve(new["id"], reviewer="dave")
    assert ws.resume(run["run_id"])["status"] == "succeeded"
    artifacts = Path(run["artifacts"])
    assert _files(artifacts) == [artifacts / "briefs" / "edited.md"]
    assert (artifacts / "briefs" / "edited.md").read_text() == edited_args["content"]


def test_edit_outside_scope_is_refused_and_changes_nothing(waiting: Waiting) -> None:
    ws, run, ap = waiting
    with pytest.raises(BriefDeskError) as info:
        ws.edit(ap["id"], reviewer="dave", args={"relative_path": "../secret.txt", "content": "x"})
    assert info.value.code == "path_outside_scope"
    rows = _rows(ws, approvals, run_id=run["run_id"])
    assert [(r.id, r.status) for r in rows] == [(ap["id"], "pending")]
    assert not (Path(run["artifacts"]).parent / "secret.txt").exists()
    with pytest.raises(BriefDeskError) as extra:
        ws.edit(ap["id"], reviewer="dave", args={**ap["args"], "approved": True})
    assert extra.value.code == "invalid_arguments"


def test_expired_approval_expires_the_run(ws: Workspace, manual_clock: ManualClock) -> None:
    run = ws.start_run(QUESTION, approval_ttl=0.5)
    ap = run["approvals"][0]
    manual_clock.advance(0.8)
    assert [r["status"] for r in ws.list_runs() if r["run_id"] == run["run_id"]] == ["expired"]
    with pytest.raises(BriefDeskError) as info:
        ws.approve(ap["id"], reviewer="erin")
    assert info.value.code == "approval_expired"
    unchanged = ws.resume(run["run_id"])
    assert unchanged["status"] == "expired"
    assert _files(Path(run["artifacts"])) == []
    assert _rows(ws, approvals, id=ap["id"])[0].status == "expired"


# -- permission modes ---------------------------------------------------------------------


def test_accept_edits_auto_approves_writes_inside_artifacts(ws: Workspace) -> None:
    run = ws.start_run(QUESTION, mode="acceptEdits")
    assert run["status"] == "succeeded"
    files = _files(Path(run["artifacts"]))
    assert len(files) == 1 and files[0].read_text().startswith("# Brief:")
    rows = _rows(ws, approvals, run_id=run["run_id"])
    assert [(r.status, r.reviewer) for r in rows] == [("consumed", "policy:acceptEdits")]
    decisions = [r for r in _rows(ws, audit, run_id=run["run_id"]) if r.entry == "decision"]
    assert [r.principal for r in decisions] == ["policy:acceptEdits"]


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "dangerouslySkipPermissions"])
def test_no_mode_allows_a_path_outside_scope(ws: Workspace, tmp_path: Path, mode: str) -> None:
    model = _script(
        tmp_path,
        [
            {
                "calls": [
                    {
                        "call": "save_brief",
                        "args": {"relative_path": "../escape.md", "content": "x"},
                    },
                    {
                        "call": "save_brief",
                        "args": {"relative_path": "/tmp/escape.md", "content": "x"},
                    },
                ]
            },
            {"say": "done"},
        ],
    )
    run = ws.start_run("escape", model=model, mode=mode)
    assert run["status"] == "succeeded" and run["approvals"] == []
    codes = sorted(str(b["data"]["code"]) for b in _events(ws, run["run_id"], "blocked"))
    assert codes == ["path_outside_scope", "path_outside_scope"]
    assert not (Path(run["artifacts"]).parent / "escape.md").exists()
    assert _files(Path(run["artifacts"])) == []


# -- remembered decisions -----------------------------------------------------------------


def test_remembered_home_rule_is_scoped_exactly_and_revocable(
    waiting: Waiting, tmp_path: Path
) -> None:
    ws, run, ap = waiting
    ws.approve(ap["id"], reviewer="fay", remember="home")
    ws.resume(run["run_id"])
    rules = ws.list_rules()
    folder = str(Path(present(ap["target"])).parent)
    assert [(r["tool"], r["folder"], r["scope"], r["active"]) for r in rules] == [
        ("save_brief", folder, "home", True)
    ]
    assert folder in rules[0]["describes"]

    inside = _script(
        tmp_path,
        [
            {
                "call": "save_brief",
                "args": {"relative_path": "briefs/second.md", "content": "two\n"},
            },
            {"say": "ok"},
        ],
        "inside.json",
    )
    second = ws.start_run("second", model=inside)
    assert second["status"] == "succeeded"
    assert (Path(run["artifacts"]) / "briefs" / "second.md").read_text() == "two\n"
    by_rule = [r for r in _rows(ws, audit, run_id=second["run_id"]) if r.entry == "decision"]
    assert [(r.principal, r.rule_id) for r in by_rule] == [
        (f"rule:{rules[0]['id']}", rules[0]["id"])
    ]

    outside = _script(
        tmp_path,
        [
            {
                "call": "save_brief",
                "args": {"relative_path": "other/third.md", "content": "three\n"},
            },
            {"say": "ok"},
        ],
        "outside.json",
    )
    third = ws.start_run("third", model=outside)
    assert third["status"] == "waiting_approval"  # a sibling folder is not covered

    ws.revoke_rule(rules[0]["id"])
    fourth = ws.start_run("fourth", model=inside.replace("inside", "inside"))
    assert fourth["status"] == "waiting_approval"  # revoked: asks again
    assert ws.list_rules()[0]["active"] is False


def test_remembered_run_rule_does_not_leak_to_other_runs(ws: Workspace, tmp_path: Path) -> None:
    model = _script(
        tmp_path,
        [
            {"call": "save_brief", "args": {"relative_path": "briefs/a.md", "content": "a\n"}},
            {"call": "save_brief", "args": {"relative_path": "briefs/b.md", "content": "b\n"}},
            {"say": "ok"},
        ],
    )
    run = ws.start_run("two writes", model=model)
    ws.approve(run["approvals"][0]["id"], reviewer="gil", remember="run")
    done = ws.resume(run["run_id"])
    assert done["status"] == "succeeded"  # the second write was covered by the run rule
    artifacts = Path(run["artifacts"])
    assert sorted(p.name for p in _files(artifacts)) == ["a.md", "b.md"]
    other = ws.start_run("other run", model=model)
    assert other["status"] == "waiting_approval"
    # A rule remembered for a run is deleted with that run.
    assert [r["scope"] for r in ws.list_rules()] == ["run"]
    ws.delete_run(run["run_id"])
    assert ws.list_rules() == []


# -- concurrent reviewers -------------------------------------------------------------------

RACER = """
import json, random, sys
from agent_core.facade.workspace import Workspace
from agent_core.contract.errors import BriefDeskError
ws = Workspace(sys.argv[1])
ids = json.loads(sys.argv[2]); random.Random(int(sys.argv[3])).shuffle(ids)
won, lost = [], {}
for i in ids:
    try:
        ws.approve(i, reviewer="racer" + sys.argv[3]); won.append(i)
    except BriefDeskError as e:
        lost[i] = e.code
print(json.dumps({"won": won, "lost": lost}))
"""


def test_race_over_100_proposals_has_exactly_one_winner_each(
    backend_home: Path, store_backend: StoreBackend
) -> None:
    """Four processes, each a reviewer, approve the same 100 proposals in orders of their own:
    on the home's SQLite file, and on a team PostgreSQL database named by the home's `db.url`
    setting (the racers find it through the home, as briefdesk-cli does)."""
    from agent_core.facade.workspace import Workspace

    ws = Workspace(backend_home)
    try:
        assert ws.store.kind == store_backend.name
        _race_over_100_proposals(ws, backend_home)
    finally:
        ws.close()


def _race_over_100_proposals(ws: Workspace, home: Path) -> None:
    import subprocess
    import sys
    from datetime import timedelta

    from agent_core.contract.canonical import iso
    from agent_core.storage.tables.approvals import insert_approval

    now = utcnow()
    ids = []
    with ws.store.write() as conn:
        for n in range(100):
            ap = Approval(
                id=f"ap-race-{n:03d}",
                run_id="run-race",
                thread_id="th",
                call_id=f"c{n}",
                tool="fetch_url",
                args={"url": f"https://example.org/{n}"},
                target=None,
                base_hash=None,
                risk="network",
                reason="race",
                arg_hash=f"{n:064d}",
                state_version=1,
                version=1,
                status=ApprovalStatus.PENDING,
                created_at=iso(now) or "",
                expires_at=iso(now + timedelta(hours=1)) or "",
            )
            insert_approval(conn, ap)
            ids.append(ap.id)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, str(home), json.dumps(ids), str(seed)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for seed in range(4)
    ]
    results = [json.loads(p.communicate(timeout=120)[0]) for p in procs]
    for approval_id in ids:
        winners = [r for r in results if approval_id in r["won"]]
        assert len(winners) == 1, approval_id
        losers = [r["lost"][approval_id] for r in results if approval_id in r["lost"]]
        assert losers == ["approval_already_resolved"] * 3
    rows = _rows(ws, approvals, run_id="run-race")
    assert {r.status for r in rows} == {"approved"} and len(rows) == 100
    assert len([r for r in _rows(ws, audit, run_id="run-race") if r.entry == "decision"]) == 100


def test_a_read_shows_an_overdue_proposal_expired_but_only_a_sweep_writes_it(
    ws: Workspace, manual_clock: ManualClock
) -> None:
    run = ws.start_run(QUESTION, approval_ttl=0.5)
    ap = run["approvals"][0]
    assert ws.get_run(run["run_id"])["status"] == "waiting_approval"  # not a moment too soon
    manual_clock.advance(0.8)
    shown = ws.get_run(run["run_id"])
    assert shown["status"] == "expired" and shown["approvals"] == []
    assert ws.get_approval(ap["id"])["status"] == "expired"
    assert [a["id"] for a in ws.list_approvals(status="expired")] == [ap["id"]]
    assert ws.list_approvals(status="pending") == []
    # Reading wrote nothing: the row still waits for a sweep, and no event says otherwise.
    assert _rows(ws, approvals, id=ap["id"])[0].status == "pending"
    assert _events(ws, run["run_id"], "approval_decided") == []
    assert ws.sweep_expired() == 1
    assert _rows(ws, approvals, id=ap["id"])[0].status == "expired"
    assert [e["data"]["status"] for e in _events(ws, run["run_id"], "approval_decided")] == [
        "expired"
    ]
