"""Start one MCP server: `python -I -S launch.py KEY1,KEY2,... -- COMMAND [ARG...]`.

Run by client.py as a script (stdlib only, no BriefDesk import: it must start fast). The
parent hands it the server's whole environment; this keeps only the listed names (the stdio
client always adds LOGNAME, SHELL, TERM and USER), asks the kernel to kill the server when
BriefDesk's spawning thread ends (PR_SET_PDEATHSIG on Linux: no server outlives a killed
BriefDesk), then becomes the server with `execve`. Values never go on the command line.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1
EXIT_USAGE = 64
EXIT_ORPHANED = 70


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        print("usage: launch.py NAMES -- COMMAND [ARG...]", file=sys.stderr)
        return EXIT_USAGE
    keep = set(filter(None, argv[1].split(",")))
    env = {k: v for k, v in os.environ.items() if k in keep}
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            return EXIT_ORPHANED  # BriefDesk died before the signal was armed
    try:
        os.execve(argv[3], argv[3:], env)
    except OSError as exc:
        print(f"cannot start {argv[3]}: {exc.strerror}", file=sys.stderr)
    return EXIT_ORPHANED


if __name__ == "__main__":
    sys.exit(main(sys.argv))
