"""Driving a run with a watcher on its artifacts folder: what `briefdesk-cli run`/`resume` do.

An orchestration of the façade (drive the run) and the artifacts watcher (confirm its writes),
so it lives above both."""

from __future__ import annotations

from pathlib import Path

from agent_core.artifacts.confirmations import wait_for_confirmations
from agent_core.artifacts.watcher import watching
from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import RunView
from agent_core.facade.workspace import Workspace
from agent_core.home import crash


def drive_watched(ws: Workspace, run_id: str, *, confirm_timeout: float = 2.0) -> RunView:
    """`ws.drive(run_id)` with a watcher on the run's artifacts folder (the CLI's run/resume).

    Before returning it waits up to `confirm_timeout` s for the confirmation of the run's own
    writes. A run that has already ended is driven (a no-op) without watching, so resuming it
    changes nothing; a retryable failure (`storage_full`) is continued, so it is watched.
    """
    run = ws.get_run(run_id)
    if RunStatus(run["status"]).is_terminal and not run.get("ready_to_continue"):
        return ws.drive(run_id)
    ws.check_run_artifacts(run["artifacts"])  # never watch (or write) a folder holding the home
    if crash.watch_skipped_then_die():  # drill: killed before its watcher confirmed the writes
        ws.drive(run_id)
        crash.die()
    with watching(ws.store, Path(run["artifacts"]), run_id=run_id, desk=ws.team_desk):
        result = ws.drive(run_id)
        wait_for_confirmations(ws.store, run_id, timeout=confirm_timeout)
    return result
