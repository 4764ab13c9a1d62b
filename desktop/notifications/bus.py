"""The wire to the desktop's notification server (`org.freedesktop.Notifications`, on the
session bus): GNOME, KDE, dunst, mako... all speak it, with or without a tray.

Spoken with jeepney (pure Python, already here for the Secret Service), not QtDBus: from Python,
QtDBus cannot type a value as `uint32` (a `replaces_id`, a notification's id) nor `byte` (the
urgency hint), and a server checks the signature (`(susssasa{sv}i)`). Every call runs on one
worker thread, so the GUI thread never waits for the bus; the server's signals
(`ActionInvoked`, `NotificationClosed`) arrive on jeepney's receiver thread and are handed to
the GUI thread by a queued signal. No server, no bus: logged once, never raised.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

log = logging.getLogger(__name__)

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
INTERFACE = "org.freedesktop.Notifications"
CALL_TIMEOUT_S = 5.0  # a server that does not answer: this notification is dropped (worker only)
URGENCY_NORMAL, URGENCY_CRITICAL = 1, 2


@dataclass(frozen=True)
class Notice:
    """One notification as the server is asked to show it."""

    key: str
    """Ours: one notice per key (a later one replaces it on the screen)."""
    summary: str
    body: str
    """Plain text; escaped here when the server reads markup."""
    actions: tuple[tuple[str, str], ...]
    """(key, label) pairs."""
    urgency: int = URGENCY_NORMAL
    hints: dict[str, str] = field(default_factory=dict)
    """Extra string hints (desktop-entry...)."""
    app_icon: str = ""


def session_bus_address() -> str | None:
    """$DBUS_SESSION_BUS_ADDRESS, else the systemd user bus socket; None: no session bus."""
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
    if address:
        return address
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and (Path(runtime) / "bus").exists():
        return f"unix:path={Path(runtime) / 'bus'}"
    return None


class _ToGui:
    """The queue jeepney's receiver thread puts the server's signals in: a Qt signal instead."""

    def __init__(self, bus: NotificationBus) -> None:
        self._bus = bus

    def put_nowait(self, message: Any) -> None:
        self._bus._signalled.emit(message.header.fields, tuple(message.body))


class NotificationBus(QObject):
    """Send, replace and close notifications; hear which action was invoked and what closed.

    All public methods are called on the GUI thread and return at once.
    """

    action_invoked = Signal(str, str)  # our key, the action's key
    closed = Signal(str)  # our key: the server closed it (dismissed, expired, replaced by us)
    _signalled = Signal(object, object)  # header fields, body (receiver thread -> GUI)
    _sent = Signal(str, int)  # our key, the server's id (worker -> GUI)

    def __init__(self, parent: QObject | None = None, *, app_name: str = "BriefDesk") -> None:
        super().__init__(parent)
        self.app_name = app_name
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="notifications")
        self._ids: dict[str, int] = {}  # our key -> the server's id (GUI thread only)
        self._lock = threading.Lock()
        self._conn: Any = None  # worker thread only, but for shutdown
        self._router: Any = None
        self._capabilities: frozenset[str] = frozenset()
        self._complained = False
        self.available: bool | None = None  # None: not asked yet; False: no server answered
        self._signalled.connect(self._on_signal, Qt.ConnectionType.QueuedConnection)
        self._sent.connect(self._on_sent, Qt.ConnectionType.QueuedConnection)

    # -- GUI thread -------------------------------------------------------------------------------

    def notify(self, notice: Notice) -> None:
        """Show `notice`, replacing the one shown for its key, if any."""
        replaces = self._ids.get(notice.key, 0)
        self._submit(lambda: self._send_notify(notice, replaces))

    def close(self, key: str) -> None:
        """Take the notice for `key` off the screen (nothing when none is shown)."""
        server_id = self._ids.pop(key, None)
        if server_id is not None:
            self._submit(lambda: self._send_close(server_id))

    def shown(self) -> list[str]:
        """The keys with a notice on the screen (as far as we know)."""
        return list(self._ids)

    def wait_idle(self, timeout: float = CALL_TIMEOUT_S * 2) -> None:
        """Blocks until the calls asked so far are done: for tests, never the GUI's own use."""
        with contextlib.suppress(RuntimeError):
            self._worker.submit(lambda: None).result(timeout)

    def shutdown(self) -> None:
        """Stop the worker and the connection; notices shown stay with the server."""
        self._worker.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            router, conn, self._router, self._conn = self._router, self._conn, None, None
        if router is not None:
            threading.Thread(target=_close_quietly, args=(router, conn), daemon=True).start()

    def _submit(self, job: Any) -> None:
        with contextlib.suppress(RuntimeError):  # shut down: the window is closing
            self._worker.submit(self._guarded, job)

    def _on_sent(self, key: str, server_id: int) -> None:
        self._ids[key] = server_id

    def _on_signal(self, fields: Any, body: tuple[Any, ...]) -> None:
        from jeepney import HeaderFields

        member = fields.get(HeaderFields.member)
        if not body:
            return
        key = next((k for k, v in self._ids.items() if v == body[0]), None)
        if key is None:
            return  # another application's notification, or one we closed already
        if member == "ActionInvoked" and len(body) >= 2:
            self.action_invoked.emit(key, str(body[1]))
        elif member == "NotificationClosed":
            del self._ids[key]
            self.closed.emit(key)

    # -- worker thread ----------------------------------------------------------------------------

    def _guarded(self, job: Any) -> None:
        try:
            job()
        except Exception as exc:  # a missing server must never reach the person as an error
            self.available = False
            self._drop_connection()
            if not self._complained:
                self._complained = True
                log.info("desktop notifications are not available: %s", exc)

    def _connected(self) -> Any:
        if self._router is not None:
            return self._router
        from jeepney import MatchRule
        from jeepney.bus_messages import message_bus
        from jeepney.io.threading import DBusRouter, Proxy, open_dbus_connection

        address = session_bus_address()
        if address is None:
            raise RuntimeError("no D-Bus session bus")
        conn = open_dbus_connection(bus=address)
        router = _router_class(DBusRouter)(conn)
        with self._lock:
            self._conn, self._router = conn, router
        for member in ("ActionInvoked", "NotificationClosed"):
            rule = MatchRule(type="signal", interface=INTERFACE, member=member, path=PATH)
            router.filter(rule, queue=_ToGui(self))
            Proxy(message_bus, router, timeout=CALL_TIMEOUT_S).AddMatch(rule)
        reply = self._call(router, "GetCapabilities", "", ())
        self._capabilities = frozenset(str(c) for c in reply[0])
        if "actions" not in self._capabilities:
            log.info("the notification server shows no actions: notices only tell")
        return router

    def _call(self, router: Any, method: str, signature: str, body: tuple[Any, ...]) -> Any:
        from jeepney import DBusAddress, new_method_call
        from jeepney.wrappers import unwrap_msg

        address = DBusAddress(PATH, bus_name=SERVICE, interface=INTERFACE)
        message = new_method_call(address, method, signature, body)
        return unwrap_msg(router.send_and_get_reply(message, timeout=CALL_TIMEOUT_S))

    def _send_notify(self, notice: Notice, replaces: int) -> None:
        router = self._connected()
        caps = self._capabilities
        body = escape(notice.body, quote=False) if "body-markup" in caps else notice.body
        actions: list[str] = []
        if "actions" in caps:
            for key, label in notice.actions:
                actions += [key, label]
        hints: dict[str, tuple[str, Any]] = {"urgency": ("y", notice.urgency)}
        hints.update({name: ("s", value) for name, value in notice.hints.items()})
        reply = self._call(
            router,
            "Notify",
            "susssasa{sv}i",
            (self.app_name, replaces, notice.app_icon, notice.summary, body, actions, hints, -1),
        )
        self.available = True
        self._sent.emit(notice.key, int(reply[0]))

    def _send_close(self, server_id: int) -> None:
        self._call(self._connected(), "CloseNotification", "u", (server_id,))

    def _drop_connection(self) -> None:
        with self._lock:
            router, conn, self._router, self._conn = self._router, self._conn, None, None
        if router is not None:
            _close_quietly(router, conn)


def _router_class(base: type[Any]) -> type[Any]:
    """jeepney's router, whose receiver thread ends quietly when the bus goes away (a
    traceback on stderr otherwise); the next call finds it stopped and connects again."""

    class QuietRouter(base):  # type: ignore[misc]
        def _receiver(self) -> None:
            try:
                super()._receiver()
            except (OSError, ValueError) as exc:
                log.info("the session bus went away: %s", exc)

    return QuietRouter


def _close_quietly(router: Any, conn: Any) -> None:
    try:
        router.close()
        conn.close()
    except Exception as exc:  # closing a broken connection: nothing left to tell
        log.debug("closing the notifications connection: %s", exc)
