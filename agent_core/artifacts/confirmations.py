"""Whether a run's approved writes have been seen on disk: what `run`/`resume` wait for before
they exit, and what the settlement of lost confirmations asks (artifacts/settle.py)."""

from __future__ import annotations

import time

from agent_core.home.clock import monotonic
from agent_core.storage.store import Store
from agent_core.storage.tables import sightings as table
from agent_core.tools.registry import file_writing_tools

POLL_SECONDS = 0.05


def unconfirmed_writes(store: Store, run_id: str) -> list[str]:
    """Targets of the run's confirmed `save_brief` entries that have no artifact_confirmed yet."""
    with store.read() as conn:
        targets = table.confirmed_write_targets(conn, run_id, file_writing_tools())
        if not targets:
            return []
        seen = table.confirmed_artifact_paths(conn, run_id)
    return sorted(targets - seen)


def wait_for_confirmations(store: Store, run_id: str, timeout: float = 2.0) -> bool:
    """True once every confirmed `save_brief` of the run has its artifact_confirmed event;
    False when `timeout` s (on the core's clock) pass first."""
    deadline = monotonic() + timeout
    while unconfirmed_writes(store, run_id):
        if monotonic() >= deadline:
            return False
        time.sleep(POLL_SECONDS)  # another thread (the watcher) records them
    return True
