"""How long to wait before the next attempt of a model call, and when to stop trying.

Pure arithmetic, no I/O: capped exponential backoff with jitter, never shorter than what the
server asked for (`retry-after-ms`, then `Retry-After` in seconds or as an HTTP date), at most
`max_attempts` attempts per call and at most `max_wait_s` seconds of waiting in all. The client
library's own retries are off (`max_retries=0`), so every attempt is counted here and every
retry is visible on the timeline.

`BRIEFDESK_RETRY_SCALE` (a positive number, default 1) multiplies BriefDesk's own delays and the
waiting budget, for tests and drills that cannot wait minutes; what a server asks for in
`Retry-After` is never scaled.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from agent_core.home.clock import utcnow

SCALE_ENV = "BRIEFDESK_RETRY_SCALE"

RETRYABLE_STATUSES = frozenset({408, 409, 429})
"""Plus every 5xx (500, 502, 503, 504, 529, ...)."""


def is_retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUSES or 500 <= status <= 599


@dataclass(frozen=True)
class RetryPolicy:
    """The limits of one model call's retries."""

    max_attempts: int = 10
    """Attempts per call in all, the first one included."""
    base_s: float = 1.0
    """The wait before the first retry (before jitter); doubles with each retry."""
    cap_s: float = 30.0
    """No single backoff is longer than this (a server's Retry-After may be)."""
    max_wait_s: float = 120.0
    """Waiting per call in all; a retry that would exceed it is not made."""
    jitter: float = 0.5
    """Each backoff is drawn from [(1 - jitter) * d, d]: callers spread out after an outage."""

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> RetryPolicy:
        """The default policy, with BriefDesk's own delays scaled by BRIEFDESK_RETRY_SCALE."""
        raw = (environ if environ is not None else os.environ).get(SCALE_ENV, "").strip()
        if not raw:
            return cls()
        try:
            scale = float(raw)
        except ValueError:
            scale = 1.0
        if not (math.isfinite(scale) and scale > 0):
            scale = 1.0
        policy = cls()
        return cls(
            max_attempts=policy.max_attempts,
            base_s=policy.base_s * scale,
            cap_s=policy.cap_s * scale,
            max_wait_s=policy.max_wait_s * scale,
            jitter=policy.jitter,
        )

    def backoff(self, retry: int, rand: Callable[[], float] = random.random) -> float:
        """BriefDesk's own wait before retry number `retry` (1 = the first retry)."""
        full = min(self.cap_s, self.base_s * (2.0 ** max(0, retry - 1)))
        return full * (1 - self.jitter * rand())

    def next_wait(
        self,
        *,
        attempt: int,
        waited_s: float,
        retry_after_s: float | None,
        rand: Callable[[], float] = random.random,
    ) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or None: stop trying.

        `attempt` is the number of the attempt that just failed (1-based); `waited_s` what this
        call has waited so far.
        """
        if attempt >= self.max_attempts:
            return None
        wait = self.backoff(attempt, rand)
        if retry_after_s is not None:
            wait = max(wait, retry_after_s)
        if waited_s + wait > self.max_wait_s:
            return None
        return wait


def retry_after_seconds(
    headers: Mapping[str, str] | None, *, now: datetime | None = None
) -> float | None:
    """What the server asked us to wait: `retry-after-ms`, else `Retry-After` (seconds or date)."""
    if not headers:
        return None
    lowered = {str(k).lower(): str(v) for k, v in headers.items()}
    millis = _number(lowered.get("retry-after-ms"))
    if millis is not None:
        return millis / 1000.0
    value = lowered.get("retry-after")
    if value is None:
        return None
    seconds = _number(value)
    if seconds is not None:
        return seconds
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - (now or utcnow())).total_seconds())


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None
