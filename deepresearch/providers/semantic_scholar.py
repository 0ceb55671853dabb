"""Semantic Scholar paper search (Graph API ``/graph/v1/paper/search``) over httpx.

The ``semanticscholar`` package (0.12) was checked first: it opens a new client per
request, drops ``Retry-After`` and answers ``{}`` for statuses it does not list (502, 503),
which would hide failures; so the API is called directly. An API key is optional
(``SEMANTIC_SCHOLAR_API_KEY``, sent as ``x-api-key``); keys are limited to one request
per second, and keyless callers share a pool, so the gate defaults to 60 per minute.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deepresearch.config import Config
from deepresearch.providers.base import SearchHit
from deepresearch.providers.http_api import (
    ApiLimits,
    HttpApi,
    as_int,
    as_list,
    bare_doi,
    optional_key,
    text,
)
from deepresearch.providers.web_pages import PageFetcher

SEMANTIC_SCHOLAR_URL = "https://api.semanticscholar.org"
KEY_ENV = "SEMANTIC_SCHOLAR_API_KEY"
FIELDS = (
    "title,url,abstract,venue,year,authors,externalIds,citationCount,openAccessPdf,"
    "publicationDate,tldr"
)
_MAX_LIMIT = 100  # the API's ceiling for one page of relevance search


class SemanticScholarSearch:
    """``SearchProvider`` over Semantic Scholar's relevance search; extract fetches pages."""

    name = "semantic_scholar"

    def __init__(self, config: Config, api: HttpApi) -> None:
        self.config = config
        self.api = api
        self.pages = PageFetcher(config)

    @classmethod
    def from_config(
        cls,
        config: Config,
        *,
        api_key_value: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> SemanticScholarSearch:
        """The Semantic Scholar provider as ``config`` sets it up.

        Args:
            config: the run's Config.
            api_key_value: a key to use instead of the environment's.
            environ: the environment to read the key from (default ``os.environ``).
        """
        key = optional_key(KEY_ENV, api_key_value, environ)
        api = HttpApi(
            cls.name,
            config.search_apis.semantic_scholar_base_url or SEMANTIC_SCHOLAR_URL,
            config,
            limits=ApiLimits(requests_per_minute=60),
            headers={"x-api-key": key.reveal()} if key else None,
            secrets=(key,) if key else (),
            key_hint=f"Check {KEY_ENV}, or unset it to use the shared keyless pool.",
        )
        return cls(config, api)

    def __repr__(self) -> str:
        return f"SemanticScholarSearch(base_url={self.api.base_url!r})"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Search for ``query``; the hits, best first.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        params = {"query": query, "limit": min(max_results, _MAX_LIMIT), "fields": FIELDS}
        data = await self.api.get_json("/graph/v1/paper/search", params)
        hits = [self._hit(paper) for paper in as_list(data, "data", self.api)]
        found = [h for h in hits if h is not None][:max_results]
        self.pages.remember_open_copies(found)
        return found

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The full text of each page in ``urls`` that can be fetched (see docs/search/pages.md).

        Args:
            urls: the pages to fetch.
        """
        return await self.pages.extract(urls, provider=self.name)

    def _hit(self, paper: dict[str, Any]) -> SearchHit | None:
        ids = paper.get("externalIds") if isinstance(paper.get("externalIds"), dict) else {}
        doi = bare_doi((ids or {}).get("DOI"))
        pdf = paper.get("openAccessPdf") if isinstance(paper.get("openAccessPdf"), dict) else {}
        open_url = text((pdf or {}).get("url")) or None
        url = text(paper.get("url")) or open_url or (f"https://doi.org/{doi}" if doi else "")
        if not url:
            return None
        abstract = text(paper.get("abstract"))
        tldr = paper.get("tldr") if isinstance(paper.get("tldr"), dict) else {}
        summary = abstract or text((tldr or {}).get("text"))
        authors = paper.get("authors") if isinstance(paper.get("authors"), list) else []
        return SearchHit(
            url=url,
            title=text(paper.get("title")),
            snippet=summary[:500],
            content=summary,
            published=text(paper.get("publicationDate")) or None,
            provider=self.name,
            authors=[text(a.get("name")) for a in authors or [] if isinstance(a, dict)],
            year=as_int(paper.get("year")),
            venue=text(paper.get("venue")) or None,
            doi=doi,
            citation_count=as_int(paper.get("citationCount")),
            open_access_url=open_url,
            metadata={"paper_id": text(paper.get("paperId"))},
        )
