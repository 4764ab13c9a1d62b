"""`bridge.submit` for a dialog: results that arrive after the dialog closed are dropped.

A bridge job may finish after its dialog was closed (its `done()` ran) or even deleted by Qt;
calling back into it then would touch dead widgets or act on a decision nobody is looking at.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject

Job = Callable[[Any], Any]
OnDone = Callable[[Any], None]
OnError = Callable[[Exception], None]


def submit_while_open(
    bridge: Any,
    owner: QObject,
    is_open: Callable[[], bool],
    job: Job,
    on_done: OnDone,
    on_error: OnError,
) -> None:
    """Run `job` through `bridge.submit`; call back only while `is_open()` and `owner` lives."""

    def done(result: Any) -> None:
        if is_open() and shiboken6.isValid(owner):
            on_done(result)

    def failed(exc: Exception) -> None:
        if is_open() and shiboken6.isValid(owner):
            on_error(exc)

    bridge.submit(job, done, failed)
