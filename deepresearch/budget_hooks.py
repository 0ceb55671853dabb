"""Where phases meet the token budget: map prompt material to budget items and back."""

from __future__ import annotations

from deepresearch.context import RunContext
from deepresearch.budget.tokens import count_tokens
from deepresearch.offline.text import containment, term_set
from deepresearch.roles import FindingBrief, SourceText, TopicDigest
from deepresearch.state import AgentRole, Phase, ResearchState

QUALITY_SCORE = {"high": 1.0, "medium": 0.6, "low": 0.3, "unknown": 0.5}
CONFIDENCE_SCORE = {"confirmed": 1.0, "high": 0.9, "medium": 0.6, "low": 0.3, "speculation": 0.1}
# Fixed prompt text around the material: system prompt, headings, question, brief.
PROMPT_FRAME_TOKENS = 600
SNIPPET_CHARS = 120


def _enabled(ctx: RunContext) -> bool:
    return ctx.budget is not None and ctx.config.token_management_enabled


def _relevance(question: str, text: str) -> float:
    return containment(term_set(question), term_set(text))


def _spec(ctx: RunContext, role: AgentRole) -> str:
    """The model the role will try first: its context window is the one to fit."""
    return ctx.models.specs(role)[0]


async def fit_sources(
    ctx: RunContext,
    state: ResearchState,
    phase: Phase,
    views: list[SourceText],
    topics: list[TopicDigest],
) -> tuple[list[SourceText], list[TopicDigest]]:
    if not _enabled(ctx) or ctx.budget is None:
        return views, topics
    from deepresearch.budget.allocator import BudgetItem

    spec = _spec(ctx, AgentRole.ANALYZER)
    items = [
        BudgetItem(
            id=t.sub_query_id,
            item_type="topic",
            text=t.compressed,
            relevance=max(0.8, _relevance(state.question, t.compressed)),
            quality=0.8,
        )
        for t in topics
    ] + [
        BudgetItem(
            id=v.id,
            item_type="source",
            text=v.text,
            relevance=_relevance(state.question, v.title + " " + v.text),
            quality=QUALITY_SCORE.get(v.quality, 0.5),
        )
        for v in views
        if v.text
    ]
    # Each listed source costs its title and URL; snippets are cut short so that the
    # budget goes to the content items, which compete for it by priority.
    views = [
        v.model_copy(update={"snippet": v.snippet[:SNIPPET_CHARS] if v.text else ""})
        for v in views
    ]
    reserved = PROMPT_FRAME_TOKENS + sum(
        count_tokens(f"[{v.citation}] (ID: {v.id}) {v.title}" + (f" URL: {v.url} {v.snippet}" if v.text else ""), spec)
        for v in views
    )
    fitted = await ctx.budget.fit(
        ctx, state, phase=phase.value, model_spec=spec, items=items, reserved_tokens=reserved
    )
    by_id = {f.id: f.text for f in fitted}
    kept_topics = [
        t.model_copy(update={"compressed": by_id[t.sub_query_id]})
        for t in topics
        if t.sub_query_id in by_id
    ]
    kept_views = []
    for v in views:
        if not v.text:
            kept_views.append(v)
        elif v.id in by_id:
            kept_views.append(v.model_copy(update={"text": by_id[v.id]}))
        # a dropped source keeps no text at all and is left out of the prompt
    return kept_views, kept_topics


async def fit_findings(
    ctx: RunContext, state: ResearchState, phase: Phase, findings: list[FindingBrief]
) -> list[FindingBrief]:
    if not _enabled(ctx) or ctx.budget is None:
        return findings
    from deepresearch.budget.allocator import BudgetItem

    items = [
        BudgetItem(
            id=f.id,
            item_type="finding",
            text=f.content,
            relevance=_relevance(state.question, f.content),
            quality=CONFIDENCE_SCORE.get(f.confidence, 0.5),
            protected=f.confidence == "confirmed",
        )
        for f in findings
    ]
    reserved = PROMPT_FRAME_TOKENS + 20 * len(state.sources) + 10 * len(findings)
    fitted = await ctx.budget.fit(
        ctx, state, phase=phase.value, model_spec=_spec(ctx, AgentRole.SYNTHESIZER), items=items, reserved_tokens=reserved
    )
    by_id = {f.id: f.text for f in fitted}
    return [f.model_copy(update={"content": by_id[f.id]}) for f in findings if f.id in by_id]
