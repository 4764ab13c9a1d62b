"""Desk leases: how desks on other machines tell that a desk still drives its runs.

A pid means nothing on another machine. In team mode (a PostgreSQL store) a process that
drives a run holds its desk's row in `leases` and renews it from a heartbeat thread; a
`running` run of another desk is live while that desk's lease is unexpired, and `interrupted`
once it lapses. A home's own SQLite file keeps the pid check (storage/owner.py): every process
that uses it runs on the one machine.

Times are read on the database server's clock (`clock_timestamp()`), when renewing and when
judging: desks whose clocks disagree by minutes still agree on whether a lease lapsed. (Not
`now()`: that is the start of the transaction, which may have waited for the writer lock.)
On a home's SQLite file the time is the core's clock (home/clock.py), and a caller may pass
`now` itself, so lease tests move a ManualClock instead of waiting for a lease to lapse.
One row per desk, whatever number of processes or runs it drives: any of them renews it.
"""

from __future__ import annotations

import logging
import math
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import ColumnElement, Connection, Float, cast, literal, select, text

from agent_core.home import clock
from agent_core.storage.dialect_insert import insert_for
from agent_core.storage.owner import Owner
from agent_core.storage.schema import leases

if TYPE_CHECKING:
    from agent_core.storage.store import Store

log = logging.getLogger(__name__)

LEASE_ENV = "BRIEFDESK_LEASE_S"
DEFAULT_LEASE_S = 30.0
# Renewed three times per lease: two renewals in a row may fail (a slow server, a lock queue)
# before the lease lapses under a desk that still drives.
BEATS_PER_LEASE = 3


def lease_seconds() -> float:
    """The lease this desk takes: $BRIEFDESK_LEASE_S seconds (tests use ~2 s), else 30 s."""
    raw = os.environ.get(LEASE_ENV, "").strip()
    try:
        value = float(raw) if raw else DEFAULT_LEASE_S
    except ValueError:
        return DEFAULT_LEASE_S
    return value if math.isfinite(value) and 0.1 <= value <= 86_400 else DEFAULT_LEASE_S


@dataclass(frozen=True)
class Holder:
    """A process that drives runs for its desk in team mode: what it stamps on a run it claims
    (`runs.desk`, the owner fields) and what its lease row names."""

    desk: str
    owner: Owner

    @staticmethod
    def current(desk: str) -> Holder:
        return Holder(desk, Owner.current())


@dataclass(frozen=True)
class Lease:
    """One desk's lease row; times in epoch seconds on the database server's clock."""

    desk: str
    host: str
    pid: int
    renewed_at: float
    expires_at: float

    @property
    def until(self) -> str:
        """When it lapses, as ISO time (UTC), for messages."""
        return datetime.fromtimestamp(self.expires_at, UTC).isoformat(timespec="seconds")


def _now_sql(conn: Connection) -> ColumnElement[float]:
    """The current time as SQL: the server's clock on PostgreSQL (see the module doc), the
    core's clock on SQLite."""
    if conn.dialect.name == "postgresql":
        return cast(text("extract(epoch from clock_timestamp())"), Float)
    return literal(clock.utcnow().timestamp(), Float)


def lease_now(conn: Connection) -> float:
    """The time leases are renewed and judged by, in epoch seconds (see `_now_sql`)."""
    return float(conn.execute(select(_now_sql(conn))).scalar_one())


def renew(
    conn: Connection, holder: Holder, length: float | None = None, *, now: float | None = None
) -> Lease:
    """Take or extend `holder`'s desk lease for `length` seconds from `now` (by default the
    time of `lease_now`)."""
    length = lease_seconds() if length is None else length
    start = lease_now(conn) if now is None else now
    lease = Lease(
        desk=holder.desk,
        host=holder.owner.host,
        pid=holder.owner.pid,
        renewed_at=start,
        expires_at=start + length,
    )
    values = {
        "desk": lease.desk,
        "host": lease.host,
        "pid": lease.pid,
        "renewed_at": lease.renewed_at,
        "expires_at": lease.expires_at,
    }
    stmt = insert_for(conn, leases).values(**values)
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[leases.c.desk],
            set_={k: stmt.excluded[k] for k in ("host", "pid", "renewed_at", "expires_at")},
        )
    )
    return lease


@dataclass(frozen=True)
class Leases:
    """The desks' leases as one reader saw them, and the server's time when it looked."""

    viewer: str | None
    """The desk looking: its own runs on its own host keep the pid check. None: no desk."""
    now: float
    held: Mapping[str, Lease] = field(default_factory=dict)

    @staticmethod
    def read(conn: Connection, viewer: str | None, *, now: float | None = None) -> Leases:
        """Every desk's lease, judged at `now` (by default the time of `lease_now`)."""
        seen_at = lease_now(conn) if now is None else now
        rows = conn.execute(select(leases)).all()
        held = {
            r.desk: Lease(
                desk=str(r.desk),
                host=str(r.host),
                pid=int(r.pid),
                renewed_at=float(r.renewed_at),
                expires_at=float(r.expires_at),
            )
            for r in rows
        }
        return Leases(viewer, seen_at, held)

    def live(self, desk: str | None) -> Lease | None:
        """`desk`'s lease if it has not lapsed; None for a lapsed lease, or none at all."""
        lease = self.held.get(desk) if desk is not None else None
        return lease if lease is not None and lease.expires_at > self.now else None

    def last(self, desk: str | None) -> Lease | None:
        """`desk`'s lease row, lapsed or not."""
        return self.held.get(desk) if desk is not None else None


def seen_from(conn: Connection, viewer: str | None) -> Leases | None:
    """The leases a reader judges liveness by in team mode; None on a home's SQLite file,
    where the pid check stays."""
    if conn.dialect.name != "postgresql":
        return None
    return Leases.read(conn, viewer)


# -- the heartbeat --------------------------------------------------------------------------


class Heartbeat:
    """Renews one desk's lease every lease/3 seconds on a thread of its own.

    A renewal that fails (the server is away, a lock queue) is logged and tried again at the
    next beat: it never stops the run, which stops by itself at its next boundary when its own
    writes fail. Each renewal takes a pooled connection and gives it back.
    """

    def __init__(self, store: Store, holder: Holder, length: float) -> None:
        self.store = store
        self.holder = holder
        self.length = length
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"lease-{holder.desk}", daemon=True)

    def start(self) -> Heartbeat:
        self._thread.start()
        return self

    @property
    def beating(self) -> bool:
        """True while its thread runs (until `stop`, whatever the renewals met)."""
        return self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def _beat(self) -> None:
        period = self.length / BEATS_PER_LEASE
        while not self._stop.wait(period):
            try:
                # The write engine: a renewal queues behind the team's writers like any write,
                # so a take-over that read the lease as lapsed commits before or after it,
                # never beside it.
                with self.store.write_engine.begin() as conn:
                    renew(conn, self.holder, self.length)
            except Exception as exc:  # the run goes on; its own writes report the store
                log.warning("could not renew the lease of desk %s: %s", self.holder.desk, exc)


_beating: dict[tuple[int, str], tuple[Heartbeat, int]] = {}
_beating_lock = threading.Lock()


@contextmanager
def kept(store: Store, holder: Holder, length: float | None = None) -> Iterator[None]:
    """Keep `holder`'s desk lease renewed while the block runs (one heartbeat per desk and
    store in this process, however many runs it drives at once)."""
    key = (id(store), holder.desk)
    with _beating_lock:
        beat, users = _beating.get(key, (None, 0))
        if beat is None:
            beat = Heartbeat(store, holder, lease_seconds() if length is None else length).start()
        _beating[key] = (beat, users + 1)
    try:
        yield
    finally:
        with _beating_lock:
            beat, users = _beating.pop(key)
            if users > 1:
                _beating[key] = (beat, users - 1)
        if users == 1:
            beat.stop()
