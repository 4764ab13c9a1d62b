"""Desks: each installation that runs agents has a stable id, one per machine by default.

Runs belong to the desk that runs them. `BRIEFDESK_DESK` sets the id (tests run two desks on
one machine); otherwise it is the host name with a short digest of the machine id, stable
across restarts and distinct between two machines that share a host name.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import socket
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode

DESK_ENV = "BRIEFDESK_DESK"
_DESK_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_MACHINE_ID_FILES = (Path("/etc/machine-id"), Path("/var/lib/dbus/machine-id"))


def desk_id() -> str:
    """This installation's desk id: $BRIEFDESK_DESK, else one per machine."""
    chosen = os.environ.get(DESK_ENV, "").strip()
    if chosen:
        if not _DESK_RE.fullmatch(chosen):
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS,
                f"{DESK_ENV}={chosen!r} is not a desk id: use 1-64 letters, digits, '.', '_' "
                "or '-', starting with a letter or digit.",
            )
        return chosen
    return machine_desk_id()


@functools.cache
def machine_desk_id() -> str:
    host = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname().split(".")[0])[:40] or "desk"
    seed = host
    for path in _MACHINE_ID_FILES:
        try:
            seed = path.read_text(encoding="ascii").strip() or seed
            break
        except OSError:
            continue
    return f"{host}-{hashlib.sha256(seed.encode()).hexdigest()[:6]}"
