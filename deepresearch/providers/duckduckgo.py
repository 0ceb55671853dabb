"""DuckDuckGo web search through ``ddgs`` (no key), its HTML endpoint read by the
library's own parser.

``ddgs`` is synchronous, so each search runs in a worker thread, inside this package's
gate and retries. Only the DuckDuckGo engine of ``ddgs`` is used (not its meta search
over other engines), so results are what DuckDuckGo returned. DuckDuckGo has no published
limits and answers a challenge page (HTTP 202) when it wants a client to slow down; that
becomes a :class:`RateLimitError`. The gate defaults to 20 requests a minute.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from deepresearch.config import Config
from deepresearch.errors import ProviderError, RateLimitError
from deepresearch.providers.base import SearchHit, web_hit
from deepresearch.providers.credentials import ensure_importable
from deepresearch.providers.resilience import RetryPolicy, call_with_retries, gate_for
from deepresearch.providers.web_pages import PageFetcher

_SEARCH_PATH = "/html/"


class DuckDuckGoSearch:
    """``SearchProvider`` over DuckDuckGo's HTML results; extract fetches pages."""

    name = "duckduckgo"

    def __init__(self, config: Config) -> None:
        ensure_importable("ddgs", "deepresearch-sdk[web]")
        self.config = config
        self.retry = RetryPolicy.from_config(config)
        self.pages = PageFetcher(config)
        base = (config.search_apis.duckduckgo_base_url or "").rstrip("/")
        self.search_url = base + _SEARCH_PATH if base else None  # None: the library's own

    @classmethod
    def from_config(cls, config: Config) -> DuckDuckGoSearch:
        """The DuckDuckGo provider as ``config`` sets it up.

        Args:
            config: the run's Config.
        """
        return cls(config)

    def __repr__(self) -> str:
        return f"DuckDuckGoSearch(search_url={self.search_url or 'ddgs default'!r})"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Search for ``query``; the hits, best first.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        gate = gate_for(
            f"duckduckgo|{self.search_url}", self.config, max_concurrency=1, requests_per_minute=20
        )

        async def once() -> list[dict[str, Any]]:
            return await asyncio.to_thread(self._search_sync, query)

        rows = await call_with_retries(once, policy=self.retry, gate=gate)
        hits = [
            web_hit(
                str(row.get("href") or ""),
                str(row.get("title") or ""),
                str(row.get("body") or ""),
                self.name,
            )
            for row in rows
        ]
        return [hit for hit in hits if hit is not None][:max_results]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The full text of each page in ``urls`` that can be fetched (see docs/search/pages.md).

        Args:
            urls: the pages to fetch.
        """
        return await self.pages.extract(urls, provider=self.name)

    def _search_sync(self, query: str) -> list[dict[str, Any]]:
        from ddgs.exceptions import DDGSException, TimeoutException

        engine = _engine_class()(timeout=int(self.config.timeouts.operation_timeout_s))
        if self.search_url:
            engine.search_url = self.search_url
        try:
            results = engine.search(query, region=self.config.search_apis.duckduckgo_region) or []
        except _Refused as exc:
            if exc.status in (202, 403, 429):
                raise RateLimitError(
                    f"duckduckgo: asked to slow down (HTTP {exc.status})", provider=self.name
                ) from None
            raise ProviderError(
                f"duckduckgo: HTTP {exc.status}", provider=self.name, retryable=exc.status >= 500
            ) from None
        except TimeoutException:
            raise ProviderError(
                "duckduckgo: timed out", provider=self.name, retryable=True
            ) from None
        except DDGSException as exc:
            raise ProviderError(
                f"duckduckgo: cannot search: {exc}", provider=self.name, retryable=True
            ) from None
        return [{"href": r.href, "title": r.title, "body": r.body} for r in results]


class _Refused(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


@functools.cache
def _engine_class() -> Any:
    """ddgs's DuckDuckGo engine, made to say why it got no page (the library answers None
    for every non-200 status, which would look like 'no results')."""
    from ddgs.engines.duckduckgo import Duckduckgo

    class StrictDuckduckgo(Duckduckgo):
        def request(self, *args: Any, **kwargs: Any) -> Any:
            response = self.http_client.request(*args, **kwargs)
            if response.status_code != 200:
                raise _Refused(response.status_code)
            return response.text

    return StrictDuckduckgo
