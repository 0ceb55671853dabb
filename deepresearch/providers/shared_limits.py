"""Rate limits and token/cost budgets shared by many sessions (a batch).

One :class:`SharedLimits` holds, per provider, a request pace (requests per minute) and a
budget of tokens and dollars. Sessions reach it through :class:`LimitedLLM` and
:class:`LimitedSearch`, which wrap their providers: every HTTP attempt of a remote provider
waits its turn inside the provider's gate (so queued requests cannot leave in a burst, and
retries are paced too), every LLM answer is charged, and once a provider's budget is spent
further requests fail with :class:`BudgetExhaustedError` (not retryable) so the sessions
record it honestly.

The pace is a :class:`Pacer`: request starts at least ``60 / requests_per_minute`` seconds
apart, measured from when the previous one actually left, so no window of the server's
length ever holds more than its limit; a 429 holds the provider for the whole batch until
its ``Retry-After`` has passed. On Ray the same object lives in an actor and workers reach
it through a proxy with the same four methods (see ``deepresearch.batch.ray_backend``).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Protocol

from pydantic import BaseModel, Field

from deepresearch.errors import BudgetExhaustedError
from deepresearch.pricing import estimate_cost
from deepresearch.providers.base import (
    LLMProvider,
    LLMRequest,
    LLMResponse,
    SearchHit,
    SearchProvider,
)
from deepresearch.providers.resilience import shared_backoff, shared_pace


class ProviderLimit(BaseModel):
    """What the whole batch may spend on one provider."""

    requests_per_minute: float | None = Field(None, gt=0)
    max_tokens: int | None = Field(None, ge=0, description="input + output tokens")
    max_cost_usd: float | None = Field(None, ge=0)


class Spent(BaseModel):
    """What one provider has spent in a batch: requests, tokens, cost, refusals and 429s."""

    requests: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    refused: int = 0  # requests refused because the budget was spent
    rate_limited: int = 0  # HTTP 429 answers met (each was retried after its Retry-After)


class Limiter(Protocol):
    """What a wrapped provider asks before and after each request (local or a Ray proxy)."""

    async def acquire(self, provider: str) -> None:
        """Take one request from ``provider``'s budget; BudgetExhaustedError when it is spent.

        Args:
            provider: the provider's name.
        """

    async def pace(self, provider: str) -> None:
        """Wait until ``provider``'s rate limit lets the next request start.

        Args:
            provider: the provider's name.
        """

    async def charge(
        self, provider: str, model: str, input_tokens: int, output_tokens: int
    ) -> None:
        """Record one call's tokens and cost against ``provider``'s budget.

        Args:
            provider: the provider's name.
            model: the model that answered (for its price).
            input_tokens: prompt tokens.
            output_tokens: completion tokens.
        """

    async def backoff(self, provider: str, seconds: float) -> None:
        """Hold requests to ``provider`` back for ``seconds`` (a 429's Retry-After).

        Args:
            provider: the provider's name.
            seconds: how long to wait.
        """


class Pacer:
    """Request starts for one provider: at least ``interval`` seconds apart and none before
    a server's ``Retry-After`` has passed.

    The spacing counts from when the previous start was actually released, not from a
    planned schedule: a waiter woken late then delays the next one, instead of letting two
    leave closer together than the server allows (a schedule-based pacer let 11 of 84
    requests be refused at exactly the server's rate, docs/results.md)."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._last_start = -math.inf
        self._hold_until = 0.0
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        """Wait until the rate limit lets the next request start."""
        async with self._lock:  # held while sleeping: starts leave one at a time
            while (delay := self._ready_at() - time.monotonic()) > 0:
                await asyncio.sleep(delay)
            self._last_start = time.monotonic()

    def hold(self, seconds: float) -> None:
        """No start before ``seconds`` from now (a 429's Retry-After)."""
        self._hold_until = max(self._hold_until, time.monotonic() + seconds)

    def _ready_at(self) -> float:
        return max(self._last_start + self.interval, self._hold_until)


def provider_key(name: str) -> str:
    """The vendor part of a provider name: 'openai:gpt-4.1-mini' -> 'openai'."""
    return name.split(":", 1)[0].strip().lower()


class SharedLimits:
    """Per-provider pace and budget. Limits are looked up by full name, then by vendor."""

    def __init__(
        self,
        limits: Mapping[str, ProviderLimit] | None = None,
        *,
        price_overrides: Mapping[str, tuple[float, float]] | None = None,
    ) -> None:
        self.limits = dict(limits or {})
        self.price_overrides = dict(price_overrides or {})
        self.spent: dict[str, Spent] = {}
        self._pacers: dict[str, Pacer] = {}

    def limit_for(self, provider: str) -> ProviderLimit | None:
        """The limit configured for ``provider`` (by its name, else its vendor key).

        Args:
            provider: the provider's name.
        """
        return self.limits.get(provider) or self.limits.get(provider_key(provider))

    def _bucket(self, provider: str) -> str:
        """Spending is counted where the limit is declared (a vendor limit covers its models)."""
        return provider if provider in self.limits else provider_key(provider)

    def exhausted(self, provider: str) -> str | None:
        """Why the provider may not be used any more, or None."""
        limit = self.limit_for(provider)
        if limit is None:
            return None
        spent = self.spent.get(self._bucket(provider), Spent())
        if limit.max_tokens is not None and spent.tokens >= limit.max_tokens:
            return f"token budget of {limit.max_tokens} for {self._bucket(provider)} is spent"
        if limit.max_cost_usd is not None and spent.cost_usd >= limit.max_cost_usd:
            return f"cost budget of ${limit.max_cost_usd:g} for {self._bucket(provider)} is spent"
        return None

    def any_exhausted(self) -> str | None:
        """Why the batch should start no more sessions (a declared budget is spent)."""
        for name in self.limits:
            reason = self.exhausted(name)
            if reason is not None:
                return reason
        return None

    async def acquire(self, provider: str) -> None:
        """Count a request; refuse it once the provider's budget is spent."""
        reason = self.exhausted(provider)
        if reason is not None:
            self.spent.setdefault(self._bucket(provider), Spent()).refused += 1
            raise BudgetExhaustedError(
                f"The batch's {reason}. Raise it in limits=... to go on.", provider=provider
            )
        self.spent.setdefault(self._bucket(provider), Spent()).requests += 1

    async def pace(self, provider: str) -> None:
        """Wait for the provider's next start under the batch's requests_per_minute (and
        after any Retry-After a server gave)."""
        pacer = self._pacer(provider)
        if pacer is not None:
            await pacer.wait()

    async def backoff(self, provider: str, seconds: float) -> None:
        """A request met a 429: count it, and hold the provider's next start for ``seconds``."""
        self.spent.setdefault(self._bucket(provider), Spent()).rate_limited += 1
        pacer = self._pacer(provider)
        if pacer is not None:
            pacer.hold(seconds)

    def _pacer(self, provider: str) -> Pacer | None:
        """The pacer of a provider with a declared limit (a budget-only limit gets no spacing
        but still honours Retry-After); None for providers without one."""
        limit = self.limit_for(provider)
        if limit is None:
            return None
        bucket = self._bucket(provider)
        if bucket not in self._pacers:
            rpm = limit.requests_per_minute
            self._pacers[bucket] = Pacer(60.0 / rpm if rpm else 0.0)
        return self._pacers[bucket]

    async def charge(
        self, provider: str, model: str, input_tokens: int, output_tokens: int
    ) -> None:
        """Record one call's tokens and cost, as :meth:`Limiter.charge` says."""
        spent = self.spent.setdefault(self._bucket(provider), Spent())
        spent.tokens += input_tokens + output_tokens
        spent.cost_usd += estimate_cost(model, input_tokens, output_tokens, self.price_overrides)

    def snapshot(self) -> dict[str, Spent]:
        """What each provider has spent so far (copies)."""
        return {k: v.model_copy() for k, v in self.spent.items()}


@contextmanager
def paced(limiter: Limiter, provider: str) -> Iterator[None]:
    """Within this block every HTTP attempt of a remote provider (retries included) waits
    for the shared pace inside the provider's gate (see resilience.shared_pace), and a 429
    holds the provider for the whole batch (resilience.shared_backoff). Local
    providers (the offline engine, a corpus) make no HTTP requests and are not paced."""
    token = shared_pace.set(lambda: limiter.pace(provider))
    backoff = shared_backoff.set(lambda seconds: limiter.backoff(provider, seconds))
    try:
        yield
    finally:
        shared_backoff.reset(backoff)
        shared_pace.reset(token)


class LimitedLLM:
    """An LLM provider whose requests go through a shared Limiter."""

    def __init__(self, inner: LLMProvider, limiter: Limiter) -> None:
        self.inner = inner
        self.limiter = limiter

    @property
    def name(self) -> str:
        """The wrapped provider's name."""
        return self.inner.name

    def __repr__(self) -> str:
        return f"LimitedLLM({self.inner.name!r})"

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Complete ``request`` within the shared budget and rate limit, and charge its usage.

        Args:
            request: the LLM request.
        """
        await self.limiter.acquire(self.inner.name)
        with paced(self.limiter, self.inner.name):
            response = await self.inner.complete(request)
        usage = response.usage
        await self.limiter.charge(
            self.inner.name, response.model, usage.input_tokens, usage.output_tokens
        )
        return response


class LimitedSearch:
    """A search provider whose requests go through a shared Limiter."""

    def __init__(self, inner: SearchProvider, limiter: Limiter) -> None:
        self.inner = inner
        self.limiter = limiter

    @property
    def name(self) -> str:
        """The wrapped provider's name."""
        return self.inner.name

    def __repr__(self) -> str:
        return f"LimitedSearch({self.inner.name!r})"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Search within the shared budget and rate limit.

        Args:
            query: the search query.
            max_results: how many hits.
        """
        await self.limiter.acquire(self.inner.name)
        with paced(self.limiter, self.inner.name):
            return await self.inner.search(query, max_results=max_results)

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """Extract pages within the shared budget and rate limit.

        Args:
            urls: the pages to fetch.
        """
        await self.limiter.acquire(self.inner.name)
        with paced(self.limiter, self.inner.name):
            return await self.inner.extract(urls)


class ProviderWrapper:
    """Wraps every provider a Session builds so it goes through one Limiter."""

    def __init__(self, limiter: Limiter) -> None:
        self.limiter = limiter

    def llm(self, provider: LLMProvider) -> LLMProvider:
        """``provider`` behind the shared limiter (once).

        Args:
            provider: an LLM provider.
        """
        return provider if isinstance(provider, LimitedLLM) else LimitedLLM(provider, self.limiter)

    def search(self, provider: SearchProvider) -> SearchProvider:
        """``provider`` behind the shared limiter (once).

        Args:
            provider: a search provider.
        """
        if isinstance(provider, LimitedSearch):
            return provider
        return LimitedSearch(provider, self.limiter)
