"""What the lifecycle model test (test_lifecycle_model.py) uses besides its state machine.

- `Worker`: the client of the driving process (lifecycle_worker.py, a fork server that imports
  the Agents SDK once): one JSON command per line in, one JSON reply per line out. This module
  itself never imports the SDK.
- `read_snapshot`: the home's store read in one snapshot, whichever store it is (the home's
  SQLite file or a team PostgreSQL database).
- `find_problems`: every invariant, checked on a snapshot and the files; each problem is one
  line that starts with its invariant's name in brackets and names its run or approval.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import select
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import text

from agent_core.storage.store import Store
from tests.support.cli import REPO_ROOT, cli_env

TERMINAL = frozenset({"succeeded", "failed", "cancelled", "expired"})
WAITING = frozenset({"waiting_approval", "waiting_input"})


# -- the driving process --------------------------------------------------------------------


class Worker:
    """The fork server (tests/drills/lifecycle_worker.py): one JSON line in, one line out."""

    def __init__(self, log: Path) -> None:
        self.log_path = log
        self.spawns = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self.spawn()

    def spawn(self) -> None:
        self.spawns += 1
        self._buffer = b""
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.drills.lifecycle_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            env=cli_env(),
            cwd=REPO_ROOT,
        )
        log.close()
        ready = self._read_line(timeout=120)
        assert ready.get("ready"), f"lifecycle worker did not start: {ready}\n{self.log_tail()}"

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def _read_line(self, timeout: float) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"lifecycle worker silent for {timeout} s\n{self.log_tail()}")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise AssertionError(
                        f"lifecycle worker exited ({self.proc.poll()})\n{self.log_tail()}"
                    )
                self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return dict(json.loads(line))

    def request(
        self,
        cmd: dict[str, Any],
        on_spawn: Callable[[int], None] | None = None,
        timeout: float = 180,
    ) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin is not None
        if self.proc.poll() is not None:  # only its children should ever die; respawn if not
            self.spawn()
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        self.proc.stdin.flush()
        while True:
            reply = self._read_line(timeout)
            if "spawned" in reply:
                if on_spawn is not None:
                    on_spawn(int(reply["spawned"]))
                continue
            assert "worker_exception" not in reply, reply["worker_exception"]
            return reply

    def close(self) -> None:
        if self.proc is None:
            return
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(b'{"op": "quit"}\n')
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except Exception:
            self.proc.kill()
            self.proc.wait(timeout=30)


# -- reading the home from the outside ------------------------------------------------------


@dataclass
class Snapshot:
    runs: dict[str, dict[str, Any]]
    approvals: dict[str, dict[str, Any]]
    events: list[dict[str, Any]]
    audit: list[dict[str, Any]]
    ledger: list[dict[str, Any]]
    checkpoints: Counter[str]
    tool_calls: Counter[str]

    def effective(self, run_id: str) -> str:
        row = self.runs[run_id]
        if row["status"] == "running" and not owner_alive(row):
            return "interrupted"
        return str(row["status"])

    def pending(self, run_id: str | None = None) -> list[dict[str, Any]]:
        return [
            a
            for a in self.approvals.values()
            if a["status"] == "pending" and (run_id is None or a["run_id"] == run_id)
        ]


PER_RUN = "SELECT run_id, count(*) AS n FROM"


def read_snapshot(store: Store) -> Snapshot:
    """Every table the invariants look at, in one read transaction: one snapshot on either
    store (the conformance suite holds both to it)."""
    with store.read() as con:

        def rows(sql: str) -> list[dict[str, Any]]:
            return [dict(r) for r in con.execute(text(sql)).mappings()]

        events = rows("SELECT seq, run_id, kind, tool, data_json FROM events ORDER BY seq")
        for e in events:
            e["data"] = json.loads(e.pop("data_json") or "{}")
        return Snapshot(
            runs={r["run_id"]: r for r in rows("SELECT * FROM runs")},
            approvals={a["id"]: a for a in rows("SELECT * FROM approvals")},
            events=events,
            audit=rows("SELECT * FROM audit WHERE entry = 'decision' ORDER BY id"),
            ledger=rows("SELECT * FROM ledger"),
            checkpoints=Counter(
                {r["run_id"]: r["n"] for r in rows(f"{PER_RUN} checkpoints GROUP BY run_id")}
            ),
            tool_calls=Counter(
                {r["run_id"]: r["n"] for r in rows(f"{PER_RUN} tool_calls GROUP BY run_id")}
            ),
        )


def pid_alive(pid: int | None, started: float | None = None) -> bool:
    """Alive, not a zombie (a killed child not yet reaped is dead for our purposes) and, when
    `started` is given, the same process (its start time in clock ticks; pids get reused)."""
    if pid is None:
        return False
    try:
        fields = Path(f"/proc/{int(pid)}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    if fields[0] in ("Z", "X"):
        return False
    return not started or abs(float(fields[19]) - float(started)) < 1e-6


def owner_alive(row: dict[str, Any]) -> bool:
    return pid_alive(row["owner_pid"], row.get("owner_started"))


def is_temp(name: str) -> bool:
    return name.startswith(".") and name.endswith(".tmp")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def parse_iso(text: str) -> datetime:
    value = datetime.fromisoformat(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


# -- what the test did, for the invariants --------------------------------------------------


@dataclass
class Expectations:
    """What the test itself did and saw, which the home alone cannot tell."""

    canceller: str
    """Who cancels (the reviewer name given to `cancel`)."""
    tags: dict[str, str] = field(default_factory=dict)
    """run id -> the test's short name for it (r1, r2, ...), for messages."""
    short_ttl: dict[str, bool] = field(default_factory=dict)
    """run id -> its proposals expire within seconds (they may expire under our hands)."""
    artifacts: set[Path] = field(default_factory=set)
    """Every artifacts folder a run writes to."""
    files: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    """path -> (inode, mtime_ns, sha256) when first seen: a rewrite changes it."""
    my_rejections: set[str] = field(default_factory=set)
    """Approvals a reviewer of the test rejected."""
    cancelled_pending: dict[str, str] = field(default_factory=dict)
    """approval id -> run id: pending when the test cancelled its run."""
    cancel_landed: set[str] = field(default_factory=set)
    """Runs the test cancelled before they ended."""

    def who(self, run_id: str | None) -> str:
        return f"run {run_id} ({self.tags.get(str(run_id), '?')})"

    def artifacts_dirs(self) -> list[Path]:
        return sorted({d.resolve() for d in self.artifacts if d.is_dir()})


def find_problems(snap: Snapshot, exp: Expectations) -> list[str]:
    """Every broken invariant, one line each, `[invariant] which run or approval: what`."""
    by_run: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in snap.events:
        by_run[e["run_id"]].append(e)
    return [
        *_once_problems(snap, exp, by_run),
        *_decision_problems(snap, exp),
        *_cancel_problems(snap, exp),
        *_run_problems(snap, exp, by_run),
    ]


def temp_files(exp: Expectations) -> list[str]:
    return [
        f"[once/file] temp file left after every run ended: {p}"
        for root in exp.artifacts_dirs()
        for p in root.rglob("*")
        if is_temp(p.name)
    ]


def _once_problems(
    snap: Snapshot, exp: Expectations, by_run: dict[str, list[dict[str, Any]]]
) -> list[str]:
    """No call ran twice: events, ledger, files."""
    out: list[str] = []
    # [once/events] and [turns]
    for run_id, events in by_run.items():
        executed = Counter(
            e["data"].get("call_id")
            for e in events
            if e["kind"] == "tool_result" and e["data"].get("executed") is True
        )
        out += [
            f"[once/events] {exp.who(run_id)}: call {c} has {n} tool_result events with "
            "executed=true"
            for c, n in executed.items()
            if n > 1
        ]
        turns = [int(e["data"]["turn"]) for e in events if e["kind"] == "model_turn"]
        if any(b <= a for a, b in itertools.pairwise(turns)):
            out.append(f"[turns] {exp.who(run_id)}: model_turn numbers {turns}")

    # [once/ledger]
    confirmed = [r for r in snap.ledger if r["status"] == "confirmed"]
    for (run_id, call), n in Counter((r["run_id"], r["call_id"]) for r in confirmed).items():
        if n > 1:
            out.append(f"[once/ledger] {exp.who(run_id)}: call {call} has {n} confirmed entries")
    for target, n in Counter(r["target"] for r in confirmed if r["tool"] == "save_brief").items():
        if n > 1:
            out.append(f"[once/ledger] {target}: {n} confirmed save_brief entries")

    # [once/file]
    expected = {
        (r["target"], r["expected_hash"]): r for r in snap.ledger if r["tool"] == "save_brief"
    }
    for root in exp.artifacts_dirs():
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            if is_temp(path.name):
                continue
            st_ = path.stat()
            ident = (st_.st_ino, st_.st_mtime_ns, sha256(path))
            first = exp.files.setdefault(str(path), ident)
            if first != ident:
                out.append(
                    f"[once/file] {path} was written again: (inode, mtime_ns, sha256) "
                    f"{first} -> {ident}"
                )
            if (str(path), ident[2]) not in expected:
                out.append(f"[once/file] {path} (sha256 {ident[2][:12]}) matches no ledger entry")
    for r in confirmed:
        if r["tool"] == "save_brief":
            target = Path(r["target"])
            if not target.is_file() or sha256(target) != r["expected_hash"]:
                out.append(
                    f"[once/file] {exp.who(r['run_id'])}: confirmed write of call {r['call_id']} "
                    f"is missing or differs at {target}"
                )

    return out


def _decision_problems(snap: Snapshot, exp: Expectations) -> list[str]:
    """One event and one audit row per decision."""
    out: list[str] = []
    # [decision/event]
    decided = defaultdict(list)
    requested: Counter[str] = Counter()
    for e in snap.events:
        if e["kind"] == "approval_decided":
            decided[e["data"].get("approval_id")].append(e)
        elif e["kind"] == "approval_requested":
            requested[e["data"].get("approval_id")] += 1
    for a in snap.approvals.values():
        aid, status = a["id"], a["status"]
        label = f"approval {aid} ({exp.tags.get(a['run_id'], '?')}, {a['tool']}, {status})"
        if requested[aid] != 1:
            out.append(f"[decision/event] {label}: {requested[aid]} approval_requested events")
        events = decided[aid]
        if status == "pending":
            if events:
                out.append(
                    f"[decision/event] {label}: pending but has {len(events)} "
                    "approval_decided events"
                )
            continue
        if len(events) != 1:
            out.append(
                f"[decision/event] {label}: {len(events)} approval_decided events "
                f"{[e['data'].get('status') for e in events]}, expected exactly 1"
            )
        elif events[0]["data"].get("status") != ("approved" if status == "consumed" else status):
            out.append(
                f"[decision/event] {label}: its approval_decided event says "
                f"{events[0]['data'].get('status')!r}"
            )

    # [decision/audit]: one row per decision by a person or a rule
    want: Counter[tuple[str, str, str]] = Counter()
    owners: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for a in snap.approvals.values():
        kind = {
            "approved": "approved",
            "consumed": "approved",
            "rejected": "rejected",
            "cancelled": "cancelled",
        }.get(a["status"])
        if kind:
            key = (a["run_id"], a["arg_hash"], kind)
            want[key] += 1
            owners[key].append(a["id"])
    have = Counter(
        (r["run_id"], r["arg_hash"], r["decision"])
        for r in snap.audit
        if r["decision"] in ("approved", "rejected", "cancelled")
    )
    for key in sorted(set(want) | set(have)):
        if want[key] != have[key]:
            out.append(
                f"[decision/audit] {exp.who(key[0])}: approvals {owners.get(key, [])} decided "
                f"{key[2]!r} ({want[key]}), but {have[key]} audit rows say so"
            )
    edited = Counter(
        str(r["detail"] or "").split(" -> ")[0] for r in snap.audit if r["decision"] == "edited"
    )
    for a in snap.approvals.values():
        if a["status"] == "superseded" and edited[a["id"]] != 1:
            out.append(
                f"[decision/audit] approval {a['id']} ({exp.tags.get(a['run_id'], '?')}) was "
                f"superseded by an edit, with {edited[a['id']]} 'edited' audit rows"
            )
    for r in snap.audit:
        if r["decision"] == "cancelled" and r["run_id"] in exp.cancel_landed:
            ours = [
                aid
                for aid, run_id in exp.cancelled_pending.items()
                if run_id == r["run_id"] and snap.approvals[aid]["arg_hash"] == r["arg_hash"]
            ]
            if ours and r["principal"] != f"person:{exp.canceller}":
                out.append(
                    f"[decision/audit] {exp.who(r['run_id'])}: the cancel of {ours} is "
                    f"recorded with principal {r['principal']!r}, not person:{exp.canceller}"
                )

    return out


def _cancel_problems(snap: Snapshot, exp: Expectations) -> list[str]:
    """Nothing rejected unless a reviewer rejected it; a cancel closes proposals as cancelled."""
    out: list[str] = []
    # [rejected] and [cancel/approval]
    for a in snap.approvals.values():
        label = f"approval {a['id']} ({exp.tags.get(a['run_id'], '?')})"
        if a["status"] == "rejected":
            if not (a["reviewer"] or "").strip():
                out.append(f"[rejected] {label} is rejected with no reviewer")
            if a["id"] not in exp.my_rejections:
                out.append(
                    f"[rejected] {label} is rejected (reviewer {a['reviewer']!r}) but no "
                    "reviewer rejected it"
                )
    for aid, run_id in sorted(exp.cancelled_pending.items()):
        a = snap.approvals[aid]
        if a["status"] == "expired" and exp.short_ttl.get(run_id, False):
            continue  # it expired before the cancel reached it
        if a["status"] != "cancelled" or a["reviewer"] != exp.canceller:
            out.append(
                f"[cancel/approval] approval {aid} of {exp.who(run_id)} was pending when the run "
                f"was cancelled; it is {a['status']!r} with reviewer {a['reviewer']!r}, "
                f"expected 'cancelled' by {exp.canceller!r}"
            )

    return out


def _run_problems(
    snap: Snapshot, exp: Expectations, by_run: dict[str, list[dict[str, Any]]]
) -> list[str]:
    """Each run's status agrees with its owner, proposals, checkpoints and events."""
    out: list[str] = []
    # per run: [cancel/lost] [ended] [waiting] [at-rest] [created]
    for run_id, row in snap.runs.items():
        status = row["status"]
        events = by_run.get(run_id, [])
        driven = any(e["kind"] in ("run_started", "run_resumed") for e in events)
        if run_id in exp.cancel_landed and status not in TERMINAL:
            out.append(
                f"[cancel/lost] {exp.who(run_id)} was cancelled before it ended, its driver "
                f"has stopped, and it is {status!r}"
            )
        if status in TERMINAL:
            had = any(e["kind"] == "checkpoint_saved" for e in events)
            n = snap.checkpoints[run_id]
            if row["owner_pid"] is not None:
                out.append(
                    f"[ended] {exp.who(run_id)} is {status} with owner pid {row['owner_pid']}"
                )
            pending = [a["id"] for a in snap.pending(run_id)]
            if pending:
                out.append(
                    f"[ended] {exp.who(run_id)} is {status} with pending proposals {pending}"
                )
            if row["question_pending"]:
                out.append(f"[ended] {exp.who(run_id)} is {status} with a pending question")
            if n != (1 if had else 0):
                out.append(
                    f"[ended] {exp.who(run_id)} is {status} with {n} checkpoints "
                    f"(expected {1 if had else 0})"
                )
        elif status in WAITING and row["owner_pid"] is not None:
            out.append(f"[waiting] {exp.who(run_id)} is {status} with owner pid {row['owner_pid']}")
        elif status == "running" and owner_alive(row):
            out.append(
                f"[at-rest] {exp.who(run_id)} is running under live pid {row['owner_pid']} "
                "between steps"
            )
        if not driven and status not in TERMINAL and status != "created":
            out.append(f"[created] {exp.who(run_id)} was never driven but is {status!r}")
        if status == "created" and events:
            out.append(
                f"[created] {exp.who(run_id)} is 'created' but has events "
                f"{[e['kind'] for e in events][:5]}"
            )
    return out
    return out
