"""Google Programmable Search, SearxNG and DuckDuckGo (through ddgs) against loopback
servers answering in each service's shape, errors and rate limits included."""

from __future__ import annotations

import pytest

from deepresearch.errors import ProviderError, ProviderUnavailableError, RateLimitError
from deepresearch.providers.duckduckgo import DuckDuckGoSearch
from deepresearch.providers.google_search import GoogleSearch
from deepresearch.providers.registry import build_search
from deepresearch.providers.searxng import SearxngSearch
from deepresearch.testing.search_servers import (
    DuckDuckGoServer,
    GoogleServer,
    SearxngServer,
    duckduckgo_challenge,
    google_error,
    google_key_invalid,
    searxng_rate_limited,
)

from .search_apis import KEY, WEB_PAGES, api_config, recording_retries

QUERY = "attention transformer language model"


# -- Google -------------------------------------------------------------------------------
async def test_google_maps_items_and_sends_key_and_engine_id() -> None:
    with GoogleServer(WEB_PAGES) as server:
        config = api_config(google_base_url=server.base_url, google_engine_id="engine-1")
        provider = GoogleSearch.from_config(config, environ={"GOOGLE_API_KEY": KEY})
        hits = await provider.search(QUERY, max_results=25)
    request = server.requests[0]
    assert request.path == "/customsearch/v1" and request.query["cx"] == "engine-1"
    assert request.headers["x-goog-api-key"] == KEY and "key" not in request.query
    assert request.query["num"] == "10"  # the API's ceiling
    assert [h.url for h in hits][:1] == [WEB_PAGES[1]["url"]]
    assert all(h.provider == "google" and h.domain == "en.wikipedia.org" for h in hits)
    assert KEY not in repr(provider)


async def test_google_without_results_answers_nothing() -> None:
    with GoogleServer(WEB_PAGES) as server:
        config = api_config(google_base_url=server.base_url, google_engine_id="engine-1")
        provider = GoogleSearch.from_config(config, environ={"GOOGLE_API_KEY": KEY})
        assert await provider.search("zzzz qqqq", max_results=5) == []


def test_google_needs_a_key_and_an_engine_id() -> None:
    with pytest.raises(
        ProviderUnavailableError, match=r"GOOGLE_API_KEY and Config\.google_engine_id"
    ):
        GoogleSearch.from_config(api_config(), environ={})
    with pytest.raises(ProviderUnavailableError, match="google_engine_id"):
        GoogleSearch.from_config(api_config(), environ={"GOOGLE_API_KEY": KEY})


async def test_google_refused_key_and_spent_quota_make_it_unavailable() -> None:
    with GoogleServer(WEB_PAGES) as server:
        server.enqueue(
            google_key_invalid(),
            google_error(
                429,
                "Quota exceeded for quota metric 'Queries' and limit 'Queries per day'.",
                "rateLimitExceeded",
                "RESOURCE_EXHAUSTED",
            ),
        )
        config = api_config(google_base_url=server.base_url, google_engine_id="engine-1")
        provider = GoogleSearch.from_config(config, environ={"GOOGLE_API_KEY": KEY})
        with pytest.raises(ProviderUnavailableError, match="key was refused") as refused:
            await provider.search(QUERY, max_results=3)
        with pytest.raises(ProviderUnavailableError, match="quota is used up"):
            await provider.search(QUERY, max_results=3)
    assert KEY not in str(refused.value)


async def test_google_per_minute_rate_limit_is_retried() -> None:
    with GoogleServer(WEB_PAGES) as server:
        server.enqueue(
            google_error(
                429,
                "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute'.",
                "rateLimitExceeded",
                "RESOURCE_EXHAUSTED",
            )
        )
        config = api_config(google_base_url=server.base_url, google_engine_id="engine-1")
        provider = GoogleSearch.from_config(config, environ={"GOOGLE_API_KEY": KEY})
        waits = recording_retries(provider)
        assert await provider.search(QUERY, max_results=3)
    assert len(waits.waits) == 1


# -- SearxNG ------------------------------------------------------------------------------
async def test_searxng_reads_the_json_api() -> None:
    with SearxngServer(WEB_PAGES) as server:
        provider = SearxngSearch.from_config(api_config(searxng_base_url=server.base_url))
        hits = await provider.search(QUERY, max_results=2)
    request = server.requests[0]
    assert request.path == "/search" and request.query == {
        "q": QUERY,
        "format": "json",
        "pageno": "1",
    }
    assert len(hits) == 2 and hits[0].score == 2.0 and hits[0].provider == "searxng"
    assert hits[0].metadata["engines"] == ["wikipedia", "duckduckgo"]


async def test_searxng_without_json_format_says_how_to_enable_it() -> None:
    with SearxngServer(WEB_PAGES, json_enabled=False) as server:
        provider = SearxngSearch.from_config(api_config(searxng_base_url=server.base_url))
        with pytest.raises(ProviderUnavailableError, match=r"search\.formats"):
            await provider.search(QUERY, max_results=2)


async def test_searxng_limiter_is_a_rate_limit() -> None:
    with SearxngServer(WEB_PAGES) as server:
        server.enqueue(*[searxng_rate_limited()] * 3)
        provider = SearxngSearch.from_config(api_config(searxng_base_url=server.base_url))
        recording_retries(provider)
        with pytest.raises(RateLimitError):
            await provider.search(QUERY, max_results=2)


def test_searxng_needs_a_base_url() -> None:
    with pytest.raises(ProviderUnavailableError, match="searxng_base_url"):
        SearxngSearch.from_config(api_config())


async def test_unreachable_server_is_a_retryable_error() -> None:
    with SearxngServer(WEB_PAGES) as server:
        url = server.base_url
    provider = SearxngSearch.from_config(api_config(searxng_base_url=url))
    waits = recording_retries(provider)
    with pytest.raises(ProviderError, match="cannot reach"):
        await provider.search(QUERY, max_results=2)
    assert len(waits.waits) == 2


# -- DuckDuckGo ---------------------------------------------------------------------------
async def test_duckduckgo_through_ddgs_parses_the_html_results() -> None:
    with DuckDuckGoServer(WEB_PAGES) as server:
        provider = DuckDuckGoSearch.from_config(api_config(duckduckgo_base_url=server.base_url))
        hits = await provider.search(QUERY, max_results=2)
    request = server.requests[0]
    assert request.method == "POST" and request.path == "/html/"
    assert request.form["q"] == QUERY and request.form["l"] == "us-en"
    assert [h.url for h in hits] == [WEB_PAGES[1]["url"], WEB_PAGES[0]["url"]]
    assert hits[0].title == WEB_PAGES[1]["title"] and hits[0].provider == "duckduckgo"
    assert hits[0].snippet.startswith("The Transformer is a deep learning")


async def test_duckduckgo_challenge_page_is_a_rate_limit_not_an_empty_result() -> None:
    with DuckDuckGoServer(WEB_PAGES) as server:
        server.enqueue(*[duckduckgo_challenge()] * 3)
        provider = DuckDuckGoSearch.from_config(api_config(duckduckgo_base_url=server.base_url))
        waits = recording_retries(provider)
        with pytest.raises(RateLimitError, match="slow down"):
            await provider.search(QUERY, max_results=2)
    assert len(waits.waits) == 2


# -- auto ---------------------------------------------------------------------------------
def test_auto_stays_offline_unless_a_web_search_is_set_up(tmp_path: object) -> None:
    offline = build_search(api_config(search=["auto"]), {})
    assert offline.name == "demo"
    ddg = build_search(api_config(search=["auto"], auto_duckduckgo=True), {})
    assert ddg.name == "duckduckgo"
    keyed = build_search(
        api_config(search=["auto"], auto_duckduckgo=True, google_engine_id="cx"),
        {"GOOGLE_API_KEY": KEY},
    )
    assert keyed.name == "google"  # a keyed web search replaces the keyless one
    searx = build_search(api_config(search=["auto"], searxng_base_url="http://localhost:8888"), {})
    assert searx.name == "searxng"
