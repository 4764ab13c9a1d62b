"""A real desktop notification server for tests: dunst on a private session bus, drawing on its
own Xvfb screen, with `dbus-monitor` recording every message of the Notifications interface.

`dbus-monitor --binary` writes the messages as the bus carried them; jeepney parses them back,
so a test reads the exact arguments (`Notify`'s replaces_id as the uint32 it was) instead of
scraping text. `barrier()` makes "nothing was sent" checkable without a sleep: a call of our
own that the monitor sees after everything the bus carried before it.

`notification_server` is the pytest fixture. Missing programs skip the test, except under
CI=true, where they fail it (dev.sh installs them: dunst, dbus, xvfb, openbox, xdotool).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.ci import require_or_skip
from tests.support.secret_service import (
    child_env,
    private_bus_address,
    start_private_bus,
    stop_process,
)
from tests.support.waiting import WaitTimeout, wait_until
from tests.support.xscreen import XVFB_OPTIONS

PROGRAMS = ("dbus-daemon", "dbus-monitor", "dunst", "dunstctl", "Xvfb")
SERVICE = "org.freedesktop.Notifications"
INTERFACE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"

# Notices stay until closed (no timeout to race); markup on, so the body must come escaped.
DUNSTRC = """[global]
markup = full
[urgency_low]
timeout = 0
[urgency_normal]
timeout = 0
[urgency_critical]
timeout = 0
"""


@dataclass
class Seen:
    """One message the monitor saw."""

    kind: str  # "method_call", "signal", ...
    member: str
    body: tuple[Any, ...]


@dataclass
class NotificationServer:
    address: str
    env: dict[str, str]
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _probes: int = 0

    def messages(self, member: str, kind: str = "method_call") -> list[Seen]:
        with self.lock:
            return [m for m in self.seen if m.member == member and m.kind == kind]

    def notifies(self) -> list[Seen]:
        """Notify calls (body: app_name, replaces_id, icon, summary, body, actions, hints,
        expire_timeout), probes left out."""
        return [m for m in self.messages("Notify") if m.body[0] != "probe"]

    def dunstctl(self, *args: str) -> str:
        done = subprocess.run(
            ["dunstctl", *args], capture_output=True, text=True, env=self.env, timeout=20
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def barrier(self, timeout: float = 10.0) -> None:
        """Returns once the monitor saw a call sent now: it has seen all that came before."""
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection

        self._probes += 1
        mark = f"probe {self._probes}"
        address = DBusAddress(PATH, bus_name=SERVICE, interface=INTERFACE)
        with open_dbus_connection(bus=self.address) as conn:
            call = new_method_call(
                address,
                "Notify",
                "susssasa{sv}i",
                ("probe", 0, "", mark, "", [], {}, 1),
            )
            reply = conn.send_and_get_reply(call, timeout=timeout)
            close = new_method_call(address, "CloseNotification", "u", (reply.body[0],))
            conn.send_and_get_reply(close, timeout=timeout)
        wait_until(
            lambda: any(m.body[3] == mark for m in self.messages("Notify")),
            timeout=timeout,
            message="the monitor did not see the probe",
        )


def missing_programs() -> list[str]:
    return [p for p in PROGRAMS if shutil.which(p) is None]


def _start_xvfb(procs: list[subprocess.Popen[bytes]], root: Path) -> str:
    """An X screen for dunst to draw on; Xvfb picks a free display itself (-displayfd)."""
    read, write = os.pipe()
    try:
        xvfb = subprocess.Popen(
            [
                "Xvfb",
                "-displayfd",
                str(write),
                "-screen",
                "0",
                "800x600x24",
                *XVFB_OPTIONS,
            ],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=(root / "xvfb.log").open("wb"),
            start_new_session=True,
        )
        procs.append(xvfb)
        os.close(write)
        write = -1
        # Until the newline: Xvfb writes it apart, and dies if nobody reads it any more.
        got = b""
        while not got.endswith(b"\n") and select.select([read], [], [], 20)[0]:
            chunk = os.read(read, 64)
            if not chunk:
                break
            got += chunk
        number = got.decode().strip()
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)
    if not number.isdigit():
        raise AssertionError(f"Xvfb did not start (exit code {xvfb.poll()})")
    socket = Path(f"/tmp/.X11-unix/X{number}")
    wait_until(lambda: socket.exists() or xvfb.poll() is not None, message="no X socket")
    if xvfb.poll() is not None:
        raise AssertionError(f"Xvfb exited ({xvfb.returncode})")
    return f":{number}"


def _read_monitor(proc: subprocess.Popen[bytes], server: NotificationServer) -> None:
    from jeepney import HeaderFields
    from jeepney.low_level import Parser

    parser = Parser()
    assert proc.stdout is not None
    while True:
        data = proc.stdout.read1(65536)  # type: ignore[attr-defined]
        if not data:
            return
        for message in parser.feed(data):
            fields = message.header.fields
            seen = Seen(
                message.header.message_type.name,
                str(fields.get(HeaderFields.member, "")),
                tuple(message.body),
            )
            with server.lock:
                server.seen.append(seen)


def _probe_seen(server: NotificationServer) -> bool:
    try:
        server.barrier(timeout=0.5)
    except WaitTimeout:
        return False
    return True


def _owned(address: str) -> bool:
    from jeepney.bus_messages import message_bus
    from jeepney.io.blocking import open_dbus_connection

    with open_dbus_connection(bus=address) as conn:
        reply = conn.send_and_get_reply(message_bus.NameHasOwner(SERVICE), timeout=2)
        return bool(reply.body[0])


@pytest.fixture(name="notification_server")
def fixture_notification_server() -> Iterator[NotificationServer]:
    missing = missing_programs()
    if missing:
        require_or_skip(f"a real notification server needs {', '.join(missing)} (see dev.sh)")
    # mkdtemp, not tmp_path: unix socket paths must stay under ~100 bytes.
    root = Path(tempfile.mkdtemp(prefix="bd-nt-"))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        config = root / "config"
        (config / "dunst").mkdir(parents=True)
        (config / "dunst" / "dunstrc").write_text(DUNSTRC)
        base = child_env({"HOME": str(root), "XDG_CONFIG_HOME": str(config)})
        bus = start_private_bus(root, base)
        procs.append(bus)
        address = private_bus_address(bus, root)
        display = _start_xvfb(procs, root)
        env = {**base, "DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": display}
        with open(root / "dunst.log", "wb") as log:
            dunst = subprocess.Popen(
                ["dunst"], env=env, stdout=log, stderr=log, start_new_session=True
            )
        procs.append(dunst)
        wait_until(
            lambda: _owned(address) or dunst.poll() is not None,
            timeout=20,
            message="dunst did not take the notifications name",
        )
        assert dunst.poll() is None, (root / "dunst.log").read_text() + (
            root / "xvfb.log"
        ).read_text()
        monitor = subprocess.Popen(
            [
                "dbus-monitor",
                "--address",
                address,
                "--binary",
                f"interface='{INTERFACE}'",
                "type='method_return'",  # Notify's reply: the id a later call replaces
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        procs.append(monitor)
        server = NotificationServer(address, env)
        reader = threading.Thread(target=_read_monitor, args=(monitor, server), daemon=True)
        reader.start()
        # The monitor listens from the first probe it sees on.
        wait_until(lambda: _probe_seen(server), timeout=20, message="dbus-monitor is deaf")
        yield server
    finally:
        for proc in reversed(procs):
            stop_process(proc)
        shutil.rmtree(root, ignore_errors=True)
