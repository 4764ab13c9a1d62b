"""A throwaway, fully isolated Secret Service (private D-Bus + gnome-keyring) for real tests.

`throwaway_secret_service()` starts a private session bus from our own config (no service
directories, so nothing can be auto-activated behind our back) and a `gnome-keyring-daemon`
unlocked with a known password, which creates the `login` collection as the default alias;
without it the first write would wait on a "create keyring" prompt nobody can answer. HOME and
the XDG directories point into a temp dir, so the developer's real keyring is never touched.

It yields only the variables that select that world; child processes need them merged into
their environment (`child_env()` does that), because keyring picks its backend and bus per
process.

`secret_service_env` is the pytest fixture (function-scoped, a fresh service per test). Use it by
`from tests.support.secret_service import fixture_secret_service_env  # noqa: F401` in a test
module, then taking a `secret_service_env` parameter. When the daemons are missing it skips,
except under CI=true, where it fails: CI must run these tests.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from tests.support.ci import in_ci
from tests.support.waiting import within

REQUIRED_PROGRAMS = ("dbus-daemon", "gnome-keyring-daemon", "secret-tool")
SECRETS_BUS_NAME = "org.freedesktop.secrets"
KEYRING_PASSWORD = "briefdesk-throwaway-keyring"

# Variables that could steer a child towards the developer's real keyring or a preset key.
_LEAKY_PREFIXES = ("BRIEFDESK_", "GNOME_KEYRING_", "KEYRING_", "PYTHON_KEYRING_")
_LEAKY_NAMES = ("DBUS_SESSION_BUS_ADDRESS", "SSH_AUTH_SOCK")

_BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class SecretServiceEnv(dict[str, str]):
    """The env vars reaching the throwaway service; also names the daemons, so a test can
    e.g. SIGSTOP the keyring daemon to simulate a hung Secret Service."""

    bus_pid: int
    keyring_daemon_pid: int


class SecretServiceUnavailable(RuntimeError):
    """The programs needed for a real Secret Service are not installed."""


def missing_programs() -> list[str]:
    return [p for p in REQUIRED_PROGRAMS if shutil.which(p) is None]


def child_env(service_env: Mapping[str, str], **extra: str) -> dict[str, str]:
    """os.environ without anything keyring- or key-related, plus `service_env` and `extra`."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(_LEAKY_PREFIXES) and k not in _LEAKY_NAMES
    }
    env.update(service_env)
    env.update(extra)
    return env


@contextlib.contextmanager
def throwaway_secret_service(
    *, password: str = KEYRING_PASSWORD, start_timeout: float = 10.0
) -> Iterator[SecretServiceEnv]:
    """Start a private bus + unlocked gnome-keyring; yield the env vars that reach them.

    Yields DBUS_SESSION_BUS_ADDRESS, HOME and XDG_{DATA,CONFIG,CACHE,RUNTIME}_HOME/DIR. Both
    daemons are killed and the temp dir removed on exit. Raises SecretServiceUnavailable if the
    programs are missing and RuntimeError (with the daemons' logs) if they fail to start.
    """
    missing = missing_programs()
    if missing:
        raise SecretServiceUnavailable(
            f"real Secret Service tests need {', '.join(missing)} "
            "(Debian: apt-get install dbus gnome-keyring libsecret-tools)"
        )
    # mkdtemp, not pytest's tmp_path: unix socket paths must stay under ~100 bytes.
    root = Path(tempfile.mkdtemp(prefix="bd-ss-"))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        dirs = {
            "HOME": root / "home",
            "XDG_DATA_HOME": root / "data",
            "XDG_CONFIG_HOME": root / "config",
            "XDG_CACHE_HOME": root / "cache",
            "XDG_RUNTIME_DIR": root / "run",
        }
        for path in dirs.values():
            path.mkdir(mode=0o700)
        deadline = time.monotonic() + start_timeout

        base = child_env({k: str(v) for k, v in dirs.items()})
        bus = start_private_bus(root, base)
        procs.append(bus)
        address = _read_address(bus, deadline, root)
        env = SecretServiceEnv(DBUS_SESSION_BUS_ADDRESS=address)
        env.update({k: str(v) for k, v in dirs.items()})
        env.bus_pid = bus.pid

        with open(root / "gnome-keyring.log", "wb") as log:
            keyring_daemon = subprocess.Popen(
                ["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=log,
                env={**base, **env},
                start_new_session=True,
            )
        procs.append(keyring_daemon)
        assert keyring_daemon.stdin is not None
        # --unlock reads the login password from stdin until EOF.
        keyring_daemon.stdin.write(password.encode())
        keyring_daemon.stdin.close()
        env.keyring_daemon_pid = keyring_daemon.pid
        _wait_until_ready(address, keyring_daemon, deadline, root)
        yield env
    finally:
        for proc in reversed(procs):
            _stop(proc)
        shutil.rmtree(root, ignore_errors=True)


def start_private_bus(root: Path, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """A session bus of our own config under `root` (its log in root/dbus.log); its address is
    the first line of its stdout (`private_bus_address`)."""
    config = root / "bus.conf"
    config.write_text(_BUS_CONFIG.format(socket=root / "bus"))
    with open(root / "dbus.log", "wb") as log:
        return subprocess.Popen(
            [
                "dbus-daemon",
                f"--config-file={config}",
                "--nofork",
                "--nopidfile",
                "--print-address=1",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=log,
            env=dict(env),
            start_new_session=True,
        )


def private_bus_address(bus: subprocess.Popen[bytes], root: Path, timeout: float = 10.0) -> str:
    return _read_address(bus, time.monotonic() + timeout, root)


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    """SIGCONT then SIGTERM its process group (SIGKILL after 3 s)."""
    _stop(proc)


def _logs(root: Path) -> str:
    parts = []
    for name in ("dbus.log", "gnome-keyring.log"):
        path = root / name
        if path.exists():
            parts.append(f"--- {name} ---\n{path.read_text(errors='replace')[-2000:]}")
    return "\n".join(parts)


def _read_address(bus: subprocess.Popen[bytes], deadline: float, root: Path) -> str:
    assert bus.stdout is not None
    ready, _, _ = select.select([bus.stdout], [], [], max(0.0, deadline - time.monotonic()))
    line = bus.stdout.readline().decode().strip() if ready else ""
    bus.stdout.close()
    if not line.startswith("unix:"):
        raise RuntimeError(f"dbus-daemon did not print its address\n{_logs(root)}")
    return line


def _wait_until_ready(
    address: str, daemon: subprocess.Popen[bytes], deadline: float, root: Path
) -> None:
    """Poll the private bus until the secrets name is owned and a default collection exists."""
    from jeepney import DBusAddress, new_method_call
    from jeepney.bus_messages import message_bus
    from jeepney.io.blocking import open_dbus_connection

    service = DBusAddress(
        "/org/freedesktop/secrets",
        bus_name=SECRETS_BUS_NAME,
        interface="org.freedesktop.Secret.Service",
    )
    with open_dbus_connection(bus=address) as conn:

        def ready() -> bool:
            if daemon.poll() is not None:
                raise RuntimeError(
                    f"gnome-keyring-daemon exited with {daemon.returncode}\n{_logs(root)}"
                )
            owned = conn.send_and_get_reply(
                message_bus.NameHasOwner(SECRETS_BUS_NAME), timeout=1.0
            ).body[0]
            if not owned:
                return False
            alias = conn.send_and_get_reply(
                new_method_call(service, "ReadAlias", "s", ("default",)), timeout=1.0
            ).body[0]
            return bool(alias != "/")

        if within(ready, timeout=max(0.0, deadline - time.monotonic()), interval=0.01):
            return
    raise RuntimeError(f"the Secret Service did not come up on the private bus\n{_logs(root)}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        # A test may have SIGSTOPped it; a stopped process would sit on SIGTERM until SIGKILL.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGCONT)
        # Own session (start_new_session), so the group holds only this daemon and its helpers.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=3)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None and not stream.closed:
            stream.close()


# Registered as `secret_service_env`; the function's own name differs so that importing it into a
# test module does not collide with the parameter name (ruff F811).
@pytest.fixture(name="secret_service_env")
def fixture_secret_service_env() -> Iterator[SecretServiceEnv]:
    """A fresh real Secret Service per test; yields its env vars (see module docstring)."""
    missing = missing_programs()
    if missing:
        reason = f"real Secret Service tests need {', '.join(missing)}"
        if in_ci():
            pytest.fail(f"CI=true but {reason}", pytrace=False)
        pytest.skip(reason)
    with throwaway_secret_service() as env:
        yield env
