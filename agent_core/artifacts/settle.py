"""Settle the confirmations a kill lost: approved writes of ended runs that no watcher recorded.

`run` and `resume` wait up to 2 s for their watcher to record `artifact_confirmed` after the
run has ended. A process killed in that wait leaves a brief on disk, a ledger entry that says
`confirmed`, and no `artifact_confirmed`; if no later watcher scans that folder (a run's own
`--artifacts`), nothing ever would. `runs`, `run`, `resume` and the window at start call
`settle_unconfirmed_writes`: for each such write whose file holds the expected content now,
the write is sighted as a watcher would have sighted it (`observe_file`: the sighting row and
`artifact_confirmed`, `count` 1, on the run that owns the write, in one transaction).

Cheap when nothing is pending: one query over the ledger, with an indexed probe of the
watcher's sightings per write; a file is hashed only for a write found pending.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select

from agent_core.contract.errors import BriefDeskError
from agent_core.contract.statuses import TERMINAL_RUN_STATUSES, SideEffectStatus
from agent_core.storage.engine import Store
from agent_core.storage.schema import artifact_sightings, ledger, runs
from agent_core.tools.registry import file_writing_tools
from agent_core.tools.sandbox import file_sha256

log = logging.getLogger(__name__)

# The watcher's verdicts that stand for "this approved write was seen" (artifacts.Verdict).
_SEEN_VERDICTS = ("confirmed", "duplicate")


@dataclass(frozen=True)
class PendingWrite:
    """A confirmed file write of an ended run that no watcher has recorded yet."""

    run_id: str
    call_id: str
    path: str
    expected_hash: str


@dataclass(frozen=True)
class SettledWrite:
    """A write this settlement recorded as `artifact_confirmed` on its run."""

    run_id: str
    call_id: str
    path: str


def pending_writes(store: Store, desk: str | None = None) -> list[PendingWrite]:
    """Confirmed writes of ended runs with no confirmed sighting for that run and content;
    in team mode (`desk`) only that desk's runs: another desk's files are on its machine."""
    seen = artifact_sightings.c
    sighted = (
        select(seen.path)
        .where(
            seen.path == ledger.c.target,
            seen.content_hash == ledger.c.expected_hash,
            seen.run_id == ledger.c.run_id,
            seen.verdict.in_(_SEEN_VERDICTS),
        )
        .exists()
    )
    query = (
        select(ledger.c.run_id, ledger.c.call_id, ledger.c.target, ledger.c.expected_hash)
        .join(runs, runs.c.run_id == ledger.c.run_id)
        .where(
            ledger.c.tool.in_(file_writing_tools()),
            ledger.c.status == str(SideEffectStatus.CONFIRMED),
            ledger.c.target.is_not(None),
            ledger.c.expected_hash.is_not(None),
            runs.c.status.in_([str(s) for s in TERMINAL_RUN_STATUSES]),
            ~sighted,
        )
        .order_by(ledger.c.confirmed_at)
    )
    if desk is not None:
        query = query.where(runs.c.desk == desk)
    with store.read() as conn:
        rows = conn.execute(query).all()
    return [PendingWrite(r.run_id, r.call_id, r.target, r.expected_hash) for r in rows]


def settle_unconfirmed_writes(store: Store, desk: str | None = None) -> list[SettledWrite]:
    """Record `artifact_confirmed` for every pending write whose file has the expected hash."""
    pending = pending_writes(store, desk)
    if not pending:
        return []
    # The watcher's module (and watchdog with it) only when there is something to settle.
    from agent_core.artifacts.watcher import Verdict, observe_file, unconfirmed_writes

    settled: list[SettledWrite] = []
    for write in pending:
        if write.path not in unconfirmed_writes(store, write.run_id):
            continue  # its artifact_confirmed exists (the timeline is the record)
        if not _holds(write):
            continue  # gone or changed since: a watcher reports what is there now
        sighting = observe_file(store, Path(write.path), desk=desk)
        if (
            sighting is not None
            and sighting.verdict is Verdict.CONFIRMED
            and write.run_id in sighting.run_ids
        ):
            settled.append(SettledWrite(write.run_id, write.call_id, write.path))
    return settled


def _holds(write: PendingWrite) -> bool:
    try:
        return file_sha256(Path(write.path)) == write.expected_hash
    except (BriefDeskError, OSError) as exc:  # a symlink now, unreadable: not ours to confirm
        log.debug("cannot check %s: %s", write.path, exc)
        return False
