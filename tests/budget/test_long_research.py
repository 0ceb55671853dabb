"""End to end: 60 long sources through a model with an 8k context window. The session
completes, no prompt ever exceeds the window, and the report states its fidelity."""

from __future__ import annotations

import re
from pathlib import Path

import deepresearch as dr
from deepresearch.budget import ContentArchive, count_tokens
from deepresearch.config import Config
from deepresearch.providers.base import LLMRequest, SearchHit
from deepresearch.testing import FunctionLLM

CONTEXT = 8000
QUESTION = "How did the printing press change Europe?"
ASPECTS = ("literacy", "religion", "science", "trade", "politics", "language")


ASPECT_WORDS = {
    "literacy": ("schoolmasters", "primers", "readers", "alphabet"),
    "religion": ("preachers", "bibles", "congregations", "sermons"),
    "science": ("astronomers", "tables", "experiments", "diagrams"),
    "trade": ("merchants", "ledgers", "markets", "contracts"),
    "politics": ("princes", "edicts", "councils", "propaganda"),
    "language": ("grammarians", "dictionaries", "dialects", "spelling"),
}


def long_document(i: int, words: int = 3000) -> SearchHit:
    """A distinct ~3,000-word document about the question, with its own facts."""
    aspect = ASPECTS[i % len(ASPECTS)]
    who, what, where, topic = ASPECT_WORDS[aspect]
    sentences: list[str] = []
    n = 0
    while sum(len(s.split()) for s in sentences) < words:
        year = 1450 + (i * 7 + n) % 150
        sentences.append(
            (
                f"In {year} {who} in city {n % 13} bought {100 + 7 * n + i} printed {what}.",
                f"Record {i}.{n}: the press changed {aspect} in Europe as {where} adopted {topic}.",
                f"Workshop {i * 97 + n} sold {what} to {where} within {2 + n % 9} years.",
            )[n % 3]
        )
        n += 1
    return SearchHit(
        url=f"https://example.org/press/{i}",
        title=f"Printing press and {aspect} in Europe, study {i}",
        snippet=sentences[0],
        content=" ".join(sentences),
        domain=f"site{i % 7}.example.org",
    )


class SixtyDocuments:
    """Hands out each of 60 long documents once, a page at a time, whatever the query."""

    name = "test:sixty"

    def __init__(self) -> None:
        self.documents = [long_document(i) for i in range(60)]
        self.cursor = 0

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        page = self.documents[self.cursor : self.cursor + max_results]
        self.cursor += len(page)
        return [d.model_copy() for d in page]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        wanted = set(urls)
        return [d.model_copy() for d in self.documents if d.url in wanted]


async def test_sixty_long_sources_fit_an_8k_model(tmp_path: Path) -> None:
    sizes: list[int] = []
    llm_name = "test:function"

    def within_window(request: LLMRequest) -> None:
        tokens = count_tokens(request.system, llm_name) + count_tokens(request.user, llm_name)
        sizes.append(tokens)
        assert tokens <= CONTEXT, f"{request.role} prompt of {tokens} tokens exceeds {CONTEXT}"

    llm = FunctionLLM(name=llm_name, check=within_window)
    search = SixtyDocuments()
    config = Config(
        llm=llm_name,
        model_context_overrides={"offline": CONTEXT, llm_name: CONTEXT},
        runtime_overhead=500,
        max_iterations=1,
        max_sub_queries=6,
        max_sources_per_query=20,
        plan_scout_results=0,
        enable_clarification=False,
        persist=False,
        research_archive_dir=tmp_path / "archive",
        content_archive_enabled=True,
    )
    session = dr.Session(QUESTION, llm=llm, search=search, config=config, store=None)
    await session.run()

    state = session.state
    assert state.status.value == "completed", state.error
    assert len(state.sources) == 60
    long_sources = [s for s in state.sources if count_tokens(s.raw_content or s.content) > 3000]
    assert len(long_sources) == 60
    assert sizes and len(sizes) == len(llm.requests)
    assert max(sizes) <= CONTEXT

    # Budgeting really happened: content was degraded and recorded.
    assert state.allocations
    assert any(a.items_summarized or a.items_dropped for a in state.allocations)
    degraded = [f for f in state.content_fidelity.values() if f.level != "full"]
    assert degraded
    # Heavily compressed originals went to the archive and can be restored.
    archive = ContentArchive(config.resolved_archive_dir(), config.content_archive_ttl_hours)
    assert all(archive.restore(state, f.item_id) for f in degraded if f.level != "condensed")

    # Budgeting left analysis room for the digests: findings from many aspects, each
    # resting on gathered sources.
    assert len(state.findings) >= 3
    ids = {s.id for s in state.sources}
    assert all(f.source_ids and set(f.source_ids) <= ids for f in state.findings)
    covered = {a for a in ASPECTS for f in state.findings if a in f.content}
    assert len(covered) >= 4, covered

    report = session.report
    assert report is not None
    assert report.fidelity is not None and 0 < report.fidelity < 1
    stated = re.search(r"fidelity:?\s*\**\s*([01]\.\d\d)\s*\((\w+)\)", report.markdown, re.I)
    assert stated, "the report states its fidelity"
    assert float(stated.group(1)) == report.fidelity
    assert stated.group(2) == report.fidelity_level
