"""The desktop tests' fixtures, all from `tests.support.desktop` (the one set of them)."""

from __future__ import annotations

from tests.support.desktop import (
    fixture_make_window,
    make_window_unready,
    open_window,
    open_workspace,
    started_bridge,
)

__all__ = [  # fixtures pytest finds here; helpers older tests import from here
    "fixture_make_window",
    "make_window_unready",
    "open_window",
    "open_workspace",
    "started_bridge",
]
