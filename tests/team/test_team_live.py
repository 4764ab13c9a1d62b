"""Live without polling (issue 14, item 4): each commit on a team database is heard by every
desk's listener (PostgreSQL LISTEN/NOTIFY), naming what to read again; nothing is heard of a
write that rolled back; a listener whose server restarts says so and asks to read again.

Real servers only: the session's for the notices, a cluster of the test's own for the restart
(the session's server is shared with other tests).
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from agent_core.contract.notices import ChangeNotice, NoticeKind
from agent_core.facade.workspace import Workspace
from agent_core.storage.tables.timeline import append_event
from tests.support.own_cluster import own_cluster

WAIT_S = 15  # a generous bound for a loaded CI machine; the usual figure is in benchmarks/


class Heard:
    """A listener's notices, in the order they came (its callback runs on its own thread)."""

    def __init__(self) -> None:
        self.notices: queue.Queue[ChangeNotice] = queue.Queue()

    def __call__(self, notice: ChangeNotice) -> None:
        self.notices.put(notice)

    def next(
        self, kind: NoticeKind, *, skip: Callable[[ChangeNotice], bool] | None = None
    ) -> ChangeNotice:
        """The next notice of `kind` (others of it that `skip` accepts are passed over)."""
        while True:
            notice = self.notices.get(timeout=WAIT_S)
            if notice.kind is kind and not (skip and skip(notice)):
                return notice


@pytest.fixture
def team_ws(tmp_path: Path, pg_url: str) -> Iterator[Workspace]:
    ws = Workspace(tmp_path / "desk-a", db=pg_url)
    try:
        yield ws
    finally:
        ws.close()


def listening(ws: Workspace) -> tuple[Heard, Callable[[], None]]:
    heard = Heard()
    stop = ws.listen_changes(heard)
    heard.next(NoticeKind.RESYNC)  # LISTEN took effect: later commits are heard
    return heard, stop


def test_each_commit_names_the_runs_it_changed_even_without_an_event(
    team_ws: Workspace, tmp_path: Path, pg_url: str
) -> None:
    heard, stop = listening(team_ws)
    try:
        # A run is created without any event: the notice still names it.
        run_id = team_ws.create_run("What is a lease?")
        created = heard.next(NoticeKind.CHANGED)
        assert created.run_ids == (run_id,)
        assert created.events == 0 and created.seq is None
        assert created.own  # through the listener's own Store
        # Another desk (another Store, another connection) cancels it: heard with its event.
        other = Workspace(tmp_path / "desk-b", db=pg_url)
        try:
            other.cancel(run_id, reviewer="bob")
            newest = other.last_event_seq()
        finally:
            other.close()
        cancelled = heard.next(NoticeKind.CHANGED)
        assert cancelled.run_ids == (run_id,)
        assert cancelled.seq == newest and cancelled.events >= 1
        assert not cancelled.own
    finally:
        stop()


def test_a_write_that_rolled_back_is_never_announced(team_ws: Workspace) -> None:
    heard, stop = listening(team_ws)
    try:
        with pytest.raises(RuntimeError), team_ws.store.write() as conn:
            append_event(conn, None, "artifact_unexpected", data={"path": "rolled-back"})
            raise RuntimeError("the caller gave up")
        with team_ws.store.write() as conn:
            kept = append_event(conn, None, "artifact_unexpected", data={"path": "kept"})
        # The first notice after the failed write is the kept one's.
        notice = heard.next(NoticeKind.CHANGED)
        assert notice.seq == kept and notice.events == 1 and notice.run_ids == ()
    finally:
        stop()


def test_listen_changes_on_the_homes_own_file_listens_to_nothing(home: Path) -> None:
    ws = Workspace(home)
    try:
        heard = Heard()
        stop = ws.listen_changes(heard)
        stop()  # a stop that does nothing: nothing was started
        assert heard.notices.empty()
    finally:
        ws.close()


def test_a_listener_says_lost_then_resync_when_its_server_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with own_cluster(monkeypatch) as cluster:
        ws = Workspace(tmp_path / "desk", db=cluster.url())  # an empty database: initialised
        try:
            heard, stop = listening(ws)
            try:
                cluster.stop()
                lost = heard.next(NoticeKind.LOST)
                assert lost.error is not None
                assert lost.error["code"] == "storage_unavailable"
                assert lost.error.get("host") == cluster.host
                assert cluster.host in lost.error["message"]
                cluster.start()
                heard.next(NoticeKind.RESYNC)  # back: read what may have been missed
                # And it hears commits again; the desk's own pooled and held connections,
                # which the restart closed, are replaced without an error.
                run_id = ws.create_run("What is a listener?")
                assert heard.next(NoticeKind.CHANGED).run_ids == (run_id,)
            finally:
                stop()
        finally:
            ws.close()
