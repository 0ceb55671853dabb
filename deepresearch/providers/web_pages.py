"""Direct pages: fetch an http(s) URL with httpx and turn it into text with trafilatura.

Every provider without an extract API of its own (the scholarly APIs, Google, SearxNG,
DuckDuckGo) extracts through :class:`PageFetcher`. Each fetch, and each redirect hop, goes
through the URL policy (:mod:`deepresearch.urls`: http/https only, no private, loopback or
metadata addresses unless ``allow_private_urls``); which URLs a session may extract at all
(those its searches returned or the user gave) is checked before, by the topic researcher.
robots.txt is respected unless ``respect_robots_txt=False``; a page is read up to
``page_max_bytes`` within ``page_timeout_s``; only HTML, plain text and PDF are read.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from deepresearch.config import Config
from deepresearch.errors import PageFetchError, ProviderUnavailableError, UrlRefused
from deepresearch.providers.base import SearchHit
from deepresearch.providers.credentials import ClientPerLoop
from deepresearch.urls import UrlPolicy

logger = logging.getLogger("deepresearch.providers")

USER_AGENT = "deepresearch"  # the product token robots.txt rules are matched against
_MAX_REDIRECTS = 5
_ROBOTS_MAX_BYTES = 500_000
_HTML = ("text/html", "application/xhtml+xml")
_TEXT = ("text/plain", "text/markdown")
_PDF = ("application/pdf",)


@dataclass
class Page:
    """A fetched page.

    Args:
        url: its URL after redirects.
        content_type: the served content type.
        body: the bytes read.
        truncated: the page was longer than ``page_max_bytes``.
    """

    url: str  # after redirects
    content_type: str
    body: bytes
    truncated: bool


class PageFetcher:
    """Fetches pages for ``extract``; URLs it cannot use are left out, with the reason in
    :attr:`skipped` and the log (the extract contract: missing ones are left out)."""

    def __init__(self, config: Config, *, policy: UrlPolicy | None = None) -> None:
        self.config = config
        self.policy = policy or UrlPolicy(allow_private=config.pages.allow_private_urls)
        self.skipped: dict[str, str] = {}
        self.open_copies: dict[str, str] = {}  # a paper's URL -> its open-access copy
        self._robots: dict[str, Any] = {}  # origin -> protego.Protego | bool (allow all)
        self._robots_loading: dict[str, asyncio.Future[Any]] = {}
        self._clients: ClientPerLoop[httpx.AsyncClient] = ClientPerLoop(
            lambda: httpx.AsyncClient(
                headers={"user-agent": f"{USER_AGENT} (research assistant)"},
                timeout=config.pages.page_timeout_s,
                follow_redirects=False,  # each hop is checked against the URL policy
            )
        )

    def __repr__(self) -> str:
        return f"PageFetcher(robots={self.config.pages.respect_robots_txt})"

    async def extract(self, urls: list[str], *, provider: str) -> list[SearchHit]:
        """Text for each URL that could be fetched, in order."""
        _ensure_extractor()
        hits = await asyncio.gather(*(self._extract_one(u, provider) for u in urls))
        return [h for h in hits if h is not None]

    def remember_open_copies(self, hits: list[SearchHit]) -> None:
        """Note each paper's open-access copy, which extract then reads first (a DOI's
        landing page is often a paywall; the arXiv PDF or repository copy is the text)."""
        for hit in hits:
            if hit.open_access_url and hit.open_access_url != hit.url:
                self.open_copies[hit.url] = hit.open_access_url

    async def _extract_one(self, url: str, provider: str) -> SearchHit | None:
        reasons = []
        for candidate in dict.fromkeys(c for c in (self.open_copies.get(url), url) if c):
            try:
                async with asyncio.timeout(self.config.pages.page_timeout_s):
                    hit = await self.fetch(candidate, provider=provider)
            except (PageFetchError, UrlRefused) as exc:
                reasons.append(str(exc))
                continue
            except TimeoutError:
                reasons.append(
                    f"{candidate}: no answer within {self.config.pages.page_timeout_s:g} s"
                )
                continue
            if candidate != url:  # the source keeps its URL; the copy read is on record
                hit.url, hit.metadata["open_access_copy"] = url, candidate
            return hit
        self.skipped[url] = "; ".join(reasons)
        logger.warning("extract skipped %s", self.skipped[url])
        return None

    async def fetch(self, url: str, *, provider: str = "web") -> SearchHit:
        """One page as a hit with its text; raises PageFetchError or UrlRefused."""
        await self.policy.check(url, known_urls={url})  # before robots.txt is asked for
        if self.config.pages.respect_robots_txt and not await self._robots_allow(url):
            raise PageFetchError(f"{url}: robots.txt disallows it", provider=provider)
        page = await self._get(url, max_bytes=self.config.pages.page_max_bytes)
        title, body = _to_text(page)
        if not body.strip():
            raise PageFetchError(f"{url}: no readable text", provider=provider)
        return SearchHit(
            url=url,  # the URL asked for, so the caller can match it to its source
            title=title,
            content=body,
            raw_content=body,
            domain=(urlsplit(page.url).hostname or "").removeprefix("www."),
            provider=provider,
            metadata={
                "extracted": True,
                "final_url": page.url,
                "content_type": page.content_type,
                "truncated": page.truncated,
            },
        )

    async def _get(self, url: str, *, max_bytes: int, kinds: tuple[str, ...] = ()) -> Page:
        """GET with each redirect hop checked by the policy, reading at most max_bytes."""
        client = self._clients.get()
        kinds = kinds or (*_HTML, *_TEXT, *_PDF)
        for _ in range(_MAX_REDIRECTS + 1):
            await self.policy.check(url, known_urls={url})
            try:
                async with client.stream("GET", url) as response:
                    if response.is_redirect and "location" in response.headers:
                        url = urljoin(url, response.headers["location"])
                        continue
                    if response.status_code >= 400:
                        status = response.status_code
                        raise PageFetchError(f"{url}: HTTP {status}", status=status)
                    return await _read(response, url, max_bytes, kinds)
            except httpx.HTTPError as exc:
                raise PageFetchError(f"{url}: {type(exc).__name__}: {exc}") from None
        raise PageFetchError(f"{url}: more than {_MAX_REDIRECTS} redirects")

    async def _robots_allow(self, url: str) -> bool:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in self._robots:
            # Pages of one site are fetched together: read its robots.txt once.
            loading = self._robots_loading.get(origin)
            if loading is None:
                loading = asyncio.ensure_future(self._load_robots(origin))
                self._robots_loading[origin] = loading
            try:
                self._robots[origin] = await asyncio.shield(loading)
            finally:
                self._robots_loading.pop(origin, None)
        rules = self._robots[origin]
        return rules if isinstance(rules, bool) else bool(rules.can_fetch(url, USER_AGENT))

    async def _load_robots(self, origin: str) -> Any:
        """RFC 9309: a missing file (4xx) allows everything; an unreachable one (5xx,
        network error) disallows everything."""
        from protego import Protego

        try:
            page = await self._get(f"{origin}/robots.txt", max_bytes=_ROBOTS_MAX_BYTES, kinds=("",))
        except PageFetchError as exc:
            return exc.status is not None and 400 <= exc.status < 500
        except UrlRefused:
            return False
        return Protego.parse(page.body.decode("utf-8", "replace"))


async def _read(response: httpx.Response, url: str, max_bytes: int, kinds: tuple[str, ...]) -> Page:
    content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if not any(content_type.startswith(kind) for kind in kinds):
        raise PageFetchError(f"{url}: content type {content_type or 'none'!r} is not read")
    chunks, size = [], 0  # the rest of a larger page is never downloaded
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size >= max_bytes:
            break
    body = b"".join(chunks)
    return Page(str(response.url), content_type, body[:max_bytes], size > max_bytes)


def _to_text(page: Page) -> tuple[str, str]:
    """(title, text) of a page."""
    if page.content_type in _PDF:
        return "", _pdf_text(page)
    decoded = page.body.decode("utf-8", "replace")
    if page.content_type in _TEXT:
        return "", decoded
    import trafilatura

    doc = trafilatura.bare_extraction(decoded, url=page.url, with_metadata=True)
    if doc is None:
        return "", ""
    return str(getattr(doc, "title", "") or ""), str(getattr(doc, "text", "") or "")


def _pdf_text(page: Page) -> str:
    try:
        from pypdf import PdfReader
    except ImportError:
        raise PageFetchError(
            f"{page.url}: PDF support is not installed: pip install 'deepresearch-sdk[pdf]'"
        ) from None
    try:
        reader = PdfReader(io.BytesIO(page.body))
        return "\n\n".join(p.extract_text() or "" for p in reader.pages)
    except Exception as exc:  # pypdf raises many types for damaged or truncated files
        raise PageFetchError(f"{page.url}: unreadable PDF ({type(exc).__name__})") from None


def _ensure_extractor() -> None:
    try:
        import protego  # noqa: F401
        import trafilatura  # noqa: F401
    except ImportError as exc:
        raise ProviderUnavailableError(
            f"Page extraction needs the web extra: pip install 'deepresearch-sdk[web]' ({exc.name} "
            "is missing).",
            provider="web",
        ) from None
