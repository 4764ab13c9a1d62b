"""Who drives a run, and the refusals that name them.

A run is driven by one process (host, pid, start time) and, in team mode, belongs to one desk.
These read that record: the owner as the CLI shows it, the `run_in_progress` and
`run_owned_elsewhere` refusals with their way out, and the check a driving process makes
before each write that its desk still holds the run.
"""

from __future__ import annotations

from sqlalchemy import Connection

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.events import EventKind
from agent_core.contract.statuses import RunStatus
from agent_core.contract.views import OwnerView
from agent_core.storage.owner import Owner
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.tables.timeline import last_at
from agent_core.storage.team import leases

_CLAIMS = [str(EventKind.RUN_STARTED), str(EventKind.RUN_RESUMED)]


def owner_view(conn: Connection, row: run_rows.RunRow) -> OwnerView | None:
    """Who drives a `running` run, as recorded, and since when; None for any other run."""
    owner = run_rows.owner_of(row)
    if owner is None or row.status is not RunStatus.RUNNING:
        return None
    claimed = last_at(conn, row.run_id, _CLAIMS)
    return OwnerView(
        host=owner.host,
        pid=owner.pid,
        since=str(claimed or row.updated_at),
        this_host=owner.on_this_host(),
        desk=row.desk,
    )


def in_progress(conn: Connection, row: run_rows.RunRow, owner: Owner) -> BriefDeskError:
    """`run_in_progress` naming the owner and since when, and, for an owner this machine cannot
    see, the way out (`--take-over`)."""
    view = owner_view(conn, row)
    since = f" since {view['since']}" if view else ""
    run_id = row.run_id
    if owner.on_this_host():
        return BriefDeskError(
            ErrorCode.RUN_IN_PROGRESS,
            f"Run {run_id} is being driven by process {owner.pid} on {owner.host}{since}.",
        )
    return BriefDeskError(
        ErrorCode.RUN_IN_PROGRESS,
        f"Run {run_id} is recorded as driven by process {owner.pid} on host {owner.host!r}"
        f"{since}; this machine cannot tell whether that process still runs. If it has "
        f"stopped, continue the run here with `briefdesk-cli resume {run_id} --take-over`, "
        f"or end it with `briefdesk-cli cancel {run_id} --take-over`.",
    )


def owned_elsewhere(row: run_rows.RunRow, book: leases.Leases) -> BriefDeskError:
    """`run_owned_elsewhere`: the run's desk, whether its lease is live (and until when), and,
    once it lapsed, the way out (`--take-over`)."""
    run_id = row.run_id
    owner_desk = str(row.desk)
    status = run_rows.effective_status(row, book)
    live = book.live(owner_desk)
    if live is not None:
        return BriefDeskError(
            ErrorCode.RUN_OWNED_ELSEWHERE,
            f"Run {run_id} ({status}) belongs to desk {owner_desk!r}, whose lease is live "
            f"until {live.until} (renewed by process {live.pid} on {live.host}). A run is "
            f"resumed and cancelled only by its desk: do it there.",
        )
    lapsed = book.last(owner_desk)
    why = f"whose lease lapsed at {lapsed.until}" if lapsed else "which holds no lease"
    return BriefDeskError(
        ErrorCode.RUN_OWNED_ELSEWHERE,
        f"Run {run_id} ({status}) belongs to desk {owner_desk!r}, {why}. A run is resumed "
        f"and cancelled only by its desk: do it there, or continue it on this desk with "
        f"`briefdesk-cli resume {run_id} --take-over` (or end it with "
        f"`briefdesk-cli cancel {run_id} --take-over`).",
    )


def check_held(conn: Connection, run_id: str, holder: leases.Holder) -> None:
    """Raise `run_owned_elsewhere` unless `holder` still drives the run (team mode).

    Called first in each write transaction of a driving process: under the team's writer
    lock it is serialized with a take-over, so a desk whose run moved meanwhile writes nothing.
    """
    row = run_rows.holding_of(conn, run_id)
    if (
        row is not None
        and row.status is RunStatus.RUNNING
        and row.desk == holder.desk
        and row.owner_host == holder.owner.host
        and row.owner_pid == holder.owner.pid
    ):
        return
    if row is None or row.desk is None or row.desk == holder.desk:
        by = "another process"
    else:
        by = f"desk {row.desk!r}"
    raise BriefDeskError(
        ErrorCode.RUN_OWNED_ELSEWHERE,
        f"Run {run_id} was taken over by {by} while desk {holder.desk!r} drove it; this "
        "process stopped at its boundary without writing.",
    )
