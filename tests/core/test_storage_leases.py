"""Desk leases read the core's clock on a home's SQLite file (on PostgreSQL the server's):
a test moves a ManualClock past a lease's length instead of waiting for it to lapse."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from agent_core.home import clock
from agent_core.storage.migrate.home import open_store
from agent_core.storage.owner import Owner
from agent_core.storage.store import Store
from agent_core.storage.team.leases import Holder, Leases, lease_now, renew

START = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "state.db")
    yield opened
    opened.dispose()


def test_a_lease_lapses_when_the_clock_passes_its_length(store: Store) -> None:
    holder = Holder("desk-a", Owner.current())
    manual = clock.ManualClock(START)
    with clock.use(manual):
        with store.write() as conn:
            lease = renew(conn, holder, 30.0)
        assert lease.renewed_at == START.timestamp()
        assert lease.expires_at == START.timestamp() + 30.0
        with store.read() as conn:
            assert Leases.read(conn, "desk-b").live("desk-a") == lease
        manual.advance(31.0)
        with store.read() as conn:
            assert lease_now(conn) == START.timestamp() + 31.0
            book = Leases.read(conn, "desk-b")
        assert book.live("desk-a") is None
        assert book.last("desk-a") == lease  # lapsed, still on record


def test_a_caller_may_give_the_time_a_lease_is_renewed_and_judged_at(store: Store) -> None:
    holder = Holder("desk-a", Owner.current())
    with store.write() as conn:
        lease = renew(conn, holder, 10.0, now=1_000.0)
    assert (lease.renewed_at, lease.expires_at) == (1_000.0, 1_010.0)
    with store.read() as conn:
        assert Leases.read(conn, None, now=1_009.0).live("desk-a") == lease
        assert Leases.read(conn, None, now=1_010.0).live("desk-a") is None
