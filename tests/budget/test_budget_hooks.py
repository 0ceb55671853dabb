"""fit_sources: digests and source texts share the analyzer's budget with the listing."""

from __future__ import annotations

import re

from deepresearch.budget import count_tokens
from deepresearch.budget.allocator import TokenBudget
from deepresearch.budget_hooks import fit_sources
from deepresearch.config import Config
from deepresearch.roles import SourceText, TopicDigest
from deepresearch.state import Phase, ResearchState

from .doubles import ExtractiveLLM, make_context


def _digest(n_sources: int) -> tuple[list[SourceText], TopicDigest]:
    views = [
        SourceText(id=f"src-{i}", citation=i, title=f"Guild record number {i} of the city archive")
        for i in range(1, n_sources + 1)
    ]
    lines = [
        f"- Guild {i} of the city kept printed charters from year {1400 + i}. [{i}]"
        for i in range(1, n_sources + 1)
    ]
    topic = TopicDigest(
        sub_query_id="sq-1",
        query="printed guild charters",
        compressed="Findings:\n" + "\n".join(lines),
        source_ids=[v.id for v in views],
    )
    return views, topic


async def test_only_sources_cited_by_kept_lines_are_listed(state: ResearchState) -> None:
    config = Config(model_context_overrides={"offline": 4000}, runtime_overhead=200)
    ctx, _ = make_context(config, ExtractiveLLM())
    ctx.budget = TokenBudget(config)
    views, topic = _digest(80)
    listed, topics = await fit_sources(state, ctx, Phase.ANALYSIS, views, [topic])

    assert topics, "the digest keeps some of its lines"
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", topics[0].compressed)}
    assert cited, "kept lines keep their citations"
    assert {v.citation for v in listed} == cited
    assert len(listed) < len(views)
    # Lines and listing together stay within the analysis budget.
    available = ctx.budget.available("offline", Phase.ANALYSIS.value)
    header = sum(count_tokens(f"[{v.citation}] (ID: {v.id}) {v.title}") for v in listed)
    assert count_tokens(topics[0].compressed) + header <= available


async def test_without_budgeting_everything_is_listed(state: ResearchState) -> None:
    config = Config(token_management_enabled=False)
    ctx, _ = make_context(config, ExtractiveLLM())
    ctx.budget = TokenBudget(config)
    views, topic = _digest(80)
    listed, topics = await fit_sources(state, ctx, Phase.ANALYSIS, views, [topic])
    assert listed == views and topics == [topic]
