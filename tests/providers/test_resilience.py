"""Backoff, Retry-After, the shared concurrency gate and the rate limiter."""

from __future__ import annotations

import asyncio
import time

import pytest

from deepresearch.config import Config
from deepresearch.errors import ProviderError, RateLimitError
from deepresearch.providers.resilience import (
    ProviderGate,
    RetryPolicy,
    call_with_retries,
    gate_for,
    parse_retry_after,
)

from .conftest import Recorder


def test_backoff_grows_exponentially_within_the_ceiling() -> None:
    low = RetryPolicy(base_delay_s=1.0, max_delay_s=5.0, jitter=lambda: 0.0)
    high = RetryPolicy(base_delay_s=1.0, max_delay_s=5.0, jitter=lambda: 1.0)
    assert [low.delay(a) for a in range(4)] == [0.5, 1.0, 2.0, 2.5]
    assert [high.delay(a) for a in range(4)] == [1.0, 2.0, 4.0, 5.0]


def test_retry_after_wins_but_is_capped() -> None:
    policy = RetryPolicy(base_delay_s=10.0, max_delay_s=30.0)
    assert policy.delay(0, retry_after=0.25) == 0.25
    assert policy.delay(0, retry_after=3600) == 30.0


def test_parse_retry_after_headers() -> None:
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "150", "retry-after": "9"}) == 0.15
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) is None
    assert parse_retry_after({}) is None


async def test_retries_retryable_errors_and_honours_retry_after() -> None:
    sleep = Recorder()
    errors: list[ProviderError] = [
        RateLimitError("429", retry_after=0.02),
        ProviderError("503", retryable=True),
    ]

    async def call() -> str:
        if errors:
            raise errors.pop(0)
        return "ok"

    policy = RetryPolicy(3, 4.0, 30.0, sleep=sleep, jitter=lambda: 0.0)
    assert await call_with_retries(call, policy=policy, gate=ProviderGate(1, None)) == "ok"
    assert sleep.waits == [0.02, 4.0]  # the header, then backoff for attempt 2


async def test_non_retryable_errors_are_raised_at_once() -> None:
    sleep = Recorder()

    async def call() -> str:
        raise ProviderError("bad request")

    with pytest.raises(ProviderError, match="bad request"):
        await call_with_retries(
            call, policy=RetryPolicy(3, sleep=sleep), gate=ProviderGate(1, None)
        )
    assert sleep.waits == []


async def test_gives_up_after_max_retries() -> None:
    sleep = Recorder()
    calls = 0

    async def call() -> str:
        nonlocal calls
        calls += 1
        raise ProviderError("timed out", retryable=True)

    with pytest.raises(ProviderError) as info:
        await call_with_retries(
            call, policy=RetryPolicy(2, 0.0, 0.0, sleep=sleep), gate=ProviderGate(1, None)
        )
    assert calls == 3
    assert "gave up after 2 retries" in (info.value.__notes__ or [])


async def test_gate_bounds_calls_in_flight() -> None:
    gate = ProviderGate(2, None)
    in_flight = peak = 0

    async def work() -> None:
        nonlocal in_flight, peak
        async with gate:
            in_flight += 1
            peak = max(peak, in_flight)
            await asyncio.sleep(0.01)
            in_flight -= 1

    await asyncio.gather(*(work() for _ in range(6)))
    assert peak == 2


async def test_rate_limiter_spaces_request_starts() -> None:
    gate = ProviderGate(10, requests_per_minute=6000)  # one start per 10 ms
    before = time.monotonic()
    for _ in range(3):
        async with gate:
            pass
    # Each start reserved the next 10 ms slot, so the schedule is 30 ms past the first start
    # (a check of the limiter's state, not of how long anything took).
    assert gate._next_start >= before + 0.03
    unlimited = ProviderGate(10, None)
    async with unlimited:
        pass
    assert unlimited._next_start == 0.0


async def test_gate_is_shared_per_endpoint() -> None:
    config = Config(provider_max_concurrency=3)
    assert gate_for("openai|a", config) is gate_for("openai|a", config)
    assert gate_for("openai|a", config) is not gate_for("openai|b", config)
