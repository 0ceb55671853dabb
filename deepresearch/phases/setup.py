"""Clarification, brief and planning: turn a question into sub-queries."""

from __future__ import annotations

from deepresearch.context import RunContext
from deepresearch.errors import ProviderError
from deepresearch.llm import Fallback, ask, degrade_phase
from deepresearch.phases.agents import BRIEFER, CLARIFIER, PLANNER
from deepresearch.phases.common import PhaseReport, run_search
from deepresearch.roles import (
    BriefInputs,
    BriefOutput,
    ClarifyInputs,
    ClarifyOutput,
    PlanInputs,
    PlanOutput,
    ScoutHit,
)
from deepresearch.state import Clarification, EventKind, NewSubQuery, Phase, ResearchState


async def clarify(state: ResearchState, ctx: RunContext) -> PhaseReport:
    """Decide whether the question needs clarifying; otherwise record the understanding."""
    if not ctx.config.loop.enable_clarification:
        return PhaseReport(Phase.CLARIFICATION, skipped=True)
    inputs = ClarifyInputs(question=state.question, today=ctx.today)
    # A failed clarifier (after its parse retries) goes on as "no clarification needed".
    notes: list[str] = []
    fallback = Fallback(
        ClarifyOutput(need_clarification=False),
        "proceeding without clarification",
        notes,
        event=EventKind.CLARIFICATION_FAILED,
    )
    out = await ask(CLARIFIER, inputs, state, ctx, fallback=fallback)
    if out is fallback.output:
        return PhaseReport(Phase.CLARIFICATION, {"need_clarification": False}, notes)
    previous_answer = state.clarification.answer if state.clarification else None
    state.clarification = Clarification(
        need_clarification=out.need_clarification,
        question=out.question,
        verification=out.verification,
        answer=previous_answer,
    )
    ctx.events.emit(state, EventKind.CLARIFICATION, out.model_dump())
    return PhaseReport(
        Phase.CLARIFICATION,
        {"need_clarification": out.need_clarification},
        [out.question or out.verification],
    )


async def brief(state: ResearchState, ctx: RunContext) -> PhaseReport:
    """Enrich the question into a research brief. Non-fatal: planning falls back to the question."""
    if not ctx.config.loop.enable_brief:
        return PhaseReport(Phase.BRIEF, skipped=True)
    # The brief reads the clarification only once the person answered it: without an
    # answer it does not wait for the clarifier, and the loop may write it while the
    # clarifier runs (workflow.loop, RUN_AHEAD).
    c = state.clarification if state.clarification and state.clarification.answer else None
    inputs = BriefInputs(
        question=state.question,
        clarifying_question=c.question if c and c.need_clarification else "",
        clarification_answer=c.answer if c else None,
        verification=c.verification if c else "",
        guidance=state.consume_guidance(Phase.BRIEF),
        today=ctx.today,
    )
    # Non-fatal: record why, then planning works from the question itself.
    notes: list[str] = []
    fallback = Fallback(
        BriefOutput(research_brief=""),
        "proceeding with the original question",
        notes,
        event=EventKind.BRIEF_FAILED,
    )
    out = await ask(BRIEFER, inputs, state, ctx, fallback=fallback)
    if out is fallback.output:
        return PhaseReport(Phase.BRIEF, {"has_brief": False}, notes)
    state.research_brief = out.research_brief.strip() or None
    ctx.events.emit(state, EventKind.BRIEF, {"research_brief": state.research_brief})
    return PhaseReport(Phase.BRIEF, {"has_brief": state.research_brief is not None})


async def plan(state: ResearchState, ctx: RunContext) -> PhaseReport:
    """Decompose the question (or brief) into focused sub-queries."""
    cfg = ctx.config
    scout: list[ScoutHit] = []
    if cfg.loop.plan_scout_results > 0:
        try:
            started = ctx.prefetch.take(state.question, max_results=cfg.loop.max_sources_per_query)
            hits = await run_search(
                state, ctx, state.question, phase=Phase.PLANNING, prefetched=started
            )
            scout = [
                ScoutHit(title=h.title, snippet=h.snippet[:200])
                for h in hits[: cfg.loop.plan_scout_results]
            ]
        except ProviderError as exc:
            scout = []  # planning works from the question alone, and says why
            degrade_phase(
                state, Phase.PLANNING.value, f"the scout search failed ({exc}); planned without it"
            )
    inputs = PlanInputs(
        question=state.question,
        research_brief=state.research_brief,
        max_sub_queries=cfg.loop.max_sub_queries,
        guidance=state.consume_guidance(Phase.PLANNING),
        scout=scout,
        existing_queries=[sq.query for sq in state.sub_queries],
        today=ctx.today,
    )
    notes: list[str] = []
    # A failed planner plans a single sub-query, the question itself
    # (docs/providers.md, "When a model cannot be used").
    fallback = Fallback(PlanOutput(), "researching the question as one sub-query", notes)
    out = await ask(PLANNER, inputs, state, ctx, fallback=fallback)
    planned = sorted(out.sub_queries, key=lambda q: q.priority)[: cfg.loop.max_sub_queries]
    if not planned and not state.has_sub_query(state.question):
        state.add_sub_query(
            state.question, rationale="fallback: the question itself", origin="plan"
        )
    state.queue_sub_queries(
        (
            NewSubQuery(query=q.query, rationale=q.rationale, priority=q.priority, follow=q.follow)
            for q in planned
        ),
        origin="plan",
        max_total=cfg.loop.max_total_sub_queries,
    )
    if not state.research_brief and out.research_brief.strip():
        state.research_brief = out.research_brief.strip()
    return PhaseReport(
        Phase.PLANNING,
        {"sub_queries": len(state.sub_queries), "has_research_brief": bool(state.research_brief)},
        notes,
    )
