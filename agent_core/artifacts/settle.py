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

from agent_core.artifacts.confirmations import unconfirmed_writes
from agent_core.artifacts.sightings import observe_file
from agent_core.contract.artifact_views import SightingVerdict
from agent_core.contract.errors import BriefDeskError
from agent_core.home.sandbox import file_sha256
from agent_core.storage.store import Store
from agent_core.storage.tables import sightings as table
from agent_core.storage.tables.sightings import PendingWrite
from agent_core.tools.registry import file_writing_tools

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SettledWrite:
    """A write this settlement recorded as `artifact_confirmed` on its run."""

    run_id: str
    call_id: str
    path: str


def pending_writes(store: Store, desk: str | None = None) -> list[PendingWrite]:
    """Confirmed writes of ended runs with no confirmed sighting for that run and content;
    in team mode (`desk`) only that desk's runs: another desk's files are on its machine."""
    with store.read() as conn:
        return table.pending_writes(conn, file_writing_tools(), desk)


def settle_unconfirmed_writes(store: Store, desk: str | None = None) -> list[SettledWrite]:
    """Record `artifact_confirmed` for every pending write whose file has the expected hash."""
    pending = pending_writes(store, desk)
    if not pending:
        return []
    settled: list[SettledWrite] = []
    for write in pending:
        if write.path not in unconfirmed_writes(store, write.run_id):
            continue  # its artifact_confirmed exists (the timeline is the record)
        if not _holds(write):
            continue  # gone or changed since: a watcher reports what is there now
        sighting = observe_file(store, Path(write.path), desk=desk)
        if (
            sighting is not None
            and sighting.verdict is SightingVerdict.CONFIRMED
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
