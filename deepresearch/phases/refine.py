"""Refinement: judge the gaps, queue follow-up queries for the next iteration."""

from __future__ import annotations

from deepresearch.context import RunContext
from deepresearch.llm import Fallback, ask
from deepresearch.phases.agents import REFINER
from deepresearch.phases.common import PhaseReport, source_text
from deepresearch.roles import (
    FollowUp,
    GapAssessment,
    GapBrief,
    RefineInputs,
    RefinementOutput,
    SourceText,
)
from deepresearch.state import AgentDecision, Gap, NewSubQuery, Phase, ResearchState
from deepresearch.text import unique


async def refine(state: ResearchState, ctx: RunContext) -> PhaseReport:
    """Judge the open gaps and queue the refiner's follow-up queries for the next iteration
    (each gap's own suggestions when the refiner fails; then no iteration is recommended)."""
    gaps = state.unresolved_gaps()
    inputs = RefineInputs(
        question=state.question,
        report_excerpt=(state.report.markdown[:2000] if state.report else ""),
        gaps=[
            GapBrief(
                id=g.id,
                description=g.description,
                suggested_queries=g.suggested_queries,
                priority=g.priority,
            )
            for g in gaps
        ],
        iteration=state.iteration,
        max_iterations=state.max_iterations,
        source_count=len(state.sources),
        finding_count=len(state.findings),
        high_confidence_count=len(state.high_confidence_findings()),
        existing_queries=_searched(state),
        guidance=state.consume_guidance(Phase.REFINEMENT),
        today=ctx.today,
        sources=_cited_sources(state),
    )
    # Without the refiner each gap keeps its own suggested queries, and no iteration is
    # recommended (the follow-ups run only when one is).
    own = RefinementOutput(
        gap_analysis=[
            GapAssessment(
                gap_id=g.id, follow_up_queries=[FollowUp(query=q) for q in g.suggested_queries]
            )
            for g in gaps
        ]
    )
    fallback = Fallback(own, "finishing without another iteration")
    out = await ask(REFINER, inputs, state, ctx, fallback=fallback)
    rec = out.iteration_recommendation
    added = _queue_follow_ups(state, ctx, gaps, out)
    state.record(
        AgentDecision(
            agent="refiner",
            action="recommend_iteration",
            rationale=rec.rationale,
            phase=Phase.REFINEMENT,
            iteration=state.iteration,
            outputs={"should_iterate": rec.should_iterate},
        )
    )
    return PhaseReport(
        Phase.REFINEMENT,
        {
            "gaps_considered": len(gaps),
            "follow_up_queries": added,
            "unaddressed_gaps": len(state.unresolved_gaps()),
            "should_iterate": rec.should_iterate and added > 0,
        },
        [rec.rationale],
    )


def _searched(state: ResearchState) -> list[str]:
    """Every search asked so far: the sub-queries, and what their researchers searched
    beyond them (a follow-up that repeats one would find the same)."""
    return unique(
        [sq.query for sq in state.sub_queries] + [q for t in state.topic_results for q in t.queries]
    )


def _cited_sources(state: ResearchState) -> list[SourceText]:
    """The sources the findings rest on, the most used first."""
    uses: dict[str, int] = {}
    for f in state.findings:
        for sid in f.source_ids:
            uses[sid] = uses.get(sid, 0) + 1
    ranked = sorted(uses, key=lambda sid: -uses[sid])
    return [source_text(src) for sid in ranked if (src := state.source(sid)) is not None]


def _queue_follow_ups(
    state: ResearchState, ctx: RunContext, gaps: list[Gap], out: RefinementOutput
) -> int:
    """Record the refiner's verdict per gap and queue its follow-up queries (only when it
    recommends iterating); return how many were queued."""
    by_id = {g.id: g for g in gaps}
    rec = out.iteration_recommendation
    addressable: list[Gap] = []
    asked: list[tuple[Gap, NewSubQuery]] = []
    for assessment in out.gap_analysis:
        gap = by_id.get(assessment.gap_id)
        if gap is None:
            continue
        gap.severity = assessment.severity
        if not assessment.addressable:
            gap.resolution = "judged not addressable by further search"
            continue
        addressable.append(gap)
        asked += [
            (gap, NewSubQuery(query=fu.query, rationale=fu.expected_contribution or
                              gap.description, priority=2))
            for fu in assessment.follow_up_queries
        ]  # fmt: skip
    queued = state.queue_sub_queries(
        (new for _, new in asked),
        origin="refinement",
        max_total=ctx.config.loop.max_total_sub_queries,
        # The model was told its follow-ups run only when it recommends iterating.
        limit=None if rec.should_iterate else 0,
    )
    for (gap, _), sq in zip(asked, queued, strict=True):
        if sq is not None:
            gap.follow_up_ids.append(sq.id)
    added = sum(1 for sq in queued if sq is not None)
    for gap in addressable:
        if not gap.follow_up_ids and rec.should_iterate:
            gap.resolution = "no new follow-up query could be formed"
    return added
