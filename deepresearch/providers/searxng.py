"""SearxNG, a self-hosted meta search engine, through its JSON API (``/search?format=json``).

No client library exists; one GET over httpx. Set ``Config.searxng_base_url`` to your
instance; its settings must list ``json`` under ``search.formats`` (otherwise SearxNG
answers 403). Public instances usually disable JSON and rate-limit hard (429).
"""

from __future__ import annotations

from typing import Any

import httpx

from deepresearch.config import Config
from deepresearch.errors import ProviderError, ProviderUnavailableError
from deepresearch.providers.base import SearchHit, web_hit
from deepresearch.providers.http_api import ApiLimits, HttpApi, as_list, text
from deepresearch.providers.web_pages import PageFetcher


class SearxngApi(HttpApi):
    """A SearxNG instance over HTTP; HTTP 403 means its JSON format is off."""

    def status_error(self, response: httpx.Response) -> ProviderError:
        """The ProviderError an HTTP error answer stands for, with the API's own explanation.

        Args:
            response: the error answer.
        """
        if response.status_code == 403:
            return ProviderUnavailableError(
                f"searxng: {self.base_url} refused the JSON format (HTTP 403). Add 'json' to "
                "search.formats in the instance's settings.yml.",
                provider=self.provider,
            )
        return super().status_error(response)


class SearxngSearch:
    """``SearchProvider`` over a SearxNG instance; extract fetches pages."""

    name = "searxng"

    def __init__(self, config: Config, api: HttpApi) -> None:
        self.config = config
        self.api = api
        self.pages = PageFetcher(config)

    @classmethod
    def from_config(cls, config: Config) -> SearxngSearch:
        """The SearxNG provider as ``config`` sets it up.

        Args:
            config: the run's Config.
        """
        if not config.search_apis.searxng_base_url:
            raise ProviderUnavailableError(
                "searxng needs Config.searxng_base_url (your instance, e.g. "
                "http://localhost:8888).",
                provider=cls.name,
            )
        api = SearxngApi(cls.name, config.search_apis.searxng_base_url, config, limits=ApiLimits())
        return cls(config, api)

    def __repr__(self) -> str:
        return f"SearxngSearch(base_url={self.api.base_url!r})"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Search for ``query``; the hits, best first.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        data = await self.api.get_json("/search", {"q": query, "format": "json", "pageno": 1})
        hits = [
            web_hit(
                text(item.get("url")),
                text(item.get("title")),
                text(item.get("content")),
                self.name,
                score=_float(item.get("score")),
                published=text(item.get("publishedDate")) or None,
                metadata={"engines": item.get("engines") or [text(item.get("engine"))]},
            )
            for item in as_list(data, "results", self.api)
        ]
        return [hit for hit in hits if hit is not None][:max_results]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The full text of each page in ``urls`` that can be fetched (see docs/search/pages.md).

        Args:
            urls: the pages to fetch.
        """
        return await self.pages.extract(urls, provider=self.name)


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None
