"""Find a sandboxed MCP server's processes from outside.

In its sandbox a server is in a PID namespace of its own: the pid it reports (`os.getpid()`)
means nothing out here. Its processes are found among a process's descendants by what their
command line holds, as the host sees them.
"""

from __future__ import annotations

import psutil


def descendants_running(parent: psutil.Process, needle: str) -> list[psutil.Process]:
    """Live descendants of `parent` whose command line holds `needle` (bwrap itself too)."""
    found = []
    for child in parent.children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and needle in " ".join(child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:
            continue
    return found


def server_process(parent: psutil.Process, script: str) -> int:
    """The host pid of the one server process running `script` (not its bwrap, not the
    launcher: the process whose first arguments are an interpreter and the script)."""
    servers = [
        p
        for p in descendants_running(parent, script)
        if "bwrap" not in p.name() and "launch.py" not in " ".join(p.cmdline())
    ]
    assert len(servers) == 1, [p.cmdline() for p in servers]
    return int(servers[0].pid)
