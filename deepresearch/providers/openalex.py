"""OpenAlex works search (``/works?search=``) over httpx.

``pyalex`` (0.21) was checked first: it is synchronous (requests) and keeps its email and
key in process-global settings, so two sessions could not use two configurations; the API
is a single GET, called directly. OpenAlex asks for an API key (``OPENALEX_API_KEY``;
free, and without one the daily allowance is tiny) and an email for its polite pool
(``Config.polite_pool_email``). It answers 403 and 429 when a limit is exceeded, so both
count as rate limits here; at most 100 requests per second.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from deepresearch.config import Config
from deepresearch.errors import ProviderError, RateLimitError
from deepresearch.providers.base import SearchHit
from deepresearch.providers.credentials import Secret
from deepresearch.providers.http_api import (
    ApiLimits,
    HttpApi,
    as_int,
    as_list,
    bare_doi,
    optional_key,
    text,
)
from deepresearch.providers.resilience import parse_retry_after
from deepresearch.providers.web_pages import PageFetcher

OPENALEX_URL = "https://api.openalex.org"
KEY_ENV = "OPENALEX_API_KEY"
_MAX_PER_PAGE = 200


class OpenAlexApi(HttpApi):
    """The OpenAlex API over HTTP; its HTTP 403 "slow down" is a rate limit."""

    def status_error(self, response: httpx.Response) -> ProviderError:
        """The ProviderError an HTTP error answer stands for, with the API's own explanation.

        Args:
            response: the error answer.
        """
        if response.status_code == 403:  # OpenAlex's documented "slow down"
            return RateLimitError(
                f"openalex: limit exceeded (HTTP 403): {self.message_of(response)}. {self.key_hint}",
                provider=self.provider,
                retry_after=parse_retry_after(response.headers),
            )
        return super().status_error(response)


class OpenAlexSearch:
    """``SearchProvider`` over OpenAlex works; extract fetches pages."""

    name = "openalex"

    def __init__(self, config: Config, api: HttpApi, key: Secret | None) -> None:
        self.config = config
        self.api = api
        self.pages = PageFetcher(config)
        self._key = key

    @classmethod
    def from_config(
        cls,
        config: Config,
        *,
        api_key_value: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> OpenAlexSearch:
        """The OpenAlex provider as ``config`` sets it up.

        Args:
            config: the run's Config.
            api_key_value: a key to use instead of the environment's.
            environ: the environment to read the key from (default ``os.environ``).
        """
        key = optional_key(KEY_ENV, api_key_value, environ)
        api = OpenAlexApi(
            cls.name,
            config.search_apis.openalex_base_url or OPENALEX_URL,
            config,
            limits=ApiLimits(requests_per_minute=600),
            secrets=(key,) if key else (),
            key_hint=f"Set {KEY_ENV} (free at openalex.org) for a daily allowance.",
        )
        return cls(config, api, key)

    def __repr__(self) -> str:
        return f"OpenAlexSearch(base_url={self.api.base_url!r})"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Search for ``query``; the hits, best first.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        params: dict[str, Any] = {"search": query, "per-page": min(max_results, _MAX_PER_PAGE)}
        if self.config.search_apis.polite_pool_email:
            params["mailto"] = self.config.search_apis.polite_pool_email
        if self._key is not None:
            params["api_key"] = self._key.reveal()
        data = await self.api.get_json("/works", params)
        hits = [self._hit(work) for work in as_list(data, "results", self.api)]
        found = [h for h in hits if h is not None][:max_results]
        self.pages.remember_open_copies(found)
        return found

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The full text of each page in ``urls`` that can be fetched (see docs/search/pages.md).

        Args:
            urls: the pages to fetch.
        """
        return await self.pages.extract(urls, provider=self.name)

    def _hit(self, work: dict[str, Any]) -> SearchHit | None:
        doi = bare_doi(work.get("doi"))
        location = _obj(work.get("primary_location"))
        open_url = text(_obj(work.get("open_access")).get("oa_url")) or None
        url = (
            (f"https://doi.org/{doi}" if doi else "")
            or text(location.get("landing_page_url"))
            or text(work.get("id"))
        )
        if not url:
            return None
        abstract = abstract_from_index(work.get("abstract_inverted_index"))
        authors = [
            text(_obj(a.get("author")).get("display_name"))
            for a in work.get("authorships") or []
            if isinstance(a, dict)
        ]
        return SearchHit(
            url=url,
            title=text(work.get("display_name") or work.get("title")),
            snippet=abstract[:500],
            content=abstract,
            published=text(work.get("publication_date")) or None,
            provider=self.name,
            authors=[a for a in authors if a],
            year=as_int(work.get("publication_year")),
            venue=text(_obj(location.get("source")).get("display_name")) or None,
            doi=doi,
            citation_count=as_int(work.get("cited_by_count")),
            open_access_url=open_url,
            metadata={"openalex_id": text(work.get("id"))},
        )


def abstract_from_index(index: Any) -> str:
    """OpenAlex ships abstracts as {word: [positions]}; put the words back in order."""
    if not isinstance(index, dict):
        return ""
    placed = [
        (pos, word)
        for word, positions in index.items()
        if isinstance(positions, list)
        for pos in positions
        if isinstance(pos, int)
    ]
    return " ".join(word for _, word in sorted(placed))


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
