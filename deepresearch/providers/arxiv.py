"""arXiv search through its Atom API (``/api/query``), fetched with httpx and read by
``feedparser``.

The ``arxiv`` package (4.0) was checked first: it is synchronous (requests) around the
same feedparser call, so the feed is fetched here and parsed by feedparser directly. No
key. arXiv asks for at most one request every three seconds on one connection, which the
gate enforces unless ``provider_requests_per_minute`` says otherwise. Errors come back as
a feed whose single entry is titled "Error".
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from deepresearch.config import Config
from deepresearch.errors import ProviderError
from deepresearch.providers.base import SearchHit
from deepresearch.providers.credentials import ensure_importable
from deepresearch.providers.http_api import ApiLimits, HttpApi, bare_doi, text
from deepresearch.providers.web_pages import PageFetcher

ARXIV_URL = "https://export.arxiv.org"
_MAX_RESULTS = 2000
_WORD = re.compile(r"[^\W_]+")


class ArxivApi(HttpApi):
    """The arXiv API over HTTP; error answers are read from its Atom feed."""

    def status_error(self, response: httpx.Response) -> ProviderError:
        """The ProviderError an HTTP error answer stands for, with the API's own explanation.

        Args:
            response: the error answer.
        """
        error = super().status_error(response)
        message = _feed_error(response.text)
        if message:
            error.args = (f"arxiv: HTTP {response.status_code}: {message}",)
        return error


class ArxivSearch:
    """``SearchProvider`` over arXiv; extract fetches pages (abstract pages or PDFs)."""

    name = "arxiv"

    def __init__(self, config: Config, api: HttpApi) -> None:
        self.config = config
        self.api = api
        self.pages = PageFetcher(config)

    @classmethod
    def from_config(cls, config: Config) -> ArxivSearch:
        """The arXiv provider as ``config`` sets it up.

        Args:
            config: the run's Config.
        """
        ensure_importable("feedparser", "deepresearch-sdk[scholarly]")
        api = ArxivApi(
            cls.name,
            config.search_apis.arxiv_base_url or ARXIV_URL,
            config,
            limits=ApiLimits(max_concurrency=1, requests_per_minute=20),
        )
        return cls(config, api)

    def __repr__(self) -> str:
        return f"ArxivSearch(base_url={self.api.base_url!r})"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Search for ``query``; the hits, best first.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        words = _WORD.findall(query)
        if not words:
            return []
        params = {
            "search_query": " OR ".join(f"all:{w}" for w in words),
            "start": 0,
            "max_results": min(max_results, _MAX_RESULTS),
            "sortBy": "relevance",
        }
        response = await self.api.get("/api/query", params)
        feed = _parse(response.text)
        if getattr(feed, "bozo", False) and not feed.entries:
            raise self.api.malformed("the answer is not an Atom feed")
        message = _feed_error(response.text)
        if message:
            raise self.api.error(f"query refused: {message}")
        hits = [self._hit(entry) for entry in feed.entries]
        found = [h for h in hits if h is not None][:max_results]
        self.pages.remember_open_copies(found)
        return found

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The full text of each page in ``urls`` that can be fetched (see docs/search/pages.md).

        Args:
            urls: the pages to fetch.
        """
        return await self.pages.extract(urls, provider=self.name)

    def _hit(self, entry: Any) -> SearchHit | None:
        url = text(entry.get("id"))
        if not url:
            return None
        summary = text(entry.get("summary"))
        pdf = next(
            (
                text(link.get("href"))
                for link in entry.get("links", [])
                if link.get("title") == "pdf" or link.get("type") == "application/pdf"
            ),
            None,
        )
        published = text(entry.get("published"))[:10] or None
        return SearchHit(
            url=url,
            title=text(entry.get("title")),
            snippet=summary[:500],
            content=summary,
            published=published,
            provider=self.name,
            authors=[text(a.get("name")) for a in entry.get("authors", []) if a.get("name")],
            year=int(published[:4]) if published and published[:4].isdigit() else None,
            venue=text(entry.get("arxiv_journal_ref")) or "arXiv",
            doi=bare_doi(entry.get("arxiv_doi")),
            open_access_url=pdf or url,
            metadata={
                "primary_category": text(entry.get("arxiv_primary_category", {}).get("term"))
            },
        )


def _parse(body: str) -> Any:
    import feedparser

    return feedparser.parse(body)


def _feed_error(body: str) -> str:
    """The message of arXiv's error feed: one entry titled 'Error'."""
    if "<feed" not in body:
        return ""
    feed = _parse(body)
    entries = feed.entries
    if len(entries) == 1 and text(entries[0].get("title")) == "Error":
        return text(entries[0].get("summary")) or "unknown error"
    return ""
