"""Whole offline-LLM research sessions over each search API's loopback server, and a
merged session over two scholarly APIs and a local folder."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

import deepresearch as dr
from deepresearch.state import RunStatus
from deepresearch.testing.search_servers import (
    ArxivServer,
    CrossrefServer,
    DuckDuckGoServer,
    GoogleServer,
    LoopbackWebServer,
    OpenAlexServer,
    PageServer,
    SearxngServer,
    SemanticScholarServer,
    article_html,
)

from .search_apis import KEY, NOTES, PAPERS, WEB_PAGES

QUESTION = "How did attention change machine translation and language models?"
SCHOLARLY: dict[str, tuple[Callable[..., LoopbackWebServer], str]] = {
    "semantic_scholar": (SemanticScholarServer, "semantic_scholar_base_url"),
    "openalex": (OpenAlexServer, "openalex_base_url"),
    "crossref": (CrossrefServer, "crossref_base_url"),
    "arxiv": (ArxivServer, "arxiv_base_url"),
}
WEB: dict[str, tuple[Callable[..., LoopbackWebServer], str]] = {
    "google": (GoogleServer, "google_base_url"),
    "searxng": (SearxngServer, "searxng_base_url"),
    "duckduckgo": (DuckDuckGoServer, "duckduckgo_base_url"),
}


def session_config(tmp_path: Path, **knobs: Any) -> dr.Config:
    return dr.Config.build(
        {
            "llm": "offline",
            "max_iterations": 1,
            "store_path": str(tmp_path / "sessions.db"),
            "provider_requests_per_minute": 60_000,
            "retry_base_delay_s": 0.0,
            "operation_timeout_s": 20,
            # Results link to the real sites: no extract, so nothing leaves this machine.
            "enable_extract": False,
            **knobs,
        }
    )


def assert_cited_report(session: dr.Session, provider: str) -> None:
    assert session.state.status == RunStatus.COMPLETED
    report = session.report
    assert report is not None
    numbers = {int(n) for n in re.findall(r"\[(\d+)\]", report.markdown)}
    assert numbers and numbers <= {s.citation for s in session.state.sources}
    assert {s.provider for s in session.state.sources} == {provider}


@pytest.mark.parametrize("name", sorted(SCHOLARLY))
def test_a_session_over_each_scholarly_api(name: str, tmp_path: Path) -> None:
    server_class, knob = SCHOLARLY[name]
    with server_class(PAPERS) as server:
        config = session_config(tmp_path, search=[name], **{knob: server.base_url})
        session = dr.Session(QUESTION, config=config)
        session.run_sync()
    assert_cited_report(session, name)
    sources = session.sources
    for column in ("authors", "year", "venue", "doi", "citation_count", "open_access_url"):
        assert column in sources.columns
    cited = [s for s in session.state.sources if s.id in session.report.cited_source_ids]
    assert cited and all(s.year and s.authors and s.doi for s in cited)
    assert sources["doi"].notna().all()
    assert len(server.requests) >= 2  # the scout search and the sub-queries went through it


@pytest.mark.parametrize("name", sorted(WEB))
def test_a_session_over_each_web_search(name: str, tmp_path: Path) -> None:
    server_class, knob = WEB[name]
    with server_class(WEB_PAGES) as server:
        config = session_config(
            tmp_path, search=[name], google_engine_id="engine-1", **{knob: server.base_url}
        )
        session = dr.Session(QUESTION, config=config)
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("GOOGLE_API_KEY", KEY)
            session.run_sync()
    assert_cited_report(session, name)
    assert "doi" not in session.sources.columns  # no bibliographic data: no empty columns
    assert len(server.requests) >= 2


@contextmanager
def serving(*servers: LoopbackWebServer) -> Iterator[None]:
    with ExitStack() as stack:
        for server in servers:
            stack.enter_context(server)
        yield


def test_merged_session_over_two_scholarly_apis_and_a_folder(tmp_path: Path) -> None:
    openalex = OpenAlexServer(PAPERS[:6])
    s2 = SemanticScholarServer(PAPERS[2:])
    with serving(openalex, s2):
        config = session_config(
            tmp_path,
            search=["openalex", "semantic_scholar", "corpus"],
            search_mode="merge",
            corpus=str(NOTES),
            openalex_base_url=openalex.base_url,
            semantic_scholar_base_url=s2.base_url,
        )
        session = dr.Session(QUESTION, config=config)
        session.run_sync()
    assert session.state.status == RunStatus.COMPLETED and session.report is not None
    sources = session.state.sources
    assert {s.provider for s in sources} == {"openalex", "semantic_scholar", "corpus"}
    dois = [s.doi for s in sources if s.doi]
    assert len(dois) == len(set(dois))  # papers both APIs returned appear once
    local = [s for s in sources if s.provider == "corpus"]
    assert local and all(s.doi is None and not s.authors for s in local)
    frame = session.sources
    assert set(frame["provider"]) == {"openalex", "semantic_scholar", "corpus"}
    assert frame.loc[frame["provider"] == "corpus", "doi"].isna().all()


def test_session_extracts_pages_a_search_returned(tmp_path: Path) -> None:
    """SearxNG results on a loopback site, read in full through the page fetcher."""
    paragraphs = [
        "Attention lets a machine translation model consult every source word for each "
        "target word it writes, which removed the fixed-length bottleneck of "
        "encoder-decoder models and improved translation of long sentences.",
        "The Transformer language model relies on self-attention alone and trains faster.",
    ]
    site = PageServer(
        {"/attention": ("text/html", article_html("Attention explained", paragraphs))}
    )
    with site:
        documents = [
            {
                "url": site.url("/attention"),
                "title": "Attention in machine translation",
                "content": "Attention changed machine translation.",
            }
        ]
        searx = SearxngServer(documents)
        with searx:
            config = session_config(
                tmp_path,
                search=["searxng"],
                searxng_base_url=searx.base_url,
                enable_extract=True,
                allow_private_urls=True,  # the loopback site is a private address
            )
            session = dr.Session(QUESTION, config=config)
            session.run_sync()
    assert session.state.status == RunStatus.COMPLETED
    page_reads = [r for r in site.requests if r.path == "/attention"]
    assert page_reads, "the page was never extracted"
    source = next(s for s in session.state.sources if s.url == site.url("/attention"))
    assert "fixed-length bottleneck" in (source.raw_content or source.content)
    extracts = [
        e.payload
        for e in session.store.events(session.state.id)
        if e.kind == "search_call" and e.payload["kind"] == "extract"
    ]
    assert extracts and all(e["not_extracted"] == [] for e in extracts)


def test_pages_robots_txt_forbids_stay_unread_and_are_on_record(tmp_path: Path) -> None:
    page = article_html("Attention explained", ["Attention lets a model consult every word."])
    site = PageServer({"/attention": ("text/html", page)}, robots="User-agent: *\nDisallow: /\n")
    with site:
        documents = [
            {
                "url": site.url("/attention"),
                "title": "Attention in machine translation",
                "content": "Attention changed machine translation. " * 20,
            }
        ]
        with SearxngServer(documents) as searx:
            config = session_config(
                tmp_path,
                search=["searxng"],
                searxng_base_url=searx.base_url,
                enable_extract=True,
                allow_private_urls=True,
            )
            session = dr.Session(QUESTION, config=config)
            session.run_sync()
    assert [r.path for r in site.requests if r.path != "/robots.txt"] == []
    extracts = [
        e.payload
        for e in session.store.events(session.state.id)
        if e.kind == "search_call" and e.payload["kind"] == "extract"
    ]
    assert extracts and extracts[0]["not_extracted"] == [site.url("/attention")]


def test_a_provider_failing_in_a_merged_session_is_on_record(tmp_path: Path) -> None:
    from deepresearch.testing.search_servers import openalex_error

    openalex = OpenAlexServer(PAPERS)
    s2 = SemanticScholarServer(PAPERS)
    with serving(openalex, s2):
        openalex.enqueue(*[openalex_error(401, "Unauthorized", "Invalid API key")] * 50)
        config = session_config(
            tmp_path,
            search=["openalex", "semantic_scholar"],
            search_mode="merge",
            openalex_base_url=openalex.base_url,
            semantic_scholar_base_url=s2.base_url,
        )
        session = dr.Session(QUESTION, config=config)
        session.run_sync()
    assert session.state.status == RunStatus.COMPLETED
    assert {s.provider for s in session.state.sources} == {"semantic_scholar"}
    events = session.store.events(session.state.id)
    calls = [e.payload for e in events if e.kind == "search_call"]
    assert calls and all("openalex" in c["provider_failures"] for c in calls)
    assert len(openalex.requests) == 1  # refused once: not asked again this run


def test_cli_merges_two_scholarly_apis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from deepresearch.cli.main import main

    with serving(openalex := OpenAlexServer(PAPERS), s2 := SemanticScholarServer(PAPERS)):
        monkeypatch.setenv("DEEPRESEARCH_OPENALEX_BASE_URL", openalex.base_url)
        monkeypatch.setenv("DEEPRESEARCH_SEMANTIC_SCHOLAR_BASE_URL", s2.base_url)
        monkeypatch.setenv("DEEPRESEARCH_ENABLE_EXTRACT", "false")
        out = tmp_path / "report.md"
        code = main(
            [QUESTION, "--llm", "offline", "--search", "openalex,semantic_scholar",
             "--search-mode", "merge", "--max-iterations", "1",
             "--store", str(tmp_path / "s.db"), "--out", str(out)]
        )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert "doi.org/10.48550/arxiv.1706.03762" in out.read_text()
    assert openalex.requests and s2.requests
