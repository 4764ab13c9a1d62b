"""A process frozen for real at a drill point (BRIEFDESK_PAUSE_AT: it sends itself SIGSTOP),
seen from outside through /proc, and woken for good through its gate file."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

from tests.support.cli import REPO_ROOT, cli_env
from tests.support.waiting import wait_until

WAIT_S = 120  # a generous bound for a loaded machine


def proc_state(pid: int) -> str:
    """The one-letter state of /proc/PID/stat ('T': stopped by a signal); a thread id works too."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0]  # the name in parentheses may hold spaces


class FrozenProcess:
    """A CLI process armed to freeze itself at `point`; `gate` makes a SIGCONT wake it for good
    only once the file exists (woken before, it stops itself again)."""

    def __init__(self, argv: Sequence[str], point: str, gate: Path, **env: str) -> None:
        self.gate = gate
        self.proc = subprocess.Popen(
            list(argv),
            env=cli_env(BRIEFDESK_PAUSE_AT=point, BRIEFDESK_PAUSE_GATE=str(gate), **env),
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stopped(self) -> bool:
        """Is every thread of it stopped (not only the main one)?"""
        try:
            threads = [int(t.name) for t in Path(f"/proc/{self.pid}/task").iterdir()]
            return all(proc_state(t) == "T" for t in threads)
        except FileNotFoundError:  # a thread ended while we looked: it was not stopped
            return False

    def wait_stopped(self) -> None:
        def frozen() -> bool:
            if self.stopped():
                return True
            if self.proc.poll() is not None:
                out, err = self.proc.communicate()
                raise AssertionError(f"exited ({self.proc.returncode}) unfrozen: {out}\n{err}")
            return False

        wait_until(frozen, timeout=WAIT_S, message="the process never froze at its drill point")

    def refreeze_while(self, busy: Callable[[], bool]) -> None:
        """While `busy()` (say, one of its threads froze inside a database transaction), let it
        run a moment and wait until it stopped itself again: then nothing of it is half-done."""
        while busy():
            os.kill(self.pid, signal.SIGCONT)
            self.wait_stopped()

    def wake(self) -> tuple[int, str, str]:
        """Wake it for good and wait for its end: (exit code, stdout, stderr)."""
        self.gate.touch()
        os.kill(self.pid, signal.SIGCONT)
        out, err = self.proc.communicate(timeout=WAIT_S)
        return self.proc.returncode, out, err

    def kill(self) -> None:
        """At a test's end, whatever happened: never leave it stopped or running."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate(timeout=WAIT_S)
