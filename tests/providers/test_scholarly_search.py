"""Semantic Scholar, OpenAlex, Crossref and arXiv through the real provider code against
loopback servers answering in each API's documented shape, errors included."""

from __future__ import annotations

import pytest

from deepresearch.errors import ProviderError, ProviderUnavailableError, RateLimitError
from deepresearch.providers.arxiv import ArxivSearch
from deepresearch.providers.crossref import CrossrefSearch
from deepresearch.providers.openalex import OpenAlexSearch, abstract_from_index
from deepresearch.providers.semantic_scholar import SemanticScholarSearch
from deepresearch.testing.search_servers import (
    ArxivServer,
    CrossrefServer,
    OpenAlexServer,
    SemanticScholarServer,
    WebReply,
    arxiv_error,
    crossref_error,
    openalex_error,
    semantic_scholar_error,
)

from .search_apis import KEY, PAPERS, api_config, recording_retries

QUERY = "attention machine translation"


def paper(title_start: str) -> dict[str, object]:
    return next(p for p in PAPERS if str(p["title"]).startswith(title_start))


# -- Semantic Scholar ---------------------------------------------------------------------
async def test_semantic_scholar_maps_every_bibliographic_field() -> None:
    with SemanticScholarServer(PAPERS) as server:
        provider = SemanticScholarSearch.from_config(
            api_config(semantic_scholar_base_url=server.base_url), environ={}
        )
        hits = await provider.search(QUERY, max_results=3)
    assert len(hits) == 3
    first, expected = hits[0], paper("Attention Is All")
    assert first.title == expected["title"]
    assert first.authors == expected["authors"]
    assert (first.year, first.venue, first.citation_count) == (2017, expected["venue"], 100000)
    assert first.doi == "10.48550/arxiv.1706.03762"  # bare and lower-case
    assert first.open_access_url == expected["pdf"]
    assert first.content.startswith("The Transformer") and first.provider == "semantic_scholar"
    request = server.requests[0]
    assert request.path == "/graph/v1/paper/search"
    assert request.query["query"] == QUERY and request.query["limit"] == "3"
    assert "externalIds" in request.query["fields"] and "x-api-key" not in request.headers


async def test_semantic_scholar_sends_the_key_and_never_shows_it() -> None:
    with SemanticScholarServer(PAPERS) as server:
        server.enqueue(semantic_scholar_error(403, f"Forbidden for key {KEY}"))
        provider = SemanticScholarSearch.from_config(
            api_config(semantic_scholar_base_url=server.base_url),
            environ={"SEMANTIC_SCHOLAR_API_KEY": KEY},
        )
        with pytest.raises(ProviderUnavailableError) as refused:
            await provider.search(QUERY, max_results=2)
    assert server.requests[0].headers["x-api-key"] == KEY
    assert KEY not in str(refused.value) and KEY not in repr(provider)
    assert "SEMANTIC_SCHOLAR_API_KEY" in str(refused.value)


async def test_semantic_scholar_rate_limit_waits_as_told_then_answers() -> None:
    with SemanticScholarServer(PAPERS) as server:
        server.enqueue(
            semantic_scholar_error(
                429, "Too Many Requests. Please wait and try again.", **{"retry-after": "2"}
            )
        )
        provider = SemanticScholarSearch.from_config(
            api_config(semantic_scholar_base_url=server.base_url), environ={}
        )
        waits = recording_retries(provider)
        hits = await provider.search(QUERY, max_results=2)
    assert waits.waits == [2.0] and len(hits) == 2 and len(server.requests) == 2


async def test_semantic_scholar_bad_request_is_not_retried() -> None:
    with SemanticScholarServer(PAPERS) as server:
        server.enqueue(semantic_scholar_error(400, "Unrecognized or unsupported fields: [foo]"))
        provider = SemanticScholarSearch.from_config(
            api_config(semantic_scholar_base_url=server.base_url), environ={}
        )
        with pytest.raises(ProviderError, match="Unrecognized or unsupported fields") as error:
            await provider.search(QUERY, max_results=2)
    assert not error.value.retryable and len(server.requests) == 1


async def test_server_errors_are_retried_then_reported() -> None:
    with SemanticScholarServer(PAPERS) as server:
        server.enqueue(*[WebReply(502, "<html>Bad Gateway</html>", "text/html")] * 3)
        provider = SemanticScholarSearch.from_config(
            api_config(semantic_scholar_base_url=server.base_url), environ={}
        )
        waits = recording_retries(provider)
        with pytest.raises(ProviderError, match="HTTP 502") as error:
            await provider.search(QUERY, max_results=2)
    assert len(waits.waits) == 2 and len(server.requests) == 3
    assert "gave up after 2 retries" in "".join(getattr(error.value, "__notes__", []))


async def test_a_malformed_answer_is_a_clear_error() -> None:
    with SemanticScholarServer(PAPERS) as server:
        server.enqueue(WebReply(200, {"data": "not a list"}), WebReply(200, "<html>", "text/html"))
        provider = SemanticScholarSearch.from_config(
            api_config(semantic_scholar_base_url=server.base_url), environ={}
        )
        with pytest.raises(ProviderError, match="'data' should be a list"):
            await provider.search(QUERY, max_results=2)
        with pytest.raises(ProviderError, match="not JSON"):
            await provider.search(QUERY, max_results=2)


# -- OpenAlex -----------------------------------------------------------------------------
async def test_openalex_rebuilds_abstracts_and_sends_polite_pool_email_and_key() -> None:
    with OpenAlexServer(PAPERS) as server:
        provider = OpenAlexSearch.from_config(
            api_config(openalex_base_url=server.base_url, polite_pool_email="me@example.org"),
            environ={"OPENALEX_API_KEY": KEY},
        )
        hits = await provider.search(QUERY, max_results=2)
    request = server.requests[0]
    assert request.path == "/works" and request.query["search"] == QUERY
    assert request.query["per-page"] == "2" and request.query["mailto"] == "me@example.org"
    assert request.query["api_key"] == KEY and "me@example.org" in request.headers["user-agent"]
    first = hits[0]
    assert first.content == paper("Attention Is All")["abstract"]
    assert first.url == "https://doi.org/10.48550/arxiv.1706.03762"
    assert (first.year, first.citation_count, first.provider) == (2017, 100000, "openalex")
    assert first.venue == "Advances in Neural Information Processing Systems"
    assert first.open_access_url == "https://arxiv.org/pdf/1706.03762" and len(first.authors) == 8


def test_openalex_abstract_index_is_put_back_in_word_order() -> None:
    assert abstract_from_index({"b": [1, 3], "a": [0], "c": [2]}) == "a b c b"
    assert abstract_from_index(None) == ""


async def test_openalex_403_is_its_rate_limit_and_429_too() -> None:
    with OpenAlexServer(PAPERS) as server:
        server.enqueue(
            openalex_error(403, "Forbidden", "Rate limit exceeded"),
            openalex_error(
                429, "Too Many Requests", "Daily limit exceeded", **{"retry-after": "1"}
            ),
        )
        provider = OpenAlexSearch.from_config(
            api_config(openalex_base_url=server.base_url), environ={}
        )
        waits = recording_retries(provider)
        hits = await provider.search(QUERY, max_results=2)
    assert len(hits) == 2 and len(server.requests) == 3 and waits.waits[1] == 1.0


async def test_openalex_rate_limit_that_persists_is_a_rate_limit_error() -> None:
    with OpenAlexServer(PAPERS) as server:
        server.enqueue(*[openalex_error(429, "Too Many Requests", "Daily limit exceeded")] * 3)
        provider = OpenAlexSearch.from_config(
            api_config(openalex_base_url=server.base_url), environ={}
        )
        recording_retries(provider)
        with pytest.raises(RateLimitError, match="Daily limit exceeded"):
            await provider.search(QUERY, max_results=2)


# -- Crossref -----------------------------------------------------------------------------
async def test_crossref_reads_jats_abstracts_dates_and_open_licences() -> None:
    with CrossrefServer(PAPERS) as server:
        provider = CrossrefSearch.from_config(
            api_config(crossref_base_url=server.base_url, polite_pool_email="me@example.org")
        )
        hits = await provider.search("long short-term memory recurrent", max_results=3)
    request = server.requests[0]
    assert request.query["rows"] == "3" and request.query["mailto"] == "me@example.org"
    lstm = next(h for h in hits if h.title == "Long Short-Term Memory")
    assert "<jats" not in lstm.content and lstm.content.startswith("Recurrent networks")
    assert lstm.authors == ["Sepp Hochreiter", "Jurgen Schmidhuber"]
    assert (lstm.year, lstm.venue, lstm.doi) == (
        1997,
        "Neural Computation",
        "10.1162/neco.1997.9.8.1735",
    )
    assert lstm.open_access_url is None  # no Creative Commons licence: not open access
    assert lstm.citation_count == 90000 and lstm.provider == "crossref"


async def test_crossref_validation_failure_message_reaches_the_error() -> None:
    with CrossrefServer(PAPERS) as server:
        server.enqueue(
            crossref_error(400, "rows", "5000", "Integer specified as 5000 but must be <= 1000")
        )
        provider = CrossrefSearch.from_config(api_config(crossref_base_url=server.base_url))
        with pytest.raises(ProviderError, match="must be <= 1000") as error:
            await provider.search(QUERY, max_results=2)
    assert not error.value.retryable


async def test_crossref_plain_text_rate_limit_is_retried() -> None:
    with CrossrefServer(PAPERS) as server:
        server.enqueue(crossref_error(429, "", "", ""))
        provider = CrossrefSearch.from_config(api_config(crossref_base_url=server.base_url))
        waits = recording_retries(provider)
        assert await provider.search(QUERY, max_results=1)
    assert len(waits.waits) == 1


# -- arXiv --------------------------------------------------------------------------------
async def test_arxiv_reads_the_atom_feed() -> None:
    with ArxivServer(PAPERS) as server:
        provider = ArxivSearch.from_config(api_config(arxiv_base_url=server.base_url))
        hits = await provider.search("attention translation", max_results=2)
    request = server.requests[0]
    assert request.path == "/api/query" and request.query["max_results"] == "2"
    assert request.query["search_query"] == "all:attention OR all:translation"
    first = hits[0]
    assert first.title == "Attention Is All You Need" and first.year == 2017
    assert first.authors[0] == "Ashish Vaswani" and first.doi == "10.48550/arxiv.1706.03762"
    assert first.open_access_url == "https://arxiv.org/pdf/1706.03762"
    assert first.venue == "Advances in Neural Information Processing Systems"
    assert first.published == "2017-01-02" and first.provider == "arxiv"


async def test_arxiv_error_feed_is_a_provider_error() -> None:
    with ArxivServer(PAPERS) as server:
        server.enqueue(arxiv_error("max_results must be non-negative"))
        provider = ArxivSearch.from_config(api_config(arxiv_base_url=server.base_url))
        with pytest.raises(ProviderError, match="max_results must be non-negative"):
            await provider.search("attention", max_results=2)


async def test_arxiv_busy_answer_is_retried() -> None:
    with ArxivServer(PAPERS) as server:
        server.enqueue(WebReply(503, "Service Unavailable", "text/plain", {"retry-after": "3"}))
        provider = ArxivSearch.from_config(api_config(arxiv_base_url=server.base_url))
        waits = recording_retries(provider)
        assert await provider.search("attention", max_results=1)
    assert len(waits.waits) == 1


async def test_arxiv_gate_spaces_requests_by_its_documented_rate() -> None:
    from deepresearch.providers.resilience import gate_for

    provider = ArxivSearch.from_config(api_config(provider_requests_per_minute=None))
    limits = provider.api.limits
    assert (limits.max_concurrency, limits.requests_per_minute) == (1, 20)
    gate = gate_for(
        "arxiv|x", api_config(provider_requests_per_minute=None), requests_per_minute=20
    )
    assert gate._interval == pytest.approx(3.0)


async def test_keys_in_query_strings_never_reach_the_httpx_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with OpenAlexServer(PAPERS) as server, caplog.at_level("INFO", logger="httpx"):
        provider = OpenAlexSearch.from_config(
            api_config(openalex_base_url=server.base_url), environ={"OPENALEX_API_KEY": KEY}
        )
        await provider.search(QUERY, max_results=1)
    assert server.requests[0].query["api_key"] == KEY
    assert any("/works" in r.getMessage() for r in caplog.records)
    assert not any(KEY in r.getMessage() for r in caplog.records)
