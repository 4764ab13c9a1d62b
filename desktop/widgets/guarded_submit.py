"""`bridge.submit` for a dialog: results that arrive after the dialog closed are dropped.

A bridge job may finish after its dialog was closed (its `done()` ran) or even deleted by Qt;
calling back into it then would touch dead widgets or act on a decision nobody is looking at.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

import shiboken6
from PySide6.QtCore import QObject

from desktop.jobs import AsyncJob, ErrorCallback, Job

if TYPE_CHECKING:
    from desktop.bridge import Bridge

T = TypeVar("T")
OnError = ErrorCallback


class Submit(Protocol):
    """A dialog's `submit_while_open`, bound to it: what its panels are handed."""

    def __call__(
        self, job: Job[T], on_done: Callable[[T], None], on_error: OnError | None = None
    ) -> None: ...


def _guarded(
    owner: QObject, is_open: Callable[[], bool], on_done: Callable[[T], None], on_error: OnError
) -> tuple[Callable[[T], None], OnError]:
    def done(result: T) -> None:
        if is_open() and shiboken6.isValid(owner):
            on_done(result)

    def failed(exc: Exception) -> None:
        if is_open() and shiboken6.isValid(owner):
            on_error(exc)

    return done, failed


def submit_while_open(
    bridge: Bridge,
    owner: QObject,
    is_open: Callable[[], bool],
    job: Job[T],
    on_done: Callable[[T], None],
    on_error: OnError,
) -> None:
    """Run `job` through `bridge.submit`; call back only while `is_open()` and `owner` lives."""
    bridge.submit(job, *_guarded(owner, is_open, on_done, on_error))


def submit_async_while_open(
    bridge: Bridge,
    owner: QObject,
    is_open: Callable[[], bool],
    job: AsyncJob[T],
    on_done: Callable[[T], None],
    on_error: OnError,
) -> None:
    """As `submit_while_open`, for a job that awaits (work handed to a worker thread)."""
    bridge.submit_async(job, *_guarded(owner, is_open, on_done, on_error))
