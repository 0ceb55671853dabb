"""Where phases meet the token budget: map prompt material to budget items and back."""

from __future__ import annotations

import re

from deepresearch.budget.allocator import BudgetItem
from deepresearch.budget.tokens import count_tokens
from deepresearch.context import RunContext
from deepresearch.roles import FindingBrief, SourceText, TopicDigest
from deepresearch.state import AgentRole, Phase, ResearchState
from deepresearch.text import containment, term_set

QUALITY_SCORE = {"high": 1.0, "medium": 0.6, "low": 0.3, "unknown": 0.5}
CONFIDENCE_SCORE = {"confirmed": 1.0, "high": 0.9, "medium": 0.6, "low": 0.3, "speculation": 0.1}
# Fixed prompt text around the material: system prompt, headings, question, brief.
PROMPT_FRAME_TOKENS = 600
SNIPPET_CHARS = 120
# At most this share of the analysis budget lists sources whose text is in a digest.
LISTING_SHARE = 0.3
_CITATION = re.compile(r"\[(\d+)\]")


def _enabled(ctx: RunContext) -> bool:
    return ctx.budget is not None and ctx.config.tokens.token_management_enabled


def _relevance(question: str, text: str) -> float:
    return containment(term_set(question), term_set(text))


def _spec(ctx: RunContext, role: AgentRole) -> str:
    """The model the role will try first: its context window is the one to fit."""
    return ctx.models.specs(role)[0]


def _header(v: SourceText) -> str:
    """How a source is listed in a prompt (its URL and snippet only when it brings text)."""
    line = f"[{v.citation}] (ID: {v.id}) {v.title}"
    return line + (f" URL: {v.url} {v.snippet}" if v.text else "")


def _cited(text: str) -> set[int]:
    return {int(n) for n in _CITATION.findall(text)}


async def fit_sources(
    state: ResearchState,
    ctx: RunContext,
    phase: Phase,
    views: list[SourceText],
    topics: list[TopicDigest],
) -> tuple[list[SourceText], list[TopicDigest]]:
    """Fit topic digests and source texts to the analyzer's budget.

    A source whose content arrives inside a topic digest is listed only when a kept line
    of the digest cites it: listing all of them would spend the budget on titles
    (60 sources ≈ 1,200 tokens) and leave the digests nothing."""
    if not _enabled(ctx) or ctx.budget is None:
        return views, topics
    spec = _spec(ctx, AgentRole.ANALYZER)
    available = ctx.budget.available(spec, phase.value)
    items = _source_items(state.question, views, topics)
    # Snippets are cut short so that the budget goes to the content items.
    views = [
        v.model_copy(update={"snippet": v.snippet[:SNIPPET_CHARS] if v.text else ""}) for v in views
    ]
    own_text = sum(count_tokens(_header(v), spec) for v in views if v.text)
    digested = sum(count_tokens(_header(v), spec) for v in views if not v.text)
    reserved = PROMPT_FRAME_TOKENS + own_text + min(digested, int(available * LISTING_SHARE))
    fitted = await ctx.budget.fit(
        state, ctx, phase=phase.value, model_spec=spec, items=items, reserved_tokens=reserved
    )
    by_id = {f.id: f.text for f in fitted}
    kept_topics = [
        t.model_copy(update={"compressed": by_id[t.sub_query_id]})
        for t in topics
        if t.sub_query_id in by_id
    ]
    kept_views = [
        v.model_copy(update={"text": by_id[v.id]}) for v in views if v.text and v.id in by_id
    ]
    room = available - PROMPT_FRAME_TOKENS - own_text
    room -= sum(count_tokens(v.text, spec) for v in kept_views)
    kept_topics = _fit_listing(kept_topics, [v for v in views if not v.text], spec, room=room)
    return _listed(views, kept_views, kept_topics), kept_topics


def _source_items(
    question: str, views: list[SourceText], topics: list[TopicDigest]
) -> list[BudgetItem]:
    """Budget items for the topic digests and the sources that bring their own text."""
    return [
        BudgetItem(
            id=t.sub_query_id,
            item_type="topic",
            text=t.compressed,
            relevance=max(0.8, _relevance(question, t.compressed)),
            quality=0.8,
        )
        for t in topics
    ] + [
        BudgetItem(
            id=v.id,
            item_type="source",
            text=v.text,
            relevance=_relevance(question, v.title + " " + v.text),
            quality=QUALITY_SCORE.get(v.quality, 0.5),
        )
        for v in views
        if v.text
    ]


def _listed(
    views: list[SourceText], kept_views: list[SourceText], kept_topics: list[TopicDigest]
) -> list[SourceText]:
    """The sources the prompt lists, in their order: those whose fitted text was kept (a
    dropped source keeps no text and is left out), and digested ones a kept line cites."""
    kept = {v.id: v for v in kept_views}
    cited = set().union(*(_cited(t.compressed) for t in kept_topics)) if kept_topics else set()
    return [
        kept.get(v.id, v) for v in views if v.id in kept or (not v.text and v.citation in cited)
    ]


def _fit_listing(
    topics: list[TopicDigest], digested: list[SourceText], spec: str, *, room: int
) -> list[TopicDigest]:
    """Digest lines plus the listing of the sources they cite must fit ``room``: while
    they do not, drop the last line of the longest digest (condensed lines come in
    order of position, so the last is the least central)."""
    header = {v.citation: count_tokens(_header(v), spec) for v in digested}
    lines = {t.sub_query_id: t.compressed.splitlines() for t in topics}

    def cost() -> int:
        text = "\n".join(ln for ls in lines.values() for ln in ls)
        return count_tokens(text, spec) + sum(header.get(n, 0) for n in _cited(text))

    while cost() > room and any(lines.values()):
        longest = max(lines, key=lambda k: len(lines[k]))
        lines[longest].pop()
    return [
        t.model_copy(update={"compressed": "\n".join(lines[t.sub_query_id])})
        for t in topics
        if lines[t.sub_query_id]
    ]


async def fit_findings(
    state: ResearchState, ctx: RunContext, phase: Phase, findings: list[FindingBrief]
) -> list[FindingBrief]:
    """``findings`` fitted to the budget of ``phase``'s prompt (condensed or dropped, lowest
    priority first); unchanged when token management is off.

    Args:
        state: the run's state (allocations are recorded on it).
        ctx: the run's context (its budget).
        phase: the phase whose prompt they go into.
        findings: the findings, as the prompt shows them.
    """
    if not _enabled(ctx) or ctx.budget is None:
        return findings
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
        state,
        ctx,
        phase=phase.value,
        model_spec=_spec(ctx, AgentRole.SYNTHESIZER),
        items=items,
        reserved_tokens=reserved,
    )
    by_id = {f.id: f.text for f in fitted}
    return [f.model_copy(update={"content": by_id[f.id]}) for f in findings if f.id in by_id]
