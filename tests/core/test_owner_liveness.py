"""Owner liveness is pid + creation time (psutil), so a reused pid or a zombie is not the owner."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator

import psutil
import pytest

from agent_core.storage.owner import Owner
from agent_core.storage.owner import Owner as OwnerFromRuns
from tests.support.waiting import STAY_ALIVE_SOURCE, wait_until

POSIX_ONLY = pytest.mark.skipif(os.name != "posix", reason="zombies and SIGKILL are POSIX")


@pytest.fixture
def child() -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen([sys.executable, "-c", STAY_ALIVE_SOURCE])
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def _owner_of(proc: subprocess.Popen[bytes]) -> Owner:
    return Owner(socket.gethostname(), proc.pid, psutil.Process(proc.pid).create_time())


def _wait_for_zombie(pid: int) -> None:
    wait_until(
        lambda: psutil.Process(pid).status() == psutil.STATUS_ZOMBIE,
        timeout=10,
        interval=0.01,
        message="the killed child never became a zombie",
    )


def test_owner_stays_importable_from_storage_runs() -> None:
    assert OwnerFromRuns is Owner


def test_current_process_is_alive() -> None:
    me = Owner.current()
    assert (me.host, me.pid) == (socket.gethostname(), os.getpid())
    assert me.is_alive()


def test_live_child_is_alive(child: subprocess.Popen[bytes]) -> None:
    assert _owner_of(child).is_alive()


def test_killed_and_reaped_child_is_dead(child: subprocess.Popen[bytes]) -> None:
    owner = _owner_of(child)
    child.kill()
    child.wait()
    assert not owner.is_alive()


def test_reused_pid_with_another_start_time_is_dead(child: subprocess.Popen[bytes]) -> None:
    # The pid is live but belongs to a process started later than the recorded owner.
    real = _owner_of(child)
    assert not Owner(real.host, real.pid, real.started - 5.0).is_alive()
    assert not Owner(real.host, real.pid, real.started - 0.01).is_alive()  # one 10 ms tick


@POSIX_ONLY
def test_killed_but_unreaped_child_is_dead(child: subprocess.Popen[bytes]) -> None:
    owner = _owner_of(child)
    os.kill(child.pid, signal.SIGKILL)
    _wait_for_zombie(child.pid)  # not reaped: the pid still exists, as a zombie
    assert psutil.pid_exists(child.pid)
    assert not owner.is_alive()


def test_another_hosts_owner_counts_as_alive() -> None:
    # Even a pid that is certainly free here: we cannot see the other machine's processes.
    assert Owner(socket.gethostname() + "-elsewhere", 2**22 + 12345, 1.0).is_alive()


def test_access_denied_counts_as_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    # A process we may not inspect exists: never take its run over.
    def denied(self: psutil.Process) -> float:
        raise psutil.AccessDenied(self.pid)

    me = Owner.current()
    monkeypatch.setattr(psutil.Process, "create_time", denied)
    assert me.is_alive()
