"""The retry policy's arithmetic: backoff, jitter, caps, and what a server's Retry-After asks."""

from __future__ import annotations

from datetime import UTC, datetime

from agent_core.models.retries import RetryPolicy, is_retryable_status, retry_after_seconds


def test_which_statuses_are_retried() -> None:
    statuses = (400, 401, 403, 404, 408, 409, 422, 429, 500, 503, 529)
    retried = [s for s in statuses if is_retryable_status(s)]
    assert retried == [408, 409, 429, 500, 503, 529]


def test_backoff_doubles_is_capped_and_jittered_downwards_only() -> None:
    policy = RetryPolicy()
    assert [policy.backoff(n, rand=lambda: 0.0) for n in (1, 2, 3, 4, 5, 6, 7)] == [
        1, 2, 4, 8, 16, 30, 30
    ]  # fmt: skip
    assert policy.backoff(3, rand=lambda: 1.0) == 2.0  # at most half is taken off


def test_retry_after_is_a_floor_and_the_budget_a_ceiling() -> None:
    policy = RetryPolicy()
    assert policy.next_wait(attempt=1, waited_s=0, retry_after_s=7, rand=lambda: 0.0) == 7
    assert policy.next_wait(attempt=1, waited_s=0, retry_after_s=0.1, rand=lambda: 0.0) == 1
    assert policy.next_wait(attempt=1, waited_s=100, retry_after_s=30, rand=lambda: 0.0) is None
    assert policy.next_wait(attempt=10, waited_s=0, retry_after_s=None) is None  # 10 in all


def test_ten_attempts_fit_in_about_two_minutes_of_waiting() -> None:
    policy = RetryPolicy()
    waited, attempt = 0.0, 1
    while (
        wait := policy.next_wait(attempt=attempt, waited_s=waited, retry_after_s=None)
    ) is not None:
        waited += wait
        attempt += 1
    assert attempt <= policy.max_attempts and waited <= policy.max_wait_s


def test_the_scale_shrinks_our_delays_never_the_servers() -> None:
    policy = RetryPolicy.from_environment({"BRIEFDESK_RETRY_SCALE": "0.01"})
    assert (policy.base_s, policy.cap_s, policy.max_wait_s) == (0.01, 0.3, 1.2)
    assert policy.next_wait(attempt=1, waited_s=0, retry_after_s=1.0, rand=lambda: 0.0) == 1.0
    assert policy.next_wait(attempt=1, waited_s=0, retry_after_s=2.0, rand=lambda: 0.0) is None
    assert RetryPolicy.from_environment({"BRIEFDESK_RETRY_SCALE": "nan"}) == RetryPolicy()
    assert RetryPolicy.from_environment({"BRIEFDESK_RETRY_SCALE": "-1"}) == RetryPolicy()


def test_retry_after_headers() -> None:
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds({"Retry-After": "3"}) == 3
    assert retry_after_seconds({"retry-after-ms": "250", "Retry-After": "3"}) == 0.25
    assert retry_after_seconds({"Retry-After": "Thu, 01 Jan 2026 12:00:05 GMT"}, now=now) == 5
    assert retry_after_seconds({"Retry-After": "soon"}) is None
    assert retry_after_seconds({"Retry-After": "-4"}) is None
    assert retry_after_seconds({}) is None
