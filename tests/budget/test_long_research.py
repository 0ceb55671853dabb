"""End to end: 60 long sources through a model with an 8k context window. The session
completes, no prompt ever exceeds the window, and the report states its fidelity."""

from __future__ import annotations

import re
from pathlib import Path

import deepresearch as dr
from deepresearch.budget import ContentArchive, count_tokens
from deepresearch.config import Config
from deepresearch.providers.base import LLMRequest
from deepresearch.testing import FunctionLLM
from deepresearch.testing.long_documents import ASPECTS, PagedSearch

CONTEXT = 8000
QUESTION = "How did the printing press change Europe?"


async def test_sixty_long_sources_fit_an_8k_model(tmp_path: Path) -> None:
    sizes: list[int] = []
    llm_name = "test:function"

    def within_window(request: LLMRequest) -> None:
        tokens = count_tokens(request.system, llm_name) + count_tokens(request.user, llm_name)
        sizes.append(tokens)
        assert tokens <= CONTEXT, f"{request.role} prompt of {tokens} tokens exceeds {CONTEXT}"

    llm = FunctionLLM(name=llm_name, check=within_window)
    search = PagedSearch(60)
    config = Config(
        llm=llm_name,
        model_context_overrides={"offline": CONTEXT, llm_name: CONTEXT},
        runtime_overhead=500,
        max_iterations=1,
        max_sub_queries=6,
        max_sources_per_query=30,  # the plan has two sub-queries: 60 sources
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
