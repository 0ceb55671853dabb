"""Retries with backoff, and a concurrency + rate limit shared per provider endpoint.

Vendor modules translate SDK exceptions into typed errors first (``RateLimitError`` with
its ``Retry-After``; ``ProviderError(retryable=True)`` for 5xx, overload and timeouts);
:func:`call_with_retries` then retries only what is retryable (with tenacity), waiting
``min(retry_max_delay_s, base * 2**attempt)`` with jitter, or what the server asked for.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
import time
import weakref
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeVar

import httpx
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from deepresearch.config import Config
from deepresearch.errors import ProviderError, RateLimitError

logger = logging.getLogger("deepresearch.providers")
T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How transient provider failures are retried: exponential backoff with jitter.

    Args:
        max_retries: retries before giving up.
        base_delay_s: the first delay; each retry doubles it.
        max_delay_s: the longest single delay.
        sleep: how to wait (tests pass a fake).
        jitter: a 0..1 random source (tests pass a fixed one).
    """

    max_retries: int = 3
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep, repr=False)
    jitter: Callable[[], float] = field(default=random.random, repr=False)

    @classmethod
    def from_config(cls, config: Config) -> RetryPolicy:
        """The policy ``config.calls`` sets.

        Args:
            config: the run's Config.
        """
        return cls(
            config.calls.max_retries,
            config.calls.retry_base_delay_s,
            config.calls.retry_max_delay_s,
        )

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number attempt+1 (attempt counts from 0)."""
        if retry_after is not None:  # the server knows best, within our ceiling
            return min(max(retry_after, 0.0), self.max_delay_s)
        ceiling = min(self.max_delay_s, self.base_delay_s * 2.0**attempt)
        return ceiling / 2 + self.jitter() * ceiling / 2  # "equal jitter"


class ProviderGate:
    """At most ``max_concurrency`` calls in flight and at most ``requests_per_minute`` starts."""

    def __init__(self, max_concurrency: int, requests_per_minute: float | None) -> None:
        self._slots = asyncio.Semaphore(max_concurrency)
        self._interval = 60.0 / requests_per_minute if requests_per_minute else 0.0
        self._next_start = 0.0
        self._pace_lock = asyncio.Lock()

    async def __aenter__(self) -> ProviderGate:
        await self._slots.acquire()
        try:
            await self._pace()
        except BaseException:
            self._slots.release()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._slots.release()

    async def _pace(self) -> None:
        if not self._interval:
            return
        async with self._pace_lock:
            now = time.monotonic()
            wait = self._next_start - now
            self._next_start = max(now, self._next_start) + self._interval
        if wait > 0:
            await asyncio.sleep(wait)


# A batch's shared pace (deepresearch.providers.shared_limits sets it around a call): awaited
# inside the gate before every attempt, retries included, so requests reach the wire at the
# batch's rate even when they queued behind the gate.
shared_pace: ContextVar[Callable[[], Awaitable[None]] | None] = ContextVar(
    "shared_pace", default=None
)


async def pace_on_the_wire(request: httpx.Request) -> None:
    """httpx request hook on every remote provider's client: the batch's shared pace is
    awaited when the request's first bytes are about to be written (httpcore's trace event,
    after any new connection is set up), so neither time spent preparing a request (an
    SDK's first call took up to 0.6 s under load) nor connecting bunches the requests that
    reach the server (bench/bench_batch.py ratelimit, docs/results.md)."""
    pace = shared_pace.get()
    if pace is None:
        return
    outer = request.extensions.get("trace")

    async def trace(event: str, info: dict[str, object]) -> None:
        if event.endswith("send_request_headers.started"):
            await pace()
        if outer is not None and inspect.isawaitable(result := outer(event, info)):
            await result

    request.extensions["trace"] = trace


# Told how long a server asked to wait when an attempt met a 429 inside the same block, so
# a batch holds every request to that provider until then instead of each session finding
# out with its own 429.
shared_backoff: ContextVar[Callable[[float], Awaitable[None]] | None] = ContextVar(
    "shared_backoff", default=None
)

# One gate per (event loop, endpoint): asyncio primitives belong to the loop that uses them.
_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, ProviderGate]] = (
    weakref.WeakKeyDictionary()
)


def gate_for(
    endpoint: str,
    config: Config,
    *,
    max_concurrency: int | None = None,
    requests_per_minute: float | None = None,
) -> ProviderGate:
    """The gate shared by every provider object that talks to ``endpoint``.

    ``max_concurrency`` and ``requests_per_minute`` are the API's own documented limits
    (arXiv: one request every three seconds): concurrency is the smaller of the API's and
    the config's; an explicit ``provider_requests_per_minute`` replaces the API's rate.
    """
    loop = asyncio.get_running_loop()
    gates = _GATES.setdefault(loop, {})
    concurrency = min(config.calls.provider_max_concurrency, max_concurrency or 1_000_000)
    rate = config.calls.provider_requests_per_minute or requests_per_minute
    key = f"{endpoint}|{concurrency}|{rate}"
    if key not in gates:
        gates[key] = ProviderGate(concurrency, rate)
    return gates[key]


async def call_with_retries(
    call: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    gate: ProviderGate,
    paced_on_the_wire: bool = False,
) -> T:
    """Run call inside the gate; retry retryable ProviderErrors with backoff (tenacity),
    waiting what a 429's ``Retry-After`` asks for when it says. A batch's shared pace is
    awaited before each attempt, unless ``paced_on_the_wire`` says the call's HTTP client
    awaits it itself (:func:`pace_on_the_wire`)."""

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome is not None else None
        retry_after = exc.retry_after if isinstance(exc, RateLimitError) else None
        return policy.delay(state.attempt_number - 1, retry_after)

    def log(state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome is not None else None
        wait_s = state.next_action.sleep if state.next_action is not None else 0.0
        logger.warning(
            "%s; retry %d/%d in %.2fs", exc, state.attempt_number, policy.max_retries, wait_s
        )

    retrying = AsyncRetrying(
        retry=retry_if_exception(lambda exc: isinstance(exc, ProviderError) and exc.retryable),
        stop=stop_after_attempt(policy.max_retries + 1),
        wait=wait,
        sleep=policy.sleep,
        before_sleep=log,
        reraise=True,
    )
    try:
        async for attempt in retrying:
            with attempt:
                async with gate:
                    pace = shared_pace.get()
                    if pace is not None and not paced_on_the_wire:
                        await pace()
                    try:
                        return await call()
                    except RateLimitError as exc:
                        backoff = shared_backoff.get()
                        if backoff is not None:
                            await backoff(policy.delay(0, exc.retry_after))
                        raise
    except ProviderError as exc:
        retries = retrying.statistics.get("attempt_number", 1) - 1
        if retries:
            exc.add_note(f"gave up after {retries} retr{'y' if retries == 1 else 'ies'}")
        raise
    raise AssertionError("unreachable: tenacity either returns or re-raises")  # pragma: no cover


def attempt_timeout(config: Config, call_timeout_s: float | None) -> float:
    """Seconds one HTTP attempt may take: ``attempt_timeout_s`` (default half the whole call's
    limit) and never more than the whole call, so a timed-out attempt leaves room to retry."""
    whole = call_timeout_s or config.timeouts.operation_timeout_s
    return min(config.timeouts.attempt_timeout_s or whole / 2, whole)


def parse_retry_after(headers: object) -> float | None:
    """Seconds from ``retry-after-ms`` or ``retry-after`` (seconds; HTTP dates are ignored)."""
    get = getattr(headers, "get", None)
    if get is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = get(name)
        if value is None:
            continue
        try:
            return float(value) * scale
        except (TypeError, ValueError):
            continue
    return None
