"""Tavily web search and extract through ``tavily-python``'s async client."""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any
from urllib.parse import urlparse

import httpx
from pydantic import ValidationError

from deepresearch.config import Config
from deepresearch.errors import ProviderError, ProviderUnavailableError, RateLimitError
from deepresearch.providers.base import SearchHit
from deepresearch.providers.credentials import (
    ClientPerLoop,
    Secret,
    api_key,
    ensure_importable,
    redact,
    tavily_client,
)
from deepresearch.providers.resilience import (
    RetryPolicy,
    call_with_retries,
    gate_for,
    pace_on_the_wire,
    parse_retry_after,
)

TAVILY_URL = "https://api.tavily.com"
# Retry-After of the last 429 answer in this task (set by the httpx response hook, read when
# the SDK's error is translated: the hook runs in the caller's task, so calls never mix).
_RETRY_AFTER: ContextVar[float | None] = ContextVar("tavily_retry_after", default=None)
# Tavily caps a search at 120 s and an extract at 60 s.
_SEARCH_TIMEOUT_CAP_S = 120.0
_EXTRACT_TIMEOUT_CAP_S = 60.0


def _accepts_our_http() -> bool:
    """Whether tavily-python takes our httpx client (``client=``, since 0.7), which paces
    and reads Retry-After; older versions send through their own."""
    tavily = ensure_importable("tavily", "tavily-python")
    return "client" in inspect.signature(tavily.AsyncTavilyClient).parameters


class TavilySearch:
    """``SearchProvider`` over Tavily; options come from the ``tavily_*`` config knobs."""

    name = "tavily"

    def __init__(self, config: Config, key: Secret, base_url: str | None = None) -> None:
        self.config = config
        self.base_url = base_url
        self.retry = RetryPolicy.from_config(config)
        self._key = key
        self._clients: ClientPerLoop[Any] = ClientPerLoop(self._new_client)

    @classmethod
    def from_config(
        cls,
        config: Config,
        *,
        api_key_value: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> TavilySearch:
        """The Tavily provider as ``config`` sets it up.

        Args:
            config: the run's Config.
            api_key_value: a key to use instead of the environment's.
            environ: the environment to read the key from (default ``os.environ``).
        """
        ensure_importable("tavily", "tavily-python")
        base_url = config.tavily.tavily_base_url
        key = api_key("tavily", explicit=api_key_value, environ=environ, base_url=base_url)
        return cls(config, key, base_url)

    def __repr__(self) -> str:
        return f"TavilySearch(base_url={self.base_url or TAVILY_URL!r})"

    def _new_client(self) -> Any:
        """The tavily client, over an httpx client of ours when tavily-python accepts one
        (``client=``, since 0.7): its response hook reads Retry-After from 429 answers,
        which the SDK's ``UsageLimitExceededError`` does not carry. Older SDKs: the retry
        policy's jittered backoff instead."""
        tavily = ensure_importable("tavily", "tavily-python")
        if not _accepts_our_http():
            return tavily_client(self._key, self.base_url)
        http = httpx.AsyncClient(
            base_url=self.base_url or TAVILY_URL,
            timeout=self.config.timeouts.operation_timeout_s,
            event_hooks={"request": [pace_on_the_wire], "response": [_remember_retry_after]},
        )
        return tavily.AsyncTavilyClient(
            api_key=self._key.reveal(), api_base_url=self.base_url, client=http
        )

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Search for ``query``; the hits, best first.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        cfg = self.config
        data = await self._call(
            lambda client: client.search(
                query,
                search_depth=cfg.tavily.tavily_search_depth,
                topic=cfg.tavily.tavily_topic,
                max_results=max_results,
                include_raw_content=cfg.tavily.tavily_include_raw_content,
                include_domains=cfg.tavily.tavily_include_domains or None,
                exclude_domains=cfg.tavily.tavily_exclude_domains or None,
                timeout=min(cfg.timeouts.operation_timeout_s, _SEARCH_TIMEOUT_CAP_S),
            )
        )
        hits = []
        for item in self._results(data):
            url = str(item.get("url") or "")
            if not url:
                continue
            snippet = str(item.get("content") or "")
            hits.append(
                self._hit(
                    url=url,
                    title=str(item.get("title") or ""),
                    snippet=snippet,
                    content=snippet,
                    raw_content=item.get("raw_content") or None,
                    score=item.get("score"),
                    domain=urlparse(url).netloc,
                    published=item.get("published_date"),
                    metadata={"provider": "tavily"},
                )
            )
        return hits[:max_results]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The full text of each page in ``urls`` that can be fetched (see docs/search/pages.md).

        Args:
            urls: the pages to fetch.
        """
        if not urls:
            return []
        timeout = min(self.config.timeouts.operation_timeout_s, _EXTRACT_TIMEOUT_CAP_S)
        data = await self._call(lambda client: client.extract(urls, timeout=timeout))
        hits = []
        for item in self._results(data):
            url, text = str(item.get("url") or ""), str(item.get("raw_content") or "")
            if url and text:
                hits.append(
                    self._hit(
                        url=url,
                        content=text,
                        raw_content=text,
                        domain=urlparse(url).netloc,
                        metadata={"provider": "tavily", "extracted": True},
                    )
                )
        return hits

    async def _call(self, call: Callable[[Any], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        gate = gate_for(f"tavily|{self.base_url or TAVILY_URL}", self.config)

        async def once() -> dict[str, Any]:
            _RETRY_AFTER.set(None)
            try:
                return await call(self._clients.get())
            except Exception as exc:
                raise self._translate(exc) from None

        return await call_with_retries(
            once, policy=self.retry, gate=gate, paced_on_the_wire=_accepts_our_http()
        )

    def _results(self, data: Any) -> list[dict[str, Any]]:
        """The ``results`` list of an answer (null counts as empty), or a typed error."""
        if not isinstance(data, dict):
            raise self._malformed(f"the answer should be an object, got {type(data).__name__}")
        results = data.get("results")
        if results is None:
            return []
        if not isinstance(results, list):
            raise self._malformed(f"'results' should be a list, got {type(results).__name__}")
        for item in results:
            if not isinstance(item, dict):
                raise self._malformed(f"each result should be an object, got {type(item).__name__}")
        return results

    def _hit(self, **fields: Any) -> SearchHit:
        try:
            return SearchHit(**fields)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:3]
            )
            raise self._malformed(f"a result has fields of the wrong type ({problems})") from None

    def _malformed(self, detail: str) -> ProviderError:
        where = self.base_url or TAVILY_URL
        return ProviderError(
            f"tavily: malformed response from {where}: {detail}. Check that "
            "Config.tavily_base_url points at the Tavily API (or a compatible server) and "
            "that tavily-python is up to date.",
            provider="tavily",
        )

    def _translate(self, exc: Exception) -> Exception:
        from tavily import errors

        detail = redact(str(exc), self._key) or type(exc).__name__
        if isinstance(exc, errors.UsageLimitExceededError):
            return RateLimitError(
                f"tavily: rate limited: {detail}", provider="tavily", retry_after=_RETRY_AFTER.get()
            )
        if isinstance(exc, errors.InvalidAPIKeyError | errors.MissingAPIKeyError):
            return ProviderUnavailableError(
                "tavily: the API key was refused; check TAVILY_API_KEY.", provider="tavily"
            )
        if isinstance(exc, errors.ForbiddenError):
            return ProviderUnavailableError(
                f"tavily: forbidden or plan limit reached: {detail}", provider="tavily"
            )
        if isinstance(exc, errors.BadRequestError):
            return ProviderError(f"tavily: bad request: {detail}", provider="tavily")
        if isinstance(exc, errors.TimeoutError | httpx.TimeoutException):
            return ProviderError(f"tavily: {detail}", provider="tavily", retryable=True)
        if isinstance(exc, httpx.HTTPStatusError):
            status = exc.response.status_code
            return ProviderError(
                f"tavily: HTTP {status}", provider="tavily", retryable=status >= 500
            )
        if isinstance(exc, httpx.TransportError):
            where = self.base_url or TAVILY_URL
            return ProviderError(
                f"tavily: cannot reach {where}: {detail}", provider="tavily", retryable=True
            )
        if isinstance(exc, json.JSONDecodeError | KeyError | TypeError | AttributeError):
            return self._malformed(detail)
        return exc


async def _remember_retry_after(response: httpx.Response) -> None:
    if response.status_code == 429:
        _RETRY_AFTER.set(parse_retry_after(response.headers))
