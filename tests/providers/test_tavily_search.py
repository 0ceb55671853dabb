"""The real tavily-python async client against a loopback Tavily server; search fallback."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from deepresearch.config import Config
from deepresearch.errors import (
    ProviderError,
    ProviderUnavailableError,
    RateLimitError,
    SearchError,
)
from deepresearch.providers.base import SearchHit
from deepresearch.providers.fallback import FallbackSearch
from deepresearch.providers.tavily_search import TavilySearch
from deepresearch.testing.vendor_servers import Reply, TavilyServer, tavily_error

from .conftest import Recorder, waits

KEY = "tvly-test-SECRET-0123456789"
DOCS = [
    {
        "url": "https://example.org/press",
        "title": "Printing press",
        "content": "The printing press spread literacy across Europe after 1450.",
    },
    {
        "url": "https://example.org/paper",
        "title": "Paper making",
        "content": "Paper mills made cheap paper available to printers in Europe.",
    },
]


@pytest.fixture
def server() -> Iterator[TavilyServer]:
    with TavilyServer(DOCS) as srv:
        yield srv


def make(server: TavilyServer, **knobs: object) -> TavilySearch:
    config = Config.build({"tavily_base_url": server.base_url, "retry_base_delay_s": 0, **knobs})
    tavily = TavilySearch.from_config(config, environ={"TAVILY_API_KEY": KEY})
    tavily.retry = dataclasses.replace(tavily.retry, sleep=Recorder())
    return tavily


async def test_search_sends_the_options_and_maps_hits(server: TavilyServer) -> None:
    tavily = make(
        server,
        tavily_search_depth="advanced",
        tavily_topic="news",
        tavily_include_raw_content=True,
        tavily_include_domains=["example.org"],
        tavily_exclude_domains=["spam.example"],
    )
    hits = await tavily.search("printing press Europe", max_results=1)
    sent = server.requests[0]
    assert sent.path == "/search"
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    for key, value in {
        "query": "printing press Europe",
        "search_depth": "advanced",
        "topic": "news",
        "max_results": 1,
        "include_raw_content": True,
        "include_domains": ["example.org"],
        "exclude_domains": ["spam.example"],
    }.items():
        assert sent.json[key] == value
    assert [h.url for h in hits] == ["https://example.org/press"]
    assert hits[0].title == "Printing press" and hits[0].domain == "example.org"
    assert hits[0].raw_content == DOCS[0]["content"] and hits[0].score == 0.9


async def test_extract_returns_content_and_leaves_out_failures(server: TavilyServer) -> None:
    hits = await make(server).extract(["https://example.org/paper", "https://gone.example/x"])
    assert [(h.url, h.content) for h in hits] == [("https://example.org/paper", DOCS[1]["content"])]


async def test_rate_limit_then_ok(server: TavilyServer) -> None:
    server.enqueue(tavily_error(429, "Your request has been blocked due to excessive requests."))
    tavily = make(server)
    assert await tavily.search("paper", max_results=3)
    assert len(waits(tavily)) == 1


async def test_rate_limit_waits_as_long_as_retry_after_says(server: TavilyServer) -> None:
    limited = tavily_error(429, "Too many requests.")
    server.enqueue(dataclasses.replace(limited, headers={"Retry-After": "7"}))
    tavily = make(server, retry_max_delay_s=30)
    assert await tavily.search("paper", max_results=3)
    assert waits(tavily) == [7.0]


async def test_server_errors_exhausted_raise_provider_error(server: TavilyServer) -> None:
    server.enqueue(*[Reply(502, "bad gateway") for _ in range(3)])
    with pytest.raises(ProviderError, match="HTTP 502") as info:
        await make(server, max_retries=2).search("paper", max_results=3)
    assert info.value.retryable and not isinstance(info.value, RateLimitError)


async def test_refused_key_is_unavailable_and_key_is_hidden(server: TavilyServer) -> None:
    server.enqueue(tavily_error(401, f"Unauthorized: missing or invalid API key {KEY}."))
    tavily = make(server)
    with pytest.raises(ProviderUnavailableError) as info:
        await tavily.search("paper", max_results=3)
    assert KEY not in str(info.value) and KEY not in repr(tavily)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"results": {"url": "https://example.org/p"}}, "should be a list, got dict"),
        ({"results": "https://example.org/p"}, "should be a list, got str"),
        ({"results": ["https://example.org/p"]}, "should be an object, got str"),
        ({"results": [{"url": "https://example.org/p", "score": "high"}]}, "wrong type"),
        ([{"url": "https://example.org/paper"}], "malformed"),
        ("<html>Welcome to nginx</html>", "malformed"),
    ],
)
async def test_search_answer_of_unexpected_shape_is_a_provider_error(
    server: TavilyServer, body: object, problem: str
) -> None:
    server.enqueue(Reply(200, body))  # type: ignore[arg-type]
    with pytest.raises(ProviderError, match=problem) as info:
        await make(server).search("paper", max_results=3)
    assert not info.value.retryable and info.value.provider == "tavily"
    assert "tavily_base_url" in str(info.value) and len(server.requests) == 1


async def test_extract_answer_of_unexpected_shape_is_a_provider_error(
    server: TavilyServer,
) -> None:
    server.enqueue(Reply(200, {"results": 42, "failed_results": []}))
    with pytest.raises(ProviderError, match="'results' should be a list, got int"):
        await make(server).extract(["https://example.org/paper"])


async def test_null_results_are_no_results(server: TavilyServer) -> None:
    server.enqueue(Reply(200, {"query": "paper", "results": None}))
    assert await make(server).search("paper", max_results=3) == []


def test_no_key_and_no_url_is_unavailable() -> None:
    with pytest.raises(ProviderUnavailableError, match="TAVILY_API_KEY"):
        TavilySearch.from_config(Config(), environ={})


class Static:
    def __init__(self, name: str, hits: list[SearchHit]) -> None:
        self.name = name
        self.hits = hits
        self.calls = 0

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        self.calls += 1
        return self.hits[:max_results]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        return [h for h in self.hits if h.url in urls]


async def test_fallback_skips_an_unavailable_provider(server: TavilyServer) -> None:
    server.enqueue(tavily_error(401, "Unauthorized"))
    local = Static("corpus", [SearchHit(url="notes/press.md", title="Press notes")])
    search = FallbackSearch([make(server), local])
    assert [h.url for h in await search.search("press", max_results=5)] == ["notes/press.md"]
    assert [h.url for h in await search.search("press", max_results=5)] == ["notes/press.md"]
    assert len(server.requests) == 1  # tavily is skipped once it said it is unavailable
    assert local.calls == 2
    extracted = await search.extract(["notes/press.md", "https://example.org/press"])
    assert [h.url for h in extracted] == ["notes/press.md"]


async def test_fallback_uses_the_next_provider_only_on_failure(server: TavilyServer) -> None:
    local = Static("corpus", [SearchHit(url="notes/a.md")])
    search = FallbackSearch([make(server), local])
    hits = await search.search("paper", max_results=5)
    assert hits and all(h.url.startswith("https://example.org/") for h in hits)
    assert local.calls == 0
    extracted = await search.extract(["https://example.org/paper", "notes/a.md"])
    assert [h.url for h in extracted] == ["https://example.org/paper", "notes/a.md"]


async def test_all_failed_lists_each_failure(server: TavilyServer) -> None:
    server.enqueue(tavily_error(400, "Invalid query"))

    class Broken(Static):
        async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
            raise ProviderError("index is corrupt", provider=self.name)

    search = FallbackSearch([make(server), Broken("corpus", [])])
    with pytest.raises(SearchError) as info:
        await search.search("x", max_results=2)
    assert "tavily: tavily: bad request: Invalid query" in str(info.value)
    assert "corpus: index is corrupt" in str(info.value)
