"""Hear other desks' commits as they happen (PostgreSQL LISTEN), instead of polling.

A `ChangeListener` is a thread with its own autocommit psycopg connection (never one of the
store's pools: LISTEN belongs to a session, and a pooled connection goes back to other users).
It hands each notice to a callback, typed (`ChangeNotice`), on its own thread: the callback must
be quick and must not block (the window's hands it to the GUI thread with a queued signal).

When the server drops the connection (a restart, a network cut) the listener says so once
(`LOST`, with the `storage_unavailable` error), reconnects with a growing delay, and after each
successful (re)connect sends one `RESYNC`: notices sent while nobody listened are gone, so the
caller reads again what it shows. The first connect sends `RESYNC` as well, which closes the
gap between the caller's first read and the moment LISTEN took effect.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from agent_core.contract.errors import ErrorJSON
from agent_core.contract.notices import ChangeNotice, NoticeKind
from agent_core.storage.team import changes

if TYPE_CHECKING:
    import psycopg
    from psycopg.rows import TupleRow

    from agent_core.storage.location import StoreLocation

log = logging.getLogger(__name__)

FIRST_RETRY_S = 0.25
LAST_RETRY_S = 5.0  # a server back after an outage is noticed within this long
WAKE_S = 0.5  # how often a quiet listener looks whether it was asked to stop

Callback = Callable[[ChangeNotice], None]


class ChangeListener:
    """LISTEN on the team database of `location`; `start()`, then `stop()` when done."""

    def __init__(
        self, location: StoreLocation, callback: Callback, *, origin: str | None = None
    ) -> None:
        """`origin`: the token of the Store whose own commits are marked `own`."""
        self.location = location
        self.callback = callback
        self.origin = origin
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="briefdesk-listen", daemon=True)

    def start(self) -> ChangeListener:
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop listening and join the thread (at most `timeout` s: a connect in progress)."""
        self._stopping.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    # -- the thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        delay = FIRST_RETRY_S
        lost = False  # LOST said for the current outage
        while not self._stopping.is_set():
            try:
                conn = self._connect()
            except Exception as exc:
                if not lost:
                    lost = True
                    self._tell(ChangeNotice(NoticeKind.LOST, error=self._error_of(exc)))
                self._stopping.wait(delay)
                delay = min(delay * 2, LAST_RETRY_S)
                continue
            lost, delay = False, FIRST_RETRY_S
            try:
                self._tell(ChangeNotice(NoticeKind.RESYNC))
                self._listen(conn)
            except Exception as exc:
                if not self._stopping.is_set():
                    lost = True
                    self._tell(ChangeNotice(NoticeKind.LOST, error=self._error_of(exc)))
                    self._stopping.wait(delay)
            finally:
                conn.close()

    def _connect(self) -> psycopg.Connection[TupleRow]:
        import psycopg
        from psycopg.conninfo import make_conninfo

        from agent_core.storage.postgres import connect_args

        args = {**connect_args(), "application_name": "briefdesk-listen"}
        args.pop("options", None)  # the writers' lock timeout means nothing here
        url = self.location.url.set(drivername="postgresql")
        # What psycopg.connect does with keyword options, spelled out for the type checker.
        conninfo = make_conninfo(url.render_as_string(hide_password=False), **args)
        conn = psycopg.connect(conninfo, autocommit=True)
        try:
            conn.execute(f"LISTEN {changes.CHANNEL}")
        except BaseException:
            conn.close()
            raise
        return conn

    def _listen(self, conn: psycopg.Connection[TupleRow]) -> None:
        """Until asked to stop, or the connection fails (raises)."""
        while not self._stopping.is_set():
            for notify in conn.notifies(timeout=WAKE_S):
                self._tell(changes.notice_from(notify.payload, self.origin))
                if self._stopping.is_set():
                    return

    def _tell(self, notice: ChangeNotice) -> None:
        try:
            self.callback(notice)
        except Exception:  # the callback's failure is its own; listening goes on
            log.exception("a change listener's callback failed")

    def _error_of(self, exc: BaseException) -> ErrorJSON:
        from agent_core.contract.errors import ErrorCode
        from agent_core.storage.postgres import translate_error, unavailable

        mapped = translate_error(exc, self.location)
        if mapped is None:  # not psycopg's: still, listening stopped
            mapped = unavailable(self.location, f"listening failed ({type(exc).__name__})")
        if mapped.code != ErrorCode.STORAGE_UNAVAILABLE:
            log.warning("listening for changes failed: %s", mapped.message)
        return mapped.to_json()
