"""The write fence: a write's last checks and its rename are one critical section.

A process frozen (SIGSTOP, a closed laptop lid) between its checks and its rename can wake
after its run was taken over and written by another desk. A file system has no fencing tokens,
so the fence is an exclusive `flock` on the artifacts folder itself, taken by every writer and
by every settle of an unknown outcome (no lock file: the folder's watcher sees nothing new).
Inside it a writer re-reads in the database that this process (and desk) still drives the run,
re-checks the target's hash, then writes and renames. So:

- frozen before the fence, it wakes, finds the run taken and refuses (`run_owned_elsewhere`),
  leaving the ledger row `started` for the new owner to settle;
- frozen inside it, it checked ownership before the take-over committed, and the new owner's
  settle waits for the fence: after a bounded wait it stops retryably (`target_busy`) without
  writing, and settles the one write by its hash on `resume`. The woken owner writes, looks
  again (`check_after_change`) and says that it wrote: it cannot record it any more;
- killed inside it, the kernel drops the lock with the process: nobody waits for the dead.

The database check is a plain read: a take-over that commits after it cannot be followed by
the taker's hash check until this writer has left the fence. flock holds across processes of
one machine (and on most network file systems, as POSIX locks); desks on two machines that
share an artifacts folder need a file system that honours it.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.statuses import RunStatus
from agent_core.storage.owner import START_TOLERANCE_S, Owner
from agent_core.storage.store import Store
from agent_core.storage.tables import runs as run_rows
from agent_core.storage.team.leases import Holder

FENCE_ENV = "BRIEFDESK_WRITE_FENCE_S"
DEFAULT_FENCE_S = 10.0
# A holder keeps the fence for a hash, an fsync and a rename: milliseconds. Poll fast first.
_FIRST_POLL_S, _MAX_POLL_S = 0.002, 0.1


def fence_seconds() -> float:
    """How long a writer waits for the fence: $BRIEFDESK_WRITE_FENCE_S, else 10 s."""
    raw = os.environ.get(FENCE_ENV, "").strip()
    try:
        value = float(raw) if raw else DEFAULT_FENCE_S
    except ValueError:
        return DEFAULT_FENCE_S
    return value if 0 < value <= 3_600 else DEFAULT_FENCE_S


def target_busy(folder: Path, waited: float) -> BriefDeskError:
    error = BriefDeskError(
        ErrorCode.TARGET_BUSY,
        f"Another process has been writing in {folder} for over {waited:g} s (it may be "
        "frozen mid-write), so this write did not run. Resume the run later: the call is "
        "settled by the file's hash first, never written twice.",
    )
    error.retryable = True
    return error


@contextlib.contextmanager
def held(folder: Path) -> Iterator[None]:
    """Hold the fence of `folder` (the artifacts root) while the block runs; `target_busy`
    after a bounded wait. Closing the descriptor releases it, and so does the process's death."""
    import fcntl  # POSIX only, like the sandbox that calls this (agent_core imports everywhere)

    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"the folder {folder} does not exist") from None
    try:
        wait = fence_seconds()
        deadline = time.monotonic() + wait
        poll = _FIRST_POLL_S
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise target_busy(folder, wait) from None
                time.sleep(min(poll, left))
                poll = min(poll * 2, _MAX_POLL_S)
        yield
    finally:
        os.close(fd)


def check_still_driving(store: Store, run_id: str, holder: Holder | None) -> None:
    """Raise `run_owned_elsewhere` unless this process still drives the run: `running`, owned
    by this process (host, pid, start time) and, in team mode, by this desk."""
    taker = _taken_by(store, run_id, holder)
    if taker is None:
        return
    raise BriefDeskError(
        ErrorCode.RUN_OWNED_ELSEWHERE,
        f"Run {run_id} was taken over by {taker} while this process was about to write; it "
        "wrote nothing, and the new owner settles the call.",
    )


def check_after_change(store: Store, run_id: str, holder: Holder | None, done: str) -> None:
    """After the change, still in the fence: an owner frozen inside it (its checks passed
    before a take-over committed) made its change on waking. It cannot record it (the run is
    another's now, and the database refuses its writes), so it says what it did instead of
    letting the refused confirmation say it wrote nothing; the new owner's `reconcile`
    records the change by the file's hash, never making it twice. `done`: what it did."""
    taker = _taken_by(store, run_id, holder)
    if taker is None:
        return
    raise BriefDeskError(
        ErrorCode.RUN_OWNED_ELSEWHERE,
        f"This process {done}, as approved, but it had been frozen inside the write fence: "
        f"meanwhile run {run_id} was taken over by {taker}, so this process records nothing. "
        "The new owner finds the change by the file's hash when it resumes and records it "
        "once, without making it again.",
    )


def _taken_by(store: Store, run_id: str, holder: Holder | None) -> str | None:
    """Who drives the run instead of this process (None: this process still does)."""
    owner = holder.owner if holder is not None else Owner.current()
    with store.read() as conn:
        row = run_rows.get_run_row(conn, run_id)
    recorded = run_rows.owner_of(row)
    if (
        row.status == RunStatus.RUNNING
        and recorded is not None
        and (recorded.host, recorded.pid) == (owner.host, owner.pid)
        and abs(recorded.started - owner.started) < START_TOLERANCE_S
        and (holder is None or row.desk in (None, holder.desk))
    ):
        return None
    if holder is not None and row.desk not in (None, holder.desk):
        return f"desk {row.desk!r}"
    return "another process"
