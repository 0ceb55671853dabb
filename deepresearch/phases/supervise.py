"""Supervision: assess coverage after gathering and delegate follow-up research.

One call is one round: coverage → confidence-scored heuristic → think → directives (or
follow-up queries). New work is queued as pending sub-queries, which the workflow sends
back through gathering (parallel researchers, inline compression) before the next round
assesses again with a coverage delta."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

from deepresearch.config import Config
from deepresearch.context import RunContext
from deepresearch.errors import ProviderError
from deepresearch.llm import Fallback, ask
from deepresearch.phases.agents import SUPERVISOR_ASSESS, SUPERVISOR_DELEGATE, SUPERVISOR_THINK
from deepresearch.phases.common import PhaseReport
from deepresearch.roles import (
    CoverageAssessment,
    DelegationOutput,
    DirectiveDraft,
    SourceLinks,
    SupervisionInputs,
    ThinkOutput,
    TopicDigest,
)
from deepresearch.state import (
    Directive,
    NewSubQuery,
    Phase,
    QueryCoverage,
    ResearchState,
    SubQueryStatus,
    SupervisionMessage,
    SupervisionRound,
)
from deepresearch.text import estimate_tokens, sentences

OutT = TypeVar("OutT", bound=BaseModel)


def per_query_coverage(state: ResearchState, min_sources: int) -> list[QueryCoverage]:
    """The coverage of each sub-query that has been researched: its source count,
    quality mix and number of domains.

    Args:
        state: the run's state.
        min_sources: the source count at which a sub-query is sufficiently covered.
    """
    out = []
    for sq in state.sub_queries:
        if sq.status == SubQueryStatus.PENDING:
            continue
        srcs = state.sources_for(sq.id)
        quality = Counter(s.quality.value for s in srcs)
        domains = len({s.domain for s in srcs if s.domain})
        out.append(
            QueryCoverage(
                sub_query_id=sq.id,
                query=sq.query,
                status=sq.status,
                source_count=len(srcs),
                quality=dict(quality),
                domains=domains,
                sufficient=len(srcs) >= min_sources,
                follows_links=sq.follow is not None,
            )
        )
    return out


@dataclass(frozen=True)
class CoverageHeuristic:
    """The coverage heuristic's verdict on one supervision round.

    Args:
        confidence: the weighted mean of the factor scores, 0..1.
        scores: each factor's score (source_adequacy, domain_diversity, completion_rate).
        dominant_factors: the factors scoring at least 0.75.
        weak_factors: the factors scoring under 0.5.
        sufficient: whether ``confidence`` reaches the configured threshold.
    """

    confidence: float
    scores: dict[str, float]
    dominant_factors: list[str]
    weak_factors: list[str]
    sufficient: bool


def coverage_heuristic(coverage: list[QueryCoverage], config: Config) -> CoverageHeuristic:
    """Multi-dimensional confidence that coverage is enough: source adequacy, domain
    diversity and completion rate, weighted by ``coverage_weights``
    (docs/concepts/supervision.md)."""
    n = len(coverage) or 1
    min_src = config.supervision.supervision_min_sources_per_query
    adequacy = sum(min(1.0, c.source_count / min_src) for c in coverage) / n
    diversity = min(1.0, sum(c.domains for c in coverage) / (n * 2))
    completion = sum(1 for c in coverage if c.status == SubQueryStatus.COMPLETED) / n
    scores = {
        "source_adequacy": round(adequacy, 3),
        "domain_diversity": round(diversity, 3),
        "completion_rate": round(completion, 3),
    }
    weights = config.supervision.coverage_weights
    total_w = sum(weights.values()) or 1.0
    confidence = sum(scores[k] * w for k, w in weights.items()) / total_w
    return CoverageHeuristic(
        confidence=round(confidence, 3),
        scores=scores,
        dominant_factors=[k for k, v in scores.items() if v >= 0.75],
        weak_factors=[k for k, v in scores.items() if v < 0.5],
        sufficient=confidence >= config.supervision.coverage_confidence_threshold,
    )


def coverage_delta(previous: list[QueryCoverage], current: list[QueryCoverage]) -> list[str]:
    """One line per sub-query saying what this round added to it (``[NEW]`` for a
    sub-query the previous round did not have) and whether it is now sufficient.

    Args:
        previous: the previous round's coverage (empty in the first round).
        current: this round's coverage.
    """
    before = {c.sub_query_id: c for c in previous}
    lines = []
    for c in current:
        state = "SUFFICIENT" if c.sufficient else "STILL INSUFFICIENT"
        old = before.get(c.sub_query_id)
        if old is None:
            lines.append(f"- {c.query} [NEW]: {c.source_count} sources from this round — {state}")
        else:
            lines.append(
                f"- {c.query}: +{c.source_count - old.source_count} sources, "
                f"+{c.domains - old.domains} domains (now: {c.source_count} sources, "
                f"{c.domains} domains) — {state}"
            )
    return lines


def truncate_messages(
    messages: list[SupervisionMessage], budget_tokens: int, reasoning_share: float, keep_thinks: int
) -> list[str]:
    """Type-aware truncation: reasoning (think, delegation) gets its share of the budget,
    findings the rest; oldest dropped first; the last N thinks always kept; findings bodies
    are cut to their headline rather than dropped whole where possible."""
    reasoning_budget = int(budget_tokens * reasoning_share)
    findings_budget = budget_tokens - reasoning_budget
    thinks = [i for i, m in enumerate(messages) if m.kind == "think"]
    pinned = set(thinks[-keep_thinks:]) if keep_thinks else set()
    kept: dict[int, str] = {}
    used_r = sum(estimate_tokens(messages[i].content) for i in pinned)
    used_f = 0
    for i in sorted(pinned):
        kept[i] = messages[i].content
    for i in range(len(messages) - 1, -1, -1):
        if i in pinned:
            continue
        m = messages[i]
        cost = estimate_tokens(m.content)
        if m.kind in ("think", "delegation"):
            if used_r + cost <= reasoning_budget:
                kept[i], used_r = m.content, used_r + cost
        else:
            text = m.content
            if used_f + cost > findings_budget:
                head = (sentences(text) or [text[:200]])[0]
                text, cost = head, estimate_tokens(head)
            if used_f + cost <= findings_budget:
                kept[i], used_f = text, used_f + cost
    return [f"[round {messages[i].round} {messages[i].kind}] {kept[i]}" for i in sorted(kept)]


async def supervise(state: ResearchState, ctx: RunContext) -> PhaseReport:
    """One supervision round: measure coverage, stop when the heuristic is confident or
    the round limit is reached, else ask the supervisor (think and delegate steps with a
    ``delegation_model``, the assess step without) what to research next.

    Args:
        state: the run's state.
        ctx: the run's context (config, providers, events, cancellation).
    """
    cfg = ctx.config
    if not cfg.supervision.enable_supervision:
        return PhaseReport(Phase.SUPERVISION, skipped=True)
    state.supervision_round += 1
    rnd = SupervisionRound(iteration=state.iteration, round=state.supervision_round)
    rnd.coverage = per_query_coverage(state, cfg.supervision.supervision_min_sources_per_query)
    heur = coverage_heuristic(rnd.coverage, cfg)
    rnd.confidence = heur.confidence
    rnd.scores = dict(heur.scores)
    rnd.dominant_factors = list(heur.dominant_factors)
    rnd.weak_factors = list(heur.weak_factors)
    previous = next(
        (h for h in reversed(state.supervision_history) if h.iteration == state.iteration), None
    )
    rnd.delta = coverage_delta(previous.coverage if previous else [], rnd.coverage)
    if previous is not None:
        _record_directive_results(state, previous)
    state.supervision_history.append(rnd)

    if previous is not None and heur.sufficient:
        # After the first round, a confident heuristic ends supervision without a call.
        rnd.stop_reason = f"coverage confidence {rnd.confidence:.2f} ≥ threshold"
        return _report(rnd)
    if state.supervision_round >= cfg.supervision.max_supervision_rounds:
        # The workflow never gathers again after the last round, so work queued now would
        # be left pending: the round limit completes supervision without delegating.
        rnd.stop_reason = (
            f"supervision round limit ({cfg.supervision.max_supervision_rounds}) reached"
        )
        return _report(rnd)

    inputs = _inputs(state, cfg, rnd, ctx.today)
    if cfg.supervision.delegation_model:
        await _delegate(state, ctx, rnd, inputs)
    else:
        await _assess(state, ctx, rnd, inputs)
    return _report(rnd)


def _heuristic_decides(rnd: SupervisionRound, stand_in: OutT) -> Fallback[OutT]:
    """A failed supervisor step leaves the round to the coverage heuristic, which is
    conservative: no more gathering without the supervisor's guidance. The round is
    decided (``rnd.stop_reason`` set) when the stand-in is built, so the step ends there."""

    def decide(exc: ProviderError) -> OutT:
        rnd.should_continue = False
        rnd.stop_reason = (
            f"supervisor unavailable ({exc}); heuristic confidence {rnd.confidence:.2f}"
        )
        return stand_in

    return Fallback(decide, "letting the coverage heuristic decide")


def _inputs(
    state: ResearchState, cfg: Config, rnd: SupervisionRound, today: str
) -> SupervisionInputs:
    topics = [
        TopicDigest(
            sub_query_id=t.sub_query_id,
            query=sq.query,
            compressed=(t.compressed_findings or _fallback_digest(state, t.source_ids))[:2000],
            source_ids=t.source_ids,
            links=[
                SourceLinks(citation=s.citation, title=s.title, links=s.links)
                for s in state.sources
                if s.id in t.source_ids and s.links
            ],
        )
        for t in state.topic_results
        for sq in [state.sub_query(t.sub_query_id)]
        if sq is not None
    ]
    return SupervisionInputs(
        question=state.question,
        research_brief=state.research_brief,
        round=rnd.round,
        max_rounds=cfg.supervision.max_supervision_rounds,
        coverage=rnd.coverage,
        delta=rnd.delta,
        topics=topics,
        history=truncate_messages(
            state.supervision_messages,
            cfg.supervision.supervision_message_budget_tokens,
            cfg.supervision.supervision_reasoning_share,
            cfg.supervision.preserve_last_n_thinks,
        ),
        existing_queries=[sq.query for sq in state.sub_queries],
        max_directives=min(3, cfg.gathering.max_concurrent_research_units),
        guidance=state.consume_guidance(Phase.SUPERVISION),
        today=today,
        links_followed=[
            *(t for sq in state.sub_queries if sq.follow for t in sq.follow.titles),
            *(t for topic in state.topic_results for f in topic.follows for t in f.titles),
        ],
    )


def _record_directive_results(state: ResearchState, previous: SupervisionRound) -> None:
    """What the previous round's directives found joins the supervisor's history as
    tool_result messages: the compressed findings (inline compression ran as each
    researcher finished), or titles and snippets when compression is off or failed."""
    for directive in state.directives:
        if directive.id not in previous.directive_ids or directive.sub_query_id is None:
            continue
        topic = state.topic_result(directive.sub_query_id)
        sq = state.sub_query(directive.sub_query_id)
        if topic is None or sq is None:
            continue
        body = topic.compressed_findings or _fallback_digest(state, topic.source_ids)
        state.supervision_messages.append(
            SupervisionMessage(
                kind="tool_result",
                round=previous.round,
                content=f"{sq.query}: {body or 'no sources found'}",
            )
        )


def _fallback_digest(state: ResearchState, source_ids: list[str]) -> str:
    """Without compressed findings the supervisor sees titles and snippets (first 800 chars)."""
    lines = []
    for sid in source_ids:
        s = state.source(sid)
        if s is not None:
            lines.append(f"- {s.title}: {s.snippet or s.content[:200]} [{s.citation}]")
    return "\n".join(lines)[:800]


async def _delegate(
    state: ResearchState, ctx: RunContext, rnd: SupervisionRound, inputs: SupervisionInputs
) -> None:
    think = await ask(
        SUPERVISOR_THINK,
        inputs,
        state,
        ctx,
        fallback=_heuristic_decides(rnd, ThinkOutput(gap_analysis="")),
    )
    if rnd.stop_reason:
        return
    rnd.think = think.gap_analysis
    state.supervision_messages.append(
        SupervisionMessage(kind="think", round=rnd.round, content=think.gap_analysis)
    )
    step = inputs.model_copy(update={"gap_analysis": think.gap_analysis, "gaps": think.gaps})
    out = await ask(
        SUPERVISOR_DELEGATE, step, state, ctx, fallback=_heuristic_decides(rnd, DelegationOutput())
    )
    if rnd.stop_reason:
        return
    if out.research_complete or not out.directives:
        rnd.research_complete = True
        rnd.stop_reason = f"ResearchComplete: {out.rationale or 'no gaps left'}"
        return
    _queue_directives(state, ctx, rnd, out.directives)
    state.supervision_messages.append(
        SupervisionMessage(
            kind="delegation",
            round=rnd.round,
            content="; ".join(d.research_topic for d in state.directives[-len(rnd.directive_ids) :])
            if rnd.directive_ids
            else "no new directives",
        )
    )
    rnd.should_continue = bool(rnd.new_sub_query_ids)
    rnd.stop_reason = (
        f"{len(rnd.new_sub_query_ids)} directive(s) queued for researchers"
        if rnd.should_continue
        else "every directive duplicated existing research or the sub-query cap was reached"
    )


def _queue_directives(
    state: ResearchState, ctx: RunContext, rnd: SupervisionRound, directives: list[DirectiveDraft]
) -> None:
    """Queue each directive's opening search as a sub-query and record the directive."""
    drafts = [d for d in sorted(directives, key=lambda d: d.priority) if d.research_topic.strip()]
    # Capped after dedup (against every sub-query and this round's directives), so a
    # duplicate does not take a new directive's place.
    queued = state.queue_sub_queries(
        (
            NewSubQuery(
                query=d.search_query.strip()[:200] or _directive_query(d.research_topic),
                rationale=d.perspective or "supervisor directive",
                priority=d.priority + 1,
                follow=d.follow,
            )
            for d in drafts
        ),
        origin="supervision",
        max_total=ctx.config.loop.max_total_sub_queries,
        limit=ctx.config.gathering.max_concurrent_research_units,
    )
    for d, sq in zip(drafts, queued, strict=True):
        if sq is None:
            continue
        directive = Directive(
            id=state.next_id("dir"),
            research_topic=d.research_topic.strip(),
            perspective=d.perspective,
            evidence_needed=d.evidence_needed,
            priority=d.priority,
            round=rnd.round,
            sub_query_id=sq.id,
        )
        sq.directive_id = directive.id
        state.directives.append(directive)
        rnd.directive_ids.append(directive.id)
        rnd.new_sub_query_ids.append(sq.id)


def _directive_query(topic: str) -> str:
    """Without a search_query, a directive's first sentence is the researcher's opening search."""
    first = topic.strip().split(". ", 1)[0].strip().rstrip(".")
    return first[:200] or topic[:200]


async def _assess(
    state: ResearchState, ctx: RunContext, rnd: SupervisionRound, inputs: SupervisionInputs
) -> None:
    out = await ask(
        SUPERVISOR_ASSESS,
        inputs,
        state,
        ctx,
        fallback=_heuristic_decides(rnd, CoverageAssessment()),
    )
    if rnd.stop_reason:
        return
    rnd.think = out.rationale
    queued = state.queue_sub_queries(
        (
            NewSubQuery(query=q.query, rationale=q.rationale, priority=2, follow=q.follow)
            for q in out.follow_up_queries
        ),
        origin="supervision",
        max_total=ctx.config.loop.max_total_sub_queries,
        # The model was told its follow-ups run only when it asks to go on gathering.
        limit=3 if out.should_continue_gathering else 0,
    )
    rnd.new_sub_query_ids += [sq.id for sq in queued if sq is not None]
    rnd.should_continue = bool(rnd.new_sub_query_ids)
    rnd.stop_reason = (
        f"{len(rnd.new_sub_query_ids)} follow-up queries queued"
        if rnd.should_continue
        else f"coverage {out.overall_coverage}; no follow-ups"
    )


def _report(rnd: SupervisionRound) -> PhaseReport:
    return PhaseReport(
        Phase.SUPERVISION,
        {
            "supervision_round": rnd.round,
            "confidence": rnd.confidence,
            "pending_follow_ups": len(rnd.new_sub_query_ids),
            "should_continue": rnd.should_continue,
        },
        [rnd.stop_reason],
    )
