"""Ordered search providers with fallback: the first one that answers wins."""

from __future__ import annotations

import logging

from deepresearch.errors import ProviderError, ProviderUnavailableError, SearchError
from deepresearch.providers.base import SearchHit, SearchProvider

logger = logging.getLogger("deepresearch.providers")


class FallbackSearch:
    """Try each provider in order; on a ProviderError move to the next.

    A provider that reports itself unavailable (no key, refused credentials) is skipped for
    the rest of the run. When every provider fails, :class:`SearchError` lists each failure.
    """

    def __init__(self, providers: list[SearchProvider]) -> None:
        if not providers:
            raise SearchError("FallbackSearch needs at least one search provider.")
        self.providers = list(providers)
        self._unavailable: dict[str, str] = {}

    @property
    def name(self) -> str:
        """The providers' names joined by ``+``, in order."""
        return "+".join(p.name for p in self.providers)

    def __repr__(self) -> str:
        return f"FallbackSearch({[p.name for p in self.providers]!r})"

    def _usable(self) -> list[SearchProvider]:
        return [p for p in self.providers if p.name not in self._unavailable]

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """The hits of the first usable provider that answers; SearchError listing every failure
        when none does.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        failures = [f"{name}: {why}" for name, why in self._unavailable.items()]
        for provider in self._usable():
            try:
                hits = await provider.search(query, max_results=max_results)
                return [_tagged(hit, provider) for hit in hits]
            except ProviderError as exc:
                failures.append(self._note(provider, exc))
        raise SearchError(
            f"Every search provider failed for {query!r}: " + "; ".join(failures),
            provider=self.name,
        )

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """Ask providers in order for the URLs not yet extracted; failures are skipped."""
        found: dict[str, SearchHit] = {}
        for provider in self._usable():
            missing = [u for u in urls if u not in found]
            if not missing:
                break
            try:
                hits = await provider.extract(missing)
            except ProviderError as exc:
                self._note(provider, exc)
                continue
            for hit in hits:
                found.setdefault(hit.url, _tagged(hit, provider))
        return [found[u] for u in urls if u in found]

    def _note(self, provider: SearchProvider, exc: ProviderError) -> str:
        if isinstance(exc, ProviderUnavailableError):
            self._unavailable[provider.name] = str(exc)
        logger.warning("search provider %s failed: %s", provider.name, exc)
        return f"{provider.name}: {exc}"


def _tagged(hit: SearchHit, provider: SearchProvider) -> SearchHit:
    """The hit, naming the provider in the chain that returned it."""
    return hit if hit.provider else hit.model_copy(update={"provider": provider.name})
