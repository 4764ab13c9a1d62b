"""Desktop test helpers shared by the window, bridge and dialog tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from agent_core.facade.workspace import Workspace
from desktop.bridge import Bridge


@contextmanager
def started_bridge(qtbot: Any, home: Path, *, timeout_ms: int = 20_000) -> Iterator[Bridge]:
    """A real bridge thread on `home`, ready (its Workspace open), stopped afterwards."""
    bridge = Bridge(home)
    with qtbot.waitSignal(bridge.ready, timeout=timeout_ms):
        bridge.start()
    try:
        yield bridge
    finally:
        bridge.stop()


@contextmanager
def open_workspace(home: Path) -> Iterator[Workspace]:
    workspace = Workspace(home)
    try:
        yield workspace
    finally:
        workspace.close()
