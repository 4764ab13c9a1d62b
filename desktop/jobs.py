"""The vocabulary of background jobs: what a job is, what comes back, and how a failure reads.

A job is a callable the bridge runs on its thread with the Workspace; its result crosses to the
GUI thread over a queued signal as a plain `object` (Qt erases the type) and is handed to the
caller's typed `on_done`, which was paired with the job when it was submitted (so the type is
checked where the job is written, not where the signal lands).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar, cast

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace

T = TypeVar("T")

STORAGE_UNAVAILABLE = "storage_unavailable"

ErrorCallback = Callable[[Exception], None]
Job = Callable[["Workspace"], T]
"""A read or a write on the Workspace, run on the bridge thread; returns the result."""
AsyncJob = Callable[["Workspace"], Awaitable[T]]
"""A job that awaits (a run driven as a task, or work handed to `asyncio.to_thread`)."""
ErasedJob = Callable[["Workspace"], object]
"""A job as the bridge thread sees it: its result crosses the signal as an `object`."""


@dataclass(frozen=True)
class JobHandle(Generic[T]):
    """What `submit` hands back: the job's id (results and drives are matched by it)."""

    id: int
    run_id: str | None = None
    """The run the result is for: dropped on delivery unless that run is still current."""


@dataclass(frozen=True)
class Delivery:
    """The GUI side of one job: where its result (type-erased by the signal) or error goes."""

    on_done: Callable[[object], None] | None
    on_error: ErrorCallback | None
    run_id: str | None


def delivery(
    on_done: Callable[[T], None] | None, on_error: ErrorCallback | None, run_id: str | None
) -> Delivery:
    """Pair a typed `on_done` with the erased result: the job that was submitted with it is
    the one whose result comes back under its id, so the cast is the submit's own type."""
    if on_done is None:
        return Delivery(None, on_error, run_id)
    typed = on_done
    return Delivery(lambda result: typed(cast(T, result)), on_error, run_id)


def error_code(exc: BaseException) -> str:
    return str(getattr(exc, "code", None) or "internal_error")


def error_message(exc: BaseException) -> str:
    """The core error's message, or the exception's text."""
    message = getattr(exc, "message", None)
    return str(message) if message else str(exc)


def error_text(exc: BaseException) -> str:
    """`code: message` for a core error; the type and message (never a traceback) otherwise."""
    message = getattr(exc, "message", None)
    code = getattr(exc, "code", None)
    if message is not None and code:
        return f"{code}: {message}"
    return f"{type(exc).__name__}: {exc}"
