"""Rate limits and token/cost budgets shared by many sessions (a batch).

One :class:`SharedLimits` holds, per provider, a request pace (requests per minute) and a
budget of tokens and dollars. Sessions reach it through :class:`LimitedLLM` and
:class:`LimitedSearch`, which wrap their providers: every HTTP attempt of a remote provider
waits its turn inside the provider's gate (so queued requests cannot leave in a burst, and
retries are paced too), every LLM answer is charged, and once a provider's budget is spent
further requests fail with :class:`BudgetExhaustedError` (not retryable) so the sessions
record it honestly.

The pace reuses :class:`~deepresearch.providers.resilience.ProviderGate`. On Ray the same
object lives in an actor and workers reach it through a proxy with the same three methods
(see ``deepresearch.batch.ray_backend``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Protocol

from pydantic import BaseModel, Field

from deepresearch.errors import ProviderError
from deepresearch.pricing import estimate_cost
from deepresearch.providers.base import (
    LLMProvider,
    LLMRequest,
    LLMResponse,
    SearchHit,
    SearchProvider,
)
from deepresearch.providers.resilience import ProviderGate, shared_pace

# Requests a provider may have in flight through the shared pace; per-session and
# per-endpoint concurrency stay with Config.provider_max_concurrency.
SHARED_SLOTS = 1_000_000


class BudgetExhaustedError(ProviderError):
    """A provider's batch budget (tokens or cost) is spent; raise the limit to go on."""


class ProviderLimit(BaseModel):
    """What the whole batch may spend on one provider."""

    requests_per_minute: float | None = Field(None, gt=0)
    max_tokens: int | None = Field(None, ge=0, description="input + output tokens")
    max_cost_usd: float | None = Field(None, ge=0)


class Spent(BaseModel):
    requests: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    refused: int = 0  # requests refused because the budget was spent


class Limiter(Protocol):
    """What a wrapped provider asks before and after each request (local or a Ray proxy)."""

    async def acquire(self, provider: str) -> None: ...

    async def pace(self, provider: str) -> None: ...

    async def charge(
        self, provider: str, model: str, input_tokens: int, output_tokens: int
    ) -> None: ...


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
        self._gates: dict[str, ProviderGate] = {}

    def limit_for(self, provider: str) -> ProviderLimit | None:
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
        """Wait for the provider's next start under the batch's requests_per_minute."""
        limit = self.limit_for(provider)
        if limit is None or not limit.requests_per_minute:
            return
        bucket = self._bucket(provider)
        if bucket not in self._gates:
            self._gates[bucket] = ProviderGate(SHARED_SLOTS, limit.requests_per_minute)
        async with self._gates[bucket]:
            pass

    async def charge(
        self, provider: str, model: str, input_tokens: int, output_tokens: int
    ) -> None:
        spent = self.spent.setdefault(self._bucket(provider), Spent())
        spent.tokens += input_tokens + output_tokens
        spent.cost_usd += estimate_cost(model, input_tokens, output_tokens, self.price_overrides)

    def snapshot(self) -> dict[str, Spent]:
        return {k: v.model_copy() for k, v in self.spent.items()}


@contextmanager
def paced(limiter: Limiter, provider: str) -> Iterator[None]:
    """Within this block every HTTP attempt of a remote provider (retries included) waits
    for the shared pace inside the provider's gate (see resilience.shared_pace). Local
    providers (the offline engine, a corpus) make no HTTP requests and are not paced."""
    token = shared_pace.set(lambda: limiter.pace(provider))
    try:
        yield
    finally:
        shared_pace.reset(token)


class LimitedLLM:
    """An LLM provider whose requests go through a shared Limiter."""

    def __init__(self, inner: LLMProvider, limiter: Limiter) -> None:
        self.inner = inner
        self.limiter = limiter

    @property
    def name(self) -> str:
        return self.inner.name

    def __repr__(self) -> str:
        return f"LimitedLLM({self.inner.name!r})"

    async def complete(self, request: LLMRequest) -> LLMResponse:
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
        return self.inner.name

    def __repr__(self) -> str:
        return f"LimitedSearch({self.inner.name!r})"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        await self.limiter.acquire(self.inner.name)
        with paced(self.limiter, self.inner.name):
            return await self.inner.search(query, max_results=max_results)

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        await self.limiter.acquire(self.inner.name)
        with paced(self.limiter, self.inner.name):
            return await self.inner.extract(urls)


class ProviderWrapper:
    """Wraps every provider a Session builds so it goes through one Limiter."""

    def __init__(self, limiter: Limiter) -> None:
        self.limiter = limiter

    def llm(self, provider: LLMProvider) -> LLMProvider:
        return provider if isinstance(provider, LimitedLLM) else LimitedLLM(provider, self.limiter)

    def search(self, provider: SearchProvider) -> SearchProvider:
        if isinstance(provider, LimitedSearch):
            return provider
        return LimitedSearch(provider, self.limiter)
