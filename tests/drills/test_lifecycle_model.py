"""A model-based test of the run lifecycle: random sequences of what people and crashes do.

A hypothesis `RuleBasedStateMachine` drives, on one real home per example (its store is the
home's SQLite file, or, in the test's `postgresql` variant, a fresh team database on a real
PostgreSQL server named by the home's `db.url` setting):

- from a second process, the fork server `tests/drills/lifecycle_worker.py`, which imports the
  Agents SDK once and forks one child per drive (a crash then costs a fork, not a 1-4 s SDK
  import): start (create + drive), create (not driven), resume, a crash at a boundary
  (agent_core.home.crash armed in the child: `before_tool:N` or `after_write_before_confirm`; the
  child SIGKILLs itself there) and a kill at a random moment (the worker SIGKILLs the driving
  child after a drawn delay). Before a crash or a kill the reviewer approves what the run waits
  for and answers its question, so the drive being killed has work to do;
- from this process, as a reviewer through the Workspace facade: approve (sometimes with
  `--remember run`), reject, edit, cancel (of a run at rest, and of a run being driven right
  now by the child), answer, and expire (wait until a short-TTL proposal's `expires_at` has
  passed, then let the sweep expire it).

Runs use scripted models (tests write one JSON script per run: search_corpus, read_document,
save_brief, ask_question, parallel calls) with paths unique to the run, and now and then the
offline model with an artifacts folder of its own, so every file belongs to one run.

After every step it checks from the outside (the store's tables read in one snapshot, and the
files themselves); each problem names its invariant and its run or approval:

  [once/events]     no call has more than one tool_result with executed=true
  [once/ledger]     at most one confirmed ledger entry per call, and per save_brief target
  [once/file]       each written file keeps the (inode, mtime, sha256) it had when first seen,
                    matches a ledger entry, and every confirmed write's file is there
  [decision/event]  every decided proposal has exactly one approval_decided event (and every
                    proposal one approval_requested); a pending one has none
  [decision/audit]  every decision by a person or a rule has exactly one audit row: approved,
                    rejected, cancelled (naming who cancelled), edited (the superseded one)
  [rejected]        nothing is `rejected` without a reviewer, nor unless a reviewer rejected it
  [cancel/approval] a cancel closes the run's pending proposals as `cancelled`, never
                    `rejected`, with who cancelled as reviewer
  [cancel/lost]     a run cancelled while it was not ended is ended once its driver stopped
  [ended]           an ended run has no owner, no pending proposal, no pending question and
                    exactly one checkpoint (none if it never had one)
  [waiting]         a waiting run has no owner
  [at-rest]         between steps no run is `running` under a live process
  [created]         a run never driven is `created`; a `created` run has no events
  [turns]           model_turn numbers strictly increase within a run

A rule also checks what it did: [created] a run just created is `created`; [expire] a
proposal past `expires_at` is `expired` at the next read, and so is a run that waited on it;
[cancel/lost] a cancel of a run at rest answers `cancelled`; [reviewer] a decision is refused
only as `approval_expired`, on a short-TTL run; [worker] a drive raised nothing and answered no
error.

and at teardown, [reaches-end]: driving every run that has not ended (approving its proposals,
answering its questions) ends it, then all of the above once more, and no temp file is left.

CI runs a fixed budget (`derandomize=True`: the same examples every time; on PostgreSQL half
as many, since a drive there takes about twice as long). With
BRIEFDESK_SWEEP_LONG=1 (or BRIEFDESK_SWEEP_RANDOM_KILLS, which `make sweep-long` sets) it runs
many more examples from a random seed; BRIEFDESK_LIFECYCLE_EXAMPLES and
BRIEFDESK_LIFECYCLE_STEPS override the budget, BRIEFDESK_LIFECYCLE_SHRINK=1 turns shrinking
on (off by default: it replays whole sequences of real processes), and
BRIEFDESK_LIFECYCLE_SKIP=created,cancel/approval leaves the named invariants unchecked, to see
what else breaks behind a known failure.
"""

from __future__ import annotations

import inspect
import itertools
import json
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from agent_core.facade.workspace import Workspace
from agent_core.home.clock import utcnow
from tests.drills.lifecycle_support import (
    TERMINAL,
    Expectations,
    Worker,
    find_problems,
    parse_iso,
    pid_alive,
    read_snapshot,
    temp_files,
)
from tests.support.store_backends import StoreBackend
from tests.support.waiting import wait_until, within

pytestmark = pytest.mark.slow

LONG = os.environ.get("BRIEFDESK_SWEEP_LONG") == "1" or bool(
    os.environ.get("BRIEFDESK_SWEEP_RANDOM_KILLS")
)
EXAMPLES = int(os.environ.get("BRIEFDESK_LIFECYCLE_EXAMPLES", "60" if LONG else "8"))
# On PostgreSQL a drive takes about twice as long (a round trip per statement): the suite runs
# half the examples there; the long sweep, and BRIEFDESK_LIFECYCLE_EXAMPLES, as many as on SQLite.
EXAMPLES_ON = {
    "postgresql": EXAMPLES if LONG or "BRIEFDESK_LIFECYCLE_EXAMPLES" in os.environ else 4
}
STEPS = int(os.environ.get("BRIEFDESK_LIFECYCLE_STEPS", "40" if LONG else "22"))
SHRINK = os.environ.get("BRIEFDESK_LIFECYCLE_SHRINK") == "1"
# Invariants to leave unchecked, to see what else breaks (e.g. "created,cancel/approval").
SKIP = frozenset(filter(None, os.environ.get("BRIEFDESK_LIFECYCLE_SKIP", "").split(",")))


def check(invariant: str, ok: bool, message: str) -> None:
    """A rule's own check: fails with the invariant's name unless it is skipped."""
    if not ok and invariant not in SKIP:
        raise AssertionError(f"[{invariant}] {message}")


REVIEWER = "lm-reviewer"
CANCELLER = "lm-canceller"
LONG_TTL = 3600.0
SHORT_TTL = 1.0  # short enough for `expire` to wait for it; long enough to act on it sometimes
MAX_RUNS = max(8, STEPS // 3)  # per example
MAX_LIVE_RUNS = 3  # not ended at once: each is then driven often enough to reach its ends
TEARDOWN_ROUNDS = 10
CORPUS_DOCS = ["idempotency-keys.md", "side-effect-ledgers.md", "crash-recovery-and-resume.md"]
AFTER_WRITE = "after_write_before_confirm"


# -- the driving process and the model -----------------------------------------------------


@pytest.fixture(scope="module")
def lifecycle_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    worker = Worker(tmp_path_factory.mktemp("lifecycle-worker") / "worker.log")
    yield worker
    worker.close()


TURN_KINDS = ["save", "search", "ask", "read", "parallel_saves", "parallel_read_save"]
script_shapes = st.lists(st.sampled_from(TURN_KINDS), min_size=1, max_size=4)


@dataclass
class RunModel:
    tag: str
    model: str  # "scripted" or "offline"
    short_ttl: bool
    artifacts: Path
    shape: list[str] = field(default_factory=list)


@dataclass
class Env:
    worker: Worker
    root: Path
    backend: StoreBackend
    examples: Iterator[int] = field(default_factory=itertools.count)
    stats: Counter[str] = field(default_factory=Counter)


def cancel_takes_reviewer(ws: Workspace) -> bool:
    return "reviewer" in inspect.signature(ws.cancel).parameters


class LifecycleMachine(RuleBasedStateMachine):
    env: Env  # set by the test before hypothesis builds instances

    def __init__(self) -> None:
        super().__init__()
        from agent_core.facade.workspace import Workspace

        n = next(self.env.examples)
        self.dir = self.env.root / f"example-{n}"
        self.home = self.dir / "home"
        self.scripts = self.dir / "scripts"
        self.scripts.mkdir(parents=True)
        self.ws = Workspace(self.env.backend.prepare(self.home))
        # Who cancels when the facade's cancel takes no reviewer: the `reviewer` setting.
        self.ws.set_setting("reviewer", CANCELLER)
        self.runs: dict[str, RunModel] = {}
        self.counter = itertools.count(1)
        self.expect = Expectations(canceller=CANCELLER, artifacts={self.home / "artifacts"})
        self.healthy = True
        self.snap = read_snapshot(self.ws.store)
        self.log: list[str] = []

    # -- helpers --------------------------------------------------------------------------

    def note(self, text: str) -> None:
        self.log.append(text)
        self.env.stats[text.split(" ", 1)[0]] += 1

    def not_ended(self) -> list[str]:
        return [r for r in sorted(self.runs) if self.snap.effective(r) not in TERMINAL]

    def _script(self, tag: str, shape: list[str]) -> Path:
        turns: list[dict[str, Any]] = []
        saves = itertools.count(1)

        def save() -> dict[str, Any]:
            k = next(saves)
            return {
                "call": "save_brief",
                "args": {
                    "relative_path": f"briefs/{tag}-{k}.md",
                    "content": f"# Brief {tag} #{k}\n\nDurable runs [idempotency-keys.md].\n",
                },
            }

        for i, kind in enumerate(shape):
            if kind == "search":
                turns.append({"call": "search_corpus", "args": {"query": f"checkpoints {i}"}})
            elif kind == "read":
                turns.append(
                    {"call": "read_document", "args": {"path": CORPUS_DOCS[i % len(CORPUS_DOCS)]}}
                )
            elif kind == "save":
                turns.append(save())
            elif kind == "ask":
                turns.append({"call": "ask_question", "args": {"question": f"Audience {tag}-{i}?"}})
            elif kind == "parallel_saves":
                turns.append({"calls": [save(), save()]})
            else:
                turns.append(
                    {
                        "calls": [
                            {"call": "read_document", "args": {"path": CORPUS_DOCS[0]}},
                            save(),
                        ]
                    }
                )
        turns.append({"say": f"Done {tag}."})
        path = self.scripts / f"{tag}.json"
        path.write_text(json.dumps(turns, indent=1))
        return path

    def _new_run(self, op: str, shape: list[str], short_ttl: bool, offline: bool) -> str:
        tag = f"r{next(self.counter)}"
        if offline:
            model = "offline"
            question = f"How do idempotency keys and side-effect ledgers help {tag}?"
            artifacts = self.dir / "artifacts" / tag
        else:
            model = "scripted:" + str(self._script(tag, shape))
            question = f"Lifecycle model run {tag}"
            artifacts = self.home / "artifacts"
        reply = self.env.worker.request(
            {
                "op": op,
                "env": self.env.backend.app_env(),
                "home": str(self.home),
                "question": question,
                "model": model,
                "approval_ttl": SHORT_TTL if short_ttl else LONG_TTL,
                "artifacts": str(artifacts),
            }
        )
        self._expect_clean_exit(reply, f"{op} {tag}")
        run_id = str(next(m["run_id"] for m in reply["messages"] if "run_id" in m))
        self.runs[run_id] = RunModel(
            tag, "offline" if offline else "scripted", short_ttl, artifacts, shape
        )
        self.expect.tags[run_id] = tag
        self.expect.short_ttl[run_id] = short_ttl
        self.expect.artifacts.add(artifacts)
        ttl = "short" if short_ttl else "long"
        self.note(f"{op} {tag}={run_id} {'offline' if offline else shape} ttl={ttl}")
        return run_id

    def _expect_clean_exit(
        self, reply: dict[str, Any], what: str, *, may_die: bool = False
    ) -> None:
        exceptions = [m["exception"] for m in reply["messages"] if "exception" in m]
        assert not exceptions, f"[worker] {what}: the driving child raised:\n{exceptions[0]}"
        errors = [m["error"] for m in reply["messages"] if "error" in m]
        assert not errors, f"[worker] {what}: answered an error {errors[0]}"
        if may_die and reply["signal"] == signal.SIGKILL:
            return
        assert reply["exit"] == 0, (
            f"[worker] {what}: the driving child ended with exit {reply['exit']} "
            f"signal {reply['signal']}\n{self.env.worker.log_tail()}"
        )

    def _drive(
        self, run_id: str, on_spawn: Callable[[int], None] | None = None, **extra: Any
    ) -> dict[str, Any]:
        return self.env.worker.request(
            {
                "op": "drive",
                "env": self.env.backend.app_env(),
                "home": str(self.home),
                "run_id": run_id,
                **extra,
            },
            on_spawn=on_spawn,
        )

    def _refresh(self) -> None:
        self.snap = read_snapshot(self.ws.store)

    def _pick(self, items: list[Any], index: int) -> Any:
        return items[index % len(items)]

    def _cancel(self, run_id: str) -> dict[str, Any]:
        if cancel_takes_reviewer(self.ws):
            return dict(self.ws.cancel(run_id, reviewer=CANCELLER))
        return dict(self.ws.cancel(run_id))

    # -- rules ----------------------------------------------------------------------------
    # Three actors, one rule each, each drawing a weighted kind: hypothesis picks rules
    # evenly, and the useful moves (resume, approve) should come more often than the ending
    # ones. No rule has a precondition and every rule draws the same arguments whatever the
    # home looks like: what a step finds (has the kill landed? has a proposal expired?)
    # depends on timing, and hypothesis requires data generation that does not.

    @rule(
        shape=script_shapes,
        drive=st.sampled_from([True, True, True, False]),
        short_ttl=st.sampled_from([False, False, True]),
        offline=st.sampled_from([False, False, False, False, True]),
    )
    def new_run(self, shape: list[str], drive: bool, short_ttl: bool, offline: bool) -> None:
        """`run` (create and drive, in the worker), or create only (never driven yet)."""
        self.healthy = False
        live = self.not_ended()
        if len(self.runs) >= MAX_RUNS or len(live) >= MAX_LIVE_RUNS:
            if live:  # enough runs at once: drive one of them instead
                self._resume(self._pick(live, len(shape)))
            else:
                self.note("new_run: enough runs in this example, nothing done")
            self.healthy = True
            return
        offline = offline and drive
        run_id = self._new_run("start" if drive else "create", shape, short_ttl, offline)
        if not drive:
            self._refresh()
            status = self.snap.runs[run_id]["status"]
            check(
                "created",
                status == "created",
                f"run {run_id} ({self.runs[run_id].tag}) was just created and never driven, "
                f"but its status is {status!r}",
            )
        self.healthy = True

    @rule(
        kind=st.sampled_from(
            ["resume"] * 3 + ["crash_at_boundary"] * 2 + ["kill_at_random", "cancel_while_driving"]
        ),
        index=st.integers(0, 1000),
        ahead=st.integers(0, 3),
        after_write=st.booleans(),
        delay=st.floats(0.0, 1.0),
    )
    def driver(self, kind: str, index: int, ahead: int, after_write: bool, delay: float) -> None:
        """The worker drives a run that has not ended (resume), maybe to a crash."""
        self.healthy = False
        live = self.not_ended()
        if not live:
            self._progress(index)  # nothing to drive: start a run instead
        elif kind == "resume":
            self._resume(self._pick(live, index))
        elif kind == "crash_at_boundary":
            self._crash_at_boundary(self._pick(live, index), ahead, after_write)
        elif kind == "kill_at_random":
            self._kill_at_random(self._pick(live, index), delay)
        else:
            self._cancel_while_driving(self._pick(live, index))
        self.healthy = True

    @rule(
        kind=st.sampled_from(
            ["approve"] * 4
            + ["approve_remember", "reject", "edit"]
            + ["answer"] * 2
            + ["cancel", "expire"]
        ),
        index=st.integers(0, 1000),
    )
    def reviewer(self, kind: str, index: int) -> None:
        """A person, in this process, through the Workspace facade."""
        self.healthy = False
        pending = sorted(a["id"] for a in self.snap.pending())
        questions = [
            r
            for r in sorted(self.runs)
            if self.snap.effective(r) == "waiting_input" and self.snap.runs[r]["question_pending"]
        ]
        expiring = [a for a in pending if self.runs[self.snap.approvals[a]["run_id"]].short_ttl]
        live = self.not_ended()
        possible = {
            "approve": bool(pending),
            "approve_remember": bool(pending),
            "reject": bool(pending),
            "edit": any(self.snap.approvals[a]["tool"] == "save_brief" for a in pending),
            "answer": bool(questions),
            "expire": bool(expiring),
            "cancel": bool(live),
        }
        if not possible[kind]:  # the nearest thing a person could do now
            kind = next((k for k in ("approve", "answer") if possible[k]), "")
        if kind == "answer":
            self._answer(self._pick(questions, index))
        elif kind == "expire":
            self._expire(self._pick(expiring, index))
        elif kind == "cancel":
            self._cancel_at_rest(self._pick(live, index))
        elif kind == "edit":
            edits = [a for a in pending if self.snap.approvals[a]["tool"] == "save_brief"]
            self._edit(self._pick(edits, index))
        elif kind:
            self._approve_or_reject(kind, self._pick(pending, index))
        else:  # nothing to decide: the person clicks Resume, or starts a run
            self._progress(index)
        self.healthy = True

    # -- what the rules do ----------------------------------------------------------------

    def _unblock(self, run_id: str) -> None:
        """Before a crash: approve what the run waits for and answer its question, so that
        the drive about to be killed has work to do (a run stuck at a proposal goes nowhere)."""
        from agent_core.contract.errors import BriefDeskError

        for approval in self.snap.pending(run_id):
            try:
                self.ws.approve(approval["id"], reviewer=REVIEWER, reason="before a crash")
                self.note(f"approve {approval['id']} ({self.runs[run_id].tag}) before a crash")
            except BriefDeskError as exc:
                check(
                    "reviewer",
                    exc.code == "approval_expired" and self.runs[run_id].short_ttl,
                    f"approve {approval['id']} of run {run_id}: {exc.code}: {exc.message}",
                )
        row = self.snap.runs[run_id]
        if self.snap.effective(run_id) == "waiting_input" and row["question_pending"]:
            self._answer(run_id)
        self._refresh()

    def _progress(self, index: int) -> None:
        """Instead of a move that has nothing to act on: resume a run, or start one."""
        live = self.not_ended()
        if live:
            self._resume(self._pick(live, index))
        elif len(self.runs) < MAX_RUNS:
            shape = [TURN_KINDS[(index + i) % len(TURN_KINDS)] for i in range(1 + index % 3)]
            self._new_run("start", shape, short_ttl=False, offline=False)
        else:
            self.note("nothing to do: every run of this example has ended")

    def _approve_or_reject(self, kind: str, approval_id: str) -> None:
        if kind == "reject":
            if self._decide(
                "reject",
                approval_id,
                lambda: self.ws.reject(approval_id, reviewer=REVIEWER, reason="model test: no"),
            ):
                self.expect.my_rejections.add(approval_id)
            return
        remember = "run" if kind == "approve_remember" else None
        self._decide(
            "approve" + (" (remember run)" if remember else ""),
            approval_id,
            lambda: self.ws.approve(
                approval_id, reviewer=REVIEWER, reason="model test", remember=remember
            ),
        )

    def _edit(self, approval_id: str) -> None:
        args = json.loads(self.snap.approvals[approval_id]["args_json"])
        args["content"] = f"# Edited {next(self.counter)}\n\nBy the reviewer.\n"
        self._decide(
            "edit", approval_id, lambda: self.ws.edit(approval_id, reviewer=REVIEWER, args=args)
        )

    def _answer(self, run_id: str) -> None:
        self.ws.answer(run_id, f"For the {self.runs[run_id].tag} team.")
        self.note(f"answer {self.runs[run_id].tag}")

    def _expire(self, approval_id: str) -> None:
        """Wait until a short-TTL proposal is past `expires_at`; the next read expires it."""
        approval = self.snap.approvals[approval_id]
        run_id = approval["run_id"]
        due = parse_iso(approval["expires_at"])
        # A condition with a known end, not a guess; on the core's clock, as the read compares.
        wait_until(lambda: utcnow() > due, timeout=120, interval=0.01, message="never due")
        was = self.snap.effective(run_id)
        listed = {a["id"]: a for a in self.ws.list_approvals(run_id=run_id)}
        status = listed[approval_id]["status"]
        run_status = self.ws.get_run(run_id)["status"]
        self.note(f"expire {approval_id} ({self.runs[run_id].tag}) -> {status}, run {run_status}")
        check(
            "expire",
            status == "expired",
            f"approval {approval_id} (run {self.runs[run_id].tag}) is {status!r} after its "
            f"expires_at {approval['expires_at']} passed",
        )
        # A run proposing calls in parallel may have proposed them at different times (a crash
        # between them, then a resume): it still waits while another proposal is live.
        still_live = sorted(a for a, row in listed.items() if row["status"] == "pending")
        check(
            "expire",
            run_status == "expired" or was != "waiting_approval" or bool(still_live),
            f"run {run_id} ({self.runs[run_id].tag}) is {run_status!r} after its pending "
            f"proposal {approval_id} expired, and none of its proposals is pending",
        )
        check(
            "expire",
            run_status != "expired" or not still_live,
            f"run {run_id} ({self.runs[run_id].tag}) shows expired while {still_live} wait",
        )

    def _resume(self, run_id: str) -> None:
        reply = self._drive(run_id)
        self._expect_clean_exit(reply, f"resume {self.runs[run_id].tag}")
        self.note(f"resume {self.runs[run_id].tag} -> {self._status_of(reply)}")

    def _crash_at_boundary(self, run_id: str, ahead: int, after_write: bool) -> None:
        """Arm a crash point in the driving child: it SIGKILLs itself there, if it gets there."""
        self._unblock(run_id)
        calls = self.snap.tool_calls[run_id]
        point = AFTER_WRITE if after_write else f"before_tool:{max(1, calls + ahead)}"
        reply = self._drive(run_id, crash_at=point)
        self._expect_clean_exit(reply, f"crash {self.runs[run_id].tag} at {point}", may_die=True)
        fired = reply["signal"] == signal.SIGKILL
        where = "after write" if after_write else "before tool"
        self.env.stats[f"crash {where} fired" if fired else f"crash {where} not reached"] += 1
        self.note(
            f"crash {self.runs[run_id].tag} at {point}: "
            + ("fired" if fired else f"not reached, {self._status_of(reply)}")
        )

    def _kill_at_random(self, run_id: str, delay: float) -> None:
        """SIGKILL the driving child after `delay` seconds, wherever it is."""
        self._unblock(run_id)
        reply = self._drive(run_id, kill_after=round(delay, 3))
        self._expect_clean_exit(reply, f"kill {self.runs[run_id].tag}", may_die=True)
        fired = reply["signal"] == signal.SIGKILL
        self.env.stats["kill landed" if fired else "kill too late"] += 1
        self.note(
            f"kill {self.runs[run_id].tag} after {delay:.3f}s: "
            + ("killed" if fired else f"done first, {self._status_of(reply)}")
        )

    def _decide(self, what: str, approval_id: str, call: Callable[[], Any]) -> bool:
        from agent_core.contract.errors import BriefDeskError

        run = self.runs[self.snap.approvals[approval_id]["run_id"]]
        try:
            call()
        except BriefDeskError as exc:
            # Only a short-TTL proposal may have expired under our hands.
            assert exc.code == "approval_expired" and run.short_ttl, (
                f"[reviewer] {what} of approval {approval_id} (run {run.tag}) refused: "
                f"{exc.code}: {exc.message}"
            )
            self.note(f"{what.split()[0]} {approval_id} ({run.tag}): expired first")
            return False
        self.note(f"{what.split()[0]} {approval_id} ({run.tag}){what[len(what.split()[0]) :]}")
        return True

    def _cancel_at_rest(self, run_id: str) -> None:
        """Cancel a run at rest (created, waiting, interrupted): it ends at once."""
        for approval in self.snap.pending(run_id):
            self.expect.cancelled_pending[approval["id"]] = run_id
        was = self.snap.effective(run_id)
        run = self._cancel(run_id)
        self.expect.cancel_landed.add(run_id)
        self.note(f"cancel {self.runs[run_id].tag} ({was}) -> {run['status']}")
        check(
            "cancel/lost",
            run["status"] == "cancelled",
            f"run {run_id} ({self.runs[run_id].tag}) was at rest ({was}); cancel answered "
            f"status {run['status']!r}",
        )

    def _cancel_while_driving(self, run_id: str) -> None:
        """The child drives the run while this process cancels it (two processes, one home)."""
        outcome: dict[str, Any] = {}

        def cancel_when_claimed(pid: int) -> None:
            # Wait until the child owns the run (or is gone), then cancel from this process.
            def claimed_or_gone() -> bool:
                row = read_snapshot(self.ws.store).runs[run_id]
                if row["status"] == "running" and row["owner_pid"] == pid:
                    outcome["claimed"] = True
                return bool(outcome.get("claimed")) or not pid_alive(pid)

            within(claimed_or_gone, timeout=60, interval=0.005)
            before = read_snapshot(self.ws.store)
            if before.runs[run_id]["status"] not in TERMINAL:
                for approval in before.pending(run_id):
                    self.expect.cancelled_pending[approval["id"]] = run_id
                self.expect.cancel_landed.add(run_id)
            outcome["answer"] = self._cancel(run_id)["status"]

        reply = self._drive(run_id, notify=True, on_spawn=cancel_when_claimed)
        self._expect_clean_exit(reply, f"drive {self.runs[run_id].tag} while cancelling")
        self.note(
            f"cancel_while_driving {self.runs[run_id].tag}: "
            f"{'claimed' if outcome.get('claimed') else 'not claimed'}, "
            f"cancel answered {outcome.get('answer')}, drive ended {self._status_of(reply)}"
        )

    @staticmethod
    def _status_of(reply: dict[str, Any]) -> str:
        runs = [m["run"] for m in reply["messages"] if "run" in m]
        if runs:
            return str(runs[-1]["status"])
        return f"killed (signal {reply['signal']})" if reply["signal"] else "?"

    # -- the invariants -------------------------------------------------------------------

    @invariant()
    def everything_holds(self) -> None:
        self.healthy = False
        self._refresh()
        problems = find_problems(self.snap, self.expect)
        problems = [p for p in problems if p[1:].split("]")[0] not in SKIP]
        assert not problems, (
            "broken invariants after: "
            + (self.log[-1] if self.log else "init")
            + "\n  "
            + "\n  ".join(problems)
            + "\nsteps:\n  "
            + "\n  ".join(self.log)
        )
        self.healthy = True

    # -- teardown: every run reaches an end when driven -----------------------------------

    def teardown(self) -> None:
        try:
            if self.healthy:
                self._drive_everything_to_the_end()
        finally:
            self.ws.close()

    def _drive_everything_to_the_end(self) -> None:
        from agent_core.contract.errors import BriefDeskError

        for _ in range(TEARDOWN_ROUNDS):
            self._refresh()
            left = self.not_ended()
            if not left:
                break
            for run_id in left:
                for approval in self.snap.pending(run_id):
                    try:
                        self.ws.approve(approval["id"], reviewer=REVIEWER, reason="teardown")
                    except BriefDeskError as exc:
                        assert exc.code == "approval_expired" and self.runs[run_id].short_ttl, (
                            f"[reaches-end] approving {approval['id']} of run {run_id}: {exc}"
                        )
                row = self.snap.runs[run_id]
                if row["status"] == "waiting_input" and row["question_pending"]:
                    self.ws.answer(run_id, "teardown answer")
                reply = self._drive(run_id)
                self._expect_clean_exit(reply, f"teardown drive {self.runs[run_id].tag}")
        self._refresh()
        stuck = {
            f"{r} ({self.runs[r].tag}, {self.runs[r].shape})": self.snap.effective(r)
            for r in self.not_ended()
        }
        assert not stuck or "reaches-end" in SKIP, (
            f"[reaches-end] still not ended after {TEARDOWN_ROUNDS} rounds of approve/answer/"
            f"resume: {stuck}\nsteps:\n  " + "\n  ".join(self.log)
        )
        problems = find_problems(self.snap, self.expect)
        problems = [p for p in problems if p[1:].split("]")[0] not in SKIP]
        problems += [p for p in temp_files(self.expect) if "once/file" not in SKIP]
        assert not problems, (
            "broken invariants after teardown:\n  "
            + "\n  ".join(problems)
            + "\nsteps:\n  "
            + "\n  ".join(self.log)
        )
        for run_id in self.runs:
            self.env.stats["ended " + self.snap.effective(run_id)] += 1
        self.env.stats["files watched"] += len(self.expect.files)


SETTINGS = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    derandomize=not LONG,
    database=None,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
    # Shrinking replays whole sequences of real processes (minutes): on request only.
    phases=list(Phase) if SHRINK else [Phase.explicit, Phase.reuse, Phase.generate],
)


@pytest.mark.timeout(4 * 3600 if LONG else 600)
def test_lifecycle_model(
    tmp_path: Path, lifecycle_worker: Worker, store_backend: StoreBackend
) -> None:
    env = Env(lifecycle_worker, tmp_path, store_backend)
    LifecycleMachine.env = env
    started = time.monotonic()
    try:
        examples = EXAMPLES_ON.get(store_backend.name, EXAMPLES)
        run_state_machine_as_test(
            LifecycleMachine, settings=settings(SETTINGS, max_examples=examples)
        )
    finally:
        print(
            f"\nlifecycle model ({store_backend.name}): {next(env.examples)} examples in "
            f"{time.monotonic() - started:.1f} s; worker spawns {lifecycle_worker.spawns}; "
            + ", ".join(f"{k} {v}" for k, v in sorted(env.stats.items()))
        )
