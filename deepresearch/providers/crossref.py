"""Crossref works search (``/works?query=``) over httpx.

``habanero`` (2.9) was checked first: it is synchronous (requests); the API is one GET,
called directly. No key; an email in ``Config.polite_pool_email`` joins the polite pool
(``mailto``). Public and polite pools allow 5 concurrent requests and answer 429 past
their rate. Crossref abstracts are JATS XML; their tags are stripped.
"""

from __future__ import annotations

import re
from typing import Any

from deepresearch.config import Config
from deepresearch.providers.base import SearchHit
from deepresearch.providers.http_api import (
    ApiLimits,
    HttpApi,
    as_int,
    as_list,
    bare_doi,
    text,
)
from deepresearch.providers.web_pages import PageFetcher

CROSSREF_URL = "https://api.crossref.org"
_MAX_ROWS = 1000
_TAG = re.compile(r"<[^>]+>")
_SELECT = (
    "DOI,title,author,container-title,issued,published,is-referenced-by-count,URL,"
    "abstract,link,license,type"
)


class CrossrefSearch:
    """``SearchProvider`` over Crossref works; extract fetches pages."""

    name = "crossref"

    def __init__(self, config: Config, api: HttpApi) -> None:
        self.config = config
        self.api = api
        self.pages = PageFetcher(config)

    @classmethod
    def from_config(cls, config: Config) -> CrossrefSearch:
        """The Crossref provider as ``config`` sets it up.

        Args:
            config: the run's Config.
        """
        api = HttpApi(
            cls.name,
            config.search_apis.crossref_base_url or CROSSREF_URL,
            config,
            limits=ApiLimits(max_concurrency=5, requests_per_minute=300),
            key_hint="Crossref needs no key; check Config.crossref_base_url.",
        )
        return cls(config, api)

    def __repr__(self) -> str:
        return f"CrossrefSearch(base_url={self.api.base_url!r})"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Search for ``query``; the hits, best first.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        params: dict[str, Any] = {
            "query": query,
            "rows": min(max_results, _MAX_ROWS),
            "select": _SELECT,
        }
        if self.config.search_apis.polite_pool_email:
            params["mailto"] = self.config.search_apis.polite_pool_email
        data = await self.api.get_json("/works", params)
        message = data.get("message") if isinstance(data, dict) else None
        hits = [self._hit(item) for item in as_list(message, "items", self.api)]
        found = [h for h in hits if h is not None][:max_results]
        self.pages.remember_open_copies(found)
        return found

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The full text of each page in ``urls`` that can be fetched (see docs/search/pages.md).

        Args:
            urls: the pages to fetch.
        """
        return await self.pages.extract(urls, provider=self.name)

    def _hit(self, item: dict[str, Any]) -> SearchHit | None:
        doi = bare_doi(item.get("DOI"))
        url = f"https://doi.org/{doi}" if doi else text(item.get("URL"))
        if not url:
            return None
        abstract = " ".join(_TAG.sub(" ", text(item.get("abstract"))).split())
        date = _date_parts(item.get("published") or item.get("issued"))
        authors = [
            " ".join(p for p in (text(a.get("given")), text(a.get("family"))) if p)
            or text(a.get("name"))
            for a in item.get("author") or []
            if isinstance(a, dict)
        ]
        return SearchHit(
            url=url,
            title=text(item.get("title")),
            snippet=abstract[:500],
            content=abstract,
            published="-".join(f"{p:02d}" if i else str(p) for i, p in enumerate(date)) or None,
            provider=self.name,
            authors=[a for a in authors if a],
            year=date[0] if date else None,
            venue=text(item.get("container-title")) or None,
            doi=doi,
            citation_count=as_int(item.get("is-referenced-by-count")),
            open_access_url=_open_link(item),
            metadata={"type": text(item.get("type"))},
        )


def _date_parts(value: Any) -> list[int]:
    """Crossref dates are {"date-parts": [[2019, 5, 7]]}, possibly partial."""
    parts = value.get("date-parts") if isinstance(value, dict) else None
    first = parts[0] if isinstance(parts, list) and parts and isinstance(parts[0], list) else []
    numbers = [as_int(p) for p in first]
    return [n for n in numbers if n is not None]


def _open_link(item: dict[str, Any]) -> str | None:
    """A full-text link, only when a Creative Commons license makes the work open access
    (Crossref lists publishers' links to paywalled text too)."""
    licenses = item.get("license") if isinstance(item.get("license"), list) else []
    if not any(
        "creativecommons.org" in text(lic.get("URL"))
        for lic in licenses or []
        if isinstance(lic, dict)
    ):
        return None
    for link in item.get("link") or []:
        if isinstance(link, dict) and text(link.get("URL")):
            return text(link.get("URL"))
    return None
