"""Direct page extraction: httpx + trafilatura under the URL policy, robots.txt, content
types, size limits and redirects, against a loopback site."""

from __future__ import annotations

import pytest

from deepresearch.errors import PageFetchError, UrlRefused
from deepresearch.providers.openalex import OpenAlexSearch
from deepresearch.providers.semantic_scholar import SemanticScholarSearch
from deepresearch.providers.web_pages import PageFetcher
from deepresearch.testing import static_resolver
from deepresearch.testing.search_servers import (
    PageServer,
    SemanticScholarServer,
    WebReply,
    article_html,
)
from deepresearch.urls import UrlPolicy

from .search_apis import api_config

ARTICLE = article_html(
    "Attention in translation",
    [
        "Attention lets a translation model look back at every source word while it writes "
        "each target word, instead of squeezing the sentence into one vector.",
        "The Transformer keeps only attention and trains far faster than recurrent models.",
    ],
)
HTML = "text/html; charset=utf-8"


def fetcher(**knobs: object) -> PageFetcher:
    return PageFetcher(api_config(allow_private_urls=True, **knobs))


async def test_html_becomes_article_text_without_navigation_or_footer() -> None:
    with PageServer({"/a": (HTML, ARTICLE)}) as site:
        hits = await fetcher().extract([site.url("/a")], provider="openalex")
    assert len(hits) == 1
    hit = hits[0]
    assert hit.url == site.url("/a") and hit.title == "Attention in translation"
    assert "look back at every source word" in hit.content and hit.raw_content == hit.content
    assert "Log in" not in hit.content and "Cookie settings" not in hit.content
    assert hit.provider == "openalex" and hit.metadata["extracted"] is True


async def test_plain_text_is_kept_and_other_content_types_are_refused() -> None:
    pages = {
        "/notes.txt": ("text/plain", "Plain notes about attention."),
        "/data.json": ("application/json", '{"a": 1}'),
        "/image.png": ("image/png", b"\x89PNG"),
    }
    with PageServer(pages) as site:
        pages_fetcher = fetcher()
        hits = await pages_fetcher.extract(
            [site.url(p) for p in ("/notes.txt", "/data.json", "/image.png")], provider="web"
        )
    assert [h.content for h in hits] == ["Plain notes about attention."]
    assert "is not read" in pages_fetcher.skipped[site.url("/image.png")]
    assert "application/json" in pages_fetcher.skipped[site.url("/data.json")]


async def test_robots_txt_is_respected_by_default_and_can_be_turned_off() -> None:
    robots = "User-agent: *\nDisallow: /private/\n"
    pages = {"/private/a": (HTML, ARTICLE), "/public/a": (HTML, ARTICLE)}
    with PageServer(pages, robots=robots) as site:
        polite = fetcher()
        hits = await polite.extract([site.url("/private/a"), site.url("/public/a")], provider="web")
        assert [h.url for h in hits] == [site.url("/public/a")]
        assert "robots.txt disallows" in polite.skipped[site.url("/private/a")]
        rude = fetcher(respect_robots_txt=False)
        assert len(await rude.extract([site.url("/private/a")], provider="web")) == 1
    robots_reads = [r for r in site.requests if r.path == "/robots.txt"]
    assert len(robots_reads) == 1  # read once per site and fetcher


async def test_unreachable_robots_txt_disallows_everything() -> None:
    with PageServer({"/a": (HTML, ARTICLE)}) as site:
        site.enqueue(WebReply(503, "down", "text/plain"))
        pages_fetcher = fetcher()
        assert await pages_fetcher.extract([site.url("/a")], provider="web") == []
    assert "robots.txt" in pages_fetcher.skipped[site.url("/a")]


async def test_private_addresses_are_refused_unless_allowed() -> None:
    with PageServer({"/a": (HTML, ARTICLE)}) as site:
        strict = PageFetcher(api_config())
        with pytest.raises(UrlRefused, match="not a public address"):
            await strict.fetch(site.url("/a"))
        assert await strict.extract([site.url("/a")], provider="web") == []
    assert site.requests == []  # nothing was sent, not even robots.txt


async def test_redirects_are_followed_and_each_hop_checked() -> None:
    with PageServer({"/b": (HTML, ARTICLE)}) as site:
        site.enqueue(WebReply(302, "", "text/plain", {"location": "/b"}))
        hit = await fetcher(respect_robots_txt=False).fetch(site.url("/a"))
        assert hit.metadata["final_url"] == site.url("/b") and hit.url == site.url("/a")
        # The site passes the policy (its name "resolves" to a public address here); the
        # metadata address it redirects to must not.
        policy = UrlPolicy(resolver=static_resolver({"localhost": ["93.184.216.34"]}))
        strict = PageFetcher(api_config(respect_robots_txt=False), policy=policy)
        site.enqueue(WebReply(302, "", "text/plain", {"location": "http://169.254.169.254/latest"}))
        page = site.url("/a").replace("127.0.0.1", "localhost")
        with pytest.raises(UrlRefused, match=r"169\.254\.169\.254"):
            await strict.fetch(page)
        assert (await strict.fetch(page.replace("/a", "/b"))).title == "Attention in translation"


async def test_a_redirect_loop_stops() -> None:
    with PageServer({}) as site:
        site.enqueue(*[WebReply(301, "", "text/plain", {"location": "/loop"})] * 8)
        with pytest.raises(PageFetchError, match="redirects"):
            await fetcher(respect_robots_txt=False).fetch(site.url("/loop"))


async def test_pages_are_read_up_to_the_size_limit() -> None:
    long_text = "Attention keeps every word in view. " * 2000
    with PageServer({"/long.txt": ("text/plain", long_text)}) as site:
        hit = await fetcher(page_max_bytes=1000, respect_robots_txt=False).fetch(
            site.url("/long.txt")
        )
    assert len(hit.content) == 1000 and hit.metadata["truncated"] is True


async def test_http_errors_leave_the_url_out_with_the_reason() -> None:
    with PageServer({}) as site:
        pages_fetcher = fetcher(respect_robots_txt=False)
        assert await pages_fetcher.extract([site.url("/missing")], provider="web") == []
    assert "HTTP 404" in pages_fetcher.skipped[site.url("/missing")]


async def test_search_providers_extract_through_the_page_fetcher() -> None:
    with PageServer({"/a": (HTML, ARTICLE)}) as site:
        provider = OpenAlexSearch.from_config(api_config(allow_private_urls=True), environ={})
        hits = await provider.extract([site.url("/a")])
    assert hits[0].provider == "openalex" and "Transformer" in hits[0].content


async def test_a_papers_open_access_copy_is_read_before_its_landing_page() -> None:
    paywall = article_html("Sign in", ["Sign in or purchase this article to read it."])
    pages = {"/paper": (HTML, paywall), "/copy": (HTML, ARTICLE)}
    with PageServer(pages) as site:
        papers = [
            {
                "title": "Attention in translation",
                "url": site.url("/paper"),
                "pdf": site.url("/copy"),
                "abstract": "attention",
            }
        ]
        with SemanticScholarServer(papers) as s2:
            provider = SemanticScholarSearch.from_config(
                api_config(semantic_scholar_base_url=s2.base_url, allow_private_urls=True),
                environ={},
            )
            found = await provider.search("attention", max_results=1)
            hits = await provider.extract([found[0].url])
            site.pages.pop("/copy")  # the copy is gone: the landing page is read instead
            provider.pages.open_copies[found[0].url] = site.url("/copy")
            fallback = await provider.extract([found[0].url])
    assert hits[0].url == site.url("/paper") and "look back at every source word" in hits[0].content
    assert hits[0].metadata["open_access_copy"] == site.url("/copy")
    assert "Sign in" in fallback[0].title and "open_access_copy" not in fallback[0].metadata
