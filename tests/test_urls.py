"""The URL policy: scheme, provenance and host checks, and its use in topic research."""

from __future__ import annotations

import pytest

from deepresearch.errors import UrlRefused
from deepresearch.phases.topic import research_topic
from deepresearch.state import Phase, ReflectionDecision, ResearchState
from deepresearch.testing import FunctionLLM, RecordingEvents, static_resolver
from deepresearch.urls import UrlPolicy, session_urls
from tests.phases.topic_doubles import ScriptSearch, doc, make_context, new_state, reflect_with

POLICY = UrlPolicy(
    resolver=static_resolver(
        {
            "intranet.example": ["10.0.0.7"],
            "metadata.example": ["169.254.169.254"],
            "mixed.example": ["93.184.216.34", "192.168.1.1"],
            "v6.example": ["2606:2800:220:1:248:1893:25c8:1946"],
        },
        default=None,
    )
)

REFUSED = [
    "http://127.0.0.1:8080/admin",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[fe80::1%25eth0]/",
    "http://[fd00:ec2::254]/",
    "http://0.0.0.0/",
    "http://10.1.2.3/",
    "http://100.64.0.1/",
    "http://localhost/",
    "http://intranet.example/wiki",
    "http://metadata.example/",
    "http://mixed.example/",
    "http://unknown-host.example/",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "ftp://93.184.216.34/x",
    "http:///nohost",
]


@pytest.mark.parametrize("url", REFUSED)
async def test_private_local_unresolvable_and_non_http_urls_are_refused(url: str) -> None:
    with pytest.raises(UrlRefused) as info:
        await POLICY.check(url, known_urls={url})
    assert info.value.url == url and info.value.reason


@pytest.mark.parametrize(
    "url",
    [
        "https://93.184.216.34/page",
        "http://[2606:2800:220:1:248:1893:25c8:1946]:8080/a",
        "https://v6.example/x",
        "/home/me/corpus/notes.md",  # a local corpus document a corpus search returned
    ],
)
async def test_public_and_local_corpus_urls_pass(url: str) -> None:
    assert await POLICY.check(f" {url} ", known_urls={url}) == url


async def test_a_url_no_search_returned_is_refused_even_if_public() -> None:
    with pytest.raises(UrlRefused, match="no search in this session returned it"):
        await POLICY.check("https://93.184.216.34/", known_urls={"https://93.184.216.34/other"})


async def test_allow_private_lets_private_hosts_through_but_not_other_schemes() -> None:
    policy = UrlPolicy(allow_private=True, resolver=static_resolver(default=None))
    for url in ("http://127.0.0.1:8080/admin", "http://intranet.example/", "http://[::1]/"):
        assert await policy.check(url, known_urls={url}) == url
    with pytest.raises(UrlRefused):
        await policy.check("file:///etc/passwd", known_urls={"file:///etc/passwd"})


async def test_session_urls_are_search_results_plus_urls_in_the_question() -> None:
    state = ResearchState(question="Summarise https://example.org/paper.pdf, please.")
    state.new_source(url="https://example.org/found", title="t", content="c")
    assert session_urls(state) == {"https://example.org/paper.pdf", "https://example.org/found"}


async def test_the_passages_around_a_gathered_passage_may_be_extracted() -> None:
    state = ResearchState(question="q")
    state.new_source(url="/docs/a.md#L5-9", content="c", around=["/docs/a.md#L1-3"])
    assert session_urls(state) == {"/docs/a.md#L5-9", "/docs/a.md#L1-3"}
    policy = UrlPolicy()
    assert await policy.check("/docs/a.md#L1-3", known_urls=session_urls(state))


async def test_allowed_filters_and_records_every_refusal() -> None:
    events = RecordingEvents()
    state = ResearchState(question="q")
    known = {"https://93.184.216.34/a", "http://127.0.0.1/"}
    urls = ["https://93.184.216.34/a", "http://127.0.0.1/", "https://evil.example/x"]
    passed = await POLICY.allowed(urls, known_urls=known, events=events, state=state, scope="sq1")
    assert passed == ["https://93.184.216.34/a"]
    refused = events.kinds("url_refused")
    assert [e["url"] for e in refused] == urls[1:]
    assert all(e["scope"] == "sq1" and e["reason"] for e in refused)


async def test_topic_research_never_extracts_urls_the_policy_refuses() -> None:
    """Model-chosen URLs: one a search returned (extracted), a loopback one a search also
    returned, the metadata address and one no search returned (all refused, with events)."""
    hits = [
        doc(1, "The printing press spread across Europe quickly after 1450."),
        {"url": "http://127.0.0.1:9/secret", "title": "Local", "content": "internal page"},
    ]
    wanted = [
        "https://example.org/1",
        "http://127.0.0.1:9/secret",
        "http://169.254.169.254/latest/meta-data/",
        "https://example.org/never-returned",
    ]
    search = ScriptSearch([hits], pages=[doc(1, "Full text of the page.")])

    def decide(inputs: object, n: int) -> ReflectionDecision:
        return ReflectionDecision(research_complete=True, urls_to_extract=wanted)

    ctx, events = make_context(
        FunctionLLM(reflect_with(decide)), search, extract_max_per_iteration=4
    )
    state, (sq,) = new_state("printing press Europe")
    await research_topic(state, ctx, sq, Phase.GATHERING)
    assert search.extracted == [["https://example.org/1"]]
    assert [e["url"] for e in events.kinds("url_refused")] == wanted[1:]
    assert "http://169.254.169.254/latest/meta-data/" not in state.seen_urls()
