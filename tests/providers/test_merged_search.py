"""Merged search (reciprocal rank fusion, dedup by DOI / URL / title) and the provider
each result records, in merge and fallback mode."""

from __future__ import annotations

import pytest

from deepresearch.errors import ProviderError, ProviderUnavailableError, SearchError
from deepresearch.providers.base import SearchHit
from deepresearch.providers.fallback import FallbackSearch
from deepresearch.providers.merged import RRF_K, MergedSearch, fuse, normalized_url
from deepresearch.providers.registry import build_search
from deepresearch.testing import StaticSearch

from .search_apis import NOTES, api_config


def hit(url: str, title: str = "", **fields: object) -> SearchHit:
    return SearchHit(url=url, title=title, **fields)  # type: ignore[arg-type]


class Failing:
    def __init__(self, name: str, error: ProviderError) -> None:
        self.name, self.error, self.calls = name, error, 0

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        self.calls += 1
        raise self.error

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        raise self.error


def test_rrf_sums_reciprocal_ranks_across_lists() -> None:
    a = [hit("https://a.org/1", "one"), hit("https://a.org/2", "two")]
    b = [hit("https://a.org/2", "two"), hit("https://b.org/3", "three")]
    merged = fuse([("p", a), ("q", b)])
    assert merged[0].url == "https://a.org/2"  # in both lists
    assert merged[0].score == pytest.approx(round(1 / (RRF_K + 2) + 1 / (RRF_K + 1), 6))
    assert merged[0].metadata["found_by"] == ["p", "q"]
    assert {h.url for h in merged} == {"https://a.org/1", "https://a.org/2", "https://b.org/3"}


def test_same_doi_is_one_document_with_missing_fields_filled() -> None:
    preprint = hit(
        "http://arxiv.org/abs/1706.03762v1",
        "Attention Is All You Need",
        doi="10.48550/arxiv.1706.03762",
        provider="arxiv",
        open_access_url="https://arxiv.org/pdf/1706.03762",
    )
    record = hit(
        "https://doi.org/10.48550/arxiv.1706.03762",
        "Attention is all you need",
        doi="10.48550/ARXIV.1706.03762",
        provider="openalex",
        citation_count=100000,
        venue="NeurIPS",
    )
    merged = fuse([("openalex", [record]), ("arxiv", [preprint])])
    assert len(merged) == 1
    only = merged[0]
    assert only.provider == "openalex" and only.url == record.url  # the best-ranked kept
    assert only.open_access_url == "https://arxiv.org/pdf/1706.03762"  # filled from arXiv
    assert only.citation_count == 100000 and only.metadata["found_by"] == ["openalex", "arxiv"]


def test_same_page_under_different_spellings_of_its_url_is_one_document() -> None:
    assert normalized_url("https://www.Example.org/a/?utm_source=x#top") == normalized_url(
        "http://example.org/a"
    )
    assert normalized_url("https://example.org/a?b=2&a=1") == "example.org/a?a=1&b=2"
    assert normalized_url("notes/reading.md") == "notes/reading.md"
    merged = fuse(
        [
            ("p", [hit("https://www.example.org/a/?utm_source=feed")]),
            ("q", [hit("https://example.org/a")]),
        ]
    )
    assert len(merged) == 1


def test_same_long_title_without_doi_is_one_document_short_titles_are_not() -> None:
    title = "Neural Machine Translation by Jointly Learning to Align and Translate"
    merged = fuse(
        [
            ("p", [hit("https://x.org/1", title)]),
            ("q", [hit("https://y.org/2", title.upper() + ".")]),
        ]
    )
    assert len(merged) == 1
    short = fuse(
        [
            ("p", [hit("https://x.org/1", "Introduction")]),
            ("q", [hit("https://y.org/2", "Introduction")]),
        ]
    )
    assert len(short) == 2


async def test_merged_search_records_the_provider_of_each_result() -> None:
    web = StaticSearch([{"url": "https://w.org/a", "title": "attention pages"}], name="web")
    papers = StaticSearch([{"url": "https://p.org/a", "title": "attention papers"}], name="papers")
    merged = MergedSearch([web, papers])
    hits = await merged.search("attention", max_results=5)
    assert {(h.url, h.provider) for h in hits} == {
        ("https://w.org/a", "web"),
        ("https://p.org/a", "papers"),
    }


async def test_a_failing_provider_is_reported_and_the_rest_still_answer() -> None:
    ok = StaticSearch([{"url": "https://p.org/a", "title": "attention"}], name="papers")
    broken = Failing("openalex", ProviderError("openalex: HTTP 500", retryable=True))
    gone = Failing("google", ProviderUnavailableError("google: the API key was refused"))
    merged = MergedSearch([broken, gone, ok])
    hits = await merged.search("attention", max_results=5)
    assert [h.provider for h in hits] == ["papers"]
    assert set(merged.last_failures) == {"openalex", "google"}
    await merged.search("attention", max_results=5)
    assert (broken.calls, gone.calls) == (2, 1)  # unavailable: not asked again this run
    assert "google" in merged.last_failures


async def test_every_provider_failing_is_a_search_error_naming_each() -> None:
    merged = MergedSearch(
        [Failing("a", ProviderError("a broke")), Failing("b", ProviderError("b broke"))]
    )
    with pytest.raises(SearchError, match=r"a broke.*b broke"):
        await merged.search("q", max_results=3)


async def test_fallback_records_the_provider_that_answered() -> None:
    broken = Failing("openalex", ProviderError("openalex: HTTP 500"))
    ok = StaticSearch([{"url": "https://p.org/a", "title": "attention"}], name="corpus")
    hits = await FallbackSearch([broken, ok]).search("attention", max_results=3)
    assert [h.provider for h in hits] == ["corpus"]


def test_search_mode_chooses_merge_or_fallback() -> None:
    names = ["openalex", "semantic_scholar", "corpus"]
    merged = build_search(api_config(search=names, search_mode="merge", corpus=str(NOTES)), {})
    assert isinstance(merged, MergedSearch)
    assert [p.name for p in merged.providers] == names
    fallback = build_search(api_config(search=names, corpus=str(NOTES)), {})
    assert type(fallback) is FallbackSearch
