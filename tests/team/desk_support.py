"""What the desk tests share: briefdesk-cli in this process as a desk, waiting on a condition,
and reading a desk's lease as the team database holds it."""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from agent_core.cli import main as cli
from agent_core.facade.workspace import Workspace
from agent_core.storage.team.leases import Lease, Leases
from tests.support import waiting
from tests.team.conftest import Desk

T = TypeVar("T")

WAIT_S = 60  # a generous bound for a loaded machine; a lease here lasts a few seconds


def wait_until(probe: Callable[[], T | None], what: str, timeout: float = WAIT_S) -> T:
    """Poll `probe` until it returns a true value (returned); fail after `timeout` seconds."""
    value = waiting.wait_until(
        probe, timeout=timeout, interval=0.05, message=f"timed out waiting for {what}"
    )
    assert value is not None
    return value


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
    before = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def call_as(desk: Desk, *args: str, **env: str) -> tuple[int, dict[str, Any], str]:
    """`briefdesk-cli --json ARGS` in this process, as `desk`: (exit code, the one JSON object
    on stdout, stderr). For steps that must be quick (a lease of a few seconds is running)."""
    out, err = io.StringIO(), io.StringIO()
    with (
        environment(BRIEFDESK_DESK=desk.name, **env),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        code = cli.main(["--home", str(desk.home), "--json", *args])
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, out.getvalue()  # stdout stays one JSON object
    assert "Traceback" not in err.getvalue(), err.getvalue()
    return code, json.loads(lines[0]), err.getvalue()


def lease_of(ws: Workspace, desk: str) -> tuple[Lease | None, bool]:
    """`desk`'s lease row and whether it is live now, by the database server's clock."""
    with ws.store.read() as conn:
        book = Leases.read(conn, ws.desk)
    return book.last(desk), book.live(desk) is not None
